// The run's timeline, in the worker. The live simulation runs at the frontier of the run (the furthest time
// simulated); every SNAPSHOT_EVERY simulated seconds its state is kept, and any earlier moment is shown by a
// second simulation, the cursor, replayed deterministically from the nearest snapshot before it. The live
// run is not rewound to show the past, so its impact log keeps every impact of the run for the panels.
// Changes of e and ν are edits of the run: each is kept with the moment it was made (time and impact count)
// and replayed there. An edit made while the cursor is in the past cuts the run there: the future is
// dropped and the run goes on from the cursor's moment (a branch).
//
// Replays are bit-identical to the live run: the core commits its steps on a fixed grid whatever the calls
// (docs/engine-api.md), and snapshots lie on multiples of SNAPSHOT_EVERY, so that t_snap + (T − t_snap) is
// exactly T and a scrubbed time T shows the state a straight run to T shows.

/** Simulated seconds between snapshots: a multiple of a power of two, for exact times (see above). */
export const SNAPSHOT_EVERY = 0.5;
/** Simulated seconds the live run may be asked to advance at once (a stalled tab must not ask for minutes). */
export const MAX_TICK = 1;
/** Energy and position samples taken on the way to the next impact (s). */
const SAMPLE = 1 / 60;
/** How far a step may look for an impact pending at the instant a simulation stands at (s). */
const TOP_UP = 1e-6;

// ---- snapshot() / restore(): the interface to the core's saved state -----------------------------------
//
// With an engine whose Simulation has saveState()/restoreState() (the core's saved simulator state, being
// added to the engine API), a snapshot holds that state and restoring puts it back; the overrides of e and ν
// are not part of it and are applied after it. Without them — this build — the FALLBACK below, to be
// removed once every engine has them: a snapshot holds only the moment, and restoring re-runs the
// simulation from t = 0 through every edit before it. That is correct and deterministic, only slower (O(t)
// per seek). The tests (tests/js/timeline.test.js, tests/e2e/timeline.test.js) hold for both.

/** Whether `sim` can save and restore its state (the engine's Simulation.saveState/restoreState). */
function hasCoreState(sim) {
  return typeof sim.saveState === 'function' && typeof sim.restoreState === 'function';
}

/** The state of `sim` now, to come back to (FALLBACK: the moment only). */
function snapshot(sim, overrides, editCount) {
  return { time: sim.time, impactCount: sim.impactCount, overrides: cloneOverrides(overrides), editCount,
    state: hasCoreState(sim) ? sim.saveState() : null };
}

/** Puts `sim` into snapshot `s` of `timeline`; returns the index of the first edit after it. */
function restore(timeline, sim, s) {
  if (s.state) {
    sim.restoreState(s.state);
    applyOverrides(sim, s.overrides);
    return s.editCount;
  }
  // FALLBACK: a re-run from t = 0, edits included.
  sim.reset();
  applyOverrides(sim, timeline.initialOverrides);
  timeline.replayEdits(sim, 0, s.editCount);
  advanceTo(sim, s.time);
  return s.editCount;
}

// ---- the overrides of e and ν ---------------------------------------------------------------------------

/** e of every contact, the scenario's default e and ν, as a normalized scenario states them. */
function overridesOf(scenario) {
  const restitution = scenario.restitution;
  return { restitution, contacts: (scenario.contacts ?? []).map((c) => c.e ?? restitution), nu: scenario.nu ?? null };
}

function cloneOverrides(o) {
  return { restitution: o.restitution, contacts: [...o.contacts], nu: o.nu };
}

function applyOverrides(sim, o) {
  sim.setRestitution(o.restitution);
  o.contacts.forEach((e, i) => sim.setContactRestitution(i, e));
  sim.setNu(o.nu);
}

