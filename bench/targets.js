// The targets of issue #14, read from one run's report (bench/run.js): each with the figure it is read on,
// whether it is met, and when it is not, by how much (the factor the figure would have to change by).
// Written to latest.json as `targets` and printed after the tables; bench/README.md says why each missed
// one is missed.

/** Half the 958 kB first load the page had when #14 was filed. */
const FIRST_LOAD_GOAL_BYTES = 479_000;

/** One target: `figure` against `goal`, at least (`atMost` false) or at most; the figure read to three
 *  significant digits, as the tables show it. */
function target(name, measured, goal, atMost, unit) {
  if (measured == null || !Number.isFinite(measured)) {
    return { target: name, figure: null, goal, at_most: atMost, unit, met: null, missed_by: null };
  }
  const figure = Number(measured.toPrecision(3));
  const met = atMost ? figure <= goal : figure >= goal;
  const factor = atMost ? figure / goal : goal / figure;
  return { target: name, figure, goal, at_most: atMost, unit, met, missed_by: met ? null : Number(factor.toPrecision(3)) };
}

/** The largest of some numbers, null when there are none. */
const largest = (values) => {
  const finite = values.filter((v) => v != null && Number.isFinite(v));
  return finite.length ? Math.max(...finite) : null;
};

/**
 * The targets of #14 in `report` (latest.json's keys). The scene families are read over their first window
 * (the keys the issue names) and over the later windows the run measured (landing, settled), each its own
 * line: a target can be met at rest and missed while the bodies land.
 */
export function targetsOf(report) {
  const out = [];
  const windows = Object.keys(report.windows ?? {});
  for (const [family, n, goal] of [['row', 64, 10], ['column', 64, 10], ['chain', 32, 10], ['channel', 64, 1]]) {
    const first = report.families?.[family]?.[n]?.wasm_realtime;
    out.push(target(`${family} of ${n}, first ${report.settings.familySeconds} s`, first, goal, false, '× real time'));
    for (const label of windows) {
      const window = report.windows[label];
      out.push(target(`${family} of ${n}, ${label} t = ${window.from}–${window.until} s`,
        window[family]?.[n]?.wasm_realtime, goal, false, '× real time'));
    }
  }
  out.push(target('row cost growth, exponent of N', report.row_exponent_wasm, 1.5, true, ''));
  // The sparse impact (S deferred) against the classical solve, on every family's system with every row active.
  const sparseOverClassical = largest(Object.values(report.solvers ?? {})
    .flatMap((bySize) => Object.values(bySize).map((entry) => entry.wasm?.sparse_over_classical)));
  out.push(target('projection impact over the classical solve, S deferred (largest)', sparseOverClassical, 1.5, true, '×'));
  out.push(target('wasm/native, the impact at n = 60', report.wasm_over_native_impact_n60, 1.5, true, '×'));
  out.push(target('wasm/native, every kernel and built-in simulation (largest)',
    largest((report.kernels ?? []).map((k) => k.wasm_over_native)), 1.5, true, '×'));
  out.push(target(`worst advance(1/60 s) of a built-in (${report.worst_advance_scenario})`, report.worst_advance_ms, 4, true, 'ms'));
  out.push(target('first frame', report.first_frame_ms, 1000, true, 'ms'));
  out.push(target('first load, gzipped', report.first_load_gzip_bytes, FIRST_LOAD_GOAL_BYTES, true, 'bytes'));
  return out;
}

/** One line per target: name, goal, figure, and met or missed by how much. */
export function describeTargets(targets) {
  const show = (x) => (x == null ? '—' : String(Number(x.toPrecision(3))));
  return targets.map((t) => {
    const unit = t.unit.startsWith('×') ? t.unit : t.unit && ` ${t.unit}`;
    const goal = `${t.at_most ? '≤' : '≥'} ${t.goal}${unit}`;
    const status = t.met == null ? 'not measured' : t.met ? 'met' : `missed by ${t.missed_by}×`;
    return `${t.target.padEnd(64)} ${goal.padEnd(18)} ${show(t.figure).padStart(8)}  ${status}`;
  });
}
