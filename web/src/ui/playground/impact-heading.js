// The head of the impact's panels: "Impact 3", and what it was — when, its contacts by name (a few of them,
// then how many more: an impact of 200 contacts does not push γ below the fold), its size and rank, and
// whether the panels follow the latest impact.
import { el } from '../widgets/dom.js';
import { namesPhrase } from '../../scenario/names.js';

/** Contacts named in the head; more are counted, and all of them are in the line's title. */
const MAX_NAMED = 3;

export class ImpactHeading {
  constructor() {
    this.title = el('h2', { id: 'impact-title', text: 'The impact' });
    this.meta = el('p', { class: 'impact-meta', 'data-testid': 'impact-meta' });
    this.element = el('div', { class: 'panel-head' }, this.title, this.meta);
  }

  /** No impact shown. */
  clear() {
    this.title.textContent = 'The impact';
    this.meta.textContent = '';
    this.meta.removeAttribute('title');
  }

  /**
   * Names impact `index` (a record or a summary) with its contacts' `names`; `following` says how it was
   * chosen ('' when the reader chose it).
   */
  show(impact, index, { names, following }) {
    this.title.textContent = `Impact ${index + 1}`;
    const contacts = names.length ? namesPhrase(names, { max: MAX_NAMED, noun: 'contacts' }) : 'no contact';
    this.meta.textContent = `t = ${impact.t.toFixed(4)} s · ${contacts} · n = ${impact.n}, m = ${impact.m}, ` +
      `rank ${impact.rank}${following}`;
    if (names.length > MAX_NAMED + 1) this.meta.title = names.join(', ');
    else this.meta.removeAttribute('title');
  }
}
