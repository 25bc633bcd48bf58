// The virtual mass ν: a log slider and an "optimal" checkbox, the curve cond(Mc) against ν with the
// optimal interval (both computed by the core: engine.conditionCurve), and the proof by example that q̇⁺
// does not depend on ν.
import { el, replaceChildren, svg, uniqueId } from '../widgets/dom.js';
import { formatNumber, formatScientific, maxAbs } from '../widgets/format.js';
import { FORMULAS, tex } from '../widgets/formula.js';

const LOG_MIN = -4;
const LOG_MAX = 4;
const CURVE_POINTS = 160;
/** The values of ν at which the curve cond(Mc) is drawn (log-spaced over the slider's range). */
export const CURVE_NUS = Array.from({ length: CURVE_POINTS + 1 },
  (_, k) => 10 ** (LOG_MIN + ((LOG_MAX - LOG_MIN) * k) / CURVE_POINTS));
const PLOT_W = 320;
const PLOT_H = 110;

export class NuPanel {
  /** @param {{onChange: (nu: number|null) => void}} options  nu null = optimal */
  constructor({ onChange }) {
    this.onChange = onChange;
    const sliderId = uniqueId('nu-slider');
    this.slider = el('input', { id: sliderId, type: 'range', min: LOG_MIN, max: LOG_MAX, step: 0.01, value: 0,
      'aria-describedby': `${sliderId}-hint` });
    this.value = el('output', { for: sliderId, class: 'nu-value' });
    this.optimal = el('input', { type: 'checkbox', checked: true });
    this.plot = el('div', { class: 'nu-plot' });
    this.readout = el('dl', { class: 'quantities' });
    this.invariance = el('p', { class: 'notice notice-ok', hidden: true });
    this.slider.addEventListener('input', () => {
      this.optimal.checked = false;
      this.onChange(10 ** Number(this.slider.value));
    });
    this.optimal.addEventListener('change', () => {
      this.onChange(this.optimal.checked ? null : 10 ** Number(this.slider.value));
    });
    this.element = el('section', { class: 'panel nu-panel', 'aria-label': 'Virtual mass' },
      el('h3', {}, 'Virtual mass ', tex(String.raw`\nu`)),
      el('p', { class: 'caption' }, tex(FORMULAS.Mc),
        ' — ν fills the directions the constraints block, so that Mc can be inverted. It changes how well ',
        'conditioned Mc is, never the impact.'),
      el('div', { class: 'control-row' },
        el('label', { for: sliderId }, 'ν (log scale)'), this.slider, this.value),
      el('label', { class: 'check' }, this.optimal, ' optimal ν (minimises cond(Mc))'),
      el('p', { id: `${sliderId}-hint`, class: 'visually-hidden', text: 'From 0.0001 to 10000; changes the virtual mass.' }),
      this.plot, this.readout, this.invariance);
  }

  /**
   * Shows `display` (the impact at the chosen ν) against `base` (as it was computed); `nu` null = optimal;
   * `curve` the core's cond(Mc) at each of CURVE_NUS ({cond_Mc}, or null when it could not be had, with
   * `unavailable` saying why).
   */
  update(display, base, nu, curve, unavailable = '') {
    this.optimal.checked = nu === null;
    const shown = display.nu;
    this.slider.value = String(Math.log10(shown));
    this.value.textContent = formatNumber(shown, 4);
    const [lo, hi] = display.nu_range ?? [NaN, NaN];
    const reachable = display.rank > 0 && display.rank < display.n;
    replaceChildren(this.readout,
      el('div', {}, el('dt', {}, tex(String.raw`\operatorname{cond}(M_c)`)),
        el('dd', { 'data-testid': 'cond-Mc', text: formatNumber(display.cond_Mc, 5) })),
      el('div', {}, el('dt', { text: 'optimal ν' }),
        el('dd', { text: reachable ? `any ν in [${formatNumber(lo, 4)}, ${formatNumber(hi, 4)}]` : 'every ν (it does not enter)' })));
    const drawable = reachable && curve?.cond_Mc?.every(Number.isFinite) && Number.isFinite(display.cond_Mc);
    replaceChildren(this.plot, drawable ? this.#curve(display, shown, lo, hi, curve.cond_Mc) : el('p', { class: 'muted small',
      text: display.rank === display.n ? 'A has full column rank: Mc = νI, cond(Mc) = 1 for every ν.'
        : display.rank === 0 ? 'No constraint rows: Mc = M whatever ν is.'
          : `The curve cond(Mc) is not available${unavailable ? `: ${unavailable}` : ''}.` }));
    if (display !== base) {
      const gap = maxAbs(display.qd_plus.map((x, i) => x - base.qd_plus[i])) / Math.max(1e-300, maxAbs(base.qd_plus));
      this.invariance.hidden = false;
      this.invariance.textContent = `At ν = ${formatNumber(shown, 4)}, cond(Mc) = ${formatNumber(display.cond_Mc, 4)} ` +
        `instead of ${formatNumber(base.cond_Mc, 4)}, yet q̇⁺ differs from the one at ν = ${formatNumber(base.nu, 4)} ` +
        `by only ${formatScientific(gap)} (relative): S and q̇⁺ do not depend on ν.`;
    } else {
      this.invariance.hidden = true;
    }
  }

  #curve(a, nu, lo, hi, conds) {
    const xs = (log) => ((log - LOG_MIN) / (LOG_MAX - LOG_MIN)) * PLOT_W;
    const condMax = Math.max(...conds, a.cond_Mc);
    const yMax = Math.log10(condMax) * 1.05 || 1;
    const ys = (cond) => PLOT_H - 14 - (Math.log10(cond) / yMax) * (PLOT_H - 24);
    const points = CURVE_NUS.map((x, k) => `${xs(Math.log10(x)).toFixed(1)},${ys(conds[k]).toFixed(1)}`);
    const x0 = xs(Math.log10(lo));
    const x1 = xs(Math.log10(hi));
    return svg('svg', { viewBox: `0 0 ${PLOT_W} ${PLOT_H}`, class: 'nu-svg', role: 'img',
      'aria-label': `cond(Mc) against ν on log scales: smallest, ${formatNumber(hi / lo, 4)}, for ν between ` +
        `${formatNumber(lo, 4)} and ${formatNumber(hi, 4)}; now ${formatNumber(a.cond_Mc, 4)} at ν = ${formatNumber(nu, 4)}.` },
    svg('rect', { x: x0, y: 0, width: Math.max(1, x1 - x0), height: PLOT_H - 14, class: 'nu-optimal' }),
    svg('polyline', { points: points.join(' '), class: 'nu-curve' }),
    svg('line', { x1: 0, y1: PLOT_H - 14, x2: PLOT_W, y2: PLOT_H - 14, class: 'axis' }),
    [LOG_MIN, 0, LOG_MAX].map((log) => svg('text', { x: xs(log), y: PLOT_H - 2, class: 'tick',
      'text-anchor': log === LOG_MIN ? 'start' : log === LOG_MAX ? 'end' : 'middle', text: `10${sup(log)}` })),
    svg('text', { x: 4, y: 12, class: 'tick', text: 'cond(Mc), log scale' }),
    svg('circle', { cx: xs(Math.log10(nu)), cy: ys(a.cond_Mc), r: 4.5, class: 'nu-point' }));
  }
}

function sup(n) {
  const map = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴' };
  return String(n).split('').map((c) => map[c]).join('');
}
