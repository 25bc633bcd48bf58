// How much kinetic energy one impact kept: γ = K⁺/K⁻ with a bar, W_loss, K⁻ and K⁺, energetic consistency,
// and plain-language warnings when the closed form is not physical (a pulling impulse, a contact still
// approaching, energy gained) or Newton's law holds only in the least-squares sense.
import { el, replaceChildren } from '../widgets/dom.js';
import { formatNumber, formatScientific } from '../widgets/format.js';
import { FORMULAS, tex } from '../widgets/formula.js';

/** Newton residuals below this are round-off. */
const NEWTON_TOLERANCE = 1e-9;

export class ImpactSummary {
  constructor() {
    this.gamma = el('output', { class: 'gamma-value', 'data-testid': 'gamma' });
    this.gammaBar = el('div', { class: 'gamma-bar', 'aria-hidden': 'true' }, el('span', { class: 'gamma-kept' }));
    this.energies = el('dl', { class: 'quantities' });
    this.warnings = el('div', { class: 'warnings' });
    this.element = el('section', { class: 'panel impact-summary', 'aria-label': 'Energy of the impact' },
      el('h3', { class: 'visually-hidden', text: 'Energy' }),
      el('div', { class: 'gamma-row' },
        el('div', { class: 'gamma-head' },
          el('span', { class: 'gamma-label' }, tex(String.raw`\gamma`), ' kinetic energy kept'),
          this.gamma),
        this.gammaBar,
        tex(FORMULAS.gamma)),
      this.energies,
      this.warnings);
  }

  /** @param {object} a impact record or analyzeImpact output; `labels` {coords, rows} */
  update(a, labels = {}) {
    const gamma = a.gamma;
    this.gamma.textContent = gamma === null || gamma === undefined ? '— (K⁻ = 0)' : formatNumber(gamma, 6);
    this.gamma.dataset.value = String(gamma);
    this.gammaBar.firstChild.style.width = `${Math.max(0, Math.min(1, gamma ?? 0)) * 100}%`;
    this.gammaBar.classList.toggle('gain', gamma > 1 + 1e-12);

    const energy = (x) => `${formatNumber(x, 5, 1e-14 * Math.max(a.K_minus, 1))} J`;
    replaceChildren(this.energies,
      item(tex(String.raw`W_{\text{loss}} = K^{+} - K^{-}`), energy(a.W_loss), 'w-loss'),
      item(tex(String.raw`K^{-}`), energy(a.K_minus)),
      item(tex(String.raw`K^{+}`), energy(a.K_plus)));
    this.#warnings(a, labels.rows);
  }

  #warnings(a, names) {
    const rowName = (i) => (names?.[i] ? `“${names[i]}” (row ${i + 1})` : `row ${i + 1}`);
    const notes = [];
    for (const i of a.flags?.tensile_impulse ?? []) {
      notes.push(['warning', `The impulse at ${rowName(i)} pulls (iλ = ${formatNumber(a.i_lambda[i], 3)} < 0). ` +
        'A contact can only push, so this closed-form answer is not physical here.']);
    }
    for (const i of a.flags?.approach_after_impact ?? []) {
      notes.push(['warning', `${capitalize(rowName(i))} is still approaching after the impact ` +
        `(φ̇⁺ = ${formatNumber(a.phid_plus?.[i], 3)} < 0): the bodies would pass into each other.`]);
    }
    if (a.flags?.energy_gain) {
      notes.push(['warning', `Energy is gained (γ = ${formatNumber(a.gamma, 4)} > 1): these restitution ` +
        'coefficients are not energetically consistent for this configuration.']);
    }
    if (a.newton_residual > NEWTON_TOLERANCE) {
      notes.push(['note', `A is rank-deficient and the eᵢ differ, so Newton’s law holds only in the ` +
        `least-squares sense (relative residual ${formatScientific(a.newton_residual)}).`]);
    }
    if (a.qmi_max_eig !== undefined && a.m > 0) {
      const ok = a.energy_consistent;
      const lost = !(a.gamma > 1 + 1e-12);
      notes.push([ok ? 'ok' : lost ? 'note' : 'warning', ok
        ? `Energetically consistent: λmax(EQE − Q) = ${formatNumber(a.qmi_max_eig, 3, 1e-12)} ≤ 0, so these eᵢ ` +
          'lose energy whatever the velocity before.'
        : `Not energetically consistent: λmax(EQE − Q) = ${formatNumber(a.qmi_max_eig, 3)} > 0, so these eᵢ could ` +
          `gain energy for some velocity before${lost ? ' — though this impact does lose energy' : ''}.`]);
    }
    replaceChildren(this.warnings, notes.map(([kind, text]) => el('p', { class: `notice notice-${kind}`, text })));
  }
}

function item(term, value, testid) {
  return el('div', {}, el('dt', {}, term), el('dd', { 'data-testid': testid, text: value }));
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
