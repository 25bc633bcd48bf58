// analyzeImpact through the wasm module: the paper's identities and the textbook impacts, and bad input
// reported as Errors that name the field. The same checks as the C++ suite, on the code the browser runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { dot, identity, matmul, matvec, randomSystems, relGap, scale, sub, transpose } from './linalg.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** Jacobians of every kind the simulator produces, with n columns. */
function jacobians(rng, n) {
  const full = rng.matrix(2, n);
  const repeated = [...rng.matrix(2, n)];
  repeated.push(repeated[0].slice());
  const dependent = rng.matrix(2, n);
  dependent.push(dependent[0].map((x, j) => 0.7 * x - 1.3 * dependent[1][j]));
  const tall = matmul(rng.matrix(n + 2, n - 1), rng.matrix(n - 1, n));
  return { full, repeated, dependent, none: [], tall };
}

describe('analyzeImpact: the paper identities on random systems', () => {
  for (const kind of ['full', 'repeated', 'dependent', 'none', 'tall']) {
    it(`holds for ${kind} Jacobians`, () => {
      const rng = randomSystems(17 + kind.length);
      for (let trial = 0; trial < 8; trial++) {
        const n = rng.integer(4, 7);
        const M = rng.inertia(n);
        const A = jacobians(rng, n)[kind];
        const qd = rng.vector(n);
        const e = (trial + 0.5) / 8;
        const out = oblique.analyzeImpact({ M, A, qd, e });
        const { S, R, P } = out;
        const I = identity(n);
        // S² = S, SP = 0, (I − P)S = I − P, MS = SᵀM, R² = I.
        expect(relGap(matmul(S, S), S)).toBeLessThan(1e-9);
        expect(relGap(matmul(S, P), scale(I, 0))).toBeLessThan(1e-9);
        expect(relGap(matmul(sub(I, P), S), sub(I, P))).toBeLessThan(1e-9);
        expect(relGap(matmul(M, S), matmul(transpose(S), M))).toBeLessThan(1e-9);
        expect(relGap(matmul(R, R), I)).toBeLessThan(1e-9);
        for (const [name, value] of Object.entries(out.identities)) expect(value, name).toBeLessThan(1e-9);
        // Momentum balance M(q̇⁺ − q̇⁻) = i_f, the restitution law, γ ∈ [0, 1], W_loss = K⁺ − K⁻.
        expect(relGap(matvec(M, sub(out.qd_plus, qd)), out.i_f)).toBeLessThan(1e-9);
        if (A.length) expect(relGap(matvec(A, out.qd_plus), scale(matvec(A, qd), -e))).toBeLessThan(1e-8);
        expect(out.gamma).toBeGreaterThanOrEqual(-1e-12);
        expect(out.gamma).toBeLessThanOrEqual(1 + 1e-12);
        const kPlus = 0.5 * dot(out.qd_plus, matvec(M, out.qd_plus));
        const kMinus = 0.5 * dot(qd, matvec(M, qd));
        expect(out.W_loss).toBeCloseTo(kPlus - kMinus, 10);
        expect(out.energy_consistent).toBe(true);
        // q̇⁺ does not depend on ν.
        const other = oblique.analyzeImpact({ M, A, qd, e, nu: out.nu * 37 });
        expect(relGap(other.qd_plus, out.qd_plus)).toBeLessThan(1e-8);
        expect(other.cond_Mc).toBeGreaterThanOrEqual(out.cond_Mc * (1 - 1e-9));
      }
    });
  }
});

