// A step that cannot be taken, through the JS API: when the contact points would pass the limit (8192) in
// the middle of a run, the advance call throws an Error whose message names the limit and the bodies, and
// the simulation stays exactly where it was (simulator.hpp, Simulator::advance), still usable.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** 128 wheels of 64 spokes with a declared floor contact each (8192 points, the limit) and a ball falling
 * toward the floor, whose first automatic point is one too many. */
function crowdedScene() {
  const bodies = [];
  const contacts = [];
  for (let i = 0; i < 128; i++) {
    bodies.push({ name: `wheel ${i}`, shape: { type: 'wheel', radius: 0.1, spokes: 64 }, position: [0.3 * i, 5], collides: false });
    contacts.push({ body: `wheel ${i}`, plane: 'floor' });
  }
  bodies.push({ name: 'ball', position: [-1, 0.11], velocity: [0, -1] });
  return { oblique: 1, collide: 'all', gravity: [0, 0], planes: [{ name: 'floor' }], bodies, contacts };
}

describe('a step that fails', () => {
  it('throws an Error naming the limit and the bodies, and leaves the simulation as it was', () => {
    const sim = oblique.createSimulation(crowdedScene());
    try {
      expect(sim.contactPointCount).toBe(8192);
      let error = null;
      let before = null;
      let positions = null;
      for (let k = 1; k <= 50 && !error; k++) {
        before = JSON.stringify(sim.saveState());
        positions = Array.from(sim.positions);
        try {
          sim.advanceTo(k * 0.001);
        } catch (e) {
          error = e;
        }
      }
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toMatch(/^too many contact points at t = [0-9.e-]+ s: 8193 \(8192 declared, 1 found/);
      expect(error.message).toContain('the limit is 8192');
      expect(error.message).toContain('"wheel 0" (64)');
      expect(JSON.stringify(sim.saveState())).toBe(before);
      expect(Array.from(sim.positions)).toEqual(positions);
      // The same call fails again, the same way; the simulation is still usable.
      const failedAt = sim.time;
      expect(() => sim.advance(0.01)).toThrow(error.message);
      expect(JSON.stringify(sim.saveState())).toBe(before);
      sim.reset();
      expect(sim.time).toBe(0);
      // A call may stop at its work budget: call again, as every caller does.
      do sim.advanceTo(failedAt / 2); while (sim.workLimitHit);
      expect(sim.time).toBe(failedAt / 2);
      expect(sim.positions[3 * 128 + 1]).toBeCloseTo(0.11 - failedAt / 2, 12);
    } finally {
      sim.dispose();
    }
  });
});