/** Applies one change (a `set` request: e of all contacts, e of one, or ν) to `sim`; throws if refused. */
function applyChange(sim, { restitution, contact, nu }) {
  if (contact !== undefined) sim.setContactRestitution(contact, restitution);
  else if (restitution !== undefined) sim.setRestitution(restitution);
  if (nu !== undefined) sim.setNu(nu);
}

/** Records an accepted change in the overrides `o`. */
function recordChange(o, { restitution, contact, nu }) {
  if (contact !== undefined) o.contacts[contact] = restitution;
  else if (restitution !== undefined) {
    o.restitution = restitution;
    o.contacts.fill(restitution);
  }
  if (nu !== undefined) o.nu = nu;
}

// ---- moving a simulation in time --------------------------------------------------------------------------

/** Advances `sim` to time `target` (several calls when the core stops at its work bound). */
function advanceTo(sim, target) {
  while (sim.time < target) {
    const before = sim.time;
    sim.advance(target - sim.time);
    if (sim.time === before) throw new Error(`simulation: no progress at t = ${before} s (the core's work bound)`);
  }
}

/**
 * Advances `sim` to a moment {time, impactCount}: the time, then the impacts logged right at it (an impact at
 * exactly the time an advance stops at is resolved only by a step to it). A replayed change of e or ν and a
 * share link's moment are reached this way, so both land on the state the run had when they were made.
 */
function reach(sim, moment) {
  advanceTo(sim, moment.time);
  topUp(sim, moment.impactCount);
}

