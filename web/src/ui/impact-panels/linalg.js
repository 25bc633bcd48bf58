// The little dense linear algebra the panels need (arrays of rows), and the change of an impact's virtual
// mass ν computed from the impact's own matrices when its M and A are not at hand.

export const identity = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
export const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((s, x, k) => s + x * b[k][j], 0)));
export const matvec = (a, v) => a.map((row) => row.reduce((s, x, k) => s + x * v[k], 0));
export const sub = (a, b) => a.map((row, i) => (Array.isArray(row) ? row.map((x, j) => x - b[i][j]) : row - b[i]));
export const add = (a, b) => a.map((row, i) => (Array.isArray(row) ? row.map((x, j) => x + b[i][j]) : row + b[i]));
export const scale = (a, s) => a.map((row) => (Array.isArray(row) ? row.map((x) => x * s) : row * s));
export const norm = (a) => Math.sqrt(a.flat().reduce((s, x) => s + x * x, 0));

/** ‖a − b‖ / max(‖a‖, ‖b‖, floor): the engine's relative residual (impact.cpp, relative_gap). */
export function relativeGap(a, b, floor) {
  const s = Math.max(norm(a), norm(b), floor);
  return s > 0 ? norm(sub(a, b)) / s : 0;
}

/** X with AX = B (A square, B n×k), by LU with partial pivoting. Throws if A is singular. */
export function solve(A, B) {
  const n = A.length;
  const a = A.map((row) => row.slice());
  const b = B.map((row) => row.slice());
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    if (a[p][c] === 0) throw new Error('solve: singular matrix');
    [a[c], a[p]] = [a[p], a[c]];
    [b[c], b[p]] = [b[p], b[c]];
    for (let r = c + 1; r < n; r++) {
      const f = a[r][c] / a[c][c];
      if (f === 0) continue;
      for (let k = c; k < n; k++) a[r][k] -= f * a[c][k];
      for (let k = 0; k < b[r].length; k++) b[r][k] -= f * b[c][k];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    for (let k = 0; k < b[r].length; k++) {
      let s = b[r][k];
      for (let c = r + 1; c < n; c++) s -= a[r][c] * b[c][k];
      b[r][k] = s / a[r][r];
    }
  }
  return b;
}

/**
 * cond(Mc) at virtual mass ν. Mc = PMP + ν(I − P) acts as Mo on the range of P and as ν on its complement,
 * so its eigenvalues are those of Mo there, in [lo, hi] = nu_range, and ν:
 * cond = max(hi, ν) / min(lo, ν). With rank A = n it is νI (cond 1); with no rows ν does not enter.
 */
export function condAtNu(a, nu) {
  if (a.rank === 0 || a.m === 0) return a.cond_Mc;
  if (a.rank === a.n) return 1;
  const [lo, hi] = a.nu_range;
  return Math.max(hi, nu) / Math.min(lo, nu);
}

/**
 * The impact `a` (record or analyzeImpact output) at another virtual mass ν, from its own matrices:
 *   PMP = P·Mc·P (P(I − P) = 0),  PM = Mc(I − S),
 *   Mc(ν) = PMP + ν(I − P),  S(ν) = I − Mc(ν)⁻¹PM,  R(ν) = I − 2S(ν),  q̇⁺(ν) = q̇⁻ − S(ν)(I + Ẽ)q̇⁻.
 * The energies, impulses and flags do not involve ν and are kept.
 */
export function impactAtNu(a, nu) {
  const n = a.n;
  const I = identity(n);
  const { P, Mc, S } = a;
  const Mo = matmul(matmul(P, Mc), P);
  const McNu = add(Mo, scale(sub(I, P), nu));
  const PM = matmul(Mc, sub(I, S));
  const SNu = sub(I, solve(McNu, PM));
  const lifted = add(a.qd_minus, matvec(a.E_tilde, a.qd_minus));
  const qdPlus = sub(a.qd_minus, matvec(SNu, lifted));
  const R = sub(I, scale(SNu, 2));
  // The identities that involve only S, P and R, at the new ν (the others need M and are kept).
  const sSize = Math.max(1, norm(SNu));
  const zero = scale(I, 0);
  const identities = {
    ...a.identities,
    S2_minus_S: relativeGap(matmul(SNu, SNu), SNu, sSize * sSize),
    SP: relativeGap(matmul(SNu, P), zero, sSize * norm(P)),
    I_minus_P_S: relativeGap(matmul(sub(I, P), SNu), sub(I, P), sSize),
    R2_minus_I: relativeGap(matmul(R, R), I, 1),
  };
  return { ...a, nu, Mc: McNu, S: SNu, R, qd_plus: qdPlus, cond_Mc: condAtNu(a, nu), identities,
    recomputed: 'browser' };
}
