// Small dense linear algebra and a seeded generator for the tests (arrays of rows, no dependencies).

/** Deterministic uniform [0, 1) generator (mulberry32). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const zeros = (r, c) => Array.from({ length: r }, () => new Array(c).fill(0));
export const identity = (n) => zeros(n, n).map((row, i) => row.map((_, j) => (i === j ? 1 : 0)));
export const transpose = (a) => (a.length ? a[0].map((_, j) => a.map((row) => row[j])) : []);
export const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((s, x, k) => s + x * b[k][j], 0)));
export const matvec = (a, v) => a.map((row) => row.reduce((s, x, k) => s + x * v[k], 0));
export const sub = (a, b) => a.map((row, i) => (Array.isArray(row) ? row.map((x, j) => x - b[i][j]) : row - b[i]));
export const add = (a, b) => a.map((row, i) => (Array.isArray(row) ? row.map((x, j) => x + b[i][j]) : row + b[i]));
export const scale = (a, s) => a.map((row) => (Array.isArray(row) ? row.map((x) => x * s) : row * s));
export const dot = (u, v) => u.reduce((s, x, i) => s + x * v[i], 0);
export const norm = (a) => Math.sqrt(a.flat().reduce((s, x) => s + x * x, 0));

/** ‖a − b‖ relative to max(1, ‖a‖, ‖b‖). */
export const relGap = (a, b) => norm(sub(a, b)) / Math.max(1, norm(a), norm(b));

/** Random matrices for property tests. */
export function randomSystems(seed) {
  const rand = seededRandom(seed);
  const normal = () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
  const matrix = (r, c) => Array.from({ length: r }, () => Array.from({ length: c }, normal));
  return {
    integer: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)),
    vector: (n) => Array.from({ length: n }, normal),
    matrix,
    /** SPD: BBᵀ + 0.05n·I, symmetrised exactly. */
    inertia(n) {
      const b = matrix(n, n);
      const m = add(matmul(b, transpose(b)), scale(identity(n), 0.05 * n));
      return m.map((row, i) => row.map((x, j) => (i <= j ? x : m[j][i])));
    },
  };
}
