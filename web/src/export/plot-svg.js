// A plot of the run as SVG, for slides and lecture notes, and the drawing its PNG is rasterised from: the
// curves (or points) of the plot on screen, its axes with round-number ticks, a vertical line at each
// impact (the one shown bolder), a dashed line at the time shown, a title line and a legend. Text from a
// scenario (the title) is escaped, never markup. Pure: a string from data.
import { formatNumber } from '../ui/widgets/format.js';

/**
 * @typedef {Object} PlotSeries
 * @property {string} label
 * @property {string} color   a CSS colour
 * @property {(number|null)[]} values  one per x; null leaves a gap
 * @property {number} [width]  line width in CSS px (default 1.5)
 * @property {boolean} [points]  drawn as points, not a line (γ of each impact)
 *
 * @typedef {Object} PlotData  What a plot of the page shows.
 * @property {string} title      the plot's name ("Energy")
 * @property {string} [subtitle] the scenario's title
 * @property {string} xLabel
 * @property {string} yLabel
 * @property {number[]} x        increasing
 * @property {PlotSeries[]} series
 * @property {{t: number, index: number}[]} [impacts]  impact lines
 * @property {number|null} [selected]  the index of the impact shown
 * @property {number|null} [now]  the time shown
 * @property {string} [impactColor]
 */

/** Space around the plotting area, CSS px: the y ticks and label left, the x ticks and label below. */
const MARGIN = { left: 70, right: 18, top: 34, bottom: 44 };
const LEGEND = 26;
const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif';
const INK = '#1d2127';
const MUTED = '#565e69';
const GRID = '#e3e6ea';

/** `text` with the five characters XML gives a meaning escaped. */
export function xmlText(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

/**
 * Round-number ticks covering [min, max]: about `count` of them, at 1, 2 or 5 × 10ᵏ apart.
 * @returns {number[]}
 */
export function niceTicks(min, max, count = 5) {
  if (!(Number.isFinite(min) && Number.isFinite(max)) || max < min) return [];
  if (max === min) return [min];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = [];
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + 1e-9 * step; k++) ticks.push(k * step);
  return ticks.map((v) => (Math.abs(v) < 1e-12 * step ? 0 : Number(v.toPrecision(12))));
}

/** The y range of the series: their smallest and largest value, widened when flat. */
function valueRange(series) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    for (const v of s.values) {
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (lo === Infinity) return [0, 1];
  if (lo === hi) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    return [lo - pad, hi + pad];
  }
  return [lo, hi];
}

/** A coordinate for the SVG text: two decimals are a hundredth of a CSS pixel. */
const at = (v) => Number(v.toFixed(2));

/**
 * The plot as an SVG document of `width` × `height` CSS px (the plot on screen, plus a title line and a
 * legend), for a file or to rasterise.
 * @param {PlotData} plot
 * @param {{width: number, height: number}} size
 * @returns {string}
 */
