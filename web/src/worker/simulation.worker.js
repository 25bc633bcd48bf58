// The simulation worker: owns the engine and the run (timeline.js: the live Simulation, its snapshots and a
// replay of the past), so the page never blocks on the core.
//
// Protocol (see client.js for the page side). Every request is `{id, type, ...}` and gets exactly one
// `{type: 'reply', id, value}` or `{type: 'reply', id, error}` (the engine's message, naming the field).
//
//   load  {scenario, nu?}       → {scenario (normalized), bodyCount, contactCount, contactPointCount, frame};
//                                 `nu` is set on the run from its start (null: optimal), as `set` sets it
//   tick  {dt, until}           → frame after advancing dt simulated seconds (the live run stops at `until`)
//   step  {horizon, until}      → frame after the next impact (frame.found false if none within horizon s),
//                                 with frame.samples: energies, q and q̇ every 1/60 s on the way
//   reset                       → frame at the initial state (the impact log cleared; the settings in force
//                                 become the run's start)
//   set   {restitution} | {contact, restitution} | {nu}   → {edits, branched?}: the run's changes since its
//                                 start, each with its moment ({time, impactCount, change}); `branched:
//                                 {time, impactCount}` when made in the past (the run's future after that
//                                 moment is dropped). nu null = optimal
//   seek  {time, until, impactCount?} → frame at that time of the run (timeline.js replays the past from a
//                                 snapshot; a time ahead of the run is simulated, not past `until`, with
//                                 frame.samples on the way); `impactCount`: also the impacts logged at that
//                                 very time, up to that many (a share link's moment)
//   seekImpact {index}          → frame right after impact `index`
//   impact {index}              → the full impact record (matrices included)
//   records {from, to}          → {first, records}: the full impact records first … to − 1 still in the
//                                 log (first > from when the bounded log dropped older ones)
//   trajectory {scenario, duration?, sample?} → {csv, samples, impacts}: a fresh run of the document sampled
//                                 as `oblique simulate --format csv` (export/trajectory.js); it pauses every
//                                 few ms, so the ticks of the running scenario are answered meanwhile
//   call  {method, args}        → engine.analyzeImpact(...) / engine.energyConsistencyMap(...) / ...
//
// A frame is {time, positions, velocities (Float64Arrays, transferred), contacts (sim.contactPoints()),
// state (sim.state()), impactCount (at the moment shown), impacts, horizon (the furthest time simulated),
// replaying}: `impacts` are summaries (no matrices) of the impacts logged since the previous frame (in a
// record, `positions` and `normals` are those of its impact points). The page sends the next tick only
// after a reply, so a slow run slows down instead of queueing work; the worker never runs on its own.
import { loadOblique } from '../engine/index.js';
import { sampleTrajectory, trajectoryCsv } from '../export/trajectory.js';
import { Timeline } from './timeline.js';

/** Engine methods the page may call directly. */
const CALLABLE = new Set(['analyzeImpact', 'energyConsistencyMap', 'conditionCurve', 'checkScenario',
  'normalizeScenario']);

const enginePromise = loadOblique();
let timeline = null;

function requireTimeline() {
  if (!timeline) throw new Error('simulation: no scenario loaded');
  return timeline;
}

const handlers = {
  async load({ scenario, nu }) {
    const engine = await enginePromise;
    const next = new Timeline(engine, scenario, { nu });  // throws "<pointer>: <message>" and keeps the old one
    timeline?.dispose();
    timeline = next;
    const sim = timeline.live;
    return { scenario: sim.scenario, bodyCount: sim.bodyCount, contactCount: sim.contactCount,
      contactPointCount: sim.contactPointCount, frame: timeline.frame() };
  },
  tick({ dt, until }) {
    return requireTimeline().tick(dt, until ?? Infinity);
  },
  step({ horizon = 10, until }) {
    return requireTimeline().step(horizon, until ?? Infinity);
  },
  reset() {
    return requireTimeline().reset();
  },
  set(change) {
    return requireTimeline().set(change);
  },
  seek({ time, until, impactCount }) {
    return requireTimeline().seek(time, until ?? Infinity, impactCount ?? 0);
  },
  seekImpact({ index }) {
    return requireTimeline().seekImpact(index);
  },
  impact({ index }) {
    return requireTimeline().live.impact(index);
  },
  records({ from = 0, to }) {
    const s = requireTimeline().live;  // the live run's log holds every impact of the run
    const records = s.impactsSince(from);
    const first = s.impactCount - records.length;  // the bounded log may have dropped the oldest
    return { first, records: records.slice(0, Math.max(0, (to ?? s.impactCount) - first)) };
  },
  async trajectory({ scenario, duration, sample }) {
    const engine = await enginePromise;
    const doc = await sampleTrajectory(engine, scenario, { duration, sample, pause: () => new Promise((r) => setTimeout(r, 0)) });
    return { csv: trajectoryCsv(doc), samples: doc.t.length, impacts: doc.impacts.length, duration: doc.duration };
  },
  async call({ method, args = [] }) {
    if (!CALLABLE.has(method)) throw new Error(`call: unknown method ${method}`);
    const engine = await enginePromise;
    if (typeof engine[method] !== 'function') throw new Error(`${method}: not available in this build of the engine`);
    return engine[method](...args);
  },
};

self.addEventListener('message', async (event) => {
  const { id, type, ...payload } = event.data ?? {};
  try {
    const handler = handlers[type];
    if (!handler) throw new Error(`worker: unknown request ${type}`);
    const value = await handler(payload);
    const frame = value?.frame ?? value;
    const transfer = [frame?.positions, frame?.velocities].filter((a) => a instanceof Float64Array).map((a) => a.buffer);
    self.postMessage({ type: 'reply', id, value }, transfer);
  } catch (error) {
    self.postMessage({ type: 'reply', id, error: error instanceof Error ? error.message : String(error) });
  }
});

// Tell the page whether the core loaded (the page shows a message if not).
enginePromise.then(
  () => self.postMessage({ type: 'ready' }),
  (error) => self.postMessage({ type: 'fatal', error: `The physics engine failed to load: ${error?.message ?? error}` }),
);
