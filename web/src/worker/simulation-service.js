// The simulation service behind the page's worker (simulation.worker.js binds it to the worker's messages;
// the tests drive it directly): it owns the engine and the one Simulation and answers the protocol below.
//
// Protocol (client.js is the page side). Every request is `{id, type, ...}` and gets exactly one
// `{type: 'reply', id, value}` or `{type: 'reply', id, error}` (the engine's message, naming the field).
//
//   load  {scenario}            → {scenario (normalized), bodyCount, contactCount, contactPointCount, frame}
//   tick  {dt}                  → frame after advancing dt simulated seconds (or less: see below)
//   step  {horizon}             → frame after the next impact (frame.found false if none within horizon s),
//                                 with frame.samples: sim.state() every 1/60 s on the way
//   reset                       → frame at the initial state (the impact log cleared)
//   set   {restitution} | {contact, restitution} | {nu}   → null (live changes; nu null = optimal)
//   impact {index}              → the full impact record (matrices included)
//   call  {method, args}        → engine.analyzeImpact(...) / engine.energyConsistencyMap(...)
//   save                        → sim.saveState(): a snapshot to keep (structured-cloneable)
//   restore {state}             → frame at a snapshot of `save` (the log cut back to it)
//
// A frame is {time, positions (Float64Array, transferred), contacts (sim.contactPoints()), state
// (sim.state()), impactCount, impacts, limited}: `impacts` are summaries (no matrices) of the impacts logged
// since the previous frame (in a record, `positions` and `normals` are those of its impact points).
//
// Long runs never hold the worker. The core stops each call at its work budget (about 20–30 ms, see
// docs/engine-api.md); tick and step go on with bounded calls, yielding to the worker's event loop in
// between (a MessageChannel turn), so that a reset, a load or any other request sent meanwhile is answered
// at once. A reset, load or restore — or a newer tick or step — supersedes a run in progress: it stops at
// its next turn and replies with the frame of the state then (frame.superseded true). A tick also stops
// after about TICK_SLICE_MS of real time, short of dt (frame.limited true): a scenario too heavy for real
// time slows down instead of piling up work; the page sends the next tick only after the reply.

/** Engine methods the page may call directly. */
const CALLABLE = new Set(['analyzeImpact', 'energyConsistencyMap', 'checkScenario', 'normalizeScenario']);

/** Keys of an impact record copied into its summary (everything the log, the scene and the plot need). */
const SUMMARY_KEYS = ['t', 'gamma', 'W_loss', 'K_minus', 'K_plus', 'n', 'm', 'rank', 'contacts', 'points',
  'normal_rows', 'positions', 'normals', 'i_lambda', 'flags', 'energy_consistent', 'restitution', 'scheduled'];

/** Longest simulated time one tick may ask for: a stalled tab must not ask for minutes at once. */
const MAX_TICK = 0.25;
/** Energy samples taken on the way to the next impact (s). */
const SAMPLE = 1 / 60;
/** Real time a tick spends at most before it replies short of its target (ms). */
export const TICK_SLICE_MS = 40;
/** Real time a run goes without yielding to the event loop, even when no call stopped at its budget (ms). */
const YIELD_EVERY_MS = 20;

/**
 * A promise settled in a later turn of the event loop, after the messages already queued. In a browser's
 * worker a MessageChannel message is such a turn (a posted message from the page is handled between two of
 * them, and unlike setTimeout it is not clamped to 4 ms); Node drains a port's messages before its timers,
 * so there (the tests) setImmediate is the turn.
 */
