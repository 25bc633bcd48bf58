// A matrix as a heatmap on the diverging scale, symmetric about zero. Up to 8×8 it is a table with the
// values written in the cells; larger, a canvas whose entries are read by hovering or with the arrow keys.
import { divergingRgb, textOn } from './colors.js';
import { el, replaceChildren } from './dom.js';
import { formatNumber, maxAbs } from './format.js';
import { tex } from './formula.js';

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
  }

  /** Shows `matrix` (array of rows); `labels` optionally names the rows and the columns. */
  update(matrix, { rowLabels, colLabels } = {}) {
    this.matrix = matrix;
    this.rowLabels = rowLabels;
    this.colLabels = colLabels;
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
    replaceChildren(this.body, big ? this.#canvas(matrix, scale, zero)
      : this.#table(matrix, scale, zero, rowLabels, colLabels));
    replaceChildren(this.legend,
      el('span', { text: formatNumber(-scale, 3) }),
      el('span', { class: 'heatmap-legend-bar' }),
      el('span', { text: formatNumber(scale, 3) }),
      el('span', { class: 'heatmap-zero', text: '· 0: under 10⁻⁹ of the largest' }));
  }

  /** "S(y₁, θ₂)": the entry named by its row's and column's labels (numbers when there are none). */
  #entryName(i, j) {
    return `${this.name}(${this.rowLabels?.[i] ?? i + 1}, ${this.colLabels?.[j] ?? j + 1})`;
  }

  #table(matrix, scale, zero, rowLabels, colLabels) {
    const cols = matrix[0].length;
    const head = el('tr', {}, el('td', { class: 'corner' }),
      Array.from({ length: cols }, (_, j) => el('th', { scope: 'col', text: colLabels?.[j] ?? String(j + 1) })));
    const body = matrix.map((row, i) => el('tr', {},
      el('th', { scope: 'row', text: rowLabels?.[i] ?? String(i + 1) }),
      row.map((x, j) => {
        const rgb = divergingRgb(scale > 0 ? x / scale : 0);
        return el('td', {
          'data-value': String(x),
          title: `${this.#entryName(i, j)} = ${x}`,
          style: { background: `rgb(${rgb.join(' ')})`, color: textOn(rgb) },
          text: formatNumber(x, 3, zero),
        });
      })));
    return el('table', { class: 'heatmap-table', 'aria-label': `${this.name}, ${matrix.length} by ${cols}` },
      el('thead', {}, head), el('tbody', {}, body));
  }

  #canvas(matrix, scale, zero) {
    const rows = matrix.length;
    const cols = matrix[0].length;
    const cell = Math.max(2, Math.floor(288 / Math.max(rows, cols)));
    const dpr = window.devicePixelRatio || 1;
    const canvas = el('canvas', {
      class: 'heatmap-canvas', tabindex: '0', role: 'img',
      'aria-label': `${this.name}, ${rows} by ${cols}, too large to print: hover or use the arrow keys to read entries`,
      width: Math.round(cols * cell * dpr), height: Math.round(rows * cell * dpr),
      style: { width: `${cols * cell}px`, height: `${rows * cell}px` },
    });
    // One pixel per entry, enlarged without smoothing: a fill per entry (8100 at n = 90, each parsing its
    // colour) took a tenth of a second per matrix.
    const pixels = new ImageData(cols, rows);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        pixels.data.set(divergingRgb(scale > 0 ? matrix[i][j] / scale : 0), 4 * (i * cols + j));
        pixels.data[4 * (i * cols + j) + 3] = 255;
      }
    }
    const entries = new OffscreenCanvas(cols, rows);
    entries.getContext('2d').putImageData(pixels, 0, 0);
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(entries, 0, 0, canvas.width, canvas.height);
    let cursor = [0, 0];
    const show = ([i, j]) => {
      cursor = [i, j];
      this.readout.textContent = `${this.#entryName(i, j)} = ${formatNumber(matrix[i][j], 6, zero)}`;
    };
    canvas.addEventListener('pointermove', (event) => {
      const box = canvas.getBoundingClientRect();
      const j = Math.floor((event.clientX - box.left) / cell);
      const i = Math.floor((event.clientY - box.top) / cell);
      if (i >= 0 && i < rows && j >= 0 && j < cols) show([i, j]);
    });
    canvas.addEventListener('keydown', (event) => {
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      event.stopPropagation();  // the arrow keys read entries here, not the page shortcuts
      show([Math.min(rows - 1, Math.max(0, cursor[0] + move[0])), Math.min(cols - 1, Math.max(0, cursor[1] + move[1]))]);
    });
    canvas.addEventListener('focus', () => show(cursor));
    return canvas;
  }
}
