// The impact log: one row per impact, newest first; a row (or its button) selects the impact the panels
// show. "Follow latest" goes back to showing each new impact as it happens.
import { el } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';

/** Rows kept in the table (the newest); older impacts stay in the run, just not listed. */
const MAX_ROWS = 400;

export class ImpactLog {
  /** @param {{onSelect: (index: number|null) => void}} options  null = follow the latest */
  constructor({ onSelect }) {
    this.onSelect = onSelect;
    this.body = el('tbody');
    this.count = el('span', { class: 'muted' });
    this.follow = el('button', { type: 'button', class: 'button small', disabled: true, text: 'Follow latest',
      on: { click: () => onSelect(null) } });
    this.empty = el('p', { class: 'muted small', text: 'No impacts yet.' });
    this.table = el('table', { class: 'data-table log-table' },
      el('caption', { class: 'visually-hidden', text: 'Impacts so far, newest first' }),
      el('thead', {}, el('tr', {},
        ['#', 't (s)', 'contacts', 'γ', 'W_loss (J)', 'max |iλ|', 'notes'].map((h) => el('th', { scope: 'col', text: h })))),
      this.body);
    this.body.addEventListener('click', (event) => {
      const row = event.target.closest('tr[data-index]');
      if (row) onSelect(Number(row.dataset.index));
    });
    this.element = el('section', { class: 'panel impact-log', 'data-testid': 'impact-log', 'aria-label': 'Impact log' },
      el('div', { class: 'panel-head' }, el('h2', { text: 'Impact log' }), this.count, this.follow),
      this.empty,
      el('div', { class: 'log-scroll', tabindex: '-1' }, this.table));
    this.names = [];
    this.selected = null;
    this.total = 0;
  }

  /** Names of the scenario's contacts (for the contacts column). */
  setContactNames(names) {
    this.names = names;
  }

  clear() {
    this.body.replaceChildren();
    this.total = 0;
    this.#counts();
  }

  /** Adds impact summaries (in order). */
  add(summaries) {
    for (const s of summaries) {
      const contacts = (s.contacts ?? []).map((c) => (typeof c === 'number' ? this.names[c] ?? `#${c + 1}` : String(c)));
      const notes = [];
      if (s.flags?.tensile_impulse?.length) notes.push('pulls');
      if (s.flags?.approach_after_impact?.length) notes.push('still approaching');
      if (s.flags?.energy_gain) notes.push('energy gained');
      const maxImpulse = Math.max(0, ...(s.i_lambda ?? []).map(Math.abs));
      const row = el('tr', { 'data-index': String(s.index), class: notes.length ? 'flagged' : null },
        el('td', {}, el('button', { type: 'button', class: 'row-button', 'aria-label': `Show impact ${s.index + 1}`,
          text: String(s.index + 1) })),
        el('td', { text: s.t.toFixed(3) }),
        el('td', { text: [...new Set(contacts)].join(', ') || '—' }),
        el('td', { 'data-value': String(s.gamma), text: formatNumber(s.gamma, 4) }),
        el('td', { text: formatNumber(s.W_loss, 3, 1e-12) }),
        el('td', { text: formatNumber(maxImpulse, 3) }),
        el('td', { text: notes.join(', ') }));
      this.body.prepend(row);
      if (this.body.childElementCount > MAX_ROWS) this.body.lastElementChild.remove();
    }
    this.total += summaries.length;
    this.#counts();
    this.#mark();
  }

  /** Marks the row of the impact shown (`following` true when it tracks the latest). */
  select(index, following) {
    this.selected = index;
    this.follow.disabled = following;
    this.#mark();
  }

  #mark() {
    for (const row of this.body.querySelectorAll('tr[aria-current]')) row.removeAttribute('aria-current');
    if (this.selected === null) return;
    this.body.querySelector(`tr[data-index="${this.selected}"]`)?.setAttribute('aria-current', 'true');
  }

  #counts() {
    this.empty.hidden = this.total > 0;
    this.table.hidden = this.total === 0;
    this.count.textContent = this.total > MAX_ROWS ? `${this.total} (newest ${MAX_ROWS} listed)` : `${this.total}`;
  }
}
