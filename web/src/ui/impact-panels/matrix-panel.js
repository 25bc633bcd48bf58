// The matrices of one impact: S and R side by side (the two operators the impact is made of), and one more
// chosen with a segmented control: P, Mc, Ẽ or Q. An impact of many bodies acts on few of their
// coordinates — those its rows of A involve: the x of each ball of Newton's cradle, x and y of the balls of a
// break —, and S is 0 and R the identity on all the others; "The coordinates it acts on" shows S, R, P and
// Mc there only (small enough for their numbers, most often), "All" the whole matrices in blocks by body.
import { el } from '../widgets/dom.js';
import { FORMULAS, tex } from '../widgets/formula.js';
import { MatrixHeatmap, TABLE_LIMIT } from '../widgets/matrix-heatmap.js';
import { segmented } from '../widgets/segmented.js';
import { namesPhrase } from '../../scenario/names.js';

const EXTRA = [
  { key: 'P', name: 'P', symbol: 'P', caption: 'projects onto the velocities the constraints allow (Aq̇ = 0)' },
  { key: 'Mc', name: 'Mc', symbol: 'M_c', caption: 'the constraint inertia; ν only changes it on the range of A⁺' },
  { key: 'E_tilde', name: 'Ẽ', symbol: String.raw`\tilde E`, caption: 'the restitution coefficients carried into joint space' },
  { key: 'Q', name: 'Q', symbol: 'Q', caption: 'per constraint row: energy consistency needs λmax(EQE − Q) ≤ 0', rows: true },
];

/** The coordinates (columns of A) that some row of A involves. */
export function actedCoordinates(A, n) {
  if (!Array.isArray(A) || !A.length) return [];
  return Array.from({ length: n }, (_, j) => j).filter((j) => A.some((row) => row[j] !== 0));
}

export class MatrixPanel {
  constructor() {
    this.S = new MatrixHeatmap({ name: 'S', symbol: 'S', formula: FORMULAS.S, testid: 'matrix-S',
      caption: 'the oblique projector: the part of q̇⁻ the impact acts on' });
    this.R = new MatrixHeatmap({ name: 'R', symbol: 'R', formula: FORMULAS.R, testid: 'matrix-R',
      caption: 'the reflection: q̇⁺ = Rq̇⁻ when e = 1, and R² = I' });
    this.extras = Object.fromEntries(EXTRA.map((x) => [x.key, new MatrixHeatmap({
      name: x.name, symbol: x.symbol, formula: FORMULAS[x.key], caption: x.caption,
      testid: `matrix-${x.key}` })]));
    this.choice = 'P';
    this.scope = 'acted';  // 'acted': the coordinates the impact acts on, when fewer than all; 'all'
    this.extraHolder = el('div', { class: 'matrix-extra' });
    this.extraHolder.append(this.extras.P.element);
    const control = segmented({
      legend: 'Third matrix',
      options: EXTRA.map((x) => ({ value: x.key, label: tex(x.symbol), name: `matrix ${x.name}` })),
      value: 'P',
      onChange: (key) => {
        this.choice = key;
        this.extraHolder.replaceChildren(this.extras[key].element);
      },
    });
    this.control = control;
    this.scopeHolder = el('div', { class: 'matrix-scope', 'data-testid': 'matrix-scope', hidden: true });
    this.scopeNote = el('p', { class: 'matrix-scope-note muted small' });
    this.element = el('section', { class: 'panel matrix-panel', 'aria-label': 'Matrices of the impact' },
      el('h3', { text: 'The projection' }),
      this.scopeHolder, this.scopeNote,
      el('div', { class: 'matrix-pair' }, this.S.element, this.R.element),
      el('div', { class: 'matrix-more' },
        el('div', { class: 'matrix-more-head' }, el('span', { class: 'muted', text: 'Also:' }), control.element),
        this.extraHolder));
  }

  /** Shows `key` ('P', 'Mc', 'E_tilde' or 'Q') as the third matrix, as if chosen (share links restore it). */
  setChoice(key) {
    if (!this.extras[key]) return;
    this.choice = key;
    this.control.set(key);
    this.extraHolder.replaceChildren(this.extras[key].element);
  }

  /**
   * @param {object} analysis an impact record or analyzeImpact output
   * @param {object} labels {coords, coordNames, coordBlocks, rows, rowBlocks} (scenario/names.js, matrixLabels)
   * @param {{A?: number[][]}} [input] the impact's A, whose columns say which coordinates it acts on
   */
  update(analysis, labels = {}, { A } = {}) {
    this.analysis = analysis;
    this.labels = labels;
    const n = analysis.n;
    const acted = actedCoordinates(A, n);
    this.takenBodies = bodiesOf(acted, labels.coordBlocks);
    // Only when it helps: many coordinates, fewer of them acted on.
    this.acted = n > TABLE_LIMIT && acted.length > 0 && acted.length < n ? acted : null;
    this.#scopeControl(n);
    this.#draw();
  }

