// The velocities and impulses of one impact: q̇⁻, q̇⁺ and i_f over the coordinates, the law that gave q̇⁺
// (the paper's, or with Coulomb friction the law of the mode each point is in: docs/friction.md), and per
// row of A the normal velocities before and after, eᵢ and the impulse i_λ.
import { el, replaceChildren } from '../widgets/dom.js';
import { formatNumber, formatVector, maxAbs } from '../widgets/format.js';
import { FORMULAS, tex } from '../widgets/formula.js';

/** Longest velocity written out whole; longer, only the coordinates the impact changes are listed. */
const VECTOR_LIMIT = 12;

export class ImpulseTable {
  constructor() {
    this.vectors = el('div', { class: 'vectors' });
    this.rows = el('div', { class: 'rows-table', tabindex: '0', role: 'region', 'aria-label': 'Per constraint row, scrollable' });
    this.element = el('section', { class: 'panel impulse-table', 'aria-label': 'Velocities and impulses of the impact' },
      el('h3', { text: 'Velocities and impulses' }), this.vectors, this.rows);
  }

  /** @param {object} a impact record or analyzeImpact output; `labels` {coords, coordNames, rows, legend} */
  update(a, labels = {}) {
    const zero = 1e-12 * Math.max(1, maxAbs(a.qd_minus ?? []));
    const impulseZero = 1e-12 * Math.max(1, maxAbs(a.i_f ?? []));
    const many = (a.qd_minus?.length ?? 0) > VECTOR_LIMIT;
    replaceChildren(this.vectors,
      many ? changedCoordinates(a, labels, zero, impulseZero) : [
        vectorLine(String.raw`\dot q^{-}`, a.qd_minus, zero),
        vectorLine(String.raw`\dot q^{+}`, a.qd_plus, zero, 'qd-plus'),
        vectorLine(String.raw`i_f`, a.i_f, impulseZero),
        labels.coords ? el('p', { class: 'muted small',
          text: `Coordinates: ${labels.coords.join(', ')}${labels.legend ? ` (${labels.legend})` : ''}.` }) : null],
      ...velocityLaw(a));
    this.#rows(a, labels.rows);
  }

  #rows(a, names) {
    const m = a.i_lambda?.length ?? 0;
    if (!m) {
      replaceChildren(this.rows, el('p', { class: 'muted', text: 'No constraint rows: nothing to impact.' }));
      return;
    }
    // Round-off relative to the velocities of the impact (a joint's φ̇ is 0 up to it) and to the impulses.
    const speed = Math.max(1e-300, maxAbs(a.qd_minus ?? []), maxAbs(a.phid_minus ?? []), maxAbs(a.phid_plus ?? []));
    const impulse = Math.max(1e-300, maxAbs(a.i_lambda));
    const cell = (x, scale) => el('td', { 'data-value': String(x), title: String(x), text: formatNumber(x, 4, 1e-12 * scale) });
    // The e set for each contact row when the impact used another (a plastic row: see the notes above).
    const setE = new Map((a.normal_rows ?? []).map((row, k) => [row, a.contact_e?.[k]]));
    const eCell = (i) => {
      const used = a.restitution?.[i];
      const set = setE.get(i);
      const differs = set !== undefined && set !== used;
      return el('td', { 'data-value': String(used), title: differs ? `set ${set}, used ${used}` : null },
        formatNumber(used, 3), differs ? el('span', { class: 'muted', text: ` (set ${formatNumber(set, 3)})` }) : null);
    };
    const head = el('tr', {}, el('th', { scope: 'col', text: 'row' }),
      el('th', { scope: 'col' }, tex(String.raw`\dot\phi^{-}`)),
      el('th', { scope: 'col' }, tex(String.raw`\dot\phi^{+}`)),
      el('th', { scope: 'col' }, tex('e_i')),
      el('th', { scope: 'col' }, tex(String.raw`i_\lambda`)));
    const body = Array.from({ length: m }, (_, i) => el('tr', {},
      el('th', { scope: 'row', text: names?.[i] ?? String(i + 1) }),
      cell(a.phid_minus?.[i], speed), cell(a.phid_plus?.[i], speed),
      eCell(i),
      cell(a.i_lambda[i], impulse)));
    replaceChildren(this.rows,
      el('table', { class: 'data-table', 'data-testid': 'impulse-table', 'aria-label': 'Per constraint row' },
        el('thead', {}, head), el('tbody', {}, body)),
      el('p', { class: 'formula-line' }, tex(String.raw`\dot\phi = A\dot q`), ' ',
        tex(a.friction?.pairs?.some((p) => p.mode === 'slip') ? FORMULAS.i_f_slip : FORMULAS.i_lambda)));
  }
}

