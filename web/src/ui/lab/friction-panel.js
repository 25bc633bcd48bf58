// The friction of a lab impact (docs/friction.md): what each frictional contact point did (stick or slip,
// μ_crit, the discriminator, the impulse's angle to the cone, the energy), the (μ, e) plane of the first
// point coloured by energetic consistency (the engine's frictionEnergyMap) with the impact's own pair marked,
// and Kane's paradox in plain words. Every number comes from the engine; the page only draws.
import { drawCellGrid } from '../widgets/cell-grid.js';
import { el, replaceChildren } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { tex } from '../widgets/formula.js';

export const FRICTION_MAP_RESOLUTION = 41;
const SIZE = 200;
// Lose energy while sticking / while slipping; gain energy (Newton's law with Coulomb friction).
const STICK_OK = [172, 216, 190];
const SLIP_OK = [214, 236, 224];
const GAIN = [240, 160, 120];
const GAIN_SLIP = [246, 201, 180];

const degrees = (radians) => (radians * 180) / Math.PI;

export class FrictionPanel {
  constructor() {
    this.canvas = el('canvas', { class: 'consistency-canvas', role: 'img', width: SIZE, height: SIZE,
      'data-testid': 'friction-map' });
    this.muTicks = el('span', { class: 'axis-x', 'aria-hidden': 'true' });
    this.summary = el('p', { class: 'small', 'data-testid': 'friction-map-summary' });
    this.verdict = el('p', { class: 'notice', 'data-testid': 'friction-verdict' });
    this.table = el('table', { class: 'impulse-table friction-table' });
    this.element = el('section', { class: 'panel friction-panel', 'data-testid': 'friction-panel',
      'aria-label': 'Friction' },
      el('h3', { text: 'Friction: stick or slip, and which (μ, e) lose energy?' }),
      this.verdict,
      el('div', { class: 'table-scroll' }, this.table),
      el('div', { class: 'consistency-layout' },
        el('div', { class: 'consistency-figure' },
          el('span', { class: 'axis-y', 'aria-hidden': 'true', text: 'e (normal row) →' }),
          this.canvas,
          this.muTicks),
        el('div', {},
          el('p', { class: 'caption' }, 'Each point is the impact solved again with that ', tex('\\mu'), ' and ',
            tex('e'), '. Green: energy is lost (darker: the point sticks, lighter: it slips). Orange: Newton’s law ',
            tex('\\dot\\varphi^{+} = -e\\,\\dot\\varphi^{-}'), ' with Coulomb friction creates energy. The solid line is ',
            tex('\\mu_{\\text{crit}}(e)'), ' (stick to its right), the dashed one ', tex('e_{\\text{stick}}'),
            ' when there is one contact point. The ring is this impact’s (μ, e).'),
          this.summary)),
      el('details', { class: 'kane-paradox' },
        el('summary', { text: 'Why can an impact create energy? (Kane’s paradox)' }),
        el('p', { class: 'small', text: 'Newton’s law of restitution only fixes how fast the contact point leaves ' +
          'the floor: −e times how fast it arrived. It says nothing about energy. Without friction that is ' +
          'harmless. With friction the normal and the sliding motions of a mechanism are coupled: the friction ' +
          'impulse that stops the sliding end also turns the bars, and the floor must then push harder to give the ' +
          'normal speed Newton’s law asks for.' }),
        el('p', { class: 'small', text: 'Kane and Levinson (1985) found that their double pendulum striking a rough ' +
          'floor leaves with more kinetic energy than it had — impossible for a floor that only pushes and rubs. ' +
          'Part of the paradox comes from keeping the friction against the sliding direction of before the impact ' +
          'when the slip has in fact stopped or reversed; Aghili’s model checks Coulomb’s law after the impact and ' +
          'makes the point stick instead. What remains is on this map: where the point sticks and e is too high, ' +
          'Newton’s law still demands energy from nowhere. Those (μ, e) pairs are not energetically consistent.' })));
    this.element.hidden = true;
  }

  hide() {
    this.element.hidden = true;
  }

  /**
   * @param {object} result an analyzeImpact output with `friction`
   * @param {import('../../engine/index.js').FrictionEnergyMap|null} map the engine's map of pair 0 (null: not
   *   available, e.g. with an applied impulse)
   * @param {string[]} [rowNames]
   */
  show(result, map, rowNames = []) {
    this.element.hidden = false;
    this.#verdict(result);
    this.#table(result, rowNames);
    if (map) this.#draw(map);
    this.canvas.parentElement.hidden = !map;
    if (!map) replaceChildren(this.summary, 'The (μ, e) map is of an impact without an applied impulse.');
  }

