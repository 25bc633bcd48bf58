// Number formatting for the panels: a few significant digits, a true minus sign, no "-0", and residuals in
// scientific notation with a superscript exponent.

const MINUS = '\u2212';
const SUPERSCRIPT = { '-': '\u207b', 0: '\u2070', 1: '\u00b9', 2: '\u00b2', 3: '\u00b3', 4: '\u2074', 5: '\u2075',
  6: '\u2076', 7: '\u2077', 8: '\u2078', 9: '\u2079' };

/**
 * `x` with `digits` significant digits (trailing zeros dropped), or "—" for null/undefined.
 * |x| below `zero` prints as 0 (round-off noise in a matrix whose entries are of order 1).
 */
export function formatNumber(x, digits = 4, zero = 0) {
  if (x === null || x === undefined) return '—';
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : `${MINUS}∞`;
  if (Math.abs(x) <= zero || x === 0) return '0';
  const magnitude = Math.abs(x);
  let text;
  if (magnitude >= 1e6 || magnitude < 1e-4) text = formatScientific(x, digits);
  else text = String(Number(x.toPrecision(digits)));
  return text.replace('-', MINUS);
}

/** `x` as "1.2 × 10⁻¹⁶" (two significant digits by default). */
export function formatScientific(x, digits = 2) {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return formatNumber(x);
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  const power = String(Number(exponent)).split('').map((c) => SUPERSCRIPT[c]).join('');
  const m = String(Number(mantissa)).replace('-', MINUS);
  return exponent === '+0' ? m : `${m} × 10${power}`;
}

/**
 * γ below this is printed as 0: K⁺ under 10⁻⁹ of K⁻ is round-off of an impact that stopped every motion it
 * acted on (a 200-body impact reported γ = 1.27 × 10⁻⁶²), the rule the matrices follow (matrix-heatmap.js).
 */
export const GAMMA_ZERO = 1e-9;

/**
 * γ = K⁺/K⁻ for the page: {text, note} — the value with `digits` significant digits, "0" when it is below
 * GAMMA_ZERO (with a note that says what that means), "—" without kinetic energy before (K⁻ = 0).
 */
export function formatGamma(gamma, digits = 4) {
  if (gamma === null || gamma === undefined) return { text: '—', note: 'no kinetic energy before the impact (K⁻ = 0)' };
  if (Number.isFinite(gamma) && Math.abs(gamma) < GAMMA_ZERO) {
    return { text: '0', note: 'all the kinetic energy the impact acted on was taken (K⁺ below 10⁻⁹ of K⁻, round-off)' };
  }
  return { text: formatNumber(gamma, digits), note: '' };
}

/** A vector as "(a, b, c)". */
export function formatVector(v, digits = 4, zero = 0) {
  if (!v) return '—';
  return `(${v.map((x) => formatNumber(x, digits, zero)).join(', ')})`;
}

/** Largest |entry| of a matrix or vector (0 when empty). */
export function maxAbs(values) {
  let max = 0;
  for (const row of values) {
    if (Array.isArray(row)) for (const x of row) max = Math.max(max, Math.abs(x));
    else max = Math.max(max, Math.abs(row));
  }
  return max;
}

/** Seconds as "1.234 s". */
export function formatTime(t) {
  return `${t.toFixed(3)} s`;
}
