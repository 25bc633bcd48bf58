// The matrices of one impact as text for a lecture note or a spreadsheet: CSV (full precision, the
// shortest digits that read back to the same double) and LaTeX (amsmath's bmatrix, a few significant
// digits, round-off shown as 0 by the rule of the panels' heatmaps, so that a pasted matrix and the panel
// it came from show the same zeros). Pure.
import { ROUND_OFF } from '../ui/widgets/matrix-heatmap.js';
import { maxAbs } from '../ui/widgets/format.js';

/** A matrix (rows) as CSV lines, each entry the shortest text that reads back to the same double. */
export function matrixCsv(matrix) {
  return matrix.map((row) => row.map((x) => String(x)).join(',')).join('\n');
}

/**
 * S and R of an impact as one CSV text: a header line per matrix (`# S (n × n), impact k at t = …`),
 * its rows, and a blank line between them.
 */
export function impactMatricesCsv(record, { index, names = ['S', 'R'] } = {}) {
  return `${names.map((name) => {
    const m = record[name];
    const head = `# ${name} (${m.length} × ${m[0]?.length ?? 0})${index === undefined ? '' : `, impact ${index + 1}`} at t = ${record.t} s`;
    return `${head}\n${matrixCsv(m)}`;
  }).join('\n\n')}\n`;
}

/**
 * A number for LaTeX, laid out as the panels print it (ui/widgets/format.js): `digits` significant digits,
 * |x| at most `zero` as 0, scientific notation (`1.5 \times 10^{-7}`) below 10⁻⁴ and from 10⁶.
 */
export function latexNumber(x, digits = 4, zero = 0) {
  if (!Number.isFinite(x)) throw new Error(`a matrix entry must be finite, got ${x}`);
  if (Math.abs(x) <= zero || x === 0) return '0';
  const magnitude = Math.abs(x);
  if (magnitude >= 1e6 || magnitude < 1e-4) {
    const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
    return `${Number(mantissa)} \\times 10^{${Number(exponent)}}`;
  }
  return String(Number(x.toPrecision(digits)));
}

/**
 * The bound at or below which an entry of `matrix` is round-off, by the rule of the panels' heatmaps
 * (ui/widgets/matrix-heatmap.js): ROUND_OFF times its largest |entry|.
 * @param {number[][]} matrix
 * @returns {number}
 */
export function roundOffBound(matrix) {
  return ROUND_OFF * maxAbs(matrix);
}

/**
 * A matrix as `NAME = \begin{bmatrix} … \end{bmatrix}` (amsmath), round-off written 0 (roundOffBound).
 * @param {number[][]} matrix
 * @param {{name?: string, digits?: number}} [options]
 */
export function matrixLatex(matrix, { name, digits = 4 } = {}) {
  const zero = roundOffBound(matrix);
  const rows = matrix.map((row) => `  ${row.map((x) => latexNumber(x, digits, zero)).join(' & ')}`);
  const body = `\\begin{bmatrix}\n${rows.join(' \\\\\n')}\n\\end{bmatrix}`;
  return name ? `${name} = ${body}` : body;
}

/** S and R of an impact as LaTeX, with a comment line saying which impact they belong to. */
export function impactMatricesLatex(record, { index, title = '', digits = 4 } = {}) {
  const what = `${title ? `${title}: ` : ''}${index === undefined ? 'impact' : `impact ${index + 1}`} at t = ${record.t} s, ` +
    `gamma = ${record.gamma}`;
  return `% ${what.replace(/[\r\n]/g, ' ')}\n% needs \\usepackage{amsmath}\n\\[\n${matrixLatex(record.S, { name: 'S', digits })},\n\\quad\n` +
    `${matrixLatex(record.R, { name: 'R', digits })}\n\\]\n`;
}
