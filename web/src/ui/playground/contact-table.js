// The contacts at the moment shown: each touching point with its normal force λₙ, its friction force λₜ, their
// ratio (Coulomb's law keeps |λₜ|/λₙ ≤ μ: a point at the edge of its cone is about to slide, or slides) and
// its slip speed v_t; sticking or sliding as the scene draws it. A scene of friction without impacts (a
// bowling ball rolling, a block on a slope) shows here what holds it and what makes it slide.
import { el, replaceChildren } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { isSliding, slipTolerance } from './sliding.js';

/** Points listed at most; more are counted. */
const MAX_ROWS = 12;
/** The table follows the run at most this often (ms). */
const REFRESH_MS = 250;

export class ContactTable {
  /** @param {{label: (points: object[], k: number) => string}} options  a contact point's name */
  constructor({ label }) {
    this.label = label;
    this.body = el('div', { class: 'contact-table-body' });
    this.element = el('section', { class: 'panel contact-table', 'data-testid': 'contact-table', 'aria-label': 'Contacts now', hidden: true },
      el('h3', { text: 'Contacts now' }), this.body);
    this.last = 0;
    this.timer = null;
  }

  setScenario(scenario) {
    this.tolerance = slipTolerance(scenario);
    this.element.hidden = true;
  }

  /** The contact points of the frame shown (at most every REFRESH_MS, the last one always). */
  show(points, time) {
    this.pending = { points, time };
    const wait = this.last + REFRESH_MS - performance.now();
    if (wait <= 0) this.#draw();
    else this.timer ??= setTimeout(() => this.#draw(), wait);
  }

  #draw() {
    clearTimeout(this.timer);
    this.timer = null;
    this.last = performance.now();
    const { points, time } = this.pending;
    const touching = points.map((p, k) => [p, k]).filter(([p]) => p.state !== 'inactive');
    this.element.hidden = touching.length === 0;
    if (!touching.length) return;
    const force = Math.max(1e-300, ...touching.map(([p]) => Math.abs(p.multiplier)));
    const cell = (x, digits, zero) => el('td', { 'data-value': String(x), text: formatNumber(x, digits, zero) });
    const state = (p) => (p.state === 'impacting' ? 'impact' : isSliding(p, this.tolerance) ? 'sliding'
      : p.slip !== 0 ? 'at the cone’s edge' : p.friction ? 'sticking' : 'touching');
    const rows = touching.slice(0, MAX_ROWS).map(([p, k]) => el('tr', { 'data-state': state(p) },
      el('th', { scope: 'row', text: this.label(points, k) }),
      el('td', { text: state(p) }),
      cell(p.multiplier, 4, 1e-12 * force),
      cell(p.friction, 4, 1e-12 * force),
      p.multiplier > 1e-12 * force ? cell(p.friction / p.multiplier, 3, 1e-12) : el('td', { text: '—' }),
      cell(p.slipSpeed, 3, this.tolerance)));
    replaceChildren(this.body,
      el('p', { class: 'muted small', text: `At t = ${time.toFixed(3)} s. Coulomb’s law keeps |λₜ|/λₙ ≤ μ; a point slides ` +
        `while its slip speed v_t is above the rest speed (${formatNumber(this.tolerance, 3)} m/s).` }),
      el('div', { class: 'rows-table', tabindex: '0', role: 'region', 'aria-label': 'Contact points now, scrollable' },
        el('table', { class: 'data-table' },
          el('thead', {}, el('tr', {}, ['contact', 'state', 'λₙ (N)', 'λₜ (N)', 'λₜ/λₙ', 'v_t (m/s)'].map((h) => el('th', { scope: 'col', text: h })))),
          el('tbody', {}, rows))),
      touching.length > MAX_ROWS ? el('p', { class: 'muted small', text: `And ${touching.length - MAX_ROWS} more touching points.` }) : null);
  }
}
