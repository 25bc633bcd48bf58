// The run's timeline, in the worker. The live simulation runs at the frontier of the run (the furthest time
// simulated); every SNAPSHOT_EVERY simulated seconds its state is saved (the core's saveState), and any
// earlier moment is shown by a second simulation, the cursor, restored to the nearest snapshot before it
// (restoreState) and replayed from there. The live run is not rewound to show the past, so its impact log
// keeps every impact of the run for the panels. Changes of e, μ and ν are edits of the run: each is kept with
// the moment it was made (time and impact count) and replayed there. An edit made while the cursor is in
// the past cuts the run there: the live run is restored to the cursor's state (its log cut back to the
// impacts before it), the future is dropped and the run goes on from that moment (a branch).
//
// Replays are bit-identical to the live run: a restored state advances exactly as the run it was saved from
// (docs/engine-api.md, "Saving and restoring the state"), the core commits its steps on a fixed grid whatever
// the calls, and every target is an absolute time (advanceTo), so a scrubbed time T shows the state a
// straight run to T shows.
//
// Every method that advances a simulation takes a `run` (simulation-service.js makes them): the core's calls
// are bounded by their work budget, and between two of them the timeline awaits `run.pause()`, which yields
// to the worker's event loop and throws Superseded when a newer request took over — the timeline is then
// left at a consistent moment (a committed state, its edits and snapshots up to date) — and asks
// `run.limited()` whether a tick has spent its share of real time. STRAIGHT, the default, never yields.

import { automaticPointBodies } from '../scenario/impact-pairs.js';

/** Simulated seconds between snapshots. */
export const SNAPSHOT_EVERY = 0.5;
/** Simulated seconds the live run may be asked to advance at once (a stalled tab must not ask for minutes). */
export const MAX_TICK = 1;
/** Energy and position samples taken on the way to the next impact (s). */
const SAMPLE = 1 / 60;
/** How far past a moment's time a simulation looks for the impacts logged at exactly that time (s). */
const TOP_UP = 1e-6;

/** What a run's pause() throws when a newer request superseded the run. */
export class Superseded extends Error {
  constructor() {
    super('superseded by a newer request');
    this.name = 'Superseded';
  }
}

/** A run that never yields and is never limited (tests and scripts, with no event loop to serve). */
export const STRAIGHT = Object.freeze({ pause: async () => {}, limited: () => false });

// ---- the overrides of e, μ and ν ------------------------------------------------------------------------

/**
 * e of every contact, the scenario's default e and ν, as a normalized scenario states them, and `friction`:
 * the changes of μ ({mu} or {contact, mu}) made on top of the scenario's own μ, in order (a change of every
 * contact replaces the earlier ones; μ is not flattened into numbers, as bodies of a "collide": "all"
 * scenario may each have their own).
 */
function overridesOf(scenario) {
  const restitution = scenario.restitution;
  return { restitution, contacts: (scenario.contacts ?? []).map((c) => c.e ?? restitution), nu: scenario.nu ?? null,
    friction: [] };
}

function cloneOverrides(o) {
  return { restitution: o.restitution, contacts: [...o.contacts], nu: o.nu, friction: o.friction.map((c) => ({ ...c })) };
}

/** The simulations whose μ was changed (setFriction and the like): they need setFriction(null) to go back. */
const frictionChanged = new WeakSet();

/** Puts the settings `o` on `sim`; returns whether μ was set (which acts on the state: see restore()). */
function applyOverrides(sim, o) {
  sim.setRestitution(o.restitution);
  o.contacts.forEach((e, i) => sim.setContactRestitution(i, e));
  sim.setNu(o.nu);
  if (!frictionChanged.has(sim) && o.friction.length === 0) return false;
  sim.setFriction(null);
  frictionChanged.delete(sim);
  for (const change of o.friction) applyChange(sim, change);
  return true;
}

/**
 * Applies one change (a `set` request: e of all contacts, e of one, μ of all contacts, μ of one, or ν) to
 * `sim`; throws if refused. μ acts on the state at once (docs/friction.md, "Changing μ during a run").
 */
function applyChange(sim, { restitution, contact, nu, mu }) {
  if (mu !== undefined) {
    if (contact !== undefined) sim.setContactFriction(contact, mu);
    else sim.setFriction(mu);
    frictionChanged.add(sim);
  } else if (contact !== undefined) sim.setContactRestitution(contact, restitution);
  else if (restitution !== undefined) sim.setRestitution(restitution);
  if (nu !== undefined) sim.setNu(nu);
}