  #verdict(result) {
    const gain = result.flags.energy_gain;
    const gamma = result.gamma;
    this.verdict.className = `notice ${gain ? 'notice-warning' : 'notice-ok'}`;
    const { pairs } = result.friction;
    const modes = pairs.length === 1 ? `the contact point ${pairs[0].mode}s`
      : `the contact points: ${pairs.map((p) => p.mode).join(', ')}`;
    const text = gain
      ? `Energy is created: γ = ${formatNumber(gamma, 4)} > 1 (${modes}). Newton’s law with Coulomb ` +
        'friction is not energetically consistent at this (μ, e) — Kane’s paradox (see below).'
      : `Energy is lost: γ = ${formatNumber(gamma, 4)} (${modes}).`;
    const extra = result.friction.modes_consistent ? '' : ' No combination of modes obeys Coulomb’s law at every ' +
      'point; the discriminator’s guess is shown.';
    this.verdict.textContent = text + extra;
  }

  #table(result, rowNames) {
    const head = el('tr', {}, ...['contact point', 'μ', 'mode', 'μ_crit', 'discriminator', 'angle to cone',
      'i_n', 'i_t', 'slip before → after', 'work of friction'].map((t) => el('th', { scope: 'col', text: t })));
    const rows = result.friction.pairs.map((p) => {
      const name = rowNames[p.normal_row]?.replace(/ \(normal\)$/, '') ?? `rows ${p.normal_row}, ${p.tangent_row}`;
      const mode = p.mode === 'slip' ? `slip (${p.direction > 0 ? '+' : '−'})` : 'stick';
      const notes = [p.slip_stopped ? 'slip stopped' : '', p.slip_reversed ? 'slip reversed' : ''].filter(Boolean);
      return el('tr', { 'data-testid': 'friction-pair' },
        el('th', { scope: 'row', text: name }),
        el('td', { text: p.mu === 'stick' ? '∞' : formatNumber(p.mu, 4) }),
        el('td', { 'data-testid': 'friction-mode', 'data-value': p.mode, text: mode }),
        el('td', { 'data-testid': 'mu-critical', 'data-value': String(p.mu_critical), text: formatNumber(p.mu_critical, 4) }),
        el('td', { text: formatNumber(p.discriminator, 4) }),
        el('td', { text: `${formatNumber(degrees(p.cone_angle), 3, 1e-9)}°` }),
        el('td', { text: formatNumber(p.i_n, 4) }),
        el('td', { text: formatNumber(p.i_t, 4) }),
        el('td', { text: `${formatNumber(p.slip_minus, 3)} → ${formatNumber(p.slip_plus, 3, 1e-12)}` +
          (notes.length ? ` (${notes.join(', ')})` : '') }),
        el('td', { text: formatNumber(p.W_tangential, 4, 1e-12) }));
    });
    replaceChildren(this.table, el('thead', {}, head), el('tbody', {}, ...rows));
  }

  #draw(map) {
    const x = (mu) => (mu / map.mu_max) * SIZE;
    const y = (e) => SIZE - e * SIZE;
    let gains = 0;
    // The cells: row 0 is e = 0 (bottom), column 0 is μ = 0 (left).
    const ctx = drawCellGrid(this.canvas, SIZE, map.resolution, (at) => {
      const gain = map.energy_gain[at];
      if (gain) gains += 1;
      const stick = map.mode[at] === 0;
      return gain ? (stick ? GAIN : GAIN_SLIP) : (stick ? STICK_OK : SLIP_OK);
    });
    // μ_crit(e): the boundary between slip (left) and stick (right).
    ctx.strokeStyle = '#1b4d3e';
    ctx.lineWidth = 2;
    ctx.beginPath();
    let drawing = false;
    map.mu_critical.forEach((mu, row) => {
      if (mu === null || mu > map.mu_max) {
        drawing = false;
        return;
      }
      const px = x(mu);
      const py = y(map.e[row]);
      if (drawing) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
      drawing = true;
    });
    ctx.stroke();
    if (map.e_stick !== null && map.e_stick < 1) {
      ctx.setLineDash([4, 4]);
      ctx.strokeStyle = '#555';
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(0, y(map.e_stick));
      ctx.lineTo(SIZE, y(map.e_stick));
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = '#888';
    ctx.strokeRect(0.5, 0.5, SIZE - 1, SIZE - 1);
    // The impact's own pair (μ = "stick" is beyond the right edge: drawn on it).
    const mu = map.at.mu === 'stick' ? map.mu_max : Math.min(map.at.mu, map.mu_max);
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = '#111';
    ctx.beginPath();
    ctx.arc(x(mu), y(map.at.e), 7, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.lineWidth = 1;
    this.muTicks.textContent = `μ: 0 → ${formatNumber(map.mu_max, 3)}`;
    const n = map.resolution;
    const share = Math.round((100 * (n * n - gains)) / (n * n));
    const muText = map.at.mu === 'stick' ? '∞' : formatNumber(map.at.mu, 3);
    const text = `μ = ${muText}, e = ${formatNumber(map.at.e, 3)}: the point ${map.at.mode}s and ` +
      (map.at.energy_gain ? 'energy is created (outside the consistent region).' : 'energy is lost (inside the consistent region).') +
      ` ${share}% of the plane loses energy.` +
      (map.e_stick !== null && map.e_stick < 1 ? ` Sticking creates energy for e above ${formatNumber(map.e_stick, 3)}.` : '');
    this.canvas.dataset.gains = String(gains);
    this.canvas.setAttribute('aria-label', `Energetic consistency map over μ in [0, ${formatNumber(map.mu_max, 3)}] ` +
      `and e in [0, 1]. ${text}`);
    replaceChildren(this.summary, text);
  }
}
