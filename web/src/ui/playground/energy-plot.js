// Energy over time (kinetic, potential, total) with a vertical line at every impact (the selected one
// darker) and a dashed line at the time shown: the total drops in steps exactly at the impacts, by W_loss
// each. Clicking near an impact's line picks that impact. uPlot, redrawn at most ~8×/s, from the run's
// history (run-history.js); uPlot is loaded when the plot first comes into view (plot-support.js).
import { ENERGY_COLORS } from '../widgets/colors.js';
import { el } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { axis, drawMarkers, followWidth, impactAt, plotData, shownWidth } from './plot-support.js';

const REDRAW_MS = 120;
const HEIGHT = 170;
const AXES = ['t (s)', 'J'];
/** The curves, in the order of #data's columns after t. */
const CURVES = [
  { label: 'kinetic', color: ENERGY_COLORS.kinetic, width: 1.5 },
  { label: 'potential', color: ENERGY_COLORS.potential, width: 1.5 },
  { label: 'total', color: ENERGY_COLORS.total, width: 2 },
];

export class EnergyPlot {
  /**
   * @param {{history: import('./run-history.js').RunHistory, onPick: (index: number) => void}} options
   *   onPick: an impact was clicked in the plot
   */
  constructor({ history, onPick }) {
    this.history = history;
    this.holder = el('div', { class: 'energy-holder' });
    this.summary = el('p', { class: 'visually-hidden', 'aria-live': 'off' });
    this.element = el('section', { class: 'panel energy-plot', 'data-testid': 'energy-plot', 'aria-label': 'Energy over time' },
      el('div', { class: 'panel-head' }, el('h2', { text: 'Energy' }),
        el('span', { class: 'muted small', text: 'orange lines: impacts (click one to go to it) · dashed: now' })),
      this.holder, this.summary);
    this.timer = null;
    this.impacts = [];
    this.selected = null;
    this.now = null;
    this.plot = followWidth(this.holder, HEIGHT, (width, uPlot) => this.#create(width, uPlot));
    this.holder.addEventListener('click', (event) => {
      const plot = this.plot();
      const impact = plot ? impactAt(plot, event.clientX, this.impacts) : null;
      if (impact) onPick(impact.index);
    });
  }

  #create(width, uPlot) {
    const value = (_u, v) => (v === null || v === undefined ? '—' : `${formatNumber(v, 4)} J`);
    const plot = new uPlot({
      width,
      height: HEIGHT,
      scales: { x: { time: false } },
      axes: [axis(AXES[0], 40), axis(AXES[1], 52)],
      series: [
        { label: 't', value: (_u, v) => (v === null || v === undefined ? '—' : `${v.toFixed(3)} s`) },
        ...CURVES.map(({ label, color, width: line }) => ({ label, stroke: color, width: line, value, points: { show: false } })),
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      hooks: { draw: [drawMarkers(this, uPlot)] },
    }, this.#data(), this.holder);
    queueMicrotask(() => this.flush());  // the test hooks and the summary, now that there is a plot
    return plot;
  }

  /**
   * What the plot shows now, as data (plot-support.js, PlotData): the run's energies so far, its impact
   * lines and the time shown; at the plot's size on screen (a default width before it was ever laid out).
   */
  data() {
    const [x, ...columns] = this.#data();
    return plotData({ title: 'Energy', x, series: CURVES.map((curve, k) => ({ ...curve, values: columns[k] })),
      xLabel: AXES[0], yLabel: AXES[1], markers: this, width: shownWidth(this.plot(), this.holder), height: HEIGHT });
  }

  #data() {
    const h = this.history;
    return [h.t, h.kinetic, h.potential, h.kinetic.map((k, i) => k + h.potential[i])];
  }

  /** Forgets the impacts (new scenario, reset); the history is cleared by its owner. */
  clear() {
    this.impacts = [];
    this.selected = null;
    this.flush();
  }

  /** Adds impact lines ([{t, index}]) and redraws soon. */
  addImpacts(impacts) {
    for (const { t, index } of impacts) this.impacts.push({ t, index });
    this.soon();
  }

  /** Drops the impact lines after index `count` − 1 (the run was cut). */
  keepImpacts(count) {
    this.impacts = this.impacts.filter((impact) => impact.index < count);
    this.soon();
  }

  /** Marks impact `index` (null: none). */
  select(index) {
    this.selected = index;
    // A plot with no data yet has no axes to draw the lines on (uPlot would fail): it draws them later.
    const plot = this.plot();
    if (plot && plot.data?.[0]?.length) plot.redraw(false, false);
  }

  /** The time shown (the dashed line). */
  setNow(t) {
    this.now = t;
    this.soon();
  }

  /** Redraws within REDRAW_MS. */
  soon() {
    if (!this.timer) this.timer = setTimeout(() => this.flush(), REDRAW_MS);
  }

  /** Redraws now. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    const plot = this.plot();
    plot?.setData(this.#data());
    // Test hook: the x scale and where the plotting area lies in the overlay (CSS px), to click a line.
    if (plot) {
      this.element.dataset.xScale = [plot.scales.x.min, plot.scales.x.max, plot.bbox.left / devicePixelRatio,
        plot.bbox.width / devicePixelRatio].join(' ');
    }
    const h = this.history;
    const n = h.length;
    this.summary.textContent = n
      ? `At t = ${h.t[n - 1].toFixed(2)} s: kinetic ${formatNumber(h.kinetic[n - 1], 3)} J, potential ` +
        `${formatNumber(h.potential[n - 1], 3)} J, total ${formatNumber(h.kinetic[n - 1] + h.potential[n - 1], 3)} J, ` +
        `after ${this.impacts.length} impacts.`
      : 'No samples yet.';
  }
}