/** Records an accepted change in the overrides `o`. */
function recordChange(o, { restitution, contact, nu, mu }) {
  if (mu !== undefined) {
    o.friction = contact === undefined ? [{ mu }] : [...o.friction.filter((c) => c.contact !== contact), { contact, mu }];
  } else if (contact !== undefined) o.contacts[contact] = restitution;
  else if (restitution !== undefined) {
    o.restitution = restitution;
    o.contacts.fill(restitution);
  }
  if (nu !== undefined) o.nu = nu;
}

// ---- snapshots ------------------------------------------------------------------------------------------

/** The state of `sim` now (the core's saved state), with the overrides and the edits in force. */
function snapshot(sim, overrides, editCount) {
  return { time: sim.time, impactCount: sim.impactCount, state: sim.saveState(), overrides: cloneOverrides(overrides),
    editCount };
}

/** Puts `sim` into snapshot `s` (its log cut back to the impacts before it); returns the index of the first
 * edit after it. */
function restore(sim, s) {
  putState(sim, s.state, s.overrides);
  return s.editCount;
}

/**
 * Puts `state` with the settings `o` into `sim`. Setting μ acts on the state (and may log a sticking impact),
 * so when μ was set the state is restored again, after: the state and the log are exactly the saved ones.
 */
function putState(sim, state, o) {
  sim.restoreState(state);
  if (applyOverrides(sim, o)) sim.restoreState(state);
}

// ---- moving a simulation in time, in bounded calls --------------------------------------------------------

/**
 * Advances `sim` to the absolute time `target`, calling again while a call stops at its work budget (with
 * a pause in between). Resolves false when `run.limited()` stopped it short of the target.
 */
async function advanceTo(sim, target, run) {
  for (;;) {
    sim.advanceTo(target);
    if (!sim.workLimitHit) return true;
    await run.pause(true);
    if (run.limited()) return false;
  }
}

/** Advances `sim` to right after its next impact, or to the absolute time `t`: resolves whether an impact
 * was logged (false also when `run.limited()` stopped it). */
async function toNextImpact(sim, t, run) {
  for (;;) {
    const found = sim.advanceToNextImpactBefore(t);
    if (found || !sim.workLimitHit) return found;
    await run.pause(true);
    if (run.limited()) return false;
  }
}

/**
 * Resolves the impacts logged at exactly the time `sim` stands at until it has `impactCount` (an impact at
 * the time an advance stops at is resolved only by a step to it). A step that finds none at that instant is
 * undone (restoreState), so the moment stays where it was.
 */
async function topUp(sim, impactCount, run) {
  while (sim.impactCount < impactCount) {
    const before = sim.saveState();
    const found = await toNextImpact(sim, before.shown_time + TOP_UP, run);
    if (!found || sim.time !== before.shown_time) {
      sim.restoreState(before);
      return;
    }
  }
}

/**
 * Advances `sim` to a moment {time, impactCount}: the time, then the impacts logged right at it. A replayed
 * change of e or ν and a share link's moment are reached this way, so both land on the state the run had
 * when they were made.
 */
async function reach(sim, moment, run) {
  await advanceTo(sim, moment.time, run);
  await topUp(sim, moment.impactCount, run);
}

export class Timeline {
  /**
   * @param {import('../engine/index.js').ObliqueEngine} engine
   * @param {object|string} scenario  throws "<pointer>: <message>" (and nothing changes) when it cannot run
   * @param {{nu?: number|null}} [options]  ν set on the run from its start, as the ν panel sets it (null:
   *   the optimal one); throws, and nothing changes, when the engine refuses it
   */
  constructor(engine, scenario, { nu } = {}) {
    this.engine = engine;
    this.live = engine.createSimulation(scenario);
    this.document = this.live.scenario;  // normalized, as at t = 0
    this.initialOverrides = overridesOf(this.document);
    if (nu !== undefined) {
      try {
        this.live.setNu(nu);
      } catch (error) {
        this.live.dispose();
        throw error;
      }
      this.initialOverrides.nu = nu;
    }
    this.overrides = cloneOverrides(this.initialOverrides);
    this.edits = [];        // {time, impactCount, change}, in the order made
    this.snapshots = [snapshot(this.live, this.overrides, 0)];
    this.cursor = null;     // the replay simulation while it shows an earlier moment than the live one
    this.cursorEdit = 0;    // the first edit the cursor has not replayed yet
    this.spare = null;      // a replay simulation kept for the next seek
    this.reported = 0;      // live impacts already summarised in a frame
  }

