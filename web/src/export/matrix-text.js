// The matrices of one impact as text for a lecture note or a spreadsheet: CSV (full precision, the
// shortest digits that read back to the same double) and LaTeX (amsmath's bmatrix, a few significant
// digits, round-off shown as 0). Pure.

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

/** A number for LaTeX: `digits` significant digits, round-off (below `zero`) as 0, a true minus sign. */
export function latexNumber(x, digits = 4, zero = 0) {
  if (!Number.isFinite(x)) throw new Error(`a matrix entry must be finite, got ${x}`);
  if (Math.abs(x) <= zero) return '0';
  const text = Number(x.toPrecision(digits)).toString();
  if (/e/.test(text)) {
    const [mantissa, exponent] = Number(x).toExponential(digits - 1).split('e');
    return `${Number(mantissa)} \\times 10^{${Number(exponent)}}`;
  }
  return text;
}

/**
 * A matrix as `NAME = \begin{bmatrix} … \end{bmatrix}` (amsmath). Entries below 1e-12 of the largest are
 * round-off and written 0.
 * @param {number[][]} matrix
 * @param {{name?: string, digits?: number}} [options]
 */
export function matrixLatex(matrix, { name, digits = 4 } = {}) {
  const largest = Math.max(0, ...matrix.flat().map(Math.abs));
  const zero = 1e-12 * Math.max(1, largest);
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
