// The simulation worker: owns the engine and the one Simulation, so the page never blocks on the core.
//
// Protocol (see client.js for the page side). Every request is `{id, type, ...}` and gets exactly one
// `{type: 'reply', id, value}` or `{type: 'reply', id, error}` (the engine's message, naming the field).
//
//   load  {scenario}            → {scenario (normalized), bodyCount, contactCount, contactPointCount, frame}
//   tick  {dt}                  → frame after advancing dt simulated seconds
//   step  {horizon}             → frame after the next impact (frame.found false if none within horizon s),
//                                 with frame.samples: sim.state() every 1/60 s on the way
//   reset                       → frame at the initial state (the impact log cleared)
//   set   {restitution} | {contact, restitution} | {nu}   → null (live changes; nu null = optimal)
//   impact {index}              → the full impact record (matrices included)
//   call  {method, args}        → engine.analyzeImpact(...) / engine.energyConsistencyMap(...)
//
// A frame is {time, positions (Float64Array, transferred), contacts (sim.contactPoints()), state
// (sim.state()), impactCount, impacts}: `impacts` are summaries (no matrices) of the impacts logged since
// the previous frame (in a record, `positions` and `normals` are those of its impact points). The page sends the next tick only after a reply, so a slow run slows down instead
// of queueing work; the worker never runs on its own.
import { loadOblique } from '../engine/index.js';

/** Engine methods the page may call directly. */
const CALLABLE = new Set(['analyzeImpact', 'energyConsistencyMap', 'checkScenario', 'normalizeScenario']);

/** Keys of an impact record copied into its summary (everything the log, the scene and the plot need). */
const SUMMARY_KEYS = ['t', 'gamma', 'W_loss', 'K_minus', 'K_plus', 'n', 'm', 'rank', 'contacts', 'points',
  'normal_rows', 'positions', 'normals', 'i_lambda', 'flags', 'energy_consistent', 'restitution', 'scheduled'];

/** Longest simulated time one tick may ask for: a stalled tab must not ask for minutes at once. */
const MAX_TICK = 0.25;
/** Energy samples taken on the way to the next impact (s). */
const SAMPLE = 1 / 60;

const enginePromise = loadOblique();
let sim = null;
let reported = 0;  // impacts already summarised in a frame

function frame(extra = {}) {
  const positions = new Float64Array(3 * sim.bodyCount);
  sim.readPositions(positions);
  const count = sim.impactCount;
  // The records still in the (bounded) log since the last frame; indices count every impact ever.
  const records = reported < count ? sim.impactSummariesSince(reported) : [];
  const impacts = records.map((record, k) => summary(record, count - records.length + k));
  reported = count;
  return { time: sim.time, positions, contacts: sim.contactPoints(), state: sim.state(), impactCount: count,
    impacts, ...extra };
}

function summary(record, index) {
  const out = { index };
  for (const key of SUMMARY_KEYS) if (key in record) out[key] = record[key];
  return out;
}

function requireSimulation() {
  if (!sim) throw new Error('simulation: no scenario loaded');
  return sim;
}

const handlers = {
  async load({ scenario }) {
    const engine = await enginePromise;
    const next = engine.createSimulation(scenario);  // throws "<pointer>: <message>" and keeps the old one
    if (sim) sim.dispose();
    sim = next;
    reported = 0;
    return { scenario: sim.scenario, bodyCount: sim.bodyCount, contactCount: sim.contactCount,
      contactPointCount: sim.contactPointCount, frame: frame() };
  },
  tick({ dt }) {
    const s = requireSimulation();
    const seconds = Math.min(MAX_TICK, Math.max(0, Number(dt) || 0));
    if (seconds > 0) s.advance(seconds);
    return frame();
  },
  step({ horizon = 10 }) {
    // In slices of SAMPLE seconds, so that the energy plot gets the way to the impact, not just its end.
    const s = requireSimulation();
    const end = s.time + horizon;
    const samples = [];
    let found = false;
    while (!found && s.time < end) {
      const before = s.time;
      found = s.advanceToNextImpact(Math.min(SAMPLE, end - s.time));
      if (!found) samples.push(s.state());
      if (!found && s.time === before) break;  // the core made no progress (its work bound): stop here
    }
    return frame({ found, samples });
  },
  reset() {
    requireSimulation().reset();
    reported = 0;
    return frame({ reset: true });
  },
  set({ restitution, contact, nu }) {
    const s = requireSimulation();
    if (contact !== undefined) s.setContactRestitution(contact, restitution);
    else if (restitution !== undefined) s.setRestitution(restitution);
    if (nu !== undefined) s.setNu(nu);
    return null;
  },
  impact({ index }) {
    return requireSimulation().impact(index);
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
    const positions = value?.frame?.positions ?? value?.positions;
    const transfer = positions instanceof Float64Array ? [positions.buffer] : [];
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
