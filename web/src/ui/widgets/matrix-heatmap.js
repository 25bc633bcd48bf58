// A matrix as a heatmap on the diverging scale, symmetric about zero. Up to 8×8 it is a table with the
// values written in the cells (matrix-table.js); larger, a heatmap in blocks by body with their names, whose
// entries are read by hovering or with the keyboard, and the block of the entry read printed as a table
// below it (large-matrix.js).
import { el, replaceChildren } from './dom.js';
import { formatNumber, maxAbs } from './format.js';
import { tex } from './formula.js';
import { LargeMatrix } from './large-matrix.js';
import { matrixTable } from './matrix-table.js';

/** Largest size drawn as a table with numbers in the cells. */
export const TABLE_LIMIT = 8;
/**
 * Entries smaller than this share of the largest are printed as 0: with three significant digits next to
 * entries of order one they are round-off (S, R of a two-ball impact carry 3×10⁻¹² where the exact value is
 * 0). The exact value stays in the cell's title and data-value.
 */
export const ROUND_OFF = 1e-9;

export class MatrixHeatmap {
  /**
   * @param {{name: string, symbol: string, formula?: string, testid?: string, caption?: string}} options
   *   `name` the plain-text name (for labels), `symbol` its TeX, `formula` its definition (TeX).
   */
  constructor({ name, symbol, formula, testid, caption }) {
    this.name = name;
    // Scrolls sideways when the matrix is wider than its panel: reachable with the keyboard.
    this.body = el('div', { class: 'heatmap-body', tabindex: '0', role: 'region', 'aria-label': `Matrix ${name}` });
    this.readout = el('output', { class: 'heatmap-readout', 'aria-live': 'polite' });
    this.legend = el('div', { class: 'heatmap-legend', 'aria-hidden': 'true' });
    this.element = el('figure', { class: 'heatmap', 'data-testid': testid, 'data-matrix': name },
      el('figcaption', { class: 'heatmap-caption' },
        formula ? tex(formula) : tex(symbol),
        caption ? el('span', { class: 'heatmap-note', text: caption }) : null),
      this.body, this.legend, this.readout);
    this.matrix = null;
    this.large = null;  // the large view, made at the first large matrix
  }

  /**
   * Shows `matrix` (array of rows). `labels` names the rows and columns: `rowLabels`/`colLabels` short
   * ("y₃"), `rowNames`/`colNames` in words ("y of ball 3", for the entry read), `rowShort`/`colShort` within
   * a block ("y"), `rowBlocks`/`colBlocks` the bodies (or contacts) they belong to, [{name, start, size}].
   */
  update(matrix, { rowLabels, colLabels, rowNames, colNames, rowShort, colShort, rowBlocks, colBlocks } = {}) {
    this.matrix = matrix;
    this.readout.textContent = '';
    // A matrix the result does not have (a frictional impact has no Ẽ or Q of its own: docs/friction.md).
    if (matrix === undefined || matrix === null) {
      replaceChildren(this.body, el('p', { class: 'muted', text: `${this.name} does not apply to this impact.` }));
      this.legend.replaceChildren();
      return;
    }
    if (matrix.length === 0 || matrix[0].length === 0) {
      replaceChildren(this.body, el('p', { class: 'muted', text: `${this.name} is empty (no constraint rows).` }));
      this.legend.replaceChildren();
      return;
    }
    const rows = matrix.length;
    const cols = matrix[0].length;
    const scale = maxAbs(matrix);
    const zero = ROUND_OFF * scale;
    const big = rows > TABLE_LIMIT || cols > TABLE_LIMIT;
    this.element.dataset.size = `${rows}x${cols}`;
    if (big) {
      this.large ??= new LargeMatrix({ name: this.name, readout: this.readout });
      replaceChildren(this.body, this.large.element);
      this.large.update(matrix, { rowNames: rowNames ?? rowLabels, colNames: colNames ?? colLabels, rowShort: rowShort ?? rowLabels,
        colShort: colShort ?? colLabels, rowBlocks, colBlocks, scale, zero });
    } else {
      const entryName = (i, j) => `${this.name}(${rowNames?.[i] ?? rowLabels?.[i] ?? i + 1}, ${colNames?.[j] ?? colLabels?.[j] ?? j + 1})`;
      replaceChildren(this.body, matrixTable(matrix, { name: this.name, rowLabels, colLabels, entryName, scale, zero }));
    }
    replaceChildren(this.legend,
      el('span', { text: formatNumber(-scale, 3) }),
      el('span', { class: 'heatmap-legend-bar' }),
      el('span', { text: formatNumber(scale, 3) }),
      el('span', { class: 'heatmap-zero', text: '· 0: under 10⁻⁹ of the largest' }));
  }
}