function createTurns() {
  if (typeof setImmediate === 'function') return () => new Promise((resolve) => setImmediate(resolve));
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () => new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

/**
 * The service. `loadEngine()` resolves to the engine (loadOblique); `post(message, transfer)` sends a message
 * to the page.
 * @param {{loadEngine: () => Promise<any>, post: (message: object, transfer: Transferable[]) => void}} options
 * @returns {{ready: Promise<void>, receive: (data: object) => Promise<void>}}
 */
export function createSimulationService({ loadEngine, post }) {
  const enginePromise = loadEngine();
  const nextTurn = createTurns();
  let sim = null;
  let reported = 0;  // impacts already summarised in a frame
  let epoch = 0;     // bumped by what supersedes a run in progress

  function frame(extra = {}) {
    const positions = new Float64Array(3 * sim.bodyCount);
    sim.readPositions(positions);
    const count = sim.impactCount;
    // The records still in the (bounded) log since the last frame; indices count every impact ever.
    const records = reported < count ? sim.impactSummariesSince(reported) : [];
    const impacts = records.map((record, k) => summary(record, count - records.length + k));
    reported = count;
    return { time: sim.time, positions, contacts: sim.contactPoints(), state: sim.state(), impactCount: count,
      impacts, limited: false, ...extra };
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

  /**
   * A run of bounded calls: `pause()` yields to the event loop when the run has held it long enough (or
   * when `always`), and says whether the run was superseded meanwhile.
   */
  function beginRun() {
    const mine = ++epoch;
    let since = performance.now();
    return {
      started: since,
      async pause(always) {
        if (always || performance.now() - since >= YIELD_EVERY_MS) {
          await nextTurn();
          since = performance.now();
        }
        return epoch !== mine || !sim;
      },
    };
  }

  const handlers = {
    async load({ scenario }) {
      const engine = await enginePromise;
      const next = engine.createSimulation(scenario);  // throws "<pointer>: <message>" and keeps the old one
      ++epoch;
      if (sim) sim.dispose();
      sim = next;
      reported = 0;
      return { scenario: sim.scenario, bodyCount: sim.bodyCount, contactCount: sim.contactCount,
        contactPointCount: sim.contactPointCount, frame: frame() };
    },
    async tick({ dt }) {
      const s = requireSimulation();
      const seconds = Math.min(MAX_TICK, Math.max(0, Number(dt) || 0));
      const run = beginRun();
      const target = s.time + seconds;
      // Bounded calls toward the target, yielding in between, for at most TICK_SLICE_MS of real time.
      while (seconds > 0) {
        s.advanceTo(target);
        if (!s.workLimitHit) break;
        if (await run.pause(true)) return frame({ superseded: true });
        if (performance.now() - run.started >= TICK_SLICE_MS) return frame({ limited: true });
      }
      return frame();
    },
    async step({ horizon = 10 }) {
      // In slices of SAMPLE seconds, so that the energy plot gets the way to the impact, not just its end.
      const s = requireSimulation();
      const run = beginRun();
      const end = s.time + horizon;
      const samples = [];
      let found = false;
      while (!found && s.time < end) {
        const sliceEnd = Math.min(s.time + SAMPLE, end);
        do {
          found = s.advanceToNextImpact(Math.max(0, sliceEnd - s.time));
          if (await run.pause(s.workLimitHit)) return frame({ found, samples, superseded: true });
        } while (!found && s.workLimitHit);
        if (!found) samples.push(s.state());
      }
      return frame({ found, samples });
    },
    reset() {
      ++epoch;
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
    save() {
      return requireSimulation().saveState();
    },
    restore({ state }) {
      const s = requireSimulation();
      s.restoreState(state);
      ++epoch;
      reported = Math.min(reported, s.impactCount);
      return frame({ restored: true });
    },
    async call({ method, args = [] }) {
      if (!CALLABLE.has(method)) throw new Error(`call: unknown method ${method}`);
      const engine = await enginePromise;
      if (typeof engine[method] !== 'function') throw new Error(`${method}: not available in this build of the engine`);
      return engine[method](...args);
    },
  };

  async function receive(data) {
    const { id, type, ...payload } = data ?? {};
    try {
      const handler = handlers[type];
      if (!handler) throw new Error(`worker: unknown request ${type}`);
      const value = await handler(payload);
      const positions = value?.frame?.positions ?? value?.positions;
      const transfer = positions instanceof Float64Array ? [positions.buffer] : [];
      post({ type: 'reply', id, value }, transfer);
    } catch (error) {
      post({ type: 'reply', id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  return { ready: enginePromise.then(() => undefined), receive };
}
