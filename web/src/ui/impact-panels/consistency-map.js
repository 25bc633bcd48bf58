// For an impact with two constraint rows: the square of restitution pairs (e₁, e₂) ∈ [0, 1]², coloured by
// energetic consistency λmax(EQE − Q) ≤ 0 (from the engine's energyConsistencyMap), the current pair marked.
import { drawCellGrid } from '../widgets/cell-grid.js';
import { el, replaceChildren } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { FORMULAS, tex } from '../widgets/formula.js';

export const MAP_RESOLUTION = 41;
const SIZE = 200;
const CONSISTENT = [207, 233, 220];
const INCONSISTENT = [246, 201, 180];

export class ConsistencyMap {
  constructor() {
    this.canvas = el('canvas', { class: 'consistency-canvas', role: 'img', width: SIZE, height: SIZE });
    this.summary = el('p', { class: 'small' });
    this.element = el('section', { class: 'panel consistency-map', 'aria-label': 'Energetic consistency' },
      el('h3', { text: 'Which (e₁, e₂) lose energy?' }),
      el('div', { class: 'consistency-layout' },
        el('div', { class: 'consistency-figure' },
          el('span', { class: 'axis-y', 'aria-hidden': 'true', text: 'e₂ →' }),
          this.canvas,
          el('span', { class: 'axis-x', 'aria-hidden': 'true', text: 'e₁ →' })),
        el('div', {},
          el('p', { class: 'caption' }, 'Green: the impact cannot gain energy, ', tex(FORMULAS.qmi),
            '. Orange: it can. The dashed diagonal is a global e — always safe. The ring is this impact’s (e₁, e₂).'),
          this.summary)));
    this.element.hidden = true;
  }

  /** Hides the panel (not two rows). */
  hide() {
    this.element.hidden = true;
  }

  /**
   * @param {{values: number[], resolution: number}} map
   * @param {number[]} e the pair marked; `consistent` the impact's own verdict there; `names` of the two rows
   */
  show(map, e, consistent, names = []) {
    this.element.hidden = false;
    const n = map.resolution;
    let consistentCount = 0;
    // Row 0 is e₂ = 0: drawn at the bottom.
    const ctx = drawCellGrid(this.canvas, SIZE, n, (at) => {
      const ok = map.values[at] <= 1e-12;
      if (ok) consistentCount += 1;
      return ok ? CONSISTENT : INCONSISTENT;
    });
    ctx.strokeStyle = '#555';
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(0, SIZE);
    ctx.lineTo(SIZE, 0);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.strokeStyle = '#888';
    ctx.strokeRect(0.5, 0.5, SIZE - 1, SIZE - 1);
    const [e1, e2] = e;
    const x = e1 * SIZE;
    const y = SIZE - e2 * SIZE;
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = '#111';
    ctx.beginPath();
    ctx.arc(x, y, 7, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.lineWidth = 1;
    const label1 = names[0] ? `e₁ (${names[0]})` : 'e₁';
    const label2 = names[1] ? `e₂ (${names[1]})` : 'e₂';
    const share = Math.round((100 * consistentCount) / (n * n));
    const text = `${label1} = ${formatNumber(e1, 3)}, ${label2} = ${formatNumber(e2, 3)}: ` +
      (consistent ? 'inside the consistent region.' : 'outside the consistent region — energy can be gained.') +
      ` ${share}% of the square is consistent.`;
    this.canvas.setAttribute('aria-label', `Energetic consistency map over e₁ and e₂ in [0, 1]. ${text}`);
    replaceChildren(this.summary, text);
  }
}
