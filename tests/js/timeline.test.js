// The worker's timeline (web/src/worker/timeline.js) on the wasm engine: every moment it shows in the past is
// the state a straight run reaches, to the last bit — after ticks of any length, across snapshots, after
// "next impact" steps, and with changes of e replayed where they were made; a change made in the past cuts
// the run there.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { SNAPSHOT_EVERY, Timeline } from '../../web/src/worker/timeline.js';
import { loadScenario } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** q of a fresh simulation of `id` after `run(sim)`. */
function straight(id, run) {
  const sim = oblique.createSimulation(loadScenario(id));
  run(sim);
  const q = Array.from(sim.positions);
  sim.dispose();
  return q;
}

/** Live ticks of uneven lengths, as a page's animation frames ask for, up to about `seconds`. */
function play(timeline, seconds) {
  let k = 0;
  while (timeline.live.time < seconds) timeline.tick((1 + (k++ % 7)) / 97);
}

describe('Timeline', () => {
  it('shows any earlier time exactly as a straight run to it, whatever the ticks were', () => {
    for (const id of ['double-pendulum', 'billiards-break']) {
      const timeline = new Timeline(oblique, loadScenario(id));
      play(timeline, 3.2);
      // Snapshots on the grid of SNAPSHOT_EVERY, taken on the way.
      expect(timeline.snapshots.map((s) => s.time)).toEqual(
        Array.from({ length: 7 }, (_, k) => k * SNAPSHOT_EVERY));
      for (const t of [1.234, 0.4, 2.75, 1.5, 1.5000001]) {
        const frame = timeline.seek(t);
        expect(frame.replaying, `${id} at ${t}`).toBe(true);
        expect(frame.time).toBe(t);
        expect(Array.from(frame.positions), `${id} at ${t}`).toEqual(straight(id, (sim) => sim.advance(t)));
      }
      // Past the live time: the live run itself.
      const live = timeline.seek(100);
      expect(live.replaying).toBe(false);
      expect(live.time).toBe(timeline.live.time);
      timeline.dispose();
    }
  });

  it('plays the past forward into the live run, and lands right after a chosen impact', () => {
    const timeline = new Timeline(oblique, loadScenario('double-pendulum'));
    for (let k = 0; k < 6; k++) timeline.step();
    const count = timeline.live.impactCount;
    // Right after impact 2 (0-based): the state of three "next impact" steps.
    const frame = timeline.seekImpact(2);
    expect(frame.impactCount).toBe(3);
    expect(Array.from(frame.positions)).toEqual(
      straight('double-pendulum', (sim) => { while (sim.impactCount < 3) sim.advanceToNextImpact(10); }));
    // Next impact from there is impact 3, already known; ticks then reach the live run and hand over.
    expect(timeline.step().impactCount).toBe(4);
    let last;
    for (let k = 0; k < 1000 && (!last || last.replaying); k++) last = timeline.tick(0.05);
    expect(last.replaying).toBe(false);
    expect(last.impactCount).toBe(count);
    expect(() => timeline.seekImpact(count)).toThrow(/^impact: \d+ is not an impact of this run/);
    timeline.dispose();
  });

  it('replays a change of e where it was made, and cuts the run when one is made in the past', () => {
    const timeline = new Timeline(oblique, loadScenario('double-pendulum'));
    play(timeline, 1.3);
    const at = timeline.live.time;
    timeline.set({ restitution: 0.9 });
    play(timeline, 2.6);
    // Before the change and after it: as straight runs with the same change at the same moment.
    expect(Array.from(timeline.seek(1).positions)).toEqual(straight('double-pendulum', (sim) => sim.advance(1)));
    const t = at + 0.75;
    expect(Array.from(timeline.seek(t).positions)).toEqual(straight('double-pendulum', (sim) => {
      sim.advance(at);
      sim.setRestitution(0.9);
      sim.advance(t - at);
    }));
    // A refused value changes nothing, in the past as live.
    expect(() => timeline.set({ restitution: 2 })).toThrow(/^e: must be in \[0, 1\], got 2/);
    expect(timeline.edits).toHaveLength(1);
    // A change at 2 s cuts the run: the live run is now the past one, its future gone.
    timeline.seek(2);
    const before = timeline.live.impactCount;
    const reply = timeline.set({ restitution: 0.3 });
    expect(reply.branched.time).toBe(2);
    expect(timeline.live.time).toBe(2);
    expect(timeline.live.impactCount).toBe(reply.branched.impactCount);
    expect(reply.branched.impactCount).toBeLessThan(before);
    expect(timeline.edits.map((e) => e.change.restitution)).toEqual([0.9, 0.3]);
    expect(timeline.snapshots.every((s) => s.time <= 2)).toBe(true);
    play(timeline, 2.5);
    expect(Array.from(timeline.seek(2.25).positions)).toEqual(straight('double-pendulum', (sim) => {
      sim.advance(at);
      sim.setRestitution(0.9);
      sim.advance(2 - at);
      sim.setRestitution(0.3);
      sim.advance(0.25);
    }));
    timeline.dispose();
  });

  it('reaches a moment with the impacts logged at its very time, and lists the run\'s changes with their moments', () => {
    const timeline = new Timeline(oblique, loadScenario('double-pendulum'));
    for (let k = 0; k < 3; k++) timeline.step();
    // Right after impact 3: a plain advance to its time leaves it pending; the moment takes it too.
    const { t } = timeline.live.impact(2);
    const fresh = new Timeline(oblique, loadScenario('double-pendulum'));
    expect(fresh.seek(t).impactCount).toBe(2);
    const moment = fresh.seek(t, Infinity, 3);
    expect(moment.impactCount).toBe(3);
    expect(moment.time).toBe(t);
    expect(Array.from(moment.positions)).toEqual(Array.from(timeline.live.positions));
    // In the past too (replayed), and never more than the instant holds.
    timeline.tick(0.5);
    const past = timeline.seek(t, Infinity, 3);
    expect([past.replaying, past.impactCount]).toEqual([true, 3]);
    expect(timeline.seek(t, Infinity, 99).impactCount).toBe(3);
    // `set` answers with every change since the start, each with its moment.
    timeline.seek(timeline.live.time);
    const reply = timeline.set({ contact: 0, restitution: 0.25 });
    expect(reply.branched).toBeUndefined();
    expect(reply.edits).toEqual([{ time: timeline.live.time, impactCount: timeline.live.impactCount, change: { contact: 0, restitution: 0.25 } }]);
    timeline.dispose();
    fresh.dispose();
  });

  it('gives the run of a share link: its changes made at their moments, then any moment of it, to the last bit', () => {
    // A run with changes made live and in the past (which cut it), shown at an earlier moment.
    const run = new Timeline(oblique, loadScenario('billiards-break'), { nu: 2 });
    play(run, 0.8);
    run.set({ restitution: 0.6 });
    play(run, 1.9);
    run.seek(1.2);
    run.set({ contact: 1, restitution: 0.3 });  // cuts the run at 1.2 s
    run.step();
    run.set({ nu: null });
    play(run, 2.6);
    const horizon = { time: run.live.time, impactCount: run.live.impactCount };
    const shown = run.seekImpact(Math.max(0, run.live.impactCount - 2));
    const edits = run.editList();
    expect(edits.map((e) => e.change)).toEqual([{ restitution: 0.6 }, { contact: 1, restitution: 0.3 }, { nu: null }]);
    expect(horizon.impactCount).toBeGreaterThan(2);
    // What opening the link does: a fresh run with the same start, each change at its moment, the horizon,
    // then the moment shown.
    const copy = new Timeline(oblique, loadScenario('billiards-break'), { nu: 2 });
    for (const { time, impactCount, change } of edits) {
      const at = copy.seek(time, Infinity, impactCount);
      expect([at.time, at.impactCount]).toEqual([time, impactCount]);
      copy.set(change);
    }
    copy.seek(horizon.time, Infinity, horizon.impactCount);
    const again = copy.seek(shown.time, Infinity, shown.impactCount);
    expect(again.replaying).toBe(true);
    expect(Array.from(again.positions)).toEqual(Array.from(shown.positions));
    expect(Array.from(again.velocities)).toEqual(Array.from(shown.velocities));
    expect(copy.live.impactCount).toBe(horizon.impactCount);
    expect(copy.live.impactsSince(0).map((r) => [r.t, r.gamma])).toEqual(run.live.impactsSince(0).map((r) => [r.t, r.gamma]));
    run.dispose();
    copy.dispose();
  });

  it('stops the live run at `until` and says so', () => {
    const timeline = new Timeline(oblique, loadScenario('two-balls'));
    let frame;
    for (let k = 0; k < 20; k++) frame = timeline.tick(0.25, 2.5);
    expect(frame.time).toBe(2.5);
    expect(frame.ended).toBe(true);
    const step = timeline.step(10, 2.5);
    expect(step.found).toBe(false);
    expect(step.ended).toBe(true);
    timeline.dispose();
  });
});
