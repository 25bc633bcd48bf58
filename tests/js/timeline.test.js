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
