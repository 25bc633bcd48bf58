// How much kinetic energy one impact kept: γ = K⁺/K⁻ with a bar, W_loss, K⁻ and K⁺, energetic consistency,
// and plain-language notes: why a contact was plastic although its e is not 0 (slower than its rest speed —
// the scenario's, or that of a contact nearly resting in a stack — or added by the activation rule), when the
// closed form is not physical (a pulling impulse, a contact still approaching, energy gained), when Newton's
// law holds only in the least-squares sense, and when rows of A were rescaled.
import { el, replaceChildren } from '../widgets/dom.js';
import { formatGamma, formatNumber, formatScientific } from '../widgets/format.js';
import { FORMULAS, tex } from '../widgets/formula.js';
import { plasticPoints } from './restitution-used.js';

/** Newton residuals below this are round-off. */
const NEWTON_TOLERANCE = 1e-9;

export class ImpactSummary {
  constructor() {
    this.gamma = el('output', { class: 'gamma-value', 'data-testid': 'gamma' });
    this.gammaBar = el('div', { class: 'gamma-bar', 'aria-hidden': 'true' }, el('span', { class: 'gamma-kept' }));
    this.gammaNote = el('p', { class: 'gamma-note muted small', 'data-testid': 'gamma-note' });
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
      this.gammaNote,
      this.energies,
      this.warnings);
  }

  /**
   * @param {object} a impact record or analyzeImpact output; `labels` {coords, rows}; `context` {restSpeed}
   *   of the run, the scenario's integrator.rest_speed for a record without its own `rest_speeds` (a record
   *   then also has `contact_e`, the e set for each impact point's contact)
   */
  update(a, labels = {}, context = {}) {
    const gamma = a.gamma;
    const shown = formatGamma(gamma, 6);
    this.gamma.textContent = shown.text;
    this.gamma.title = shown.note;
    this.gamma.dataset.value = String(gamma);
    this.gammaNote.textContent = shown.note ? `γ = ${shown.text}: ${shown.note}.` : '';
    this.gammaBar.firstChild.style.width = `${Math.max(0, Math.min(1, gamma ?? 0)) * 100}%`;
    this.gammaBar.classList.toggle('gain', gamma > 1 + 1e-12);

    const energy = (x) => `${formatNumber(x, 5, 1e-14 * Math.max(a.K_minus, 1))} J`;
    replaceChildren(this.energies,
      item(tex(String.raw`W_{\text{loss}} = K^{+} - K^{-}`), energy(a.W_loss), 'w-loss'),
      item(tex(String.raw`K^{-}`), energy(a.K_minus)),
      item(tex(String.raw`K^{+}`), energy(a.K_plus)));
    this.#warnings(a, labels.rows, context);
  }

  #warnings(a, names, context) {
    const rowName = (i) => (names?.[i] ? `“${names[i]}” (row ${i + 1})` : `row ${i + 1}`);
    const notes = [];
    // Plastic contacts whose e is not 0: the point's rest speed (the end of a bouncing sequence: the
    // scenario's, or the bound of a point nearly resting in a stack) or the rule.
    const { touching, slow, stacked, joined, restSpeeds } = plasticPoints(a, context.restSpeed ?? 0);
    for (const k of slow) {
      const row = a.normal_rows[k];
      const bound = stacked.includes(k)
        ? `the rest speed of a contact nearly resting in a stack (${formatSpeed(restSpeeds[k])} = √(2ε|g|L), the ` +
          'speed of a bounce a thousandth of the smaller body’s size L high, ε = 10⁻³: one of its bodies already ' +
          'rests on another contact)'
        : `the rest speed (${formatSpeed(restSpeeds[k])}, the scenario’s integrator.rest_speed)`;
      notes.push(['note', `Plastic: ${rowName(row)} approached at ${formatSpeed(a.phid_minus[row])}, slower than ` +
        `${bound}, so this impact used e = 0 for it instead of its e = ${formatNumber(a.contact_e[k], 3)}, which ` +
        'applies to faster impacts: the bouncing ends here, after finitely many impacts, in resting contact.']);
    }
    if (touching.length) {
      const names = touching.map((k) => rowName(a.normal_rows[k]));
      notes.push(['note', `${capitalize(names.join(', '))} ${touching.length > 1 ? 'were' : 'was'} already touching at ` +
        'rest (φ̇⁻ = 0): such a contact takes part in the impact with eᵢ = 0, which changes nothing for it — ' +
        'Newton’s law gives φ̇⁺ = −eᵢφ̇⁻ = 0 whatever eᵢ — while its impulse passes the blow along.']);
    }
    for (const k of joined) {
      const row = a.normal_rows[k];
      notes.push(['note', `Plastic: ${rowName(row)} (its e is ${formatNumber(a.contact_e[k], 3)}) joined the impact ` +
        'because it would still approach after it, so the activation rule took it with e = 0.']);
    }
    if (a.row_scale?.some((f) => f !== 1)) {
      const scaled = a.row_scale.flatMap((f, i) => (f !== 1 ? [`${rowName(i)} by ${formatScientific(f, 3)}`] : []));
      notes.push(['note', `Rows of A far from unit length were rescaled, exactly (by powers of two): ${scaled.join(', ')}. ` +
        'A row’s length does not change its constraint — S, R, q̇⁺ and the energies are the same — but a row of ' +
        'length 10⁻³⁰⁰ squares to 0 in double precision. φ̇ and iλ below are those of the rescaled rows.']);
    }
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
      const zero = 1e-12 * Math.max(a.K_minus, 1e-300);
      const kept = Math.abs(a.W_loss) <= zero;
      const lost = a.W_loss < -zero;
      const outcome = kept ? ' — this impact keeps its kinetic energy (W_loss = 0)'
        : lost ? ' — this impact does lose energy' : '';
      const why = !ok && touching.length
        ? ' The eᵢ here mix the e of the contacts that approach with e = 0 for those already at rest, whose e does ' +
          'not matter to this impact (their φ̇⁻ is 0, so φ̇⁺ = −eᵢφ̇⁻ = 0 whatever eᵢ); the test is about every ' +
          'velocity before, including ones where those contacts would approach.'
        : '';
      notes.push([ok ? 'ok' : lost || kept ? 'note' : 'warning', ok
        ? `Energetically consistent: λmax(EQE − Q) = ${formatNumber(a.qmi_max_eig, 3, 1e-12)} ≤ 0, so these eᵢ ` +
          'lose energy whatever the velocity before.'
        : `Not energetically consistent: λmax(EQE − Q) = ${formatNumber(a.qmi_max_eig, 3)} > 0, so these eᵢ could ` +
          `gain energy for some velocity before${outcome}.${why}`]);
    }
    replaceChildren(this.warnings, notes.map(([kind, text]) => el('p', { class: `notice notice-${kind}`, text })));
  }
}

/** A speed in m/s, or mm/s when small. */
function formatSpeed(v) {
  const speed = Math.abs(v ?? 0);
  return speed < 0.01 ? `${formatNumber(speed * 1000, 3)} mm/s` : `${formatNumber(speed, 3)} m/s`;
}

function item(term, value, testid) {
  return el('div', {}, el('dt', {}, term), el('dd', { 'data-testid': testid, text: value }));
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
