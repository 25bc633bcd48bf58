// The worker's timeline (web/src/worker/timeline.js) on the wasm engine: its snapshots are the core's saved
// states, and every moment it shows in the past is restored from the nearest one and replayed — never
// re-run from t = 0 — to the state a straight run reaches, to the last bit (the whole saved state: time, q,
// q̇, the contacts' flags, the Zeno guard, the impacts logged) — after ticks of any length, across snapshots,
// after "next impact" steps, and with changes of e replayed where they were made; a change made in the past
// cuts the run there; a share link's run, rebuilt from its changes and moments, shows the same γ, impact
// count and state.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadOblique, Simulation } from '../../web/src/engine/index.js';
import { SNAPSHOT_EVERY, STRAIGHT, Superseded, Timeline } from '../../web/src/worker/timeline.js';
import { loadScenario } from './scenarios.js';
import { runTo } from './simulation-runs.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The whole saved state and the positions of a fresh simulation of `id` after `run(sim)`. */
function straight(id, run) {
  const sim = oblique.createSimulation(loadScenario(id));
  run(sim);
  const out = { state: sim.saveState(), q: Array.from(sim.positions), qd: Array.from(sim.velocities) };
  sim.dispose();
  return out;
}

/** What a frame of the timeline shows, and the full state of the simulation showing it. */
function shown(timeline, frame) {
  return { state: timeline.shown.saveState(), q: Array.from(frame.positions), qd: Array.from(frame.velocities) };
}

/** Live ticks of uneven lengths, as a page's animation frames ask for, up to about `seconds`. */
async function play(timeline, seconds) {
  let k = 0;
  while (timeline.live.time < seconds) await timeline.tick((1 + (k++ % 7)) / 97);
}

/** Counts the replays from a snapshot (restoreState) and the re-runs from t = 0 (reset) of every Simulation. */
function watchReplays() {
  return { restores: vi.spyOn(Simulation.prototype, 'restoreState'), resets: vi.spyOn(Simulation.prototype, 'reset') };
}

