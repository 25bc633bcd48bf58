// The bench's reading of the targets of #14 (bench/targets.js): met or missed by the factor the figure
// would have to change by, in either direction, on a report shaped as bench/run.js writes it.
import { describe, expect, it } from 'vitest';
import { describeTargets, targetsOf } from '../../bench/targets.js';

/** A report with the given figures and every other one comfortably met. */
function report(overrides = {}) {
  const family = (wasm) => ({ 32: { wasm_realtime: wasm }, 64: { wasm_realtime: wasm } });
  const window = (from, until, wasm) => ({ from, until, row: family(wasm), column: family(wasm), chain: family(wasm), channel: family(wasm) });
  return {
    settings: { familySeconds: 0.02 },
    families: { row: family(20), column: family(20), chain: family(20), channel: family(20) },
    windows: { landing: window(0.2, 0.3, 20), settled: window(1, 1.2, 20) },
    row_exponent_wasm: 0.9,
    solvers: { row: { 8: { wasm: { sparse_over_classical: 0.7 } }, 64: { wasm: { sparse_over_classical: 0.02 } } } },
    wasm_over_native_impact_n60: 1.4,
    kernels: [{ kernel: 'a', wasm_over_native: 1.2 }, { kernel: 'b', wasm_over_native: 1.3 }],
    worst_advance_ms: 3, worst_advance_scenario: 'pile-of-30',
    first_frame_ms: 400, first_load_gzip_bytes: 420_000,
    ...overrides,
  };
}

const find = (targets, prefix) => targets.find((t) => t.target.startsWith(prefix));

describe('the targets of #14', () => {
  it('counts every target met when every figure is on the right side of its goal', () => {
    const targets = targetsOf(report());
    // Four families over three windows, growth, impact ratio, two wasm/native ratios, worst advance, page.
    expect(targets).toHaveLength(12 + 7);
    for (const t of targets) expect(t, t.target).toMatchObject({ met: true, missed_by: null });
  });

  it('says by how much a target is missed, for an at-least goal and an at-most one', () => {
    const families = report().families;
    families.row[64].wasm_realtime = 8;  // ≥ 10: missed by 10 / 8
    const kernels = [{ kernel: 'a', wasm_over_native: 1.2 }, { kernel: 'b', wasm_over_native: 2.7 }];  // ≤ 1.5: 2.7 / 1.5
    const targets = targetsOf(report({ families, kernels, worst_advance_ms: 4, first_frame_ms: 1500 }));
    expect(find(targets, 'row of 64, first')).toMatchObject({ figure: 8, goal: 10, met: false, missed_by: 1.25 });
    expect(find(targets, 'wasm/native, every kernel')).toMatchObject({ figure: 2.7, met: false, missed_by: 1.8 });
    // A figure equal to its goal meets it.
    expect(find(targets, 'worst advance')).toMatchObject({ figure: 4, met: true, missed_by: null });
    expect(find(targets, 'first frame')).toMatchObject({ met: false, missed_by: 1.5 });
    // The largest sparse/classical ratio over every family and size is the one judged.
    expect(find(targets, 'projection impact').figure).toBe(0.7);
    const lines = describeTargets(targets);
    expect(lines.find((l) => l.startsWith('row of 64, first'))).toMatch(/≥ 10× real time\s+8\s+missed by 1\.25×$/);
    expect(lines.find((l) => l.startsWith('worst advance'))).toMatch(/≤ 4 ms\s+4\s+met$/);
  });

  it('marks a figure the run could not measure as not measured, not as met', () => {
    const targets = targetsOf(report({ first_frame_ms: null, first_load_gzip_bytes: undefined }));
    expect(find(targets, 'first frame')).toMatchObject({ figure: null, met: null });
    expect(find(targets, 'first load')).toMatchObject({ figure: null, met: null });
    expect(describeTargets(targets).find((l) => l.startsWith('first frame'))).toMatch(/not measured$/);
  });
});
