// A plot the user chooses: any coordinate or velocity of a body, a contact point's gap φ, normal velocity φ̇
// or normal force λₙ, its friction — slip speed v_t, friction force λₜ and λₜ/λₙ (within ±μ by Coulomb's law)
// — over time, or γ of each impact (points at the impact times). uPlot over the run's history,
// with the impact lines and the time shown as in the energy plot; clicking near an impact picks it. uPlot is
// loaded when the plot first comes into view (plot-support.js); a note stands in for it until then.
import { el, uniqueId } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { whenVisible } from '../widgets/lazy-module.js';
import { axis, drawMarkers, impactAt, loadPlotLibrary, plotData, shownWidth } from './plot-support.js';

const REDRAW_MS = 150;
const HEIGHT = 170;
const COLOR = '#0b5fa5';
const LINE_WIDTH = 1.6;
const COORDINATES = [['x', 'x', 'm'], ['y', 'y', 'm'], ['θ', 'θ', 'rad']];
const RATES = [['ẋ', 'x velocity', 'm/s'], ['ẏ', 'y velocity', 'm/s'], ['θ̇', 'angular velocity', 'rad/s']];

export class QuantityPlot {
  /**
   * @param {{history: import('./run-history.js').RunHistory, onPick: (index: number) => void}} options
   */
  constructor({ history, onPick }) {
    this.history = history;
    this.impacts = [];  // summaries: {t, index, gamma}
    this.selected = null;
    this.now = null;
    this.quantities = [];
    const id = uniqueId('quantity');
    this.picker = el('select', { id, 'data-testid': 'plot-quantity' });
    this.picker.addEventListener('change', () => this.#rebuild());
    this.holder = el('div', { class: 'energy-holder' });
    this.summary = el('p', { class: 'visually-hidden', 'aria-live': 'off' });
    this.element = el('section', { class: 'panel quantity-plot', 'data-testid': 'quantity-plot', 'aria-label': 'Plot of a chosen quantity' },
      el('div', { class: 'panel-head' }, el('h2', {}, el('label', { for: id, text: 'Plot' })), this.picker),
      this.holder, this.summary);
    this.timer = null;
    this.uplot = null;
    this.library = null;  // uPlot, once loaded
    this.loading = el('p', { class: 'plot-loading', role: 'status', text: 'Loading the plot…' });
    this.holder.append(this.loading);
    whenVisible(this.holder, () => loadPlotLibrary().then((library) => {
      this.library = library;
      this.#rebuild();
    }, (error) => {
      this.loading.classList.add('failed');
      this.loading.textContent = `The plot could not be loaded (${error.message}). Reload the page to try again.`;
    }));
    new ResizeObserver(() => this.#fit()).observe(this.holder);
    this.holder.addEventListener('click', (event) => {
      const plot = this.uplot;
      const impact = plot ? impactAt(plot, event.clientX, this.impacts) : null;
      if (impact) onPick(impact.index);
    });
  }

  /** The choices for a (normalized) scenario: coordinates, velocities, contact quantities and γ. */
  setScenario(scenario, contactPoints, pointLabel) {
    const bodies = scenario.bodies ?? [];
    const name = (i) => bodies[i]?.name || `body ${i + 1}`;
    this.quantities = [
      ...bodies.flatMap((_, i) => COORDINATES.map(([symbol, word, unit], c) => ({ group: 'Coordinates',
        label: `${symbol} of ${name(i)} (${unit})`, axis: `${symbol} (${unit})`, kind: 'q', index: 3 * i + c }))),
      ...bodies.flatMap((_, i) => RATES.map(([symbol, word, unit], c) => ({ group: 'Velocities',
        label: `${symbol}: ${word} of ${name(i)} (${unit})`, axis: `${symbol} (${unit})`, kind: 'qd', index: 3 * i + c }))),
      ...contactPoints.flatMap((_, k) => [
        { kind: 'gap', symbol: 'φ', word: 'gap', unit: 'm' },
        { kind: 'normalVelocity', symbol: 'φ̇', word: 'normal velocity', unit: 'm/s' },
        { kind: 'multiplier', symbol: 'λ', word: 'contact force', unit: 'N' },
      ].map((q) => ({ group: 'Contact points', label: `${q.symbol}: ${q.word} at ${pointLabel(k)} (${q.unit})`,
        axis: `${q.symbol} (${q.unit})`, kind: q.kind, point: k }))),
      ...contactPoints.flatMap((_, k) => [
        { kind: 'slipSpeed', symbol: 'v_t', word: 'slip velocity', unit: 'm/s' },
        { kind: 'friction', symbol: 'λₜ', word: 'friction force', unit: 'N' },
        { kind: 'frictionRatio', symbol: 'λₜ/λₙ', word: 'friction over normal force (within ±μ)', unit: '' },
      ].map((q) => ({ group: 'Friction at contact points', label: `${q.symbol}: ${q.word} at ${pointLabel(k)}${q.unit ? ` (${q.unit})` : ''}`,
        axis: q.unit ? `${q.symbol} (${q.unit})` : q.symbol, kind: q.kind, point: k }))),
      { group: 'Impacts', label: 'γ = K⁺/K⁻ of each impact', axis: 'γ', kind: 'gamma' },
    ];
    const groups = [...new Set(this.quantities.map((q) => q.group))];
    this.picker.replaceChildren(...groups.map((group) => el('optgroup', { label: group },
      this.quantities.map((q, i) => q.group === group ? el('option', { value: String(i), text: q.label }) : null))));
    // A first look: the height of the first body (the bounce, the swing).
    this.picker.value = String(this.quantities.findIndex((q) => q.kind === 'q' && q.index === 1));
    this.impacts = [];
    this.selected = null;
    this.#rebuild();
  }

  get quantity() {
    return this.quantities[Number(this.picker.value)];
  }

  /** Chooses a quantity by its label (for scripts and tests). */
  choose(label) {
    const index = this.quantities.findIndex((q) => q.label === label);
    if (index >= 0) {
      this.picker.value = String(index);
      this.#rebuild();
    }
  }

  /**
   * Creates the plot once the panel has a width, and follows the panel's width. Measured only once uPlot is
   * there: a scenario loaded before that (the first one) must not force a layout of the page on its way.
   */
  #fit() {
    if (!this.library) return;
    const width = Math.floor(this.holder.getBoundingClientRect().width);
    if (width < 50) return;
    if (!this.uplot) this.uplot = this.#create(width);
    else this.uplot.setSize({ width, height: HEIGHT });
  }

  /** Another quantity: a new plot (its axes and series differ). */
  #rebuild() {
    this.uplot?.destroy();
    this.uplot = null;
    this.holder.replaceChildren(...(this.library ? [] : [this.loading]));
    this.#fit();
    this.flush();
  }

