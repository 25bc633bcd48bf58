// Energy over time (kinetic, potential, total) with a vertical marker at every impact (the selected one
// darker): the total drops in steps exactly at the impacts, by W_loss each. uPlot, redrawn at most ~8×/s.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ENERGY_COLORS } from '../widgets/colors.js';
import { el } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';

/** Samples kept; beyond it every other sample is dropped (the plot stays light on long runs). */
const MAX_SAMPLES = 6000;
const REDRAW_MS = 120;

export class EnergyPlot {
  constructor() {
    this.holder = el('div', { class: 'energy-holder' });
    this.summary = el('p', { class: 'visually-hidden', 'aria-live': 'off' });
    this.element = el('section', { class: 'panel energy-plot', 'data-testid': 'energy-plot', 'aria-label': 'Energy over time' },
      el('div', { class: 'panel-head' }, el('h2', { text: 'Energy' }),
        el('span', { class: 'muted small', text: 'orange lines: impacts' })),
      this.holder, this.summary);
    this.timer = null;
    this.plot = null;
    this.#empty();
    new ResizeObserver(() => this.#resize()).observe(this.holder);
  }

  #create(width) {
    const draw = (u) => {
      const { ctx } = u;
      const { top, height } = u.bbox;
      ctx.save();
      for (const [k, t] of this.impacts.entries()) {
        const x = Math.round(u.valToPos(t, 'x', true)) + 0.5;
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
        const chosen = k === this.selected;
        ctx.strokeStyle = ENERGY_COLORS.impact;
        ctx.globalAlpha = chosen ? 1 : 0.45;
        ctx.lineWidth = (chosen ? 2.5 : 1) * uPlot.pxRatio;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
      }
      ctx.restore();
    };
    const value = (_u, v) => (v === null || v === undefined ? '—' : `${formatNumber(v, 4)} J`);
    this.plot = new uPlot({
      width,
      height: 170,
      scales: { x: { time: false } },
      axes: [
        { label: 't (s)', size: 36, labelSize: 18, stroke: '#444', grid: { stroke: '#eee' } },
        { label: 'J', size: 48, labelSize: 18, stroke: '#444', grid: { stroke: '#eee' } },
      ],
      series: [
        { label: 't', value: (_u, v) => (v === null || v === undefined ? '—' : `${v.toFixed(3)} s`) },
        { label: 'kinetic', stroke: ENERGY_COLORS.kinetic, width: 1.5, value, points: { show: false } },
        { label: 'potential', stroke: ENERGY_COLORS.potential, width: 1.5, value, points: { show: false } },
        { label: 'total', stroke: ENERGY_COLORS.total, width: 2, value, points: { show: false } },
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      hooks: { draw: [draw] },
    }, [this.t, this.kinetic, this.potential, this.total], this.holder);
  }

  #resize() {
    const width = Math.floor(this.holder.getBoundingClientRect().width);
    if (width < 50) return;
    if (!this.plot) this.#create(width);
    else this.plot.setSize({ width, height: 170 });
  }

  /** Clears the plot (new scenario, reset). */
  clear() {
    this.#empty();
    this.flush();
  }

  #empty() {
    this.t = [];
    this.kinetic = [];
    this.potential = [];
    this.total = [];
    this.impacts = [];
    this.selected = null;
  }

  /**
   * Adds samples (states on the way, then the frame's state) and the new impacts; redraws soon. An impact
   * at the frame's own time also gets its pre-impact point (K⁻ with the same potential), so the drop by
   * W_loss is drawn where it happens.
   */
  add(state, impacts = [], samples = []) {
    for (const sample of samples) this.#push(sample.time, sample.kinetic, sample.potential);
    for (const impact of impacts) {
      this.impacts.push(impact.t);
      if (impact.t === state.time) this.#push(impact.t, impact.K_minus, state.potential, true);
    }
    this.#push(state.time, state.kinetic, state.potential, true);
    if (this.t.length > MAX_SAMPLES) this.#thin();
    if (!this.timer) this.timer = setTimeout(() => this.flush(), REDRAW_MS);
  }

  #push(time, kinetic, potential, sameTimeToo = false) {
    const last = this.t.length ? this.t[this.t.length - 1] : -Infinity;
    if (time < last || (time === last && (!sameTimeToo || kinetic === this.kinetic[this.kinetic.length - 1]))) return;
    this.t.push(time);
    this.kinetic.push(kinetic);
    this.potential.push(potential);
    this.total.push(kinetic + potential);
  }

  /** Marks impact `index` (null: none). */
  select(index) {
    this.selected = index;
    this.plot?.redraw(false, false);
  }

  /** Redraws now. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    this.plot?.setData([this.t, this.kinetic, this.potential, this.total]);
    const n = this.t.length;
    this.summary.textContent = n
      ? `At t = ${this.t[n - 1].toFixed(2)} s: kinetic ${formatNumber(this.kinetic[n - 1], 3)} J, potential ` +
        `${formatNumber(this.potential[n - 1], 3)} J, total ${formatNumber(this.total[n - 1], 3)} J, after ${this.impacts.length} impacts.`
      : 'No samples yet.';
  }

  #thin() {
    for (const series of [this.t, this.kinetic, this.potential, this.total]) {
      const kept = series.filter((_, i) => i % 2 === 0 || i === series.length - 1);
      series.length = 0;
      series.push(...kept);
    }
  }
}
