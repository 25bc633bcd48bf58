// The matrices of one impact: S and R side by side (the two operators the impact is made of), and one more
// chosen with a segmented control: P, Mc, Ẽ or Q.
import { el } from '../widgets/dom.js';
import { FORMULAS, tex } from '../widgets/formula.js';
import { MatrixHeatmap } from '../widgets/matrix-heatmap.js';
import { segmented } from '../widgets/segmented.js';

const EXTRA = [
  { key: 'P', name: 'P', symbol: 'P', caption: 'projects onto the velocities the constraints allow (Aq̇ = 0)' },
  { key: 'Mc', name: 'Mc', symbol: 'M_c', caption: 'the constraint inertia; ν only changes it on the range of A⁺' },
  { key: 'E_tilde', name: 'Ẽ', symbol: String.raw`\tilde E`, caption: 'the restitution coefficients carried into joint space' },
  { key: 'Q', name: 'Q', symbol: 'Q', caption: 'per constraint row: energy consistency needs λmax(EQE − Q) ≤ 0', rows: true },
];

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
    this.element = el('section', { class: 'panel matrix-panel', 'aria-label': 'Matrices of the impact' },
      el('h3', { text: 'The projection' }),
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

  /** @param {object} analysis an impact record or analyzeImpact output; `labels` {coords, rows} */
  update(analysis, labels = {}) {
    const square = { rowLabels: labels.coords, colLabels: labels.coords };
    // S and R side by side only when both fit; wide matrices stack.
    this.element.style.setProperty('--matrix-size', String(Math.min(analysis.n, 8)));
    this.S.update(analysis.S, square);
    this.R.update(analysis.R, square);
    for (const x of EXTRA) {
      this.extras[x.key].update(analysis[x.key], x.rows ? { rowLabels: labels.rows, colLabels: labels.rows } : square);
    }
  }
}
