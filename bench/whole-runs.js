// The whole runs of #31: each scene of bench/scenes from its start to the end of its run, through the JS
// engine API in wasm (web/src/engine) as the page calls it — frames of 1/60 s, process CPU time — and the
// frame loop every engine of the peers' comparison shares (peers/compare.js). bench/README.md, "Whole runs",
// explains the figures.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/**
 * The whole runs, each read by a target of #31 (targets.js): `key` names its figures in latest.json
 * (`<key>_<mode>_realtime_wasm`, `_native`, `_impacts`, ...), `family` and `bodies` its scene (bench/scenes),
 * `seconds` the simulated time (the scene's `duration`), `mode` how each frame is asked for: "whole", one
 * advance(1/60 s) call uninterrupted (an unbounded work budget), or "page", calls of the default work
 * budget, called again while the budget cuts them, as the page's worker does. `capped`: the scene is
 * measured up to a CPU cap per run (settings.wholeCap) when today's simulator cannot run it whole in a
 * bench run; the figures then say how far it got. `reference`: measured for a ratio, not a target of its own.
 */
export const WHOLE_RUNS = [
  { key: 'column64', family: 'column', bodies: 64, seconds: 3, mode: 'whole' },
  { key: 'channel64', family: 'channel', bodies: 64, seconds: 3, mode: 'whole' },
  { key: 'chain32', family: 'chain', bodies: 32, seconds: 3, mode: 'whole' },
  { key: 'row64', family: 'row', bodies: 64, seconds: 3, mode: 'page' },
  // The same run uninterrupted: the page's calls against one call a frame (#31's item 6).
  { key: 'row64', family: 'row', bodies: 64, seconds: 3, mode: 'whole', reference: true },
  { key: 'pile200', family: 'pile', bodies: 200, seconds: 5, mode: 'whole', capped: true },
  { key: 'pile64_mu', family: 'pile_mu', bodies: 64, seconds: 5, mode: 'whole', capped: true },
  // Without friction, to the time the frictional pile reached: friction's cost (#31's item 5).
  { key: 'pile64', family: 'pile', bodies: 64, seconds: 5, mode: 'whole', capped: true, reference: true },
];

/** `<key>_<mode>`: the prefix of a whole run's keys in latest.json. */
export const runName = (run) => `${run.key}_${run.mode}`;

/**
 * The scenario document of a scene of bench/scenes, as build/native/oblique_scenes writes it (or the scene
 * writer of the folder OBLIQUE_NATIVE_BUILD names: `npm test` runs the JS tests on build/sanitize's).
 */
export function sceneDocument(family, bodies) {
  const folder = resolve(root, process.env.OBLIQUE_NATIVE_BUILD || 'build/native');
  return execFileSync(`${folder}/oblique_scenes`, [family, String(bodies)], { encoding: 'utf8' });
}

/** Process CPU seconds since `start` (a process.cpuUsage() value). */
export function cpuSince(start) {
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1e6;
}

/**
 * Runs `world` (an engine's scene: advanceTo(t, stop) to the absolute time t, time(), read(state)) in frames
 * of 1/60 s to `seconds`, timing only the engine's calls (process CPU; the world's construction, timed by
 * the caller, comes in as `cpu`). After each frame `observe(t)` may read the state, untimed. Stops once the
 * engine's CPU time reaches `cpuCap` (s; 0: none): a world that can stop inside a frame (Oblique, between
 * two calls) is asked to through `stop()`, the others stop at the end of the frame.
 * @returns {{simulated: number, cpu: number, complete: boolean, cpuAt: number[], timeAt: number[]}} the
 *   simulated time reached, the CPU seconds spent, whether it reached `seconds`, and the CPU spent by the
 *   end of each frame with the simulated time there
 */
export function runInFrames(world, { seconds, cpuCap = 0, cpu = 0, observe }) {
  const frames = Math.ceil(seconds * 60 - 1e-9);
  const cpuAt = [], timeAt = [];
  for (let frame = 1; frame <= frames; frame++) {
    const t = Math.min(seconds, frame / 60);
    const start = process.cpuUsage();
    const spent = cpu;
    const stopped = world.advanceTo(t, () => cpuCap > 0 && spent + cpuSince(start) >= cpuCap) === false;
    cpu += cpuSince(start);
    cpuAt.push(cpu);
    timeAt.push(world.time());
    if (!stopped) observe?.(t);
    if (stopped || (cpuCap > 0 && cpu >= cpuCap)) break;
  }
  const simulated = timeAt.at(-1) ?? 0;
  return { simulated, cpu, complete: simulated >= seconds, cpuAt, timeAt };
}

/**
 * CPU seconds a run of runInFrames had spent by simulated time t, read linearly between the ends of the
 * frames around t (null when it did not get there).
 */
export function cpuTo(run, t) {
  const k = run.timeAt.findIndex((time) => time >= t - 1e-12);
  if (k < 0) return null;
  const t0 = k > 0 ? run.timeAt[k - 1] : 0, c0 = k > 0 ? run.cpuAt[k - 1] : 0;
  const share = run.timeAt[k] > t0 ? Math.min(1, (t - t0) / (run.timeAt[k] - t0)) : 1;
  return c0 + share * (run.cpuAt[k] - c0);
}

/** Flops of a call of a capped "whole" run: about half a second of wasm, so that its cap can stop it. */
const CAPPED_BUDGET = 1e9;

/**
 * Oblique's scene as a world of runInFrames: a Simulation of the engine API. `mode` "whole": one advance
 * call a frame (the work budget set beyond any frame's work; with `capped`, calls of CAPPED_BUDGET, which
 * leave the trajectory bit for bit the same, so that a cap can stop between them); "page": the default
 * budget, advanceTo called again while `workLimitHit`, as web/src/worker/timeline.js does. Counts the
 * calls and keeps the longest (wall clock).
 */
export function obliqueWorld(engine, doc, mode, capped = false) {
  const sim = engine.createSimulation(doc);
  if (mode === 'whole') sim.workBudget = capped ? CAPPED_BUDGET : 1e30;
  const n = sim.bodyCount;
  const q = new Float64Array(3 * n), qd = new Float64Array(3 * n);
  const world = {
    sim,
    calls: 0,
    worstCallMs: 0,
    /** To the absolute time t; false when `stop()` said to stop before t. */
    advanceTo(t, stop) {
      for (;;) {
        const start = performance.now();
        sim.advanceTo(t);
        world.worstCallMs = Math.max(world.worstCallMs, performance.now() - start);
        world.calls++;
        if (!sim.workLimitHit) return true;
        if (stop?.()) return false;
      }
    },
    time: () => sim.time,
    read(state) {
      sim.readPositions(q);
      sim.readVelocities(qd);
      for (let i = 0; i < n; i++) state.set([q[3 * i], q[3 * i + 1], q[3 * i + 2], qd[3 * i], qd[3 * i + 1], qd[3 * i + 2]], 6 * i);
    },
    dispose: () => sim.dispose(),
  };
  return world;
}

/**
 * One whole run of Oblique in wasm: `run` of WHOLE_RUNS, its document `doc`, to its `seconds` or `cpuCap`;
 * `observe(t, world)` after each frame, untimed. The Simulation's construction is timed with the run.
 */
export function runOblique(engine, run, doc, { cpuCap = 0, observe } = {}) {
  const start = process.cpuUsage();
  const world = obliqueWorld(engine, doc, run.mode, cpuCap > 0);
  const made = cpuSince(start);
  try {
    // The impacts logged by the end of each frame, read untimed, for the run's phases (runPhases).
    const impactsAt = [];
    const result = runInFrames(world, {
      seconds: run.seconds, cpuCap, cpu: made,
      observe: (t) => {
        impactsAt.push(world.sim.impactCount);
        observe?.(t, world);
      },
    });
    // A frame the cap stopped was not observed: its impacts are the run's.
    if (impactsAt.length < result.timeAt.length) impactsAt.push(world.sim.impactCount);
    return {
      ...result, impactsAt, impacts: world.sim.impactCount, calls: world.calls, worstCallMs: world.worstCallMs,
    };
  } finally {
    world.dispose();
  }
}

/**
 * A whole run read in its two phases: `impacts`, from t = 0 to the end of the last frame that logged an
 * impact (the scene landing, piling, bouncing), and `after`, the rest of the run (at rest, or sliding
 * apart). Each with its span (s), CPU seconds, × real time and impacts; `after` is null when the run logged
 * impacts to its end (a pile cut by its cap) and `impacts` null when it logged none.
 * @param {{cpuAt: number[], timeAt: number[], impactsAt: number[]}} run a run of runOblique
 */
export function runPhases(run) {
  const { cpuAt, timeAt, impactsAt } = run;
  const frames = timeAt.length;
  let last = -1;
  for (let k = 0; k < frames; k++) if (impactsAt[k] > (k > 0 ? impactsAt[k - 1] : 0)) last = k;
  const phase = (from, to) => {
    const t0 = from > 0 ? timeAt[from - 1] : 0, c0 = from > 0 ? cpuAt[from - 1] : 0;
    const span = timeAt[to] - t0, cpu = cpuAt[to] - c0;
    return { from: t0, until: timeAt[to], cpu, realtime: cpu > 0 ? span / cpu : null,
      impacts: impactsAt[to] - (from > 0 ? impactsAt[from - 1] : 0) };
  };
  return {
    impacts: last >= 0 ? phase(0, last) : null,
    after: last < frames - 1 ? phase(last + 1, frames - 1) : null,
  };
}
