// What the run's plots (uPlot) share: uPlot itself, loaded when a plot first comes into view (a note stands
// in for the plot until then, and says so if it cannot be loaded), the impact lines (the chosen one darker),
// a line at the time shown, picking an impact by clicking near its line, a width that follows the panel,
// and what a plot shows as data (for the export, which draws it again as SVG).
import { ENERGY_COLORS } from '../widgets/colors.js';
import { el } from '../widgets/dom.js';
import { lazyModule, whenVisible } from '../widgets/lazy-module.js';
import '../widgets/lazy-content.css';

/** uPlot and its styles, once. */
export const loadPlotLibrary = lazyModule('The plots (uPlot)', () =>
  Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([module]) => module.default));

/** Pixels from an impact line within which a click picks that impact. */
const PICK_PX = 6;

/**
 * A uPlot draw hook: a vertical line at each impact time (`plot.impacts`: [{t, index}]), the impact
 * `plot.selected` bolder, and a dashed line at the time shown (`plot.now`).
 */
export function drawMarkers(plot, uPlot) {
  return (u) => {
    const { ctx } = u;
    const { top, height, left, width } = u.bbox;
    const line = (t, style) => {
      const x = Math.round(u.valToPos(t, 'x', true)) + 0.5;
      if (!(x >= left && x <= left + width)) return;
      ctx.strokeStyle = style.color;
      ctx.globalAlpha = style.alpha;
      ctx.lineWidth = style.width * uPlot.pxRatio;
      ctx.setLineDash(style.dash ?? []);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    };
    ctx.save();
    for (const { t, index } of plot.impacts) {
      const chosen = index === plot.selected;
      line(t, { color: ENERGY_COLORS.impact, alpha: chosen ? 1 : 0.45, width: chosen ? 2.5 : 1 });
    }
    if (plot.now !== null && plot.now !== undefined) {
      line(plot.now, { color: '#1d2127', alpha: 0.8, width: 1.5, dash: [4 * uPlot.pxRatio, 3 * uPlot.pxRatio] });
    }
    ctx.restore();
  };
}

/** The impact whose line is nearest to the pointer at `clientX` on plot `u`, within PICK_PX; else null. */
export function impactAt(u, clientX, impacts) {
  const box = u.over.getBoundingClientRect();
  const x = clientX - box.left;
  let best = null;
  let gap = PICK_PX;
  for (const impact of impacts) {
    const d = Math.abs(u.valToPos(impact.t, 'x') - x);
    if (d <= gap) {
      gap = d;
      best = impact;
    }
  }
  return best;
}

/**
 * Creates the plot with `create(width, uPlot)` once `holder` is near the viewport (uPlot is loaded then)
 * and has a width, and resizes it with the panel. Returns `() => plot` (null until created), with
 * `.ensure()`: load and create now, wherever the holder is (an export of the plot).
 */
export function followWidth(holder, height, create) {
  let plot = null;
  let uPlot = null;
  const note = el('p', { class: 'plot-loading', role: 'status', text: 'Loading the plot…' });
  holder.replaceChildren(note);
  const resize = () => {
    const width = Math.floor(holder.getBoundingClientRect().width);
    if (!uPlot || width < 50) return;
    if (!plot) {
      note.remove();
      plot = create(width, uPlot);
    } else plot.setSize({ width, height });
  };
  const ensure = () => loadPlotLibrary().then((library) => {
    uPlot = library;
    resize();
    return plot;
  }, (error) => {
    note.classList.add('failed');
    note.textContent = `The plot could not be loaded (${error.message}). Reload the page to try again.`;
    throw error;
  });
  whenVisible(holder, () => ensure().catch(() => {}));
  new ResizeObserver(resize).observe(holder);
  const current = () => plot;
  current.ensure = ensure;
  return current;
}

/** Axis style shared by the plots: ≥ 12 px labels, light grid. */
export function axis(label, size) {
  return { label, size, labelSize: 20, font: '12px system-ui, sans-serif', labelFont: '12px system-ui, sans-serif',
    stroke: '#444', grid: { stroke: '#eee' } };
}

/** Width of a plot whose panel was never laid out (it is in a tab not shown yet), CSS px. */
const UNMEASURED_WIDTH = 640;

/** The width of a plot as drawn (uPlot `u`, or its panel `holder` before it has one), CSS px. */
export function shownWidth(u, holder) {
  if (u) return u.width;
  const width = Math.floor(holder.getBoundingClientRect().width);
  return width >= 50 ? width : UNMEASURED_WIDTH;
}

/**
 * @typedef {Object} PlotSeriesData
 * @property {string} label
 * @property {string} color    a CSS colour
 * @property {(number|null)[]} values  one per x; null leaves a gap
 * @property {number} width    line width, CSS px
 * @property {boolean} points  drawn as points, not a line (γ of each impact)
 *
 * @typedef {Object} PlotData  What a plot shows: its curves, its impact lines (the one shown: `selected`),
 *   the time shown (`now`) and its size on screen, CSS px. Copies: the plot goes on without them.
 * @property {string} title
 * @property {number[]} x
 * @property {PlotSeriesData[]} series
 * @property {string} xLabel
 * @property {string} yLabel
 * @property {{t: number, index: number}[]} impacts
 * @property {number|null} selected
 * @property {number|null} now
 * @property {number} width
 * @property {number} height
 */

/**
 * A plot's PlotData from its parts: `markers` is the plot itself ({impacts, selected, now}).
 * @returns {PlotData}
 */
export function plotData({ title, x, series, xLabel, yLabel, markers, width, height }) {
  return {
    title, xLabel, yLabel,
    x: Array.from(x),
    series: series.map(({ label, color, values, width: line = 1.5, points = false }) =>
      ({ label, color, values: Array.from(values), width: line, points })),
    impacts: markers.impacts.map(({ t, index }) => ({ t, index })),
    selected: markers.selected ?? null,
    now: markers.now ?? null,
    width, height,
  };
}