  #scopeControl(n) {
    if (!this.acted) {
      this.scopeHolder.hidden = true;
      this.scopeNote.textContent = '';
      return;
    }
    const k = this.acted.length;
    this.scopeHolder.hidden = false;
    const control = segmented({
      legend: 'Coordinates shown',
      options: [{ value: 'acted', label: `The ${k} it acts on` }, { value: 'all', label: `All ${n}` }],
      value: this.scope,
      onChange: (scope) => {
        this.scope = scope;
        this.#draw();
      },
    });
    this.scopeHolder.replaceChildren(el('span', { class: 'muted small', 'aria-hidden': 'true', text: 'Coordinates:' }), control.element);
  }

  #draw() {
    const { analysis, labels } = this;
    const square = this.#coordinates();
    const coordinatesNote = this.scope === 'acted' && this.acted
      ? `The other ${analysis.n - this.acted.length} coordinates are not in any row of A: there S is 0 and R, P are the identity.`
      : '';
    this.scopeNote.textContent = [this.#bodiesNote(), coordinatesNote].filter(Boolean).join(' ');
    // S and R side by side only when both fit; wide matrices stack.
    this.element.style.setProperty('--matrix-size', String(Math.min(square.size, 8)));
    const pick = (matrix) => (matrix && this.scope === 'acted' && this.acted ? submatrix(matrix, this.acted) : matrix);
    this.S.update(pick(analysis.S), square.labels);
    this.R.update(pick(analysis.R), square.labels);
    const rows = { rowLabels: labels.rows, colLabels: labels.rows, rowNames: labels.rows, colNames: labels.rows,
      rowBlocks: labels.rowBlocks, colBlocks: labels.rowBlocks };
    for (const x of EXTRA) this.extras[x.key].update(x.rows ? analysis[x.key] : pick(analysis[x.key]), x.rows ? rows : square.labels);
  }

  /**
   * Which bodies the impact takes, when not all of them: those its rows of A join (its contact island — the
   * bodies linked to the collision by touching contacts and joints); S is block diagonal over islands, so
   * every other body keeps its velocity.
   */
  #bodiesNote() {
    const taken = this.takenBodies;
    const all = this.labels.coordBlocks?.length ?? 0;
    if (!taken.length || taken.length >= all) return '';
    return `The impact takes ${taken.length} of the ${all} bodies, the islands of its collisions (bodies joined ` +
      `by touching contacts and joints): ${namesPhrase(taken, { max: 6, noun: 'bodies' })}; the others keep their velocities.`;
  }

  /** The names of the coordinates shown (all, or those acted on) and their blocks by body. */
  #coordinates() {
    const { coords, coordNames, coordAxes, coordBlocks } = this.labels;
    const kept = this.scope === 'acted' && this.acted ? this.acted : null;
    if (!kept) {
      return { size: this.analysis.n, labels: { rowLabels: coords, colLabels: coords, rowNames: coordNames, colNames: coordNames,
        rowShort: coordAxes, colShort: coordAxes, rowBlocks: coordBlocks, colBlocks: coordBlocks } };
    }
    const pickNames = (names) => names && kept.map((j) => names[j]);
    // The bodies' blocks over the kept coordinates: consecutive coordinates of one body.
    const blocks = [];
    kept.forEach((j, k) => {
      const owner = coordBlocks?.find((b) => j >= b.start && j < b.start + b.size);
      const last = blocks[blocks.length - 1];
      if (owner && last && last.name === owner.name) last.size += 1;
      else blocks.push({ name: owner?.name ?? String(j + 1), start: k, size: 1 });
    });
    const names = pickNames(coordNames);
    const axes = pickNames(coordAxes);
    return { size: kept.length, labels: { rowLabels: pickNames(coords), colLabels: pickNames(coords), rowNames: names, colNames: names,
      rowShort: axes, colShort: axes, rowBlocks: coordBlocks ? blocks : undefined, colBlocks: coordBlocks ? blocks : undefined } };
  }
}

/** The names of the bodies (`blocks` of coordinates, scenario/names.js) that own one of the coordinates `acted`. */
export function bodiesOf(acted, blocks) {
  if (!blocks) return [];
  return blocks.filter((b) => acted.some((j) => j >= b.start && j < b.start + b.size)).map((b) => b.name);
}

/** The rows and columns `keep` of a square matrix. */
function submatrix(matrix, keep) {
  return keep.map((i) => keep.map((j) => matrix[i][j]));
}
