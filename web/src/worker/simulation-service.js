// The simulation service behind the page's worker (simulation.worker.js binds it to the worker's messages;
// the tests drive it directly): it owns the engine and the run (timeline.js: the live Simulation, its
// snapshots and a replay of the past) and answers the protocol below, so the page never blocks on the core.
//
// Protocol (client.js is the page side). Every request is `{id, type, ...}` and gets exactly one
// `{type: 'reply', id, value}` or `{type: 'reply', id, error}` (the engine's message, naming the field).
//
//   load  {scenario, nu?}       → {scenario (normalized), bodyCount, contactCount, contactPointCount, frame};
//                                 `nu` is set on the run from its start (null: optimal), as `set` sets it
//   tick  {dt, until}           → frame after advancing dt simulated seconds (the live run stops at `until`;
//                                 frame.limited: short of dt, see below)
//   step  {horizon, until}      → frame after the next impact (frame.found false if none within horizon s),
//                                 with frame.samples: energies, q and q̇ every 1/60 s on the way
//   reset                       → frame at the initial state (the impact log cleared; the settings in force
//                                 become the run's start)
//   set   {restitution} | {contact, restitution} | {mu} | {contact, mu} | {nu} → {edits, branched?}: the run's changes since its
//                                 start, each with its moment ({time, impactCount, change}); `branched:
//                                 {time, impactCount}` when made in the past (the run's future after that
//                                 moment is dropped). nu null = optimal
//   seek  {time, until, impactCount?} → frame at that time of the run (replayed from the nearest snapshot of
//                                 the core's state; a time ahead of the run is simulated, not past `until`,
//                                 with frame.samples on the way); `impactCount`: also the impacts logged at
//                                 that very time, up to that many (a share link's moment)
//   seekImpact {index}          → frame right after impact `index`
//   impact {index}              → the full impact record (matrices included)
//   records {from, to}          → {first, records}: the full impact records first … to − 1 still in the
//                                 log (first > from when the bounded log dropped older ones)
//   trajectory {scenario, duration?, sample?} → {csv, samples, impacts, duration}: a fresh run of the
//                                 document sampled as `oblique simulate --format csv` (export/trajectory.js)
//   call  {method, args}        → engine.analyzeImpact(...) / engine.energyConsistencyMap(...) / ...
//   loadAll                     → null once the whole core is compiled (engine.loadAll(): the part of the
//                                 wasm that the first frame does not run, which a worker would otherwise
//                                 fetch synchronously at its first use)
//
// A frame is {time, positions, velocities (Float64Arrays, transferred), contacts (sim.contactPoints()),
// state (sim.state()), impactCount (at the moment shown), impacts, horizon (the furthest time simulated),
// replaying, limited}: `impacts` are summaries (no matrices) of the impacts logged since the previous frame
// (in a record, `positions` and `normals` are those of its impact points).
//
// Long runs never hold the worker. The core stops each call at its work budget (about 20–30 ms, see
// docs/engine-api.md); tick, step, seek and seekImpact go on with bounded calls, yielding to the worker's
// event loop in between (a MessageChannel turn), so that any request sent meanwhile is answered at once.
// A request that changes the run — load, reset, set, or a newer tick, step, seek or seekImpact — supersedes
// a run in progress: it stops at its next turn, at a consistent moment of the timeline, and replies with
// the frame of the state then (frame.superseded true). A tick also stops after about TICK_SLICE_MS of real
// time, short of dt (frame.limited true): a scenario too heavy for real time slows down instead of piling
// up work; the page sends the next tick only after the reply. impact, records, trajectory, call and loadAll
// change nothing and supersede nothing (records and trajectory yield between records and samples too).
import { exportTrajectory } from '../export/trajectory.js';
import { Superseded, Timeline } from './timeline.js';

