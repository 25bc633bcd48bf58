// Frictional impacts through the wasm module (docs/friction.md): analyzeImpact with `mu` and `pairs` is the
// document `oblique impact` prints, to the last bit; the (μ, e) map agrees with the impacts it samples, bit
// for bit, and shows Kane's paradox; bad input becomes an Error naming the field.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { FRICTION_PRESETS } from '../../web/src/ui/lab/friction-presets.js';
import { cliPath } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

const preset = (id) => {
  const { M, A, qd, e, mu, pairs } = FRICTION_PRESETS.find((p) => p.id === id);
  return { M, A, qd, e, mu, pairs };
};

/** `oblique impact` of a document, parsed (doubles are printed to round-trip: equal parses are equal bits). */
function cliImpact(input) {
  return JSON.parse(execFileSync(cliPath, ['impact', '-'], { input: JSON.stringify(input), encoding: 'utf8' }));
}

describe('analyzeImpact with friction', () => {
  it('is the CLI document, bit for bit, on both sides of μ_crit, at μ = 0 and at "stick"', () => {
    const rod = preset('rod-rough-floor');
    for (const mu of [0, 0.5, 2, 'stick', [0.25]]) {
      const input = { ...rod, mu };
      expect(oblique.analyzeImpact(input), JSON.stringify(mu)).toEqual(cliImpact(input));
    }
    const kane = preset('kane-pendulum');
    expect(oblique.analyzeImpact(kane)).toEqual(cliImpact(kane));
  });

  it('returns the mode, μ_crit, the discriminator, the angle to the cone, the energy and γ', () => {
    const rod = preset('rod-rough-floor');
    const slip = oblique.analyzeImpact({ ...rod, mu: 0.5 });
    const stick = oblique.analyzeImpact({ ...rod, mu: 2 });
    const [s, t] = [slip.friction.pairs[0], stick.friction.pairs[0]];
    expect([s.mode, t.mode]).toEqual(['slip', 'stick']);
    // μ_crit = |i_t|/i_n of the sticking impulse: the same on both sides, and between them.
    expect(s.mu_critical).toBe(t.mu_critical);
    expect(s.mu_critical).toBeGreaterThan(0.5);
    expect(s.mu_critical).toBeLessThan(2);
    expect(t.i_t / t.i_n).toBeCloseTo(t.mu_critical, 12);
    // The discriminator's sign is the mode; a slipping impulse lies on the cone, a sticking one inside.
    expect(s.discriminator).toBeLessThan(0);
    expect(t.discriminator).toBeGreaterThan(0);
    expect(Math.abs(s.cone_angle)).toBeLessThan(1e-12);
    expect(t.cone_angle).toBeLessThan(0);
    expect(s.i_t).toBeCloseTo(0.5 * s.i_n, 12);
    for (const out of [slip, stick]) {
      expect(out.W_loss).toBeLessThan(0);
      expect(out.gamma).toBeCloseTo(out.K_plus / out.K_minus, 14);
    }
  });
});