  dispose() {
    for (const sim of new Set([this.live, this.cursor, this.spare])) sim?.dispose();
    this.live = this.cursor = this.spare = null;
  }

  /** The simulation whose state is shown. */
  get shown() {
    return this.cursor ?? this.live;
  }

  // ---- the live run ----

  /** Takes a snapshot if the live run stands exactly on a snapshot boundary not yet kept. */
  #maybeSnapshot() {
    const t = this.live.time;
    const last = this.snapshots[this.snapshots.length - 1];
    if (t > last.time && t === Math.round(t / SNAPSHOT_EVERY) * SNAPSHOT_EVERY) {
      this.snapshots.push(snapshot(this.live, this.overrides, this.edits.length));
    }
  }

  /** The next snapshot boundary after the live time. */
  #nextBoundary() {
    return (Math.floor(this.live.time / SNAPSHOT_EVERY) + 1) * SNAPSHOT_EVERY;
  }

  /**
   * Advances the live run to `target`, stopping on each snapshot boundary to keep it; with `samples`, also
   * every SAMPLE seconds to take one (for the plots, when the page jumps ahead). Resolves false when
   * `run.limited()` stopped it short.
   */
  async #advanceLive(target, samples, run) {
    while (this.live.time < target) {
      const stop = Math.min(this.#nextBoundary(), target, samples ? this.live.time + SAMPLE : Infinity);
      const reached = await advanceTo(this.live, stop, run);
      this.#maybeSnapshot();
      if (!reached) return false;
      if (samples && this.live.time < target) samples.push(sample(this.live));
      await run.pause(false);
      if (run.limited() && this.live.time < target) return false;
    }
    return true;
  }

  /**
   * Advances what is shown by `dt` seconds, the live run no further than `until` (the end of the run).
   * While the cursor replays the past it stops at the live time and hands over to the live run. The frame
   * says `limited` when the run's share of real time ended it short of `dt`.
   */
  async tick(dt, until = Infinity, run = STRAIGHT) {
    const seconds = Math.min(MAX_TICK, Math.max(0, Number(dt) || 0));
    if (this.cursor) {
      const reached = await this.#runCursorTo(Math.min(this.cursor.time + seconds, this.live.time), run);
      if (this.cursor.time >= this.live.time) this.#release();
      return this.frame({ limited: !reached });
    }
    const target = Math.min(this.live.time + seconds, until);
    const reached = target > this.live.time ? await this.#advanceLive(target, null, run) : true;
    return this.frame({ ended: this.live.time >= until, limited: !reached });
  }

  /**
   * Runs to right after the next impact, within `horizon` seconds and not past `until`, sampling the way
   * every SAMPLE seconds (energies, positions, velocities) for the plots. `found` false: none in time.
   */
  async step(horizon = 10, until = Infinity, run = STRAIGHT) {
    if (this.cursor) {
      // In the past: the next impact is already known, unless the cursor stands after the last one.
      const next = this.cursor.impactCount;
      if (next < this.live.impactCount) return { ...(await this.seekImpact(next, run)), found: true };
      await this.#runCursorTo(this.live.time, run);
      this.#release();
    }
    const sim = this.live;
    const end = Math.min(sim.time + horizon, until);
    const samples = [];
    let found = false;
    while (!found && sim.time < end) {
      found = await toNextImpact(sim, Math.min(sim.time + SAMPLE, end, this.#nextBoundary()), run);
      this.#maybeSnapshot();
      if (!found) samples.push(sample(sim));
      await run.pause(false);
    }
    return this.frame({ found, samples, ended: sim.time >= until });
  }

  /** Back to t = 0 with the log cleared; the overrides in force are kept (they become the run's start). */
  reset() {
    this.#release();
    this.live.reset();
    this.initialOverrides = cloneOverrides(this.overrides);
    this.edits = [];
    this.snapshots = [snapshot(this.live, this.overrides, 0)];
    this.reported = 0;
    return this.frame({ reset: true });
  }

  /**
   * A change of e or ν at the moment shown. In the past it cuts the run there (the live run goes back to the
   * cursor's state); the reply says so with `branched: {time, impactCount}`. The reply's `edits` are the
   * run's changes since its start, each with its moment ({time, impactCount, change}): what the page puts
   * in a share link.
   */
  set(change) {
    // The moment before the change (a change of μ may log a sticking impact right there).
    const sim = this.shown;
    const at = { time: sim.time, impactCount: sim.impactCount };
    const before = this.cursor ? sim.saveState() : null;
    // The simulation shown takes it first: a refused value (the engine names the field) changes nothing.
    applyChange(sim, change);
    const branched = this.cursor ? this.#branch(at, before, change) : null;
    recordChange(this.overrides, change);
    this.edits.push({ ...at, change: { ...change } });
    return { edits: this.editList(), ...(branched ? { branched } : {}) };
  }

  /** The run's changes of e, μ and ν since its start, in order: {time, impactCount, change} (copies). */
  editList() {
    return this.edits.map(({ time, impactCount, change }) => ({ time, impactCount, change: { ...change } }));
  }

  // ---- the past ----

  /**
   * Shows time `t`: the past replayed from the nearest snapshot, or the live run (advanced to t, not past
   * `until`, when t is ahead). With `impactCount`, the moment {t, impactCount}: the impacts pending at
   * exactly t are resolved until that many are logged (a share link's moment: the same time and the same
   * impacts as the page that made it).
   */
  async seek(t, until = Infinity, impactCount = 0, run = STRAIGHT) {
    const time = Math.max(0, Number(t) || 0);
    if (time >= this.live.time) {
      this.#release();
      const target = Math.min(time, until);
      const samples = [];
      if (target > this.live.time) await this.#advanceLive(target, samples, run);
      if (target === time) await topUp(this.live, impactCount, run);
      return this.frame({ samples, ended: this.live.time >= until });
    }
    const start = this.#snapshotBefore((s) => s.time <= time);
    // Forward from where the cursor stands when no snapshot is nearer and it has not passed the moment.
    const c = this.cursor;
    const ahead = c && (c.time > time || (c.time === time && c.impactCount > impactCount));
    if (!c || ahead || c.time < start.time) this.#restoreCursor(start);
    await this.#runCursorTo(time, run);
    await topUp(this.cursor, impactCount, run);
    return this.frame();
  }

  /** Shows the moment right after impact `index` (an index of the live log). */
  async seekImpact(index, run = STRAIGHT) {
    if (!Number.isInteger(index) || index < 0 || index >= this.live.impactCount) {
      throw new Error(`impact: ${index} is not an impact of this run (0 … ${this.live.impactCount - 1})`);
    }
    const { t } = this.live.impactSummary(index, { projectionScalars: false });
    this.#restoreCursor(this.#snapshotBefore((s) => s.impactCount <= index && s.time <= t));
    const sim = this.cursor;
    // Every edit made before the impact was logged, each at its moment; then impact by impact up to it.
    while (this.cursorEdit < this.edits.length && this.edits[this.cursorEdit].impactCount <= index) {
      const edit = this.edits[this.cursorEdit];
      await reach(sim, edit, run);
      applyChange(sim, edit.change);
      this.cursorEdit += 1;
    }
    while (sim.impactCount <= index) {
      if (!(await toNextImpact(sim, Math.max(t, sim.time) + 1, run))) {
        throw new Error(`impact: ${index} was not found again after t = ${sim.time} s`);
      }
    }
    if (sim.time === this.live.time && sim.impactCount === this.live.impactCount) this.#release();
    return this.frame();
  }

  /** The last snapshot that satisfies `ok` (the one at t = 0 always does). */
  #snapshotBefore(ok) {
    for (let k = this.snapshots.length - 1; k > 0; k--) if (ok(this.snapshots[k])) return this.snapshots[k];
    return this.snapshots[0];
  }

  /** The cursor (the spare simulation, or a new one of the same scenario) put into snapshot `s`. */
  #restoreCursor(s) {
    if (!this.cursor) {
      this.cursor = this.spare ?? this.engine.createSimulation(this.document);
      this.spare = null;
    }
    this.cursorEdit = restore(this.cursor, s);
  }

  /**
   * Moves the cursor forward to `target`, replaying the edits met on the way, each at its moment. Resolves
   * false when `run.limited()` stopped it short.
   */
  async #runCursorTo(target, run) {
    while (this.cursorEdit < this.edits.length && this.edits[this.cursorEdit].time <= target) {
      const edit = this.edits[this.cursorEdit];
      await reach(this.cursor, edit, run);
      applyChange(this.cursor, edit.change);
      this.cursorEdit += 1;
    }
    return advanceTo(this.cursor, target, run);
  }

  /** Back to showing the live run; the cursor's simulation is kept for the next seek. */
  #release() {
    if (!this.cursor) return;
    this.spare = this.cursor;
    this.cursor = null;
  }

  /**
   * The run goes on from the cursor's moment `at` (its state `before` the change): the live run is put into
   * that state with the settings of the kept past, its future dropped, and takes `change` there — as a
   * straight run would (a change of μ may log a sticking impact, which the live log must have, not a record
   * of the dropped future).
   */
  #branch(at, before, change) {
    this.edits = this.edits.slice(0, this.cursorEdit);
    this.snapshots = this.snapshots.filter((s) => s.time <= at.time && s.impactCount <= at.impactCount);
    this.overrides = this.#overridesAfterEdits();
    // The live run goes back to the cursor's state: its log is cut there and keeps every earlier record.
    putState(this.live, before, this.overrides);
    applyChange(this.live, change);
    this.#release();
    this.reported = Math.min(this.reported, this.live.impactCount);
    return at;
  }

  #overridesAfterEdits() {
    const o = cloneOverrides(this.initialOverrides);
    for (const edit of this.edits) recordChange(o, edit.change);
    return o;
  }

  // ---- frames ----

  /**
   * What the page draws: {time, positions, velocities (transferable copies), contacts, state, impactCount
   * (of the moment shown), impacts (summaries of live impacts not yet reported), horizon (the live time),
   * replaying, limited (false unless the extra says otherwise), ...extra}.
   */
  frame(extra = {}) {
    const sim = this.shown;
    const positions = sim.readPositions(new Float64Array(3 * sim.bodyCount));
    const velocities = sim.readVelocities(new Float64Array(3 * sim.bodyCount));
    const count = this.live.impactCount;
    // The records still in the (bounded) log since the last frame; indices count every impact of the run.
    // Without the scalars of their projections (rank, ν, cond(Mc)): the panels show them with the impact.
    const records = this.reported < count ? this.live.impactSummariesSince(this.reported, { projectionScalars: false }) : [];
    // Automatic contact points are named by their bodies, found among the live run's points (impact-pairs.js).
    const points = records.some((r) => r.contacts?.some((c) => c < 0)) ? this.live.contactPoints() : [];
    const impacts = records.map((record, k) => summary(record, count - records.length + k, this.overrides, points));
    this.reported = count;
    return { time: sim.time, positions, velocities, contacts: sim.contactPoints(), state: sim.state(),
      impactCount: sim.impactCount, impacts, horizon: this.live.time, replaying: Boolean(this.cursor), limited: false,
      ...extra };
  }
}

/** Keys of an impact record copied into its summary (everything the log, the scene and the plots need). */
const SUMMARY_KEYS = ['t', 'gamma', 'W_loss', 'K_minus', 'K_plus', 'n', 'm', 'contacts', 'points',
  'normal_rows', 'positions', 'normals', 'i_lambda', 'phid_minus', 'flags', 'energy_consistent', 'restitution',
  'scheduled', 'friction', 'modes_consistent', 'painleve', 'rest_speeds', 'nearly_resting'];

/**
 * A record's summary, with `contact_e`: the e set for each impact point's contact when it was logged, and
 * for automatic points `point_bodies` (impact-pairs.js).
 */
function summary(record, index, overrides, points) {
  const out = { index };
  for (const key of SUMMARY_KEYS) if (key in record) out[key] = record[key];
  out.contact_e = (record.contacts ?? []).map((c) => overrides.contacts[c] ?? overrides.restitution);
  const bodies = automaticPointBodies(record, points);
  if (bodies) out.point_bodies = bodies;
  return out;
}

/** A sample on the way to an impact: the energies, q and q̇. */
function sample(sim) {
  return { ...sim.state(), q: Array.from(sim.positions), qd: Array.from(sim.velocities) };
}