/** Engine methods the page may call directly. */
const CALLABLE = new Set(['analyzeImpact', 'frictionEnergyMap', 'energyConsistencyMap', 'conditionCurve', 'checkScenario',
  'normalizeScenario']);

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
  let timeline = null;
  let epoch = 0;  // bumped by every request that changes the run: a run in progress then stops

  function requireTimeline() {
    if (!timeline) throw new Error('simulation: no scenario loaded');
    return timeline;
  }

  /** Supersedes the run in progress, if any. */
  function supersede() {
    epoch += 1;
  }

  /**
   * A run of bounded calls for the timeline (timeline.js): `pause(always)` yields to the event loop when
   * the run has held it for YIELD_EVERY_MS (or at once when `always`) and throws Superseded when a newer
   * request changed the run meanwhile; `limited()` says whether its `sliceMs` of real time are spent.
   */
  function beginRun({ sliceMs = Infinity } = {}) {
    supersede();
    const mine = epoch;
    const started = performance.now();
    let since = started;
    return {
      async pause(always = false) {
        if (always || performance.now() - since >= YIELD_EVERY_MS) {
          await nextTurn();
          since = performance.now();
        }
        if (epoch !== mine) throw new Superseded();
      },
      limited: () => performance.now() - started >= sliceMs,
    };
  }

  /** Runs `work(timeline, run)`; a superseded run replies with the frame of the state it stopped at. */
  async function bounded(work, options, extra = {}) {
    const t = requireTimeline();
    const run = beginRun(options);
    try {
      return await work(t, run);
    } catch (error) {
      if (!(error instanceof Superseded)) throw error;
      return requireTimeline().frame({ ...extra, superseded: true });
    }
  }

  /** An awaitable that yields every YIELD_EVERY_MS of work, for the requests that change nothing. */
  function yielder() {
    let since = performance.now();
    return async () => {
      if (performance.now() - since < YIELD_EVERY_MS) return;
      await nextTurn();
      since = performance.now();
    };
  }

  const handlers = {
    async load({ scenario, nu }) {
      const engine = await enginePromise;
      const next = new Timeline(engine, scenario, { nu });  // throws "<pointer>: <message>" and keeps the old one
      supersede();
      timeline?.dispose();
      timeline = next;
      const sim = timeline.live;
      return { scenario: sim.scenario, bodyCount: sim.bodyCount, contactCount: sim.contactCount,
        contactPointCount: sim.contactPointCount, frame: timeline.frame() };
    },
    tick({ dt, until }) {
      return bounded((t, run) => t.tick(dt, until ?? Infinity, run), { sliceMs: TICK_SLICE_MS });
    },
    step({ horizon = 10, until }) {
      return bounded((t, run) => t.step(horizon, until ?? Infinity, run), {}, { found: false });
    },
    reset() {
      const t = requireTimeline();
      supersede();
      return t.reset();
    },
    set(change) {
      const t = requireTimeline();
      supersede();
      return t.set(change);
    },
    seek({ time, until, impactCount }) {
      return bounded((t, run) => t.seek(time, until ?? Infinity, impactCount ?? 0, run));
    },
    seekImpact({ index }) {
      return bounded((t, run) => t.seekImpact(index, run));
    },
    impact({ index }) {
      return requireTimeline().live.impact(index);
    },
    async records({ from = 0, to }) {
      // The live run's log holds every impact of the run (the bounded log may have dropped the oldest).
      const t = requireTimeline();
      const pause = yielder();
      const first = Math.max(from, t.live.droppedImpacts);
      const end = Math.min(to ?? t.live.impactCount, t.live.impactCount);
      const records = [];
      for (let i = first; i < end; i++) {
        await pause();
        if (timeline !== t) throw new Error('records: another scenario was loaded while they were read');
        records.push(t.live.impact(i));
      }
      return { first, records };
    },
    async trajectory({ scenario, duration, sample }) {
      return exportTrajectory(await enginePromise, scenario, { duration, sample, pause: nextTurn });
    },
    async loadAll() {
      const engine = await enginePromise;
      await engine.loadAll();
      return null;
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
      const frame = value?.frame ?? value;
      const transfer = [frame?.positions, frame?.velocities].filter((a) => a instanceof Float64Array).map((a) => a.buffer);
      post({ type: 'reply', id, value }, transfer);
    } catch (error) {
      post({ type: 'reply', id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  return { ready: enginePromise.then(() => undefined), receive };
}
