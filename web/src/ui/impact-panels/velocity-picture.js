// The velocity-space picture of an impact, drawn honestly in 2-D: the plane spanned by (I−S)q̇⁻ and Sq̇⁻,
// with lengths and angles in the kinetic-energy metric ‖v‖² = vᵀMv (= 2K), in which those two parts are
// orthogonal (SᵀMS = MS). The coordinates come from the core (the impact's `velocity_plane`): the lengths of
// the two parts, q̇⁺ along each, and the length of whatever part of q̇⁺ lies off the plane (when the eᵢ
// differ or an impulse is applied).
import { el, replaceChildren, svg, uniqueId } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { FORMULAS, tex } from '../widgets/formula.js';

const WIDTH = 360;
/** Below this share of |q̇⁻| the blocked part is too short to draw. */
const SMALL_BLOCKED = 0.03;

/** The picture's numbers from an impact's `velocity_plane` (and its K⁻ for the circle). */
export function velocityPlane(a) {
  const v = a.velocity_plane ?? {};
  return { allowed: v.allowed, blocked: v.blocked, plus: v.plus ?? [NaN, NaN], outside: v.outside,
    radius: Math.sqrt(Math.max(0, 2 * a.K_minus)) };
}

export class VelocityPicture {
  constructor() {
    this.markerId = uniqueId('arrowhead');
    this.figure = el('div', { class: 'velocity-figure' });
    this.note = el('p', { class: 'muted small' });
    this.element = el('section', { class: 'panel velocity-picture', 'aria-label': 'Velocity-space picture' },
      el('h3', { text: 'What the impact does to the velocity' }),
      this.figure,
      el('p', { class: 'muted small axes-legend', text: 'Across: the velocities the constraints allow (Aq̇ = 0). ' +
        'Up: the range of S, the part they block.' }),
      el('p', { class: 'caption' },
        'In the kinetic-energy metric (length² = 2K), the impact keeps the part of q̇⁻ the constraints allow, ',
        tex(String.raw`(I-S)\dot q^{-}`), ', and reverses the part they block, ', tex(String.raw`S\dot q^{-}`),
        ', scaled by e — so q̇⁺ sits inside the dashed circle of K⁻, on it only when e = 1 (q̇⁺ = Rq̇⁻).'),
      el('p', { class: 'formula-line' }, tex(FORMULAS.split), tex(FORMULAS.qd_plus)),
      this.note);
  }

