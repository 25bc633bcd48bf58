// The core in two files (web/src/engine/deferred-code.js): with `lazyCode` (the page's worker) only the part
// the first frame runs is loaded, and the rest comes with loadAll() — in a worker also at its first use, by
// a synchronous request. When that rest cannot be had, a call that needs it fails with an Error that says
// so, nothing the user had is lost, and the same call works once the rest is loaded. In Node only
// loadAll() can bring it, which makes the failure reproducible here. (Its own file: loadOblique() keeps one
// engine per module instance, and every other test file loads the whole core.)
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { FRICTION_PRESETS } from '../../web/src/ui/lab/friction-presets.js';
import { cliPath } from './scenarios.js';

const droppedBall = {
  oblique: 1, title: 'drop', restitution: 0.8, gravity: [0, -9.81],
  bodies: [{ name: 'ball', shape: { type: 'disk', radius: 0.1 }, mass: 1, position: [0, 1.1] }],
  planes: [{ name: 'floor', point: [0, 0], normal: [0, 1] }],
  contacts: [{ type: 'body_plane', body: 'ball', plane: 'floor' }],
};

it('fails a call that needs the code not loaded yet with a readable Error, then runs it once loaded', async () => {
  const oblique = await loadOblique({ lazyCode: true });
  // What the first frame runs: a scenario read and its simulation created.
  const sim = oblique.createSimulation(droppedBall);
  // What it does not run: the (μ, e) map of a frictional impact (Kane's pendulum).
  const { M, A, qd, e, mu, pairs } = FRICTION_PRESETS.find((p) => p.id === 'kane-pendulum');
  const kane = { M, A, qd, e, mu, pairs };
  expect(() => oblique.frictionEnergyMap(kane, { muMax: 1, resolution: 5 }))
    .toThrow(/^The physics engine could not load the rest of its code \(.+\); check the connection and try again$/);
  // Loaded, the simulation made before is intact: the ball dropped from 1 m meets the floor at √(2h/g) and
  // again after a flight of 2·e·√(2h/g).
  await oblique.loadAll();
  expect(sim.advanceToNextImpact(5)).toBe(true);
  expect(sim.time).toBeCloseTo(Math.sqrt(2 / 9.81), 9);
  const first = sim.time;
  expect(sim.advanceToNextImpact(5)).toBe(true);
  expect(sim.time - first).toBeCloseTo(2 * 0.8 * Math.sqrt(2 / 9.81), 9);
  // And the call that failed works: its impacts are those of `oblique impact`, bit for bit.
  const map = oblique.frictionEnergyMap(kane, { muMax: 1, resolution: 5 });
  expect(map.energy_change).toHaveLength(25);
  const E = [0.8, 0.8, 0.8, 0.8, map.e[4], 0];
  const cli = JSON.parse(execFileSync(cliPath, ['impact', '-'],
    { input: JSON.stringify({ M, A, qd, E, mu: map.mu[4], pairs }), encoding: 'utf8' }));
  expect(map.energy_change[4 * 5 + 4]).toBe(cli.W_loss / cli.K_minus);
  sim.dispose();
});
