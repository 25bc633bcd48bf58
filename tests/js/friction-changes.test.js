// Changing μ during a run through the wasm engine (docs/friction.md, "Changing μ during a run"): the block of
// "incline-block" (a 25° slope, μ = 0.3 < tan 25°) follows the closed forms from each change — given
// μ = 0.6 > tan θ while it slides it decelerates at g(μ cos θ − sin θ) and stops at v/(g(μ cos θ − sin θ)),
// given μ = 0.3 again it slides off at g(sin θ − μ cos θ) —; bad values are Errors naming the field; and the
// worker's timeline replays μ changes where they were made, to the last bit: a moment before a change, one
// after it, and a change made in the past, which cuts the run there.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { Timeline } from '../../web/src/worker/timeline.js';
import { loadScenario } from './scenarios.js';
import { runTo } from './simulation-runs.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

const G = 9.81;
const THETA = (25 * Math.PI) / 180;
const DOWN = [Math.cos(THETA), -Math.sin(THETA)];

/** The block's speed down the slope. */
const downhill = (sim) => sim.velocities[0] * DOWN[0] + sim.velocities[1] * DOWN[1];

function expectClose(got, expected, tolerance = 1e-9) {
  expect(Math.abs(got - expected)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(expected)));
}

describe('setFriction during a run', () => {
  it('makes the incline block follow g(sin θ − μ cos θ) from each change: it stops, then slides again', () => {
    const sim = oblique.createSimulation(loadScenario('incline-block'));
    runTo(sim, 0.5);
    const v = downhill(sim);
    expectClose(v, G * (Math.sin(THETA) - 0.3 * Math.cos(THETA)) * 0.5);
    // μ = 0.6 > tan 25° ≈ 0.466: it slows at g(μ cos θ − sin θ) and stops.
    sim.setFriction(0.6);
    const deceleration = G * (0.6 * Math.cos(THETA) - Math.sin(THETA));
    const stop = 0.5 + v / deceleration;
    runTo(sim, 0.75);
    expectClose(downhill(sim), v - deceleration * 0.25);
    runTo(sim, 1.5);
    expect(stop).toBeLessThan(1.5);
    expect(Math.hypot(...sim.velocities)).toBeLessThan(1e-12);
    expect(sim.contactPoints().filter((p) => p.state === 'active')).toHaveLength(2);
    // μ = 0.3 again: it slides off at g(sin θ − μ cos θ), both corners slipping downhill (toward −t).
    sim.setFriction(0.3);
    runTo(sim, 2);
    expectClose(downhill(sim), G * (Math.sin(THETA) - 0.3 * Math.cos(THETA)) * 0.5);
    expect(sim.contactPoints().filter((p) => p.state === 'active').map((p) => p.slip)).toEqual([-1, -1]);
    expect(sim.scenario.contacts.map((c) => c.mu)).toEqual([0.3, 0.3]);
    sim.dispose();
  });

  it('takes "stick" and one contact\'s μ, and names the field of a bad value, changing nothing', () => {
    const sim = oblique.createSimulation(loadScenario('incline-block'));
    runTo(sim, 0.2);
    expect(() => sim.setFriction(-1)).toThrow(/^mu: must be in \[0, 1000\] or \+Infinity \(stick\), got -1$/);
    expect(() => sim.setFriction(NaN)).toThrow(/^mu: /);
    expect(() => sim.setFriction('slippery')).toThrow(/^mu: must be a number ≥ 0 or "stick"$/);
    expect(() => sim.setContactFriction(0, -0.5)).toThrow(/^contacts\[0\]\.mu: /);
    expect(() => sim.setContactFriction(5, 0.5)).toThrow(/^contact: /);
    expect(sim.scenario.contacts[0].mu ?? sim.scenario.mu).toBe(0.3);
    sim.setContactFriction(0, 'stick');
    expect(sim.scenario.contacts[0].stick).toBe(true);
    // Made stick while it slides: the sticking impact is logged and the block stops sliding.
    expect(sim.impactCount).toBe(1);
    runTo(sim, 0.4);
    expect(Math.abs(downhill(sim))).toBeLessThan(0.05);
    sim.dispose();
  });
});

describe('the timeline with changes of μ', () => {
  /** A straight run of incline-block: to 0.5 s, μ = 0.6, to `t`. */
  function straightRun(t, more = () => {}) {
    const sim = oblique.createSimulation(loadScenario('incline-block'));
    runTo(sim, Math.min(0.5, t));
    if (t > 0.5) {
      sim.setFriction(0.6);
      more(sim);
      runTo(sim, t);
    }
    const out = { state: sim.saveState(), q: Array.from(sim.positions) };
    sim.dispose();
    return out;
  }

  it('replays a change of μ where it was made, and a change in the past cuts the run there', async () => {
    const timeline = new Timeline(oblique, loadScenario('incline-block'));
    await timeline.tick(0.5);
    const { edits } = timeline.set({ mu: 0.6 });
    expect(edits).toEqual([{ time: 0.5, impactCount: 0, change: { mu: 0.6 } }]);
    await timeline.tick(0.5);
    await timeline.tick(0.5);
    // Before the change and after it, from the snapshots.
    for (const t of [0.3, 1.2]) {
      const frame = await timeline.seek(t);
      expect(frame.replaying).toBe(true);
      const expected = straightRun(t);
      expect(Array.from(frame.positions)).toEqual(expected.q);
      expect(timeline.shown.saveState()).toEqual(expected.state);
    }
    // In the past, at 0.8 s: μ = 0 from there (the block slides off frictionless).
    await timeline.seek(0.8);
    const reply = timeline.set({ contact: 0, mu: 0 });
    expect(reply.branched).toEqual({ time: 0.8, impactCount: 0 });
    const frame = await timeline.tick(0.2);
    const expected = straightRun(1, (sim) => {
      runTo(sim, 0.8);
      sim.setContactFriction(0, 0);
    });
    expect(Array.from(frame.positions)).toEqual(expected.q);
    expect(timeline.live.saveState()).toEqual(expected.state);
    // Made stick in the past, at 0.7 s while it slides: the sticking impact is the run's first impact.
    await timeline.seek(0.7);
    timeline.set({ mu: 'stick' });
    expect(timeline.live.impactCount).toBe(1);
    const stuck = await timeline.tick(0.1);
    const straightStuck = straightRun(0.7 + 0.1, (sim) => {  // the time the tick reaches, 0.7999…
      runTo(sim, 0.7);
      sim.setFriction('stick');
    });
    expect(Array.from(stuck.positions)).toEqual(straightStuck.q);
    expect(timeline.live.saveState()).toEqual(straightStuck.state);
    expect(timeline.live.impactSummary(0).t).toBeLessThanOrEqual(0.7);
    timeline.dispose();
  });
});