  update(a) {
    const p = velocityPlane(a);
    if (![p.allowed, p.blocked, p.radius, ...p.plus].every(Number.isFinite)) {
      replaceChildren(this.figure, el('p', { class: 'muted', text: 'The velocities are not finite numbers: nothing to draw.' }));
      this.note.textContent = '';
      return;
    }
    if (!(p.radius > 0)) {
      replaceChildren(this.figure, el('p', { class: 'muted', text: 'q̇⁻ = 0: nothing moves, nothing to draw.' }));
      this.note.textContent = '';
      return;
    }
    if (p.blocked <= 1e-9 * p.radius) {
      replaceChildren(this.figure, el('p', { class: 'muted', text: a.scheduled
        ? 'Sq̇⁻ = 0: no part of q̇⁻ is blocked by the constraints; only the applied impulse i_u changes the velocity.'
        : 'Sq̇⁻ = 0: no part of q̇⁻ is blocked by the constraints, so the impact changes nothing.' }));
      this.note.textContent = '';
      return;
    }
    // A blocked part a few pixels long would pile the labels on one another: say it instead.
    if (p.blocked < SMALL_BLOCKED * p.radius) {
      replaceChildren(this.figure, el('p', { class: 'muted',
        text: `Sq̇⁻, the part of q̇⁻ the constraints block, is only ${formatNumber((100 * p.blocked) / p.radius, 2)}% ` +
          'of q̇⁻ (lengths in the kinetic-energy metric): the impact changes the velocity too little to draw.' }));
      this.note.textContent = '';
      return;
    }
    replaceChildren(this.figure, this.#draw(p));
    const notes = [];
    if (p.outside > 1e-6 * p.radius) {
      notes.push(`${a.scheduled ? 'The applied impulse i_u' : 'The eᵢ differ, so the impact'} also gives q̇⁺ a part of ` +
        `length ${formatNumber(p.outside, 3)} off this plane (not drawn).`);
    }
    if (a.scheduled) notes.push('An applied impulse acted at this instant: q̇⁺ need not lie on the orange segment of a global e.');
    this.note.textContent = notes.join(' ');
  }

  #draw(p) {
    const { allowed: a, blocked: b, radius: r } = p;
    const [xp, yp] = p.plus;
    // World box: the origin, q̇⁻ = (a, b), Rq̇⁻ = (a, −b), q̇⁺, with room for labels; equal scales on both axes.
    const half = Math.max(b, Math.abs(yp), 0.3 * r) * 1.25;
    const left = -0.12 * r;
    const right = Math.max(a, 0.35 * r) + 0.45 * r;
    const worldW = right - left;
    const height = Math.max(170, Math.min(300, WIDTH * (2 * half) / worldW));
    const scale = Math.min(WIDTH / worldW, height / (2 * half));
    const ox = (WIDTH - worldW * scale) / 2 - left * scale;
    const oy = height / 2;
    const X = (x) => ox + x * scale;
    const Y = (y) => oy - y * scale;
    const marker = this.markerId;
    const arrow = (x1, y1, x2, y2, cls) => svg('line', { x1: X(x1), y1: Y(y1), x2: X(x2), y2: Y(y2), class: cls,
      'marker-end': `url(#${marker}-${cls.split(' ')[0]})` });
    const label = (x, y, text, cls, dx = 6, dy = 0, anchor = 'start') => svg('text', { x: X(x) + dx, y: Y(y) + dy,
      class: cls, 'text-anchor': anchor, text });
    const head = (name) => svg('marker', { id: `${marker}-${name}`, viewBox: '0 0 10 10', refX: 9, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse', class: `head-${name}` },
    svg('path', { d: 'M0,0 L10,5 L0,10 z' }));
    const clip = uniqueId('clip');
    const summary = `Velocity picture. q̇⁻ has an allowed part of length ${formatNumber(a, 3)} and a blocked part ` +
      `of length ${formatNumber(b, 3)}; q̇⁺ keeps the allowed part and has ${formatNumber(yp, 3)} along the ` +
      `blocked direction. Lengths are √(2K).`;
    return svg('svg', { viewBox: `0 0 ${WIDTH} ${height}`, class: 'velocity-svg', role: 'img', 'aria-label': summary },
      svg('defs', {}, head('minus'), head('plus'), head('part'),
        svg('clipPath', { id: clip }, svg('rect', { x: 0, y: 0, width: WIDTH, height }))),
      // Axes: the allowed direction (horizontal) and the blocked one (vertical).
      svg('line', { x1: 0, y1: Y(0), x2: WIDTH, y2: Y(0), class: 'axis' }),
      svg('line', { x1: X(0), y1: 0, x2: X(0), y2: height, class: 'axis' }),

      // The kinetic-energy level of q̇⁻ (K = K⁻) and the segment where q̇⁺ lies for a global e in [0, 1].
      svg('circle', { cx: X(0), cy: Y(0), r: r * scale, class: 'energy-circle', 'clip-path': `url(#${clip})` }),
      svg('line', { x1: X(a), y1: Y(0), x2: X(a), y2: Y(-b), class: 'e-range' }),
      svg('circle', { cx: X(a), cy: Y(-b), r: 3.5, class: 'ghost' }),
      label(a, -b, 'Rq̇⁻ (e = 1)', 'ghost-label', 8, 14),
      // q̇⁻ and its two parts (the allowed one only when it is long enough to see). Labels sit where the
      // others are not: (I − S)q̇⁻ under the middle of its arrow, Sq̇⁻ left of its dashed line.
      a > 0.04 * r ? [arrow(0, 0, a, 0, 'part'), label(a / 2, 0, '(I − S)q̇⁻', 'part-label', 0, 16, 'middle'),
        arrow(a, 0, a, b, 'part dashed'), label(a, b / 2, 'Sq̇⁻', 'part-label', -7, 4, 'end')] : [],
      arrow(0, 0, a, b, 'minus'),
      label(a, b, 'q̇⁻', 'minus-label', 8, -2),
      a > 0.04 * r ? [] : label(a, b / 2, 'q̇⁻ = Sq̇⁻: all of it is blocked', 'part-label', 6, 4),
      // q̇⁺.
      arrow(0, 0, xp, yp, 'plus'),
      label(xp, yp, 'q̇⁺', 'plus-label', 8, yp < 0 ? 4 : 12));
  }
}