/**
 * The law that gave q̇⁺: the paper's (one e, or one eᵢ per row), or with Coulomb friction that of the modes
 * the engine chose — every point sticking (its tangential row plastic: the paper's law over all of A), or
 * some slipping (S_slip) — in words too, pointing to the friction panel.
 */
function velocityLaw(a) {
  const pairs = a.friction?.pairs ?? [];
  if (!pairs.length) {
    const local = distinctRestitution(a);
    return [el('div', { 'data-testid': 'velocity-law', 'data-law': local ? 'local' : 'global' },
      tex(local ? FORMULAS.qd_plus_local : FORMULAS.qd_plus))];
  }
  const slipping = pairs.filter((p) => p.mode === 'slip').length;
  const points = pairs.length === 1 ? 'The contact point' : `${slipping || pairs.length} of the ${pairs.length} contact points`;
  const words = slipping
    ? `With Coulomb friction: ${points} ${slipping === 1 && pairs.length === 1 ? 'slips' : 'slip'}. A slipping point’s ` +
      'impulse acts along n − μ s t (the rows B) and its tangential row keeps no velocity law (A_v: the other ' +
      'rows), so S_slip is an oblique projector that is not symmetric in the kinetic-energy metric, and γ may ' +
      'exceed 1. Modes, μ_crit and the energy: the friction panel.'
    : `With Coulomb friction: ${points} ${pairs.length === 1 ? 'sticks' : 'stick'}, so each tangential row is ` +
      'plastic (e = 0 in E) and q̇⁺ is the paper’s law over every row of A. Modes and μ_crit: the friction panel.';
  return [el('div', { 'data-testid': 'velocity-law', 'data-law': slipping ? 'slip' : 'stick' },
    tex(slipping ? FORMULAS.qd_plus_slip : FORMULAS.qd_plus_stick),
    slipping ? ', with ' : null,
    slipping ? tex(FORMULAS.S_slip) : null,
    el('p', { class: 'muted small', text: words }))];
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

/**
 * q̇⁻, q̇⁺ and i_f of an impact of many coordinates, on those its impulse changes (i_f ≠ 0) only, named by
 * body ("y of disk 3"); q̇⁺ = q̇⁻ on the others, which are counted.
 */
function changedCoordinates(a, labels, zero, impulseZero) {
  const n = a.qd_minus.length;
  const changed = Array.from({ length: n }, (_, j) => j).filter((j) => Math.abs(a.i_f?.[j] ?? 0) > impulseZero);
  const name = (j) => labels.coordNames?.[j] ?? labels.coords?.[j] ?? `coordinate ${j + 1}`;
  const cell = (x, z) => el('td', { 'data-value': String(x), title: String(x), text: formatNumber(x, 5, z) });
  return [
    el('p', { class: 'muted small', 'data-testid': 'qd-plus', 'data-value': JSON.stringify(a.qd_plus),
      text: `The impulse changes ${changed.length} of the ${n} coordinates; on the other ${n - changed.length} q̇⁺ = q̇⁻.` }),
    el('div', { class: 'rows-table', tabindex: '0', role: 'region', 'aria-label': 'Coordinates the impact changes, scrollable' },
      el('table', { class: 'data-table', 'aria-label': 'Coordinates the impact changes' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'coordinate' }),
          el('th', { scope: 'col' }, tex(String.raw`\dot q^{-}`)), el('th', { scope: 'col' }, tex(String.raw`\dot q^{+}`)),
          el('th', { scope: 'col' }, tex('i_f')))),
        el('tbody', {}, changed.map((j) => el('tr', {}, el('th', { scope: 'row', text: name(j) }),
          cell(a.qd_minus[j], zero), cell(a.qd_plus[j], zero), cell(a.i_f[j], impulseZero)))))),
  ];
}

function vectorLine(symbol, v, zero, testid) {
  return el('p', { class: 'vector-line' }, tex(`${symbol} =`),
    el('output', { 'data-testid': testid, 'data-value': v ? JSON.stringify(v) : '', text: ` ${formatVector(v, 5, zero)}` }));
}
