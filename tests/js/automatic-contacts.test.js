// Automatic contacts ("collide": "all") through the wasm API: a scene with no declared contact collides —
// a box, a disk and a rod thrown at each other without gravity keep their momentum, every contact point
// and every row of an impact says it is automatic (contact −1), and a saved state (with its automatic
// points) restored in another simulation goes on bit for bit.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { runTo } from './simulation-runs.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** Three shapes thrown at each other, no gravity, no plane, no declared contact. */
const scene = {
  oblique: 1, title: 'mix', gravity: [0, 0], restitution: 0.8, collide: 'all',
  bodies: [
    { name: 'disk', shape: { type: 'disk', radius: 0.1 }, position: [-0.6, 0.03], velocity: [1, 0] },
    { name: 'box', shape: { type: 'box', width: 0.3, height: 0.2 }, mass: 2, angle: 0.3 },
    { name: 'rod', shape: { type: 'rod', length: 0.6, radius: 0.02 }, position: [0.5, 0.1], angle: 1.2,
      velocity: [-0.5, 0], angular_velocity: 1, e: 0.3 },
  ],
};

/** Σ m v (x, y) of the simulation's bodies (masses 1, 2, 1). */
function momentum(sim) {
  const v = sim.velocities;
  const m = [1, 2, 1];
  return [0, 1].map((axis) => m.reduce((sum, mass, i) => sum + mass * v[3 * i + axis], 0));
}

describe('collide: "all" through the wasm API', () => {
  it('collides bodies without declared contacts, keeping momentum, with automatic points and rows', () => {
    const sim = oblique.createSimulation(scene);
    expect(sim.scenario.collide).toBe('all');
    expect(sim.scenario.bodies[2].e).toBe(0.3);
    const before = momentum(sim);
    runTo(sim, 2);
    const impacts = sim.impactsSince(0);
    expect(impacts.length).toBeGreaterThan(0);
    const after = momentum(sim);
    expect(Math.abs(after[0] - before[0])).toBeLessThan(1e-12);
    expect(Math.abs(after[1] - before[1])).toBeLessThan(1e-12);
    for (const record of impacts) {
      expect(record.contacts.every((c) => c === -1)).toBe(true);
      expect(record.gamma).toBeLessThanOrEqual(1);
    }
    // The rows of an impact as the panels name them: automatic points have contact −1.
    const shown = sim.impact(impacts.length - 1);
    expect(shown.rows.filter((row) => row.kind === 'normal').every((row) => row.contact === -1)).toBe(true);
    // The contact points now: as many as the count says, none penetrating.
    const points = sim.contactPoints();
    expect(points.length).toBe(sim.contactPointCount);
    for (const p of points) {
      expect(p.contact).toBe(-1);
      expect(p.gap).toBeGreaterThanOrEqual(-1e-9);
    }
    sim.dispose();
  });

  it('a saved state with automatic points goes on bit for bit in another simulation', () => {
    const pile = {
      oblique: 1, title: 'pile', restitution: 0.3, collide: 'all', integrator: { rest_speed: 0.1, step: 0.002 },
      planes: [{ name: 'floor' }, { name: 'left', point: [-0.25, 0], normal: [1, 0] },
        { name: 'right', point: [0.25, 0], normal: [-1, 0] }],
      bodies: [
        { name: 'd1', position: [-0.12, 0.12], stick: true },
        { name: 'b1', shape: { type: 'box', width: 0.2, height: 0.1 }, position: [0.1, 0.1], angle: 0.2, stick: true },
        { name: 'd2', position: [0, 0.4], stick: true },
      ],
    };
    const sim = oblique.createSimulation(pile);
    runTo(sim, 0.4);
    const state = sim.saveState();
    expect(state.automatic.length).toBeGreaterThan(0);
    runTo(sim, 1);
    const other = oblique.createSimulation(pile);
    other.restoreState(JSON.parse(JSON.stringify(state)));
    runTo(other, 1);
    expect(Array.from(other.positions)).toEqual(Array.from(sim.positions));
    expect(Array.from(other.velocities)).toEqual(Array.from(sim.velocities));
    sim.dispose();
    other.dispose();
  });

  it('refuses a bad collide or body e, naming the field', () => {
    const issues = oblique.checkScenario(JSON.stringify({ ...scene, collide: 'some',
      bodies: [{ ...scene.bodies[0], e: 2 }] }));
    expect(issues.map((i) => i.pointer)).toEqual(expect.arrayContaining(['/collide']));
    expect(() => oblique.createSimulation({ ...scene, bodies: [{ ...scene.bodies[0], e: 2 }] }))
      .toThrow(/\/bodies\/0\/e: must be in \[0, 1\], got 2/);
  });
});