  #create(width) {
    const q = this.quantity;
    if (!q) return null;
    const gamma = q.kind === 'gamma';
    const value = (_u, v) => (v === null || v === undefined ? '—' : formatNumber(v, 5));
    const uPlot = this.library;
    return new uPlot({
      width,
      height: HEIGHT,
      scales: { x: { time: false } },
      axes: [axis('t (s)', 40), axis(q.axis, 60)],
      series: [
        { label: 't', value: (_u, v) => (v === null || v === undefined ? '—' : `${v.toFixed(3)} s`) },
        gamma
          ? { label: 'γ', stroke: COLOR, fill: COLOR, width: 0, value, paths: () => null, points: { show: true, size: 7, fill: COLOR } }
          : { label: q.axis, stroke: COLOR, width: LINE_WIDTH, value, points: { show: false }, spanGaps: false },
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      hooks: { draw: [drawMarkers(this, uPlot)] },
    }, this.#data(), this.holder);
  }

  /**
   * What the plot shows now, as data (plot-support.js, PlotData), titled by the quantity; null while there
   * is nothing to plot (no quantity, or no value of it yet). At the plot's size on screen (a default width
   * before it was ever laid out).
   */
  data() {
    const q = this.quantity;
    const [x, values] = this.#data();
    if (!q || !x.length) return null;
    const gamma = q.kind === 'gamma';
    return plotData({ title: q.label, x, series: [{ label: gamma ? 'γ' : q.axis, color: COLOR, values, width: gamma ? 0 : LINE_WIDTH, points: gamma }],
      xLabel: 't (s)', yLabel: q.axis, markers: this, width: shownWidth(this.uplot, this.holder), height: HEIGHT });
  }

  #data() {
    const q = this.quantity;
    if (!q) return [[], []];
    if (q.kind === 'gamma') {
      const points = this.impacts.filter((i) => i.gamma !== null && i.gamma !== undefined);
      return [points.map((i) => i.t), points.map((i) => i.gamma)];
    }
    // uPlot cannot scale an axis with no value at all: show an empty plot until there is one.
    const [t, values] = this.history.series(q);
    return values.some((v) => v !== null) ? [t, values] : [[], []];
  }

  clear() {
    this.impacts = [];
    this.selected = null;
    this.flush();
  }

  /** Adds impact summaries ({t, index, gamma}). */
  addImpacts(impacts) {
    for (const { t, index, gamma } of impacts) this.impacts.push({ t, index, gamma });
    this.soon();
  }

  keepImpacts(count) {
    this.impacts = this.impacts.filter((impact) => impact.index < count);
    this.soon();
  }

  select(index) {
    this.selected = index;
    // A plot with no data yet has no axes to draw the lines on (uPlot would fail): it draws them later.
    const plot = this.uplot;
    if (plot && plot.data?.[0]?.length) plot.redraw(false, false);
  }

  setNow(t) {
    this.now = t;
    this.soon();
  }

  soon() {
    if (!this.timer) this.timer = setTimeout(() => this.flush(), REDRAW_MS);
  }

  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    const [t, values] = this.#data();
    this.uplot?.setData([t, values]);
    const q = this.quantity;
    const n = t.length;
    this.summary.textContent = q && n
      ? `${q.label}: ${n} ${q.kind === 'gamma' ? 'impacts' : 'samples'}, the last ${formatNumber(values[n - 1], 4)} at t = ${t[n - 1].toFixed(2)} s.`
      : 'Nothing to plot yet.';
  }
}