describe('analyzeImpact: textbook impacts', () => {
  it('two particles on a line (masses 1 and 2, e = 0.8)', () => {
    const [m1, m2, v1, v2, e] = [1, 2, 3, -1, 0.8];
    const j = (1 + e) * (m1 * m2 / (m1 + m2)) * (v1 - v2);
    const out = oblique.analyzeImpact({ M: [[m1, 0], [0, m2]], A: [[-1, 1]], qd: [v1, v2], e });
    expect(out.qd_plus[0]).toBeCloseTo(v1 - j / m1, 12);
    expect(out.qd_plus[1]).toBeCloseTo(v2 + j / m2, 12);
    expect(out.qd_plus[0]).toBeCloseTo(-1.8, 12);
    expect(out.qd_plus[1]).toBeCloseTo(1.4, 12);
    expect(out.i_f[1]).toBeCloseTo(4.8, 12);
    expect(out.gamma).toBeCloseTo(0.650909, 6);
  });

  it('three-ball chain, simultaneous law: v = ((1 − 2e)/3, (1 + e)/3, (1 + e)/3)', () => {
    for (const e of [0, 0.9, 1]) {
      const out = oblique.analyzeImpact({ M: identity(3), A: [[-1, 1, 0], [0, -1, 1]], qd: [1, 0, 0], e });
      expect(relGap(out.qd_plus, [(1 - 2 * e) / 3, (1 + e) / 3, (1 + e) / 3])).toBeLessThan(1e-12);
      expect(relGap(out.i_lambda, [(2 * (1 + e)) / 3, (1 + e) / 3])).toBeLessThan(1e-12);
    }
    const out = oblique.analyzeImpact({ M: identity(3), A: [[-1, 1, 0], [0, -1, 1]], qd: [1, 0, 0], e: 0.9 });
    expect(out.gamma).toBeCloseTo(0.873333, 6);
  });

  it('tilted rod hits the ground on one end (30°, e = 0.5)', () => {
    const d = 0.5 * Math.cos(Math.PI / 6);
    const inertia = 1 / 12;
    const out = oblique.analyzeImpact({
      M: [[1, 0, 0], [0, 1, 0], [0, 0, inertia]], A: [[0, 1, -d]], qd: [0, -1, 0], e: 0.5,
    });
    const j = 1.5 / (1 + (d * d) / inertia);
    expect(relGap(out.qd_plus, [0, -1 + j, (-d * j) / inertia])).toBeLessThan(1e-12);
    expect(out.gamma).toBeCloseTo(0.769231, 6);
  });

  it('flat rod on three contacts: rank 2, solved although AM⁻¹Aᵀ is singular', () => {
    const out = oblique.analyzeImpact({
      M: [[1, 0, 0], [0, 1, 0], [0, 0, 1 / 12]], A: [[0, 1, -0.5], [0, 1, 0], [0, 1, 0.5]], qd: [0.2, -1, 0.5], e: 0.5,
    });
    expect(out.rank).toBe(2);
    expect(relGap(out.qd_plus, [0.2, 0.5, -0.25])).toBeLessThan(1e-12);
  });

  it('per-row restitution obeys Newton law row by row', () => {
    const E = [0.9, 0.2];
    const A = [[-1, 1, 0], [0, -1, 1]];
    const qd = [2, 0, -1];
    const out = oblique.analyzeImpact({ M: identity(3), A, qd, E });
    const before = matvec(A, qd);
    expect(relGap(matvec(A, out.qd_plus), before.map((v, i) => -E[i] * v))).toBeLessThan(1e-12);
    expect(out.newton_residual).toBeLessThan(1e-12);
  });
});

describe('analyzeImpact: bad input becomes an Error naming the field', () => {
  const good = { M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 0.8 };
  const cases = [
    [{ ...good, e: 1.5 }, /^e: must be in \[0, 1\], got 1\.5$/],
    [{ ...good, e: -0.1 }, /^e: must be in \[0, 1\]/],
    [{ ...good, qd: [3, NaN] }, /^qd\[1\]: must be a finite number, got NaN$/],
    [{ ...good, M: [[1, 0], [0, Infinity]] }, /^M\[1\]\[1\]: must be a finite number, got Infinity$/],
    [{ ...good, qd: [1, 2, 3] }, /^qd: must have 2 entries/],
    [{ ...good, M: [[1, 0.5], [0, 2]] }, /^M: must be symmetric/],
    [{ ...good, M: [[1, 3], [3, 1]] }, /^M: must be positive definite$/],
    [{ ...good, A: [[-1, 1, 0]] }, /^A: every row must have 2 entries/],
    [{ M: good.M, A: good.A, qd: good.qd }, /^e: missing/],
    [{ ...good, E: [0.5] }, /^E: give either e or E, not both$/],
    [{ ...good, nu: 0 }, /^nu: must be a finite positive number$/],
    [{ ...good, qdot: [1, 2] }, /^qdot: unknown field "qdot" in the impact document \(allowed: M, A, qd, e, E, iu, nu, unilateral\)$/],
    [{ ...good, unilatral: [true] }, /^unilatral: unknown field "unilatral"; did you mean "unilateral"\?$/],
    [{ ...good, A: 'rows' }, /^A: must be an array of rows, got a string$/],
  ];
  for (const [input, message] of cases) {
    it(`rejects ${message.source}`, () => {
      expect(() => oblique.analyzeImpact(input)).toThrow(message);
      let caught;
      try { oblique.analyzeImpact(input); } catch (error) { caught = error; }
      expect(caught).toBeInstanceOf(Error);
    });
  }
  it('rejects a non-object before reaching the core', () => {
    expect(() => oblique.analyzeImpact(null)).toThrow(/^input: must be an object, got null$/);
    expect(() => oblique.analyzeImpact([1, 2])).toThrow(/^input: must be an object, got an array$/);
  });
  it('bounds the sizes of M and A before computing anything (4000 rows took 104 s)', () => {
    const rows = Array.from({ length: 4000 }, () => [1]);
    expect(() => oblique.analyzeImpact({ M: [[1]], A: rows, qd: [-1], e: 0.5 }))
      .toThrow(/^A: has 4000 rows; at most 512 \(the cost grows as their cube\)$/);
    const identity = Array.from({ length: 300 }, (_, i) => Array.from({ length: 300 }, (_, j) => (i === j ? 1 : 0)));
    expect(() => oblique.analyzeImpact({ M: identity, A: [], qd: new Array(300).fill(0), e: 0.5 }))
      .toThrow(/^M: has 300 rows; at most 256/);
  });

  it('keeps working after errors (no leaked exception state)', () => {
    for (let i = 0; i < 200; i++) expect(() => oblique.analyzeImpact({ ...good, e: 2 })).toThrow();
    expect(oblique.analyzeImpact(good).qd_plus[1]).toBeCloseTo(1.4, 12);
  });
});