describe('Timeline', () => {
  it('keeps the core\'s state in its snapshots and shows any earlier time as a straight run to it, whatever the ticks were', async () => {
    for (const id of ['double-pendulum', 'billiards-break']) {
      const timeline = new Timeline(oblique, loadScenario(id));
      await play(timeline, 3.2);
      // Snapshots on the grid of SNAPSHOT_EVERY, taken on the way: each the core's state at that time.
      expect(timeline.snapshots.map((s) => s.time)).toEqual(Array.from({ length: 7 }, (_, k) => k * SNAPSHOT_EVERY));
      for (const s of timeline.snapshots) {
        expect(s.state.shown_time, id).toBe(s.time);
        expect(s.state.impact_count, id).toBe(s.impactCount);
      }
      const watch = watchReplays();
      for (const t of [1.234, 0.4, 2.75, 1.5, 1.5000001, 0.2]) {
        const restores = watch.restores.mock.calls.length;
        const frame = await timeline.seek(t);
        expect(frame.replaying, `${id} at ${t}`).toBe(true);
        expect(frame.time).toBe(t);
        expect(shown(timeline, frame), `${id} at ${t}`).toEqual(straight(id, (sim) => runTo(sim, t)));
        // Restored from the nearest snapshot at or before t (or carried on from the cursor when no snapshot
        // lies between: 1.5000001 after 1.5), never re-run from t = 0.
        const nearest = timeline.snapshots.findLast((s) => s.time <= t);
        if (t === 1.5000001) {
          expect(watch.restores.mock.calls.length).toBe(restores);
        } else {
          expect(watch.restores.mock.calls.length).toBe(restores + 1);
          expect(watch.restores.mock.calls.at(-1)[0]).toBe(nearest.state);
        }
      }
      expect(watch.resets).not.toHaveBeenCalled();
      // Past the live time: the live run itself.
      const live = await timeline.seek(100);
      expect(live.replaying).toBe(false);
      expect(live.time).toBe(timeline.live.time);
      timeline.dispose();
      vi.restoreAllMocks();
    }
  });

  it('plays the past forward into the live run, and lands right after a chosen impact', async () => {
    const timeline = new Timeline(oblique, loadScenario('double-pendulum'));
    for (let k = 0; k < 6; k++) await timeline.step();
    const count = timeline.live.impactCount;
    const watch = watchReplays();
    // Right after impact 2 (0-based): the state of three "next impact" steps.
    const frame = await timeline.seekImpact(2);
    expect(frame.impactCount).toBe(3);
    expect(shown(timeline, frame)).toEqual(
      straight('double-pendulum', (sim) => { while (sim.impactCount < 3) sim.advanceToNextImpact(10); }));
    expect(watch.restores).toHaveBeenCalledTimes(1);
    // Next impact from there is impact 3, already known; ticks then reach the live run and hand over.
    expect((await timeline.step()).impactCount).toBe(4);
    let last;
    for (let k = 0; k < 1000 && (!last || last.replaying); k++) last = await timeline.tick(0.05);
    expect(last.replaying).toBe(false);
    expect(last.impactCount).toBe(count);
    expect(watch.resets).not.toHaveBeenCalled();
    await expect(timeline.seekImpact(count)).rejects.toThrow(/^impact: \d+ is not an impact of this run/);
    timeline.dispose();
  });

  it('replays a change of e where it was made, and cuts the run when one is made in the past', async () => {
    const timeline = new Timeline(oblique, loadScenario('double-pendulum'));
    await play(timeline, 1.3);
    const at = timeline.live.time;
    timeline.set({ restitution: 0.9 });
    await play(timeline, 2.6);
    // Before the change and after it: as straight runs with the same change at the same moment.
    expect(shown(timeline, await timeline.seek(1))).toEqual(straight('double-pendulum', (sim) => runTo(sim, 1)));
    const t = at + 0.75;
    expect(shown(timeline, await timeline.seek(t))).toEqual(straight('double-pendulum', (sim) => {
      runTo(sim, at);
      sim.setRestitution(0.9);
      runTo(sim, t);
    }));
    // A refused value changes nothing, in the past as live.
    expect(() => timeline.set({ restitution: 2 })).toThrow(/^e: must be in \[0, 1\], got 2/);
    expect(timeline.edits).toHaveLength(1);
    // A change at 2 s cuts the run: the live run is restored to the past moment, its future gone, its log
    // cut back to the impacts before it.
    await timeline.seek(2);
    const before = timeline.live.impactCount;
    const earlier = timeline.live.impactSummariesSince(0);
    const reply = timeline.set({ restitution: 0.3 });
    expect(reply.branched.time).toBe(2);
    expect(timeline.live.time).toBe(2);
    expect(timeline.live.impactCount).toBe(reply.branched.impactCount);
    expect(reply.branched.impactCount).toBeLessThan(before);
    expect(timeline.live.impactSummariesSince(0)).toEqual(earlier.slice(0, reply.branched.impactCount));
    expect(timeline.edits.map((e) => e.change.restitution)).toEqual([0.9, 0.3]);
    expect(timeline.snapshots.every((s) => s.time <= 2)).toBe(true);
    await play(timeline, 2.5);
    const cut = straight('double-pendulum', (sim) => {
      runTo(sim, at);
      sim.setRestitution(0.9);
      runTo(sim, 2);
      sim.setRestitution(0.3);
      runTo(sim, 2.25);
    });
    expect(shown(timeline, await timeline.seek(2.25))).toEqual(cut);
    // And the live run going on from the cut is that run too.
    await timeline.seek(2.5);
    expect(shown(timeline, timeline.frame())).toEqual(straight('double-pendulum', (sim) => {
      runTo(sim, at);
      sim.setRestitution(0.9);
      runTo(sim, 2);
      sim.setRestitution(0.3);
      runTo(sim, 2.5);
    }));
    timeline.dispose();
  });

  it('reaches a moment with the impacts logged at its very time, and lists the run\'s changes with their moments', async () => {
    const timeline = new Timeline(oblique, loadScenario('double-pendulum'));
    for (let k = 0; k < 3; k++) await timeline.step();
    // Right after impact 3: a plain advance to its time leaves it pending; the moment takes it too.
    const { t } = timeline.live.impact(2);
    const fresh = new Timeline(oblique, loadScenario('double-pendulum'));
    expect((await fresh.seek(t)).impactCount).toBe(2);
    const moment = await fresh.seek(t, Infinity, 3);
    expect(moment.impactCount).toBe(3);
    expect(moment.time).toBe(t);
    expect(shown(fresh, moment)).toEqual(shown(timeline, timeline.frame()));
    // In the past too (replayed), and never more than the instant holds: asking for more leaves the moment
    // where it was (the step that found none is undone).
    await timeline.tick(0.5);
    const past = await timeline.seek(t, Infinity, 3);
    expect([past.replaying, past.impactCount]).toEqual([true, 3]);
    const more = await timeline.seek(t, Infinity, 99);
    expect([more.time, more.impactCount]).toEqual([t, 3]);
    expect(shown(timeline, more)).toEqual(shown(timeline, past));
    // `set` answers with every change since the start, each with its moment.
    await timeline.seek(timeline.live.time);
    const reply = timeline.set({ contact: 0, restitution: 0.25 });
    expect(reply.branched).toBeUndefined();
    expect(reply.edits).toEqual([{ time: timeline.live.time, impactCount: timeline.live.impactCount, change: { contact: 0, restitution: 0.25 } }]);
    timeline.dispose();
    fresh.dispose();
  });

  it('gives the run of a share link: its changes made at their moments, then any moment of it, with the same γ and impacts, to the last bit', async () => {
    // A run with changes made live and in the past (which cut it), shown at an earlier moment.
    const run = new Timeline(oblique, loadScenario('billiards-break'), { nu: 2 });
    await play(run, 0.8);
    run.set({ restitution: 0.6 });
    await play(run, 1.9);
    await run.seek(1.2);
    run.set({ contact: 1, restitution: 0.3 });  // cuts the run at 1.2 s
    await run.step();
    run.set({ nu: null });
    await play(run, 2.6);
    const horizon = { time: run.live.time, impactCount: run.live.impactCount };
    const shownFrame = await run.seekImpact(Math.max(0, run.live.impactCount - 2));
    const shownState = shown(run, shownFrame);
    const edits = run.editList();
    expect(edits.map((e) => e.change)).toEqual([{ restitution: 0.6 }, { contact: 1, restitution: 0.3 }, { nu: null }]);
    expect(horizon.impactCount).toBeGreaterThan(2);
    // What opening the link does: a fresh run with the same start, each change at its moment, the horizon,
    // then the moment shown.
    const copy = new Timeline(oblique, loadScenario('billiards-break'), { nu: 2 });
    const watch = watchReplays();
    for (const { time, impactCount, change } of edits) {
      const at = await copy.seek(time, Infinity, impactCount);
      expect([at.time, at.impactCount]).toEqual([time, impactCount]);
      copy.set(change);
    }
    await copy.seek(horizon.time, Infinity, horizon.impactCount);
    const again = await copy.seek(shownFrame.time, Infinity, shownFrame.impactCount);
    expect(again.replaying).toBe(true);
    expect([again.time, again.impactCount]).toEqual([shownFrame.time, shownFrame.impactCount]);
    expect(shown(copy, again)).toEqual(shownState);
    expect(copy.live.impactCount).toBe(horizon.impactCount);
    const gammas = (timeline) => timeline.live.impactSummariesSince(0).map((r) => [r.t, r.gamma, r.contacts]);
    expect(gammas(copy)).toEqual(gammas(run));
    expect(copy.live.saveState()).toEqual(run.live.saveState());
    expect(watch.resets).not.toHaveBeenCalled();
    run.dispose();
    copy.dispose();
  });

  it('stops the live run at `until` and says so', async () => {
    const timeline = new Timeline(oblique, loadScenario('two-balls'));
    let frame;
    for (let k = 0; k < 20; k++) frame = await timeline.tick(0.25, 2.5);
    expect(frame.time).toBe(2.5);
    expect(frame.ended).toBe(true);
    const step = await timeline.step(10, 2.5);
    expect(step.found).toBe(false);
    expect(step.ended).toBe(true);
    timeline.dispose();
  });

  it('leaves a consistent moment when a run is superseded between two bounded calls, and goes on from it exactly', async () => {
    const timeline = new Timeline(oblique, loadScenario('billiards-break'));
    await play(timeline, 2.2);
    // Calls of small budgets, so that a replay takes many; the run is superseded at its 5th pause.
    timeline.spare = oblique.createSimulation(timeline.document);
    timeline.spare.workBudget = 2e5;
    let pauses = 0;
    const interrupted = { pause: async (always) => { if (always && ++pauses === 5) throw new Superseded(); }, limited: () => false };
    await expect(timeline.seek(1.9, Infinity, 0, interrupted)).rejects.toBeInstanceOf(Superseded);
    const cursor = timeline.cursor;
    expect(cursor.time).toBeGreaterThanOrEqual(1.5);
    expect(cursor.time).toBeLessThan(1.9);
    // The moment it stopped at is one of the run; a seek on from there lands where a straight run does.
    const frame = await timeline.seek(1.9, Infinity, 0, STRAIGHT);
    expect(shown(timeline, frame)).toEqual(straight('billiards-break', (sim) => runTo(sim, 1.9)));
    timeline.dispose();
  });
});
