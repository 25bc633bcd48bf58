// The trajectory of a scenario, sampled exactly as `oblique simulate` samples it (run_sampled in
// wasm/src/sampled_run.cpp): every impact record as it is logged (the initial state's first), a sample at
// t = 0, then one at DT, 2·DT, … and at T, each target an absolute time reached in calls bounded by the work
// budget; and its CSV, with the columns of `oblique simulate --format csv`. Native and wasm runs are
// bit-identical, so the page's CSV holds the same numbers as the CLI's. Runs in the simulation worker, on a
// simulation of its own.
import { cliInteger, cliNumber } from './number-text.js';

/** Most samples one export takes (the CLI's limit). */
const MAX_SAMPLES = 1e6;
/** Milliseconds of work between two pauses that let the worker answer the page. */
const SLICE_MS = 30;

/**
 * Runs a fresh simulation of `scenario` for `duration` seconds and samples it every `sample` seconds.
 * @param {import('../engine/index.js').ObliqueEngine} engine
 * @param {object|string} scenario  the document (with any overrides written into it)
 * @param {{duration?: number, sample?: number, pause?: () => Promise<void>, projectionScalars?: boolean}} [options]
 *   `duration` defaults to the scenario's; `pause` is awaited every SLICE_MS of work (the worker yields there);
 *   `projectionScalars: false` leaves each impact's rank, ν, cond(Mc)… out, as `--no-projection-scalars`
 *   does (O(n³) per impact, and no CSV column shows them)
 * @returns {Promise<object>} the document of `oblique simulate` (JSON format): title, bodies, dofs, duration,
 *   sample, t, q, qd, energy {kinetic, potential, total}, violation, impacts (each the summary of a record,
 *   `sim.impactSummary`: the keys the CLI writes), complete
 */
export async function sampleTrajectory(engine, scenario,
  { duration, sample = 0.01, pause = async () => {}, projectionScalars = true } = {}) {
  const sim = engine.createSimulation(scenario);
  try {
    const normalized = sim.scenario;
    const T = duration ?? normalized.duration;
    if (!Number.isFinite(T) || T < 0 || T > 3600) throw new Error(`duration: must be a number of seconds in [0, 3600], got ${T}`);
    if (!Number.isFinite(sample) || !(sample > 0)) throw new Error(`sample: must be a positive number of seconds, got ${sample}`);
    const whole = Math.floor((T / sample) * (1.0 + 1e-12));
    if (whole + 2 > MAX_SAMPLES) throw new Error(`sample: ${sample} s over ${T} s gives more than ${MAX_SAMPLES} samples`);

    const doc = { title: normalized.title, bodies: normalized.bodies.map((b) => b.name), dofs: 3 * sim.bodyCount,
      duration: T, sample, t: [], q: [], qd: [], energy: { kinetic: [], potential: [], total: [] }, violation: [], impacts: [] };
    const takeSample = () => {
      const state = sim.state();
      doc.t.push(sim.time);
      doc.q.push(Array.from(sim.positions));
      doc.qd.push(Array.from(sim.velocities));
      doc.energy.kinetic.push(state.kinetic);
      doc.energy.potential.push(state.potential);
      doc.energy.total.push(state.total);
      doc.violation.push(state.violation);
    };
    // Every record the simulation logs, in order: one call may log several (an impact and its plastic
    // follow-up), and none may have been dropped from the bounded log before it is written.
    const handNewRecords = () => {
      if (sim.droppedImpacts > doc.impacts.length) {
        throw new Error(`impact log: records ${doc.impacts.length} to ${sim.droppedImpacts - 1} were dropped before they were written`);
      }
      for (let i = doc.impacts.length; i < sim.impactCount; i++) doc.impacts.push(sim.impactSummary(i, { projectionScalars }));
    };

    // Impacts of the initial state (touching and approaching at t = 0), then sample by sample.
    handNewRecords();
    takeSample();
    let sliceStart = performance.now();
    for (let k = 1; k <= whole + 1; k++) {
      const target = k <= whole ? Math.min(T, k * sample) : T;
      if (k === whole + 1 && !(sim.time < T)) break;
      // Until the target is reached with nothing left due there: a call stops after an impact, or at its
      // work budget (then it makes progress all the same, though a long step may take several calls).
      do {
        if (performance.now() - sliceStart > SLICE_MS) {
          await pause();
          sliceStart = performance.now();
        }
        sim.advanceToNextImpactBefore(target);
        handNewRecords();
      } while (sim.time < target || sim.workLimitHit);
      takeSample();
    }
    doc.complete = true;
    return doc;
  } finally {
    sim.dispose();
  }
}

/** The numbers of a list, space-separated (one CSV cell), as the CLI writes them. */
const listCell = (values, write = cliNumber) => values.map(write).join(' ');

/**
 * The CSV of `oblique simulate --format csv`: one row per sample (t, x/y/theta then vx/vy/omega of each
 * body, kinetic, potential, total, violation), a blank line, then the impacts (t, contacts, gamma, W_loss,
 * K_minus, K_plus, qd_minus[i]…, qd_plus[i]…, i_lambda, tensile_impulse, approach_after_impact,
 * energy_gain). A body name is written as it is, as the CLI does.
 * @param {object} doc what sampleTrajectory returns
 * @returns {string}
 */
export function trajectoryCsv(doc) {
  const lines = [];
  const names = doc.bodies.map((name, b) => name || `body${b}`);
  lines.push(['t', ...names.flatMap((n) => [`${n}.x`, `${n}.y`, `${n}.theta`]),
    ...names.flatMap((n) => [`${n}.vx`, `${n}.vy`, `${n}.omega`]), 'kinetic', 'potential', 'total', 'violation'].join(','));
  for (let k = 0; k < doc.t.length; k++) {
    lines.push([doc.t[k], ...doc.q[k], ...doc.qd[k], doc.energy.kinetic[k], doc.energy.potential[k], doc.energy.total[k],
      doc.violation[k]].map(cliNumber).join(','));
  }
  lines.push('');
  const n = doc.dofs;
  lines.push(['t', 'contacts', 'gamma', 'W_loss', 'K_minus', 'K_plus', ...Array.from({ length: n }, (_, i) => `qd_minus[${i}]`),
    ...Array.from({ length: n }, (_, i) => `qd_plus[${i}]`), 'i_lambda', 'tensile_impulse', 'approach_after_impact', 'energy_gain'].join(','));
  for (const impact of doc.impacts) {
    lines.push([cliNumber(impact.t), listCell(impact.contacts, cliInteger), cliNumber(impact.gamma), cliNumber(impact.W_loss),
      cliNumber(impact.K_minus), cliNumber(impact.K_plus), ...impact.qd_minus.map(cliNumber), ...impact.qd_plus.map(cliNumber),
      listCell(impact.i_lambda), listCell(impact.flags.tensile_impulse, cliInteger),
      listCell(impact.flags.approach_after_impact, cliInteger), impact.flags.energy_gain ? 'true' : 'false'].join(','));
  }
  return `${lines.join('\n')}\n`;
}
