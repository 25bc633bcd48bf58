// Live restitution: the global e (a slider and a text field) and one slider per contact, labelled with the
// contact's name. Changes go to the worker and take effect at the next impact. The controls show what the
// engine holds: a value it refuses (e = 2) or text that is not a number (“abc”) is named in the message
// area, stays in the field (marked invalid) for the user to correct, and moves nothing else.
import { el, uniqueId } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { parseEntry } from '../lab/number-text.js';
import { contactLabel } from './names.js';

/**
 * A slider in [0, 1] with a text field or an output kept in step. `onChange(e)` resolves true when the
 * engine took e; the controls move only then.
 */
function restitutionInput(label, value, onChange, { withNumber = true, testid, numberTestid, onInvalid } = {}) {
  const id = uniqueId('e');
  const slider = el('input', { id, type: 'range', min: 0, max: 1, step: 0.01, value, 'data-testid': testid });
  const number = el('input', { type: 'text', inputmode: 'decimal', autocomplete: 'off', value: String(value),
    class: 'number-input', 'aria-label': `${label} (number)`, 'data-testid': numberTestid, 'data-field': 'e' });
  const out = el('output', { for: id, class: 'e-value', text: formatNumber(value, 3) });
  let held = value;  // what the engine holds
  const show = (v) => {
    held = v;
    slider.value = String(v);
    number.value = String(v);
    number.removeAttribute('aria-invalid');
    out.textContent = formatNumber(v, 3);
  };
  slider.addEventListener('input', async () => {
    const v = Number(slider.value);
    out.textContent = formatNumber(v, 3);
    number.value = String(v);
    number.removeAttribute('aria-invalid');
    if (await onChange(v)) held = v;
    else show(held);
  });
  number.addEventListener('change', async () => {
    let v;
    try {
      v = parseEntry(number.value, 'e');
    } catch (error) {
      number.setAttribute('aria-invalid', 'true');
      onInvalid?.(error);
      return;
    }
    // Out of [0, 1] is the engine's to refuse, with a message naming the field; then nothing moves.
    if (await onChange(v)) show(v);
    else number.setAttribute('aria-invalid', 'true');
  });
  const row = el('div', { class: 'control-row' }, el('label', { for: id, text: label }), slider,
    withNumber ? number : out);
  return { row, set: show, get value() { return held; } };
}

export class RestitutionControls {
  /**
   * @param {{onGlobal: (e: number) => Promise<boolean>, onContact: (index: number, e: number) => Promise<boolean>,
   *          onInvalid: (error: Error) => void}} options  the callbacks resolve true when the engine took e
   */
  constructor({ onGlobal, onContact, onInvalid }) {
    this.onContact = onContact;
    this.global = restitutionInput('e (all contacts)', 0.5, async (e) => {
      if (!(await onGlobal(e))) return false;
      for (const c of this.contacts) c.set(e);
      return true;
    }, { testid: 'restitution', numberTestid: 'restitution-all', onInvalid });
    this.list = el('div', { class: 'contact-list' });
    this.contacts = [];
    this.none = el('p', { class: 'muted small', hidden: true,
      text: 'This scenario has no contacts (only joints), so there is nothing to restitute.' });
    this.automatic = el('p', { class: 'muted small', hidden: true, 'data-testid': 'restitution-automatic',
      text: 'Every two bodies, and every body and plane, collide here ("collide": "all"): e sets all of them.' });
    this.element = el('section', { class: 'panel restitution', 'aria-label': 'Restitution' },
      el('h2', { text: 'Restitution' }),
      el('p', { class: 'muted small', text: 'Newton’s law per contact: φ̇⁺ = −e φ̇⁻. Takes effect at the next impact.' }),
      this.global.row,
      this.list,
      this.automatic,
      this.none);
  }

  /** Rebuilds the per-contact sliders for a normalized scenario. */
  setScenario(scenario) {
    const base = scenario.restitution ?? 0.5;
    this.global.set(base);
    const contacts = scenario.contacts ?? [];
    this.contacts = contacts.map((contact, i) => restitutionInput(`e: ${contactLabel(scenario, i)}`,
      contact.e ?? base, (e) => this.onContact(i, e), { withNumber: false }));
    this.list.replaceChildren(...this.contacts.map((c) => c.row));
    // Contacts are declared, or found by the core ("collide": "all"): the slider of e sets those too.
    const automatic = scenario.collide === 'all';
    this.list.hidden = contacts.length === 0;
    this.global.row.hidden = contacts.length === 0 && !automatic;
    this.automatic.hidden = !automatic;
    this.none.hidden = contacts.length > 0 || automatic;
  }

  /**
   * Shows the values of a normalized scenario (the settings in force after a change made elsewhere: a cut
   * of the run, a link, the embed API) without rebuilding the sliders, so that a drag in progress goes on.
   */
  showValues(scenario) {
    const base = scenario.restitution ?? 0.5;
    this.global.set(base);
    (scenario.contacts ?? []).forEach((contact, i) => this.contacts[i]?.set(contact.e ?? base));
  }

  /** The e each contact has now (for the explanations of the panels). */
  get contactValues() {
    return this.contacts.map((c) => c.value);
  }
}