describe('energyConsistencyMap', () => {
  it('is λ_max(EQE − Q) of analyzeImpact at every (e₁, e₂), and ≤ 0 on the diagonal', () => {
    // Two balls hitting a third from both sides: two contacts, Q is 2×2.
    const input = { M: [[1, 0, 0], [0, 2, 0], [0, 0, 0.5]], A: [[-1, 1, 0], [0, -1, 1]], qd: [2, 0, -1] };
    const { Q } = oblique.analyzeImpact({ ...input, e: 0.5 });
    const resolution = 11;
    const map = oblique.energyConsistencyMap(Q, resolution);
    expect(map.resolution).toBe(resolution);
    expect(map.values).toBeInstanceOf(Float64Array);
    expect(map.values).toHaveLength(resolution * resolution);
    for (const [row, col] of [[0, 0], [3, 7], [10, 2], [10, 10], [5, 5]]) {
      const E = [col / (resolution - 1), row / (resolution - 1)];
      const { qmi_max_eig: expected } = oblique.analyzeImpact({ ...input, E });
      expect(map.values[row * resolution + col]).toBeCloseTo(expected, 12);
      if (row === col) expect(map.values[row * resolution + col]).toBeLessThanOrEqual(1e-12);
    }
  });

  it('varies two rows of a larger Q, holding the others (a joint at e = 0)', () => {
    // A pinned first ball (a joint row) and two contacts: the square is over the contacts.
    const input = { M: [[1, 0, 0], [0, 2, 0], [0, 0, 0.5]], A: [[1, 0, 0], [-1, 1, 0], [0, -1, 1]], qd: [0, 0, -1] };
    const { Q } = oblique.analyzeImpact({ ...input, e: 0.5 });
    const resolution = 5;
    const map = oblique.energyConsistencyMap(Q, resolution, { rows: [1, 2], restitution: [0, 0.5, 0.5] });
    expect(map.rows).toEqual([1, 2]);
    for (const [row, col] of [[0, 4], [2, 3], [4, 4]]) {
      const E = [0, col / (resolution - 1), row / (resolution - 1)];
      expect(map.values[row * resolution + col]).toBeCloseTo(oblique.analyzeImpact({ ...input, E }).qmi_max_eig, 12);
    }
  });

  it('names the bad argument', () => {
    expect(() => oblique.energyConsistencyMap([[1, 0], [0, 1]], 1)).toThrow(/^resolution: /);
    expect(() => oblique.energyConsistencyMap([[1, 0], [0, 1]], 2.5)).toThrow(/^resolution: /);
    expect(() => oblique.energyConsistencyMap([[1, 0, 0], [0, 1, 0], [0, 0, 1]], 10)).toThrow(/^rows: give the two rows/);
    expect(() => oblique.energyConsistencyMap([[1, 0, 0], [0, 1, 0], [0, 0, 1]], 10, { rows: [2, 2] })).toThrow(/^rows: /);
    expect(() => oblique.energyConsistencyMap([[1, 0], [0, 1]], 10, { restitution: [0, 2] })).toThrow(/^E\[1\]: must be in \[0, 1\]/);
    expect(() => oblique.energyConsistencyMap([[1, NaN], [0, 1]], 10)).toThrow(/^Q\[0\]\[1\]: must be a finite number/);
  });

  it('bounds its work, naming the finest resolution the Q allows (300×300 at 512 ran for minutes)', () => {
    const identity = (m) => Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (i === j ? 1 : 0)));
    expect(() => oblique.energyConsistencyMap(identity(16), 512, { rows: [0, 1] }))
      .toThrow(/^resolution: 512 is too fine for a Q of 16 rows: .* \(resolution at most 110 for 16 rows\)$/);
    expect(() => oblique.energyConsistencyMap(identity(300), 512, { rows: [0, 1] }))
      .toThrow(/^Q: has 300 rows: a map costs resolution² × rows³/);
    expect(oblique.energyConsistencyMap(identity(2), 512).values).toHaveLength(512 * 512);
  });
});
