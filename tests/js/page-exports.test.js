// What the playground needs from the core, exported through the engine API so that the page computes no
// physics of its own: cond(Mc) against ν and the optimal ν, what each row of an impact's A measures, the
// contact buffer's layout, the analyzeImpact input of a logged impact, and inputs of extreme size.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { loadScenario } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

const twoParticles = { M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 0.8 };

describe('cond(Mc) against ν', () => {
  it('is smallest on [λ_min≠0(Mo), λ_max(Mo)] and agrees with analyzeImpact at every ν', () => {
    // A tilted rod: n = 3, one row, so Mo has two non-zero eigenvalues and cond(Mc) varies with ν.
    const rod = { M: [[1, 0, 0], [0, 1, 0], [0, 0, 1 / 12]], A: [[0, 1, -0.5 * Math.cos(Math.PI / 6)]], qd: [0, -1, 0], e: 0.5 };
    const nus = [1e-4, 1e-2, 0.05, 0.3, 1, 3, 100, 1e4];
    const curve = oblique.conditionCurve(rod, nus);
    const [lo, hi] = curve.nu_range;
    expect(curve.cond_Mc).toHaveLength(nus.length);
    // The default ν is the geometric middle of the optimal interval, and the one analyzeImpact uses.
    expect(curve.nu_optimal).toBeCloseTo(Math.sqrt(lo * hi), 12);
    const analysis = oblique.analyzeImpact(rod);
    expect(analysis.nu_optimal).toBe(curve.nu_optimal);
    expect(analysis.nu).toBe(curve.nu_optimal);
    nus.forEach((nu, i) => {
      // The condition number of the Mc analyzeImpact builds at that ν.
      expect(curve.cond_Mc[i]).toBeCloseTo(oblique.analyzeImpact({ ...rod, nu }).cond_Mc, 8);
      // The appendix: Mc has the eigenvalues of Mo on the range of P and ν elsewhere, so
      // cond(Mc) = max(ν, λ_max)/min(ν, λ_min≠0): hi/lo inside the interval, more outside.
      expect(curve.cond_Mc[i] / (Math.max(nu, hi) / Math.min(nu, lo))).toBeCloseTo(1, 12);
      if (nu < lo || nu > hi) expect(curve.cond_Mc[i]).toBeGreaterThan(hi / lo);
    });
    // A record's own M and A serve as well (other keys are ignored).
    expect(oblique.conditionCurve({ ...analysis, M: rod.M, A: rod.A }, [1]).cond_Mc[0]).toBe(curve.cond_Mc[4]);
  });

  it('is 1 for a fully constrained system and names a bad ν', () => {
    const full = oblique.conditionCurve({ M: [[2, 0], [0, 1]], A: [[1, 0], [0, 1]] }, [0.1, 10]);
    expect(full.cond_Mc).toEqual([1, 1]);
    expect(() => oblique.conditionCurve(twoParticles, [1, -2])).toThrow(/^nu\[1\]: must be a finite number > 0/);
    expect(() => oblique.conditionCurve(twoParticles, [NaN])).toThrow(/^nu\[0\]: must be a finite number/);
    expect(() => oblique.conditionCurve({ A: [[1, 0]] }, [1])).toThrow(/^M: missing/);
    expect(() => oblique.conditionCurve(null, [1])).toThrow(/^input: must be an object/);
  });
});

describe('the velocity picture', () => {
  it('splits q̇⁻ into M-orthogonal parts and places q̇⁺ in their plane', () => {
    // Two particles: K⁻ = 5.5, the blocked part is the relative motion, e = 0.8 reverses it scaled.
    const { velocity_plane: plane, K_minus: K, K_plus: Kp } = oblique.analyzeImpact(twoParticles);
    expect(plane.allowed ** 2 + plane.blocked ** 2).toBeCloseTo(2 * K, 12);
    expect(plane.plus[0]).toBeCloseTo(plane.allowed, 12);
    expect(plane.plus[1]).toBeCloseTo(-0.8 * plane.blocked, 12);
    expect(plane.plus[0] ** 2 + plane.plus[1] ** 2 + plane.outside ** 2).toBeCloseTo(2 * Kp, 12);
    // Unequal eᵢ on a rank-deficient A leave part of q̇⁺ off the plane; the total is still 2K⁺.
    const rod = oblique.analyzeImpact({ M: [[1, 0, 0], [0, 1, 0], [0, 0, 1 / 12]], A: [[0, 1, -0.5], [0, 1, 0], [0, 1, 0.5]],
      qd: [0.2, -1, 0.5], E: [0.2, 0.9, 0.5] });
    const p = rod.velocity_plane;
    expect(p.plus[0] ** 2 + p.plus[1] ** 2 + p.outside ** 2).toBeCloseTo(2 * rod.K_plus, 10);
  });
});

