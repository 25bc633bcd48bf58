// The work budget's promise in wall clock (issue #30): no single call of the JS API — createSimulation, an
// advance, a restore — over 50 ms on this machine for scenes up to the 256-body limit, with or without
// friction. bench/kernels/worst_calls.hpp runs each scene from its creation, frame by frame as the page asks
// (each frame in as many calls as the budget takes), then scrubs back through the saved frames with
// restore_state; here natively (oblique_bench --worst-calls) and in wasm (the benchmark module), keys
// worst_call_ms_<scene>_<build> for the longest call of any kind, and the longest of each kind beside it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The budget's wall-clock target for one call (ms). */
export const CALL_TARGET_MS = 50;
/** Wall clock after which a run stops between two calls (as oblique_bench --worst-calls does natively). */
const CAP_SECONDS = 60;

/** The longest calls of every scene of worst_calls.hpp, natively and in wasm: { native: {scene: {...}}, wasm }. */
export async function measureWorstCalls({ root, quick }) {
  // Simulated seconds of each run, and every how many saved frames a restore is timed.
  const seconds = quick ? 0.25 : 1;
  const restoreEvery = quick ? 3 : 1;
  const native = JSON.parse(execFileSync(`${root}build/native/oblique_bench`, [`--worst-calls=${seconds}:${restoreEvery}`],
    { encoding: 'utf8', maxBuffer: 1 << 20 }));
  const { default: create } = await import(`${root}build/wasm/bench/oblique_bench.mjs`);
  const module = await create({ wasmBinary: readFileSync(`${root}build/wasm/bench/oblique_bench.wasm`) });
  const wasm = {};
  // Each scene once untimed first: V8 compiles and optimises the code it runs for the first time.
  module.worstCalls('gaps112_mu', 0.05, 1, CAP_SECONDS);
  for (const scene of Object.keys(native)) wasm[scene] = module.worstCalls(scene, seconds, restoreEvery, CAP_SECONDS);
  return { native, wasm, seconds, restore_every: restoreEvery };
}

const worst = (w) => Math.max(w.create_ms, w.advance_ms, w.restore_ms);

/** The report's keys: worst_call_ms_<scene>_<build>, the target, and the details by kind. */
export function worstCallKeys(measured, round) {
  const keys = { worst_call_target_ms: CALL_TARGET_MS };
  for (const build of ['native', 'wasm']) {
    for (const [scene, w] of Object.entries(measured[build])) keys[`worst_call_ms_${scene}_${build}`] = round(worst(w));
  }
  keys.worst_calls = {
    seconds_simulated: measured.seconds, restore_every: measured.restore_every,
    ...Object.fromEntries(['native', 'wasm'].map((build) => [build, Object.fromEntries(Object.entries(measured[build])
      .map(([scene, w]) => [scene, { create_ms: round(w.create_ms), advance_ms: round(w.advance_ms),
        restore_ms: round(w.restore_ms), calls: w.calls, simulated_s: round(w.simulated), complete: w.complete }]))])),
  };
  return keys;
}

/** Lines for the console. */
export function describeWorstCalls(report) {
  const w = report.worst_calls;
  const lines = [`the longest single call (ms; target ${report.worst_call_target_ms}), over ${w.seconds_simulated} s ` +
    'simulated, then a restore of every saved frame (create / advance / restore):'];
  for (const scene of Object.keys(w.native)) {
    const row = (build) => {
      const r = w[build][scene];
      return `${build} ${r.create_ms} / ${r.advance_ms} / ${r.restore_ms}` +
        (r.complete ? '' : ` (stopped at ${r.simulated_s} s by the ${CAP_SECONDS} s cap)`);
    };
    lines.push(`  ${scene.padEnd(11)} ${row('native')}; ${row('wasm')}`);
  }
  return lines;
}