describe('frictionEnergyMap', () => {
  it('is the impacts it samples, bit for bit, and shows where Kane’s pendulum gains energy', () => {
    const kane = preset('kane-pendulum');
    const resolution = 21;
    const map = oblique.frictionEnergyMap(kane, { muMax: 1, resolution });
    expect(map.energy_change).toHaveLength(resolution * resolution);
    // A few grid points, solved on their own with E per row (e on the normal row only, as the map sets it).
    for (const [row, col] of [[0, 0], [20, 20], [16, 10], [10, 2], [18, 1]]) {
      const E = [0.8, 0.8, 0.8, 0.8, map.e[row], 0];
      const out = oblique.analyzeImpact({ ...kane, e: undefined, E, mu: map.mu[col] });
      const at = row * resolution + col;
      expect(map.energy_change[at], `row ${row} col ${col}`).toBe(out.W_loss / out.K_minus);
      expect(map.energy_gain[at]).toBe(out.flags.energy_gain);
      expect(map.mode[at] === 0).toBe(out.friction.pairs[0].mode === 'stick');
      expect(map.mu_critical[row]).toBe(out.friction.pairs[0].mu_critical);
    }
    // Kane's paradox: sticking above e_stick gains energy; the input's own pair (μ 0.5, e 0.8) is there.
    expect(map.e_stick).toBeGreaterThan(0.6);
    expect(map.e_stick).toBeLessThan(0.7);
    expect(map.at).toMatchObject({ mu: 0.5, e: 0.8, mode: 'stick', energy_gain: true });
    const own = oblique.analyzeImpact(kane);
    expect(own.gamma).toBeGreaterThan(1);
    expect(own.flags.energy_gain).toBe(true);
  });

  it('names bad input in an Error', () => {
    const rod = preset('rod-rough-floor');
    const { mu: _mu, pairs: _pairs, ...frictionless } = rod;
    const cases = [
      [() => oblique.frictionEnergyMap(rod, { muMax: 2, resolution: 1 }), 'resolution: must be an integer in [2, 256]'],
      [() => oblique.frictionEnergyMap(rod, { muMax: 2, resolution: 2.5 }), 'resolution: must be an integer in [2, 256]'],
      [() => oblique.frictionEnergyMap(rod, { muMax: -1, resolution: 5 }), 'mu_max: must be a finite number > 0, got -1'],
      [() => oblique.frictionEnergyMap(rod, { muMax: 2, resolution: 5, pair: 3 }), 'pair: must be one of the pairs (0..0)'],
      [() => oblique.frictionEnergyMap({ ...rod, mu: -1 }, { muMax: 2, resolution: 5 }), 'mu: must be ≥ 0, got -1'],
      [() => oblique.frictionEnergyMap(frictionless, { muMax: 2, resolution: 5 }),
        'mu: missing (the map is over the μ of a frictional pair: give mu and pairs)'],
      [() => oblique.frictionEnergyMap(null, { muMax: 2, resolution: 5 }), 'input: must be an object, got null'],
      [() => oblique.analyzeImpact({ ...rod, pairs: [[0, 1.5]] }), 'pairs[0][1]: must be a whole number (a row of A), got 1.5'],
    ];
    for (const [call, message] of cases) {
      let caught;
      try { call(); } catch (error) { caught = error; }
      expect(caught).toBeInstanceOf(Error);
      expect(caught.message).toBe(message);
    }
    // The module is still usable after every error.
    expect(oblique.frictionEnergyMap(rod, { muMax: 2, resolution: 3 }).mode).toHaveLength(9);
  });
});

describe('the slip speed of a contact point', () => {
  it('is the sliding speed of a block going down an incline, and 0 for one held at the edge of its cone', async () => {
    const { readFileSync } = await import('node:fs');
    const incline = JSON.parse(readFileSync(new URL('../../web/scenarios/incline-block.json', import.meta.url), 'utf8'));
    const run = (mu, t) => {
      const sim = oblique.createSimulation({ ...incline, mu });
      do sim.advanceTo(t); while (sim.workLimitHit);
      const result = { points: sim.contactPoints().filter((p) => p.state === 'active'), v: Array.from(sim.velocities) };
      sim.dispose();
      return result;
    };
    // μ = 0.3 < tan 25°: the block slides flat down the slope; every corner slips at the block's speed along t.
    const sliding = run(0.3, 0.5);
    expect(sliding.points.length).toBe(2);
    for (const p of sliding.points) {
      const t = [-p.normal[1], p.normal[0]];
      expect(p.slip).toBe(-1);
      expect(p.slipSpeed).toBeCloseTo(sliding.v[0] * t[0] + sliding.v[1] * t[1], 12);
      expect(p.slipSpeed).toBeLessThan(-0.1);
    }
    // μ = 0.8 > tan 25°: the block is still. One corner reaches the edge of its cone and keeps its sliding
    // mode (slip −1, friction μλₙ), but nothing moves: its slip speed is 0, which is what the page draws.
    const held = run(0.8, 1);
    expect(held.v).toEqual([0, 0, 0]);
    expect(held.points.some((p) => p.slip !== 0)).toBe(true);
    for (const p of held.points) expect(p.slipSpeed).toBe(0);
  });
});