describe('the rows of an impact', () => {
  it('names the joints’ components first, then each impact point’s rows (double pendulum)', () => {
    const scenario = loadScenario('double-pendulum');
    const sim = oblique.createSimulation(scenario);
    // A call may stop at its work budget before the impact: call again, as every caller does.
    let found = false;
    do found = sim.advanceToNextImpact(10); while (!found && sim.workLimitHit);
    expect(found).toBe(true);
    const record = sim.impact(sim.impactCount - 1);
    expect(record.rows).toHaveLength(record.m);
    // Two pins: x and y each; then the floor contact's normal row at the row the record names.
    const joints = record.rows.filter((row) => row.kind === 'joint');
    expect(joints.map((row) => `${row.joint}${row.part}`)).toEqual(['0x', '0y', '1x', '1y']);
    record.normal_rows.forEach((row, k) => {
      expect(record.rows[row]).toMatchObject({ kind: 'normal', point: record.points[k], contact: record.contacts[k] });
    });
    sim.dispose();
  });

  it('gives a sticking contact its tangential row right after its normal row (rimless wheel)', () => {
    const sim = oblique.createSimulation(loadScenario('rimless-wheel'));
    expect(sim.advanceToNextImpact(10)).toBe(true);
    const record = sim.impact(sim.impactCount - 1);
    const [row] = record.normal_rows;
    expect(record.rows[row].kind).toBe('normal');
    expect(record.rows[row + 1]).toMatchObject({ kind: 'tangent', point: record.points[0] });
    expect(record.rows).toHaveLength(record.m);
    sim.dispose();
  });
});

describe('the contact buffer', () => {
  it('is read through the layout the binding describes: every field in its place', () => {
    const sim = oblique.createSimulation(loadScenario('box-corner'));
    sim.advanceToNextImpact(5);
    const points = sim.contactPoints();
    expect(points).toHaveLength(sim.contactPointCount);
    const record = sim.impact(sim.impactCount - 1);
    const k = record.points[0];
    // The impact point: on the floor (y = 0), normal up, impacting, with its gap ≈ 0.
    expect(points[k].state).toBe('impacting');
    expect(points[k].contact).toBe(record.contacts[0]);
    expect(points[k].bodyA).toBe(0);
    expect(points[k].bodyB).toBe(-1);
    expect(points[k].point[1]).toBeCloseTo(0, 9);
    expect(points[k].normal).toEqual([0, 1]);
    expect(Math.abs(points[k].gap)).toBeLessThan(1e-9);
    expect(points[k].point[0]).toBeCloseTo(record.positions[0][0], 12);
    for (const p of points) expect(['inactive', 'active', 'impacting']).toContain(p.state);
    sim.dispose();
  });
});

describe('a logged impact solved again', () => {
  it('carries i_u and the unilateral rows: analyzeImpact solves a scheduled impulse again', () => {
    const scenario = {
      oblique: 1, gravity: [0, 0],
      bodies: [{ name: 'a', position: [0, 0] }, { name: 'b', position: [0.5, 0] }],
      joints: [{ type: 'distance', body_a: 'a', body_b: 'b' }],
      impulses: [{ body: 'a', time: 0.1, impulse: [0.3, 1], angular: 0.02 }],
    };
    const sim = oblique.createSimulation(scenario);
    expect(sim.advanceToNextImpact(1)).toBe(true);
    const record = sim.impact(0);
    expect(record.scheduled).toBe(true);
    expect(record.iu).toEqual([0.3, 1, 0.02, 0, 0, 0]);
    expect(record.unilateral).toEqual([false]);
    const input = { M: record.M, A: record.A, qd: record.qd_minus, E: record.restitution, iu: record.iu,
      unilateral: record.unilateral };
    const again = oblique.analyzeImpact(input);
    // The projections of the record are those of its own M and A: analyzeImpact builds the same, bit for bit.
    for (const key of ['S', 'R', 'P', 'Mc', 'E_tilde', 'Q', 'nu', 'nu_optimal', 'nu_range', 'cond_Mc', 'rank']) {
      expect(again[key], key).toEqual(record[key]);
    }
    // q̇⁺: the run solved the impact in mass-scaled coordinates (docs/engine-api.md), analyzeImpact as the
    // paper writes it: the same to round-off — and a kick away from the impact without the record's i_u.
    again.qd_plus.forEach((v, i) => expect(v).toBeCloseTo(record.qd_plus[i], 14));
    const { iu: _iu, ...unkicked } = input;
    expect(Math.abs(oblique.analyzeImpact(unkicked).qd_plus[0] - record.qd_plus[0])).toBeGreaterThan(0.1);
    // At another ν the same velocities, to rounding (S does not depend on ν).
    const other = oblique.analyzeImpact({ ...input, nu: record.nu * 100 });
    other.qd_plus.forEach((v, i) => expect(v).toBeCloseTo(record.qd_plus[i], 12));
    sim.dispose();
  });
});

describe('inputs of extreme size', () => {
  it('refuses results that overflow, naming M or qd', () => {
    expect(() => oblique.analyzeImpact({ ...twoParticles, M: [[1e308, 0], [0, 1e308]] }))
      .toThrow(/^M: K⁻ = ½q̇⁻ᵀMq̇⁻ overflows double precision/);
    expect(() => oblique.analyzeImpact({ ...twoParticles, qd: [3e155, -1e155] }))
      .toThrow(/^qd: K⁻ = ½q̇⁻ᵀMq̇⁻ overflows double precision/);
  });

  it('keeps rows of A of extreme length as constraints: momentum and q̇⁺ as for unit rows', () => {
    for (const scale of [1e-300, 1e300]) {
      const out = oblique.analyzeImpact({ ...twoParticles, A: [[-scale, scale]] });
      expect(out.qd_plus[0]).toBeCloseTo(-1.8, 12);
      expect(out.qd_plus[1]).toBeCloseTo(1.4, 12);
      // Momentum: m₁v₁ + m₂v₂ = 3 − 2 = 1 before and after.
      expect(out.qd_plus[0] + 2 * out.qd_plus[1]).toBeCloseTo(1, 12);
      expect(out.row_scale).toHaveLength(1);
      expect(Math.abs(out.phid_minus[0])).toBeGreaterThan(1);
    }
    expect(oblique.analyzeImpact(twoParticles).row_scale).toBeUndefined();
  });
});
