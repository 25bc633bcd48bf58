// Live restitution and friction: the global e (a slider and a text field) and one slider per contact,
// labelled with the contact's name; below, Coulomb's μ the same way (the slider spans 0 … 1, the text field
// takes any μ ≥ 0 or “stick”, μ = ∞). Changes go to the worker: e takes effect at the next impact, μ at once
// (the next smooth phase and impact). The controls show what the engine holds: a value it refuses (e = 2,
// μ = −1) or text that is not a number (“abc”) is named in the message area, stays in the field (marked
// invalid) for the user to correct, and moves nothing else.
import { el, uniqueId } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { parseEntry } from '../lab/number-text.js';
import { contactLabel } from '../../scenario/names.js';

/** Text typed for μ: “stick” (or ∞, inf, infinity) is μ = +∞; otherwise a number, named `mu`. */
function parseFriction(text) {
  return /^\s*(stick|∞|\+?inf(inity)?)\s*$/i.test(String(text)) ? 'stick' : parseEntry(text, 'mu');
}

/** How a value is written: μ's “stick”, or the number. */
const valueText = (v, digits) => (v === 'stick' ? 'stick' : digits ? formatNumber(v, digits) : String(v));

/**
 * A slider in [0, 1] with a text field or an output kept in step. `onChange(v)` resolves true when the
 * engine took v; the controls move only then. `field` names the value ('e', or 'mu', whose text field also
 * takes “stick” and values beyond the slider's end).
 */
function restitutionInput(label, value, onChange, { withNumber = true, testid, numberTestid, onInvalid, field = 'e' } = {}) {
  const id = uniqueId(field);
  const slider = el('input', { id, type: 'range', min: 0, max: 1, step: 0.01, value: sliderValue(value), 'data-testid': testid });
  const number = el('input', { type: 'text', inputmode: 'decimal', autocomplete: 'off', value: valueText(value),
    class: 'number-input', 'aria-label': `${label} (number)`, 'data-testid': numberTestid, 'data-field': field });
  const out = el('output', { for: id, class: 'e-value', text: valueText(value, 3) });
  let held = value;  // what the engine holds
  const show = (v) => {
    held = v;
    slider.value = sliderValue(v);
    number.value = valueText(v);
    number.removeAttribute('aria-invalid');
    out.textContent = valueText(v, 3);
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
      v = field === 'mu' ? parseFriction(number.value) : parseEntry(number.value, 'e');
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

/** Where the slider stands for a value: μ beyond the slider's end (or “stick”) at its end. */
const sliderValue = (v) => String(v === 'stick' ? 1 : Math.min(v, 1));

/** μ of contact `contact` of a normalized scenario: “stick”, its `mu`, or the document's. */
const frictionOf = (scenario, contact) => (contact.stick ? 'stick' : contact.mu ?? scenario.mu);

export class RestitutionControls {
  /**
   * @param {{onGlobal: (e: number) => Promise<boolean>, onContact: (index: number, e: number) => Promise<boolean>,
   *          onInvalid: (error: Error) => void}} options  the callbacks resolve true when the engine took e
   */
  constructor({ onGlobal, onContact, onFriction, onContactFriction, onInvalid }) {
    this.onContact = onContact;
    this.onContactFriction = onContactFriction;
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
    // Coulomb's μ, for every scene with contacts (a frictionless one too: what does friction change?).
    this.frictionGlobal = restitutionInput('μ (friction, all contacts)', 0, async (mu) => {
      if (!(await onFriction(mu))) return false;
      for (const c of this.frictionContacts) c.set(mu);
      return true;
    }, { testid: 'friction', numberTestid: 'friction-all', onInvalid, field: 'mu' });
    this.frictionList = el('div', { class: 'contact-list' });
    this.frictionContacts = [];
    this.friction = el('div', { class: 'friction-controls', 'data-testid': 'friction-controls' },
      el('h3', { text: 'μ (friction)' }),
      el('p', { class: 'muted small', text: 'Coulomb’s law per contact point: |λₜ| ≤ μ λₙ, sliding against the slip. ' +
        'Takes effect now, in the next smooth phase and impact. Type “stick” for μ = ∞; the field takes any μ ≥ 0.' }),
      this.frictionGlobal.row,
      this.frictionList);
    this.element = el('section', { class: 'panel restitution', 'aria-label': 'Restitution and friction' },
      el('h2', { text: 'Restitution' }),
      el('p', { class: 'muted small', text: 'Newton’s law per contact: φ̇⁺ = −e φ̇⁻. Takes effect at the next impact.' }),
      this.global.row,
      this.list,
      this.automatic,
      this.none,
      this.friction);
  }

  /** Rebuilds the per-contact sliders for a normalized scenario. */
  setScenario(scenario) {
    // A contact's e (and μ) is null when it takes the scenario's own.
    const base = scenario.restitution;
    this.global.set(base);
    const { contacts } = scenario;
    this.contacts = contacts.map((contact, i) => restitutionInput(`e: ${contactLabel(scenario, i)}`,
      contact.e ?? base, (e) => this.onContact(i, e), { withNumber: false }));
    this.list.replaceChildren(...this.contacts.map((c) => c.row));
    // Contacts are declared, or found by the core ("collide": "all"): the slider of e sets those too.
    const automatic = scenario.collide === 'all';
    this.list.hidden = contacts.length === 0;
    this.global.row.hidden = contacts.length === 0 && !automatic;
    this.automatic.hidden = !automatic;
    this.none.hidden = contacts.length > 0 || automatic;
    // μ: every contact but ropes, one row each when there are several.
    this.frictionGlobal.set(scenario.mu);
    const frictional = contacts.map((contact, i) => ({ contact, i })).filter(({ contact }) => contact.type !== 'rope');
    this.frictionContacts = [];
    for (const { contact, i } of frictional) {
      this.frictionContacts[i] = restitutionInput(`μ: ${contactLabel(scenario, i)}`, frictionOf(scenario, contact),
        (mu) => this.onContactFriction(i, mu), { withNumber: false, field: 'mu' });
    }
    this.frictionList.replaceChildren(...this.frictionContacts.filter(Boolean).map((c) => c.row));
    this.frictionList.hidden = frictional.length < 2;
    this.friction.hidden = frictional.length === 0 && !automatic;
  }

  /**
   * Shows the values of a normalized scenario (the settings in force after a change made elsewhere: a cut
   * of the run, a link, the embed API) without rebuilding the sliders, so that a drag in progress goes on.
   */
  showValues(scenario) {
    const base = scenario.restitution;
    this.global.set(base);
    scenario.contacts.forEach((contact, i) => this.contacts[i]?.set(contact.e ?? base));
    this.frictionGlobal.set(scenario.mu);
    scenario.contacts.forEach((contact, i) => this.frictionContacts[i]?.set(frictionOf(scenario, contact)));
  }

  /** The e each contact has now (for the explanations of the panels). */
  get contactValues() {
    return this.contacts.map((c) => c.value);
  }
}