export function plotSvg(plot, { width, height }) {
  const W = Math.max(200, Math.round(width));
  const H = Math.max(120, Math.round(height)) + LEGEND;
  const box = { left: MARGIN.left, top: MARGIN.top, right: W - MARGIN.right, bottom: H - LEGEND - MARGIN.bottom };
  const x = plot.x;
  const [x0, x1] = x.length ? [x[0], x[x.length - 1] > x[0] ? x[x.length - 1] : x[0] + 1] : [0, 1];
  // The y range runs from a tick at or below the smallest value to one at or above the largest, so that no
  // curve runs along the frame; the x range is the run's, exactly.
  const [y0, y1] = valueRange(plot.series);
  const rough = niceTicks(y0, y1, 5);
  const step = rough.length > 1 ? rough[1] - rough[0] : Math.abs(y1 - y0) || 1;
  const yLo = Math.min(y0, Math.floor(y0 / step + 1e-9) * step);
  const yHi = Math.max(y1, Math.ceil(y1 / step - 1e-9) * step);
  const yTicks = niceTicks(yLo, yHi, Math.round((yHi - yLo) / step));
  const px = (t) => box.left + ((t - x0) / (x1 - x0)) * (box.right - box.left);
  const py = (v) => box.bottom - ((v - yLo) / (yHi - yLo || 1)) * (box.bottom - box.top);
  const inside = (t) => t >= x0 && t <= x1;
  const parts = [];
  const text = (tx, ty, content, { anchor = 'start', size = 12, color = INK, weight = 400, baseline = 'middle', rotate } = {}) =>
    `<text x="${at(tx)}" y="${at(ty)}" font-size="${size}" fill="${color}" font-weight="${weight}" text-anchor="${anchor}" ` +
    `dominant-baseline="${baseline}"${rotate ? ` transform="rotate(${rotate} ${at(tx)} ${at(ty)})"` : ''}>${xmlText(content)}</text>`;

  parts.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  parts.push(`<text x="10" y="16" font-size="14" fill="${INK}" dominant-baseline="middle"><tspan font-weight="600">` +
    `${xmlText(plot.title)}</tspan>${plot.subtitle ? `<tspan dx="12" font-size="13" fill="${MUTED}">${xmlText(plot.subtitle)}</tspan>` : ''}</text>`);

  // Grid and ticks.
  const xTicks = niceTicks(x0, x1, Math.max(2, Math.floor((box.right - box.left) / 90)));
  for (const v of yTicks) {
    const y = at(py(v));
    parts.push(`<line x1="${box.left}" y1="${y}" x2="${box.right}" y2="${y}" stroke="${GRID}" stroke-width="1"/>`);
    parts.push(text(box.left - 6, y, formatNumber(v, 4), { anchor: 'end', color: MUTED, size: 11 }));
  }
  for (const v of xTicks) {
    const xv = at(px(v));
    parts.push(`<line x1="${xv}" y1="${box.top}" x2="${xv}" y2="${box.bottom}" stroke="${GRID}" stroke-width="1"/>`);
    parts.push(text(xv, box.bottom + 14, formatNumber(v, 4), { anchor: 'middle', color: MUTED, size: 11 }));
  }
  parts.push(`<rect x="${box.left}" y="${box.top}" width="${box.right - box.left}" height="${box.bottom - box.top}" fill="none" stroke="#aab1ba" stroke-width="1"/>`);
  parts.push(text((box.left + box.right) / 2, box.bottom + 32, plot.xLabel, { anchor: 'middle', size: 12 }));
  parts.push(text(16, (box.top + box.bottom) / 2, plot.yLabel, { anchor: 'middle', size: 12, rotate: -90 }));

  // The impacts, the one shown bolder, and the time shown (under the curves, as on screen).
  const impactColor = plot.impactColor ?? '#d9480f';
  for (const { t, index } of plot.impacts ?? []) {
    if (!inside(t)) continue;
    const chosen = index === plot.selected;
    const xv = at(px(t));
    parts.push(`<line class="impact" data-index="${index}" x1="${xv}" y1="${box.top}" x2="${xv}" y2="${box.bottom}" stroke="${impactColor}" ` +
      `stroke-opacity="${chosen ? 1 : 0.45}" stroke-width="${chosen ? 2.5 : 1}"/>`);
  }
  if (plot.now !== null && plot.now !== undefined && inside(plot.now)) {
    const xv = at(px(plot.now));
    parts.push(`<line class="now" x1="${xv}" y1="${box.top}" x2="${xv}" y2="${box.bottom}" stroke="${INK}" stroke-opacity="0.8" stroke-width="1.5" stroke-dasharray="4 3"/>`);
  }

  // The series: polylines broken at gaps, or points.
  parts.push(`<g clip-path="url(#plot-area)">`);
  for (const s of plot.series) {
    if (s.points) {
      const dots = s.values.map((v, k) => (v === null || v === undefined || !Number.isFinite(v) ? ''
        : `<circle cx="${at(px(x[k]))}" cy="${at(py(v))}" r="3.5" fill="${xmlText(s.color)}"/>`)).join('');
      parts.push(`<g class="series" data-label="${xmlText(s.label)}">${dots}</g>`);
      continue;
    }
    const runs = [];
    let run = [];
    s.values.forEach((v, k) => {
      if (v === null || v === undefined || !Number.isFinite(v)) {
        if (run.length) runs.push(run);
        run = [];
      } else {
        run.push(`${at(px(x[k]))},${at(py(v))}`);
      }
    });
    if (run.length) runs.push(run);
    const lines = runs.map((points) => `<polyline points="${points.join(' ')}" fill="none" stroke="${xmlText(s.color)}" ` +
      `stroke-width="${s.width ?? 1.5}" stroke-linejoin="round"/>`).join('');
    parts.push(`<g class="series" data-label="${xmlText(s.label)}">${lines}</g>`);
  }
  parts.push('</g>');

  // The legend.
  let lx = 10;
  const ly = H - LEGEND / 2;
  const legend = [...plot.series.map((s) => ({ label: s.label, color: s.color, points: s.points })),
    ...((plot.impacts ?? []).length ? [{ label: 'impacts', color: impactColor }] : [])];
  for (const item of legend) {
    parts.push(item.points
      ? `<circle cx="${lx + 9}" cy="${ly}" r="3.5" fill="${xmlText(item.color)}"/>`
      : `<rect x="${lx}" y="${ly - 2}" width="18" height="4" fill="${xmlText(item.color)}"/>`);
    parts.push(text(lx + 24, ly, item.label, { size: 12 }));
    lx += 24 + 8 * [...item.label].length + 18;
  }

  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${FONT}">\n` +
    `<title>${xmlText(`${plot.title}${plot.subtitle ? ` · ${plot.subtitle}` : ''}`)}</title>\n` +
    `<defs><clipPath id="plot-area"><rect x="${box.left}" y="${box.top}" width="${box.right - box.left}" height="${box.bottom - box.top}"/></clipPath></defs>\n` +
    `${parts.join('\n')}\n</svg>\n`;
}