/** Resolves the impacts pending at the time `sim` stands at until it has logged `impactCount`. */
function topUp(sim, impactCount) {
  for (let guard = 0; sim.impactCount < impactCount && guard < 64; guard++) {
    if (!sim.advanceToNextImpact(TOP_UP)) break;  // none at this instant (a link asking for more than the run has)
  }
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
    this.edits = [];        // {time, impactCount, change, overrides (after it)}, in the order made
    this.snapshots = [snapshot(this.live, this.overrides, 0)];
    this.cursor = null;     // the replay simulation while it shows an earlier moment than the live one
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

  /** Replays edits `from` … `to` − 1 on `sim`, each at its moment. */
  replayEdits(sim, from, to) {
    for (let k = from; k < to; k++) {
      reach(sim, this.edits[k]);
      applyChange(sim, this.edits[k].change);
    }
  }

  /** The index after the last edit made at or before time `t`, from index `from` on. */
  #editsUntil(from, t) {
    let k = from;
    while (k < this.edits.length && this.edits[k].time <= t) k += 1;
    return k;
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
   * every SAMPLE seconds to take one (for the plots, when the page jumps ahead).
   */
  #advanceLive(target, samples = null) {
    while (this.live.time < target) {
      const boundary = this.#nextBoundary();
      const stop = Math.min(boundary, target, samples ? this.live.time + SAMPLE : Infinity);
      advanceTo(this.live, stop);
      this.#maybeSnapshot();
      if (samples && this.live.time < target) samples.push(sample(this.live));
    }
  }

  /**
   * Advances what is shown by `dt` seconds, the live run no further than `until` (the end of the run).
   * While the cursor replays the past it stops at the live time and hands over to the live run.
   */
  tick(dt, until = Infinity) {
    const seconds = Math.min(MAX_TICK, Math.max(0, Number(dt) || 0));
    if (this.cursor) {
      const target = Math.min(this.cursor.time + seconds, this.live.time);
      this.#runCursorTo(target);
      if (this.cursor.time >= this.live.time) this.#release();
      return this.frame();
    }
    const target = Math.min(this.live.time + seconds, until);
    if (target > this.live.time) this.#advanceLive(target);
    return this.frame({ ended: this.live.time >= until });
  }

  /**
   * Runs to right after the next impact, within `horizon` seconds and not past `until`, sampling the way
   * every SAMPLE seconds (energies, positions, velocities) for the plots. `found` false: none in time.
   */
  step(horizon = 10, until = Infinity) {
    if (this.cursor) {
      // In the past: the next impact is already known, unless the cursor stands after the last one.
      const next = this.cursor.impactCount;
      if (next < this.live.impactCount) return { ...this.seekImpact(next), found: true };
      this.#runCursorTo(this.live.time);
      this.#release();
    }
    const sim = this.live;
    const end = Math.min(sim.time + horizon, until);
    const samples = [];
    let found = false;
    while (!found && sim.time < end) {
      const before = sim.time;
      found = sim.advanceToNextImpact(Math.min(SAMPLE, end - sim.time, this.#nextBoundary() - sim.time));
      this.#maybeSnapshot();
      if (!found) samples.push(sample(sim));
      if (!found && sim.time === before) break;  // the core made no progress (its work bound): stop here
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
   * A change of e or ν at the moment shown. In the past it cuts the run there (the cursor becomes the live
   * run); the reply says so with `branched: {time, impactCount}`. The reply's `edits` are the run's changes
   * since its start, each with its moment ({time, impactCount, change}): what the page puts in a share link.
   */
  set(change) {
    // The simulation shown takes it first: a refused value (the engine names the field) changes nothing.
    applyChange(this.shown, change);
    const branched = this.cursor ? this.#branch() : null;
    if (branched) applyChange(this.live, change);
    recordChange(this.overrides, change);
    this.edits.push({ time: this.live.time, impactCount: this.live.impactCount, change: { ...change } });
    return { edits: this.editList(), ...(branched ? { branched } : {}) };
  }

  /** The run's changes of e and ν since its start, in order: {time, impactCount, change} (copies). */
  editList() {
    return this.edits.map(({ time, impactCount, change }) => ({ time, impactCount, change: { ...change } }));
  }

  // ---- the past ----

  /**
   * Shows time `t`: the past replayed, or the live run (advanced to t, not past `until`, when t is ahead).
   * With `impactCount`, the moment {t, impactCount}: the impacts pending at exactly t are resolved until that
   * many are logged (a share link's moment: the same time and the same impacts as the page that made it).
   */
  seek(t, until = Infinity, impactCount = 0) {
    const time = Math.max(0, Number(t) || 0);
    if (time >= this.live.time) {
      this.#release();
      const target = Math.min(time, until);
      const samples = [];
      if (target > this.live.time) this.#advanceLive(target, samples);
      if (target === time) topUp(this.live, impactCount);
      return this.frame({ samples, ended: this.live.time >= until });
    }
    const start = this.#snapshotBefore((s) => s.time <= time);
    // Forward from where the cursor stands when that lands exactly on `time` and no snapshot is nearer.
    const c = this.cursor;
    if (c && c.time <= time && c.time >= start.time && c.time + (time - c.time) === time) {
      this.#runCursorTo(time);
      topUp(this.cursor, impactCount);
      return this.frame();
    }
    const sim = this.#replaySimulation();
    this.cursorEdit = restore(this, sim, start);
    this.cursor = sim;
    this.#runCursorTo(time);
    topUp(this.cursor, impactCount);
    return this.frame();
  }

  /** Shows the moment right after impact `index` (an index of the live log). */
  seekImpact(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this.live.impactCount) {
      throw new Error(`impact: ${index} is not an impact of this run (0 … ${this.live.impactCount - 1})`);
    }
    const t = this.live.impact(index).t;
    const start = this.#snapshotBefore((s) => s.impactCount <= index && s.time <= t);
    const sim = this.#replaySimulation();
    let edit = restore(this, sim, start);
    // Every edit made before the impact was logged, then impact by impact up to it.
    while (edit < this.edits.length && this.edits[edit].impactCount <= index) {
      this.replayEdits(sim, edit, edit + 1);
      edit += 1;
    }
    for (let guard = 0; sim.impactCount <= index && guard < 100000; guard++) {
      sim.advanceToNextImpact(Math.max(0, t - sim.time) + 1);
    }
    this.cursorEdit = edit;
    this.cursor = sim;
    if (sim.time === this.live.time && sim.impactCount === this.live.impactCount) this.#release();
    return this.frame();
  }

  /** The last snapshot that satisfies `ok` (the one at t = 0 always does). */
  #snapshotBefore(ok) {
    for (let k = this.snapshots.length - 1; k > 0; k--) if (ok(this.snapshots[k])) return this.snapshots[k];
    return this.snapshots[0];
  }

  /** A simulation for replays: the cursor's, the spare one, or a new one of the same scenario. */
  #replaySimulation() {
    if (!this.cursor && !this.spare) this.spare = this.engine.createSimulation(this.document);
    const sim = this.cursor ?? this.spare;
    this.spare = null;
    this.cursorEdit = 0;
    return sim;
  }

  /** Moves the cursor forward to `target`, replaying the edits met on the way. */
  #runCursorTo(target) {
    const to = this.#editsUntil(this.cursorEdit ?? 0, target);
    this.replayEdits(this.cursor, this.cursorEdit ?? 0, to);
    this.cursorEdit = to;
    advanceTo(this.cursor, target);
  }

  /** Back to showing the live run; the cursor's simulation is kept for the next seek. */
  #release() {
    if (!this.cursor) return;
    this.spare = this.cursor;
    this.cursor = null;
  }

  /** The run goes on from the cursor's moment: its future after it is dropped. */
  #branch() {
    const sim = this.cursor;
    const at = { time: sim.time, impactCount: sim.impactCount };
    this.edits = this.edits.slice(0, this.cursorEdit ?? 0);
    this.snapshots = this.snapshots.filter((s) => s.time <= at.time && s.impactCount <= at.impactCount);
    this.overrides = this.edits.length ? this.#overridesAfterEdits() : cloneOverrides(this.initialOverrides);
    if (hasCoreState(sim)) {
      // The live run goes back to the cursor's state: its log is cut there and keeps every earlier record.
      this.live.restoreState(sim.saveState());
      applyOverrides(this.live, this.overrides);
      this.#release();
    } else {
      // FALLBACK: the cursor, re-run from t = 0, holds every impact up to its moment: it becomes the live run.
      this.live.dispose();
      this.live = sim;
      this.cursor = null;
    }
    this.reported = this.live.impactCount;
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
   * replaying, ...extra}.
   */
  frame(extra = {}) {
    const sim = this.shown;
    const positions = sim.readPositions(new Float64Array(3 * sim.bodyCount));
    const velocities = sim.readVelocities(new Float64Array(3 * sim.bodyCount));
    const count = this.live.impactCount;
    const records = this.reported < count ? this.live.impactsSince(this.reported) : [];
    const impacts = records.map((record, k) => summary(record, count - records.length + k, this.overrides));
    this.reported = count;
    return { time: sim.time, positions, velocities, contacts: sim.contactPoints(), state: sim.state(),
      impactCount: sim.impactCount, impacts, horizon: this.live.time, replaying: Boolean(this.cursor), ...extra };
  }
}

/** Keys of an impact record copied into its summary (everything the log, the scene and the plots need). */
const SUMMARY_KEYS = ['t', 'gamma', 'W_loss', 'K_minus', 'K_plus', 'n', 'm', 'rank', 'contacts', 'points',
  'normal_rows', 'positions', 'normals', 'i_lambda', 'phid_minus', 'flags', 'energy_consistent', 'restitution',
  'scheduled'];

/** A record's summary, with `contact_e`: the e set for each impact point's contact when it was logged. */
function summary(record, index, overrides) {
  const out = { index };
  for (const key of SUMMARY_KEYS) if (key in record) out[key] = record[key];
  out.contact_e = (record.contacts ?? []).map((c) => overrides.contacts[c] ?? overrides.restitution);
  return out;
}

/** A sample on the way to an impact: the energies, q and q̇. */
function sample(sim) {
  return { ...sim.state(), q: Array.from(sim.positions), qd: Array.from(sim.velocities) };
}
