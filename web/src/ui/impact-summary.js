// What one impact did: γ and the energies, the velocities before and after, the impulse of each constraint
// row, and plain-language warnings when the closed form is not physical (a pulling impulse, a contact still
// approaching, energy gained).
import { el, replaceChildren } from './dom.js';
import { formatNumber, formatScientific, formatVector, maxAbs } from './format.js';
import { FORMULAS, tex } from './formula.js';

/** Newton residuals below this are round-off. */
const NEWTON_TOLERANCE = 1e-9;

export class ImpactSummary {
  constructor() {
    this.gamma = el('output', { class: 'gamma-value', 'data-testid': 'gamma' });
    this.gammaBar = el('div', { class: 'gamma-bar', 'aria-hidden': 'true' }, el('span', { class: 'gamma-kept' }));
    this.energies = el('dl', { class: 'quantities' });
    this.vectors = el('div', { class: 'vectors' });
    this.rows = el('div', { class: 'rows-table' });
    this.warnings = el('div', { class: 'warnings' });
    this.element = el('section', { class: 'panel impact-summary', 'aria-label': 'Energy and impulses of the impact' },
      el('h3', { text: 'Energy and impulse' }),
      el('div', { class: 'gamma-row' },
        el('div', { class: 'gamma-head' },
          el('span', { class: 'gamma-label' }, tex(String.raw`\gamma`), ' kinetic energy kept'),
          this.gamma),
        this.gammaBar,
        tex(FORMULAS.gamma)),
      this.energies, this.warnings, this.vectors, this.rows);
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

    const zero = 1e-12 * Math.max(1, maxAbs(a.qd_minus ?? []));
    replaceChildren(this.vectors,
      vectorLine(String.raw`\dot q^{-}`, a.qd_minus, zero),
      vectorLine(String.raw`\dot q^{+}`, a.qd_plus, zero, 'qd-plus'),
      vectorLine(String.raw`i_f`, a.i_f, 1e-12 * Math.max(1, maxAbs(a.i_f ?? []))),
      labels.coords ? el('p', { class: 'muted small',
        text: `Coordinates: ${labels.coords.join(', ')}${labels.legend ? ` (${labels.legend})` : ''}.` }) : null,
      tex(distinctRestitution(a) ? FORMULAS.qd_plus_local : FORMULAS.qd_plus));

    this.#rows(a, labels.rows);
    this.#warnings(a, labels.rows);
  }

  #rows(a, names) {
    const m = a.i_lambda?.length ?? 0;
    if (!m) {
      replaceChildren(this.rows, el('p', { class: 'muted', text: 'No constraint rows: nothing to impact.' }));
      return;
    }
    const scale = Math.max(1e-300, maxAbs(a.i_lambda), maxAbs(a.phid_minus ?? []));
    const cell = (x) => el('td', { 'data-value': String(x), text: formatNumber(x, 4, 1e-12 * scale) });
    const head = el('tr', {}, el('th', { scope: 'col', text: 'row' }),
      el('th', { scope: 'col' }, tex(String.raw`\dot\phi^{-}`)),
      el('th', { scope: 'col' }, tex(String.raw`\dot\phi^{+}`)),
      el('th', { scope: 'col' }, tex('e_i')),
      el('th', { scope: 'col' }, tex(String.raw`i_\lambda`)));
    const body = Array.from({ length: m }, (_, i) => el('tr', {},
      el('th', { scope: 'row', text: names?.[i] ?? String(i + 1) }),
      cell(a.phid_minus?.[i]), cell(a.phid_plus?.[i]),
      el('td', { text: formatNumber(a.restitution?.[i], 3) }),
      cell(a.i_lambda[i])));
    replaceChildren(this.rows,
      el('table', { class: 'data-table', 'data-testid': 'impulse-table', 'aria-label': 'Per constraint row' },
        el('thead', {}, head), el('tbody', {}, body)),
      el('p', { class: 'formula-line' }, tex(String.raw`\dot\phi = A\dot q`), ' ', tex(FORMULAS.i_lambda)));
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

/**
 * Whether the impact's rows have different eᵢ (then Ẽ is needed). Only the impact points' rows count when
 * they are known (`normal_rows`): joint rows carry e = 0 but have φ̇ = 0, so their e does not matter.
 */
function distinctRestitution(a) {
  const e = a.restitution ?? [];
  const rows = a.normal_rows ?? e.map((_, i) => i);
  return new Set(rows.map((r) => e[r])).size > 1;
}

function item(term, value, testid) {
  return el('div', {}, el('dt', {}, term), el('dd', { 'data-testid': testid, text: value }));
}

function vectorLine(symbol, v, zero, testid) {
  return el('p', { class: 'vector-line' }, tex(`${symbol} =`),
    el('output', { 'data-testid': testid, 'data-value': v ? JSON.stringify(v) : '', text: ` ${formatVector(v, 5, zero)}` }));
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
