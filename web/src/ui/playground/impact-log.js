// The impact log: one row per impact, newest first; a row (or its button) goes to that impact and shows it.
// "Follow latest" goes back to the live end of the run, showing each new impact as it happens. The notes say
// why an impact is not what its e suggests: plastic because it was slower than the rest speed or nearly
// resting in a stack (the contact comes to rest), plastic because the activation rule made it so, too small
// to see; and what is not physical.
import { el } from '../widgets/dom.js';
import { formatGamma, formatNumber } from '../widgets/format.js';
import { plasticPoints } from '../impact-panels/restitution-used.js';

/** Rows kept in the table (the newest); older impacts stay in the run, just not listed. */
const MAX_ROWS = 400;
/** Contacts named in a row of the log; more are counted ("and 5 more") and listed in the cell's title. */
const MAX_NAMED = 4;
/** An impact whose K⁻ is below this share of the largest so far is noted as too small to see. */
const MINOR = 1e-3;

export class ImpactLog {
  /** @param {{onSelect: (index: number) => void, onFollow: () => void}} options */
  constructor({ onSelect, onFollow }) {
    this.body = el('tbody');
    this.count = el('span', { class: 'muted' });
    this.follow = el('button', { type: 'button', class: 'button small', disabled: true, text: 'Follow latest',
      on: { click: () => onFollow() } });
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
    this.largest = 0;
    this.restSpeed = 0;
    this.now = Infinity;
  }

  /**
   * Names of the scenario's contacts (for the contacts column) and its rest speed (for the notes of a
   * summary without its points' own `rest_speeds`).
   */
  setContactNames(names, restSpeed = 0, automatic = null) {
    this.names = names;
    this.automatic = automatic;  // (summary, point index) => the label of an automatic contact point
    this.restSpeed = restSpeed;
  }

  clear() {
    this.body.replaceChildren();
    this.total = 0;
    this.largest = 0;
    this.#counts();
  }

  /** Adds impact summaries (in order). */
  add(summaries) {
    for (const s of summaries) {
      this.largest = Math.max(this.largest, s.K_minus ?? 0);
      const notes = [];
      const warnings = [];
      const { slow, stacked, joined } = plasticPoints(s, this.restSpeed);
      if (slow.length > stacked.length) notes.push('plastic: slower than the rest speed, comes to rest');
      if (stacked.length) notes.push('plastic: nearly resting in a stack, comes to rest');
      if (joined.length) notes.push('plastic: added by the activation rule');
      if (s.K_minus < MINOR * this.largest) notes.push('too small to see');
      if (s.scheduled) notes.push('applied impulse');
      // Friction (docs/friction.md): each frictional point's mode with its μ and critical μ.
      for (const f of s.friction ?? []) {
        notes.push(`${f.mode} (μ = ${formatNumber(f.mu, 3)}, μ_crit = ${f.mu_critical === null ? '∞' : formatNumber(f.mu_critical, 3)})`);
      }
      if (s.painleve) notes.push('Painlevé: tangential impact');
      if (s.flags?.tensile_impulse?.length) warnings.push('pulls');
      if (s.flags?.approach_after_impact?.length) warnings.push('still approaching');
      if (s.flags?.energy_gain) warnings.push(s.friction?.length ? 'energy gained (Kane’s paradox)' : 'energy gained');
      const row = el('tr', { 'data-index': String(s.index), class: warnings.length ? 'flagged' : null },
        el('td', {}, el('button', { type: 'button', class: 'row-button', 'aria-label': `Show impact ${s.index + 1}`,
          text: String(s.index + 1) })),
        el('td', { text: s.t.toFixed(3) }),
        this.#nameContacts(el('td', { 'data-column': 'contacts' }), s),
        el('td', { 'data-value': String(s.gamma), text: formatGamma(s.gamma, 4).text, title: formatGamma(s.gamma).note || null }),
        el('td', { text: formatNumber(s.W_loss, 3, 1e-12) }),
        el('td', { text: formatNumber(Math.max(0, ...(s.i_lambda ?? []).map(Math.abs)), 3) }),
        el('td', { class: 'notes', 'data-testid': 'log-notes' },
          warnings.length ? el('strong', { text: warnings.join(', ') }) : null,
          warnings.length && notes.length ? '; ' : null, notes.join('; ')));
      if (s.index >= this.now) row.classList.add('future');
      this.body.prepend(row);
      if (this.body.childElementCount > MAX_ROWS) this.body.lastElementChild.remove();
    }
    this.total += summaries.length;
    this.#counts();
    this.#mark();
  }

  /** Writes the contacts of impact `s` into `cell`, each named once; beyond MAX_NAMED, "and N more" (all in its title). */
  #nameContacts(cell, s) {
    const automatic = (j) => this.automatic?.(s, j) ?? 'automatic contact';
    const names = [...new Set((s.contacts ?? []).map((c, j) => (typeof c === 'number'
      ? (c < 0 ? automatic(j) : this.names[c] ?? `#${c + 1}`) : String(c))))];
    const all = names.join(', ') || '—';
    cell.textContent = names.length > MAX_NAMED ? `${names.slice(0, MAX_NAMED - 1).join(', ')} and ${names.length - MAX_NAMED + 1} more` : all;
    if (names.length > MAX_NAMED) cell.title = all;
    else cell.removeAttribute('title');
    return cell;
  }

  /** Names the contacts of impact `s.index` again (the bodies of its automatic points became known). */
  relabel(s) {
    const cell = this.body.querySelector(`tr[data-index="${s.index}"] [data-column="contacts"]`);
    if (cell) this.#nameContacts(cell, s);
  }

  /** Drops the rows of impacts `count` and later (the run was cut). */
  keep(count) {
    for (const row of [...this.body.querySelectorAll('tr[data-index]')]) {
      if (Number(row.dataset.index) >= count) row.remove();
    }
    this.total = Math.min(this.total, count);
    this.#counts();
  }

  /** Greys the impacts after the moment shown (`count` impacts have happened by then). */
  setNow(count) {
    if (count === this.now) return;
    this.now = count;
    for (const row of this.body.querySelectorAll('tr[data-index]')) {
      row.classList.toggle('future', Number(row.dataset.index) >= count);
    }
  }

  /** Marks the row of the impact shown (`following` true when it tracks the latest of the live run). */
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
