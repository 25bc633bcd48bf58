// Live restitution: the global e (a slider and a number field) and one slider per contact, labelled with
// the contact's name. Changes go to the worker and take effect at the next impact.
import { el, uniqueId } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { contactLabel } from './names.js';

/** A slider in [0, 1] and a number field kept in step; `onChange` gets the number the user set. */
function restitutionInput(label, value, onChange, { withNumber = true, testid } = {}) {
  const id = uniqueId('e');
  const slider = el('input', { id, type: 'range', min: 0, max: 1, step: 0.01, value, 'data-testid': testid });
  const number = el('input', { type: 'number', min: 0, max: 1, step: 0.01, value, class: 'number-input',
    'aria-label': `${label} (number)` });
  const out = el('output', { for: id, class: 'e-value', text: formatNumber(value, 3) });
  slider.addEventListener('input', () => {
    number.value = slider.value;
    out.textContent = formatNumber(Number(slider.value), 3);
    onChange(Number(slider.value));
  });
  number.addEventListener('change', () => {
    if (number.value.trim() === '') return;
    const v = Number(number.value);
    slider.value = String(v);
    out.textContent = formatNumber(v, 3);
    onChange(v);  // out of [0, 1] is the engine's to refuse, with a message naming the field
  });
  const row = el('div', { class: 'control-row' }, el('label', { for: id, text: label }), slider,
    withNumber ? number : out);
  return { row, set(v) { slider.value = String(v); number.value = String(v); out.textContent = formatNumber(v, 3); } };
}

export class RestitutionControls {
  /** @param {{onGlobal: (e: number) => void, onContact: (index: number, e: number) => void}} options */
  constructor({ onGlobal, onContact }) {
    this.onContact = onContact;
    this.global = restitutionInput('e (all contacts)', 0.5, (e) => {
      for (const c of this.contacts) c.set(e);
      onGlobal(e);
    }, { testid: 'restitution' });
    this.list = el('div', { class: 'contact-list' });
    this.contacts = [];
    this.element = el('section', { class: 'panel restitution', 'aria-label': 'Restitution' },
      el('h2', { text: 'Restitution' }),
      el('p', { class: 'muted small', text: 'Newton’s law per contact: φ̇⁺ = −e φ̇⁻. Takes effect at the next impact.' }),
      this.global.row,
      this.list);
  }

  /** Rebuilds the per-contact sliders for a normalized scenario. */
  setScenario(scenario) {
    const base = scenario.restitution ?? 0.5;
    this.global.set(base);
    const contacts = scenario.contacts ?? [];
    this.contacts = contacts.map((contact, i) => restitutionInput(`e: ${contactLabel(scenario, i)}`,
      contact.e ?? base, (e) => this.onContact(i, e), { withNumber: false }));
    this.list.replaceChildren(...this.contacts.map((c) => c.row));
  }
}
