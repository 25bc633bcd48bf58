// A small matrix as a table: a cell per entry with its number (three significant digits, round-off printed
// as 0) on its colour of the diverging scale, rows and columns named. The exact value is in each cell's
// title and data-value.
import { divergingRgb, textOn } from './colors.js';
import { el } from './dom.js';
import { formatNumber } from './format.js';

/**
 * @param {number[][]} matrix
 * @param {{name: string, rowLabels?: string[], colLabels?: string[], entryName?: (i: number, j: number) => string,
 *   scale: number, zero: number}} options  `scale` the |entry| of full colour, `zero` the size printed as 0
 * @returns {HTMLTableElement}
 */
export function matrixTable(matrix, { name, rowLabels, colLabels, entryName, scale, zero }) {
  const cols = matrix[0].length;
  const named = entryName ?? ((i, j) => `${name}(${rowLabels?.[i] ?? i + 1}, ${colLabels?.[j] ?? j + 1})`);
  const head = el('tr', {}, el('td', { class: 'corner' }),
    Array.from({ length: cols }, (_, j) => el('th', { scope: 'col', text: colLabels?.[j] ?? String(j + 1) })));
  const body = matrix.map((row, i) => el('tr', {},
    el('th', { scope: 'row', text: rowLabels?.[i] ?? String(i + 1) }),
    row.map((x, j) => {
      const rgb = divergingRgb(scale > 0 ? x / scale : 0);
      return el('td', {
        'data-value': String(x),
        title: `${named(i, j)} = ${x}`,
        style: { background: `rgb(${rgb.join(' ')})`, color: textOn(rgb) },
        text: formatNumber(x, 3, zero),
      });
    })));
  return el('table', { class: 'heatmap-table', 'aria-label': `${name}, ${matrix.length} by ${cols}` },
    el('thead', {}, head), el('tbody', {}, body));
}
