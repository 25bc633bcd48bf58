// What the scene shows and how: follow the bodies or a close-up of one (small bodies large enough to see
// them turn), the vectors a lecture needs (velocity and momentum of each body, the centre of mass with the
// total momentum), trails, and the presentation mode (full screen, larger type, for a projector).
import { el, uniqueId } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { icon } from '../widgets/icons.js';
import { VECTOR_COLORS } from './scene-vectors.js';
import { bodyName } from '../../scenario/names.js';

/** A labelled checkbox. */
function check(label, { testid, checked = false, onChange, swatch }) {
  const input = el('input', { type: 'checkbox', 'data-testid': testid, checked });
  input.addEventListener('change', () => onChange(input.checked));
  return { input, label: el('label', { class: 'check' }, input,
    swatch ? el('span', { class: 'swatch', style: { background: swatch }, 'aria-hidden': 'true' }) : null, ` ${label}`) };
}

export class ViewOptions {
  /**
   * @param {{scene: import('./scene.js').Scene, onPresent: () => void}} options
   */
  constructor({ scene, onPresent }) {
    this.scene = scene;
    this.follow = check('Follow the bodies', { testid: 'follow', checked: true, onChange: (on) => scene.setFollow(on) });
    const closeId = uniqueId('close-up');
    this.closeUp = el('select', { id: closeId, 'data-testid': 'close-up' });
    this.closeUp.addEventListener('change', () => {
      if (this.closeUp.value !== '') {
        this.follow.input.checked = true;
        scene.setFollow(true);
      }
      scene.setCloseUp(this.closeUp.value === '' ? null : Number(this.closeUp.value));
    });
    this.closeUpLabel = el('label', { class: 'check', for: closeId }, 'Close-up ', this.closeUp);
    this.velocity = check('Velocity', { testid: 'show-velocity', swatch: VECTOR_COLORS.velocity,
      onChange: (on) => this.#vectors('velocity', on) });
    this.momentum = check('Momentum', { testid: 'show-momentum', swatch: VECTOR_COLORS.momentum,
      onChange: (on) => this.#vectors('momentum', on) });
    this.centre = check('Centre of mass', { testid: 'show-centre', onChange: (on) => this.#vectors('centre', on) });
    this.trails = check('Trails', { testid: 'trails', onChange: (on) => scene.setTrails(on) });
    this.present = el('button', { type: 'button', class: 'button small', 'data-testid': 'present', 'aria-pressed': 'false',
      on: { click: onPresent } }, icon('expand'), 'Present');
    this.legend = el('p', { class: 'vector-legend muted small', id: uniqueId('vector-legend'), hidden: true });
    this.element = el('div', { class: 'view-options', role: 'group', 'aria-label': 'What the scene shows' },
      this.follow.label, this.closeUpLabel, this.velocity.label, this.momentum.label, this.centre.label, this.trails.label, this.present,
      this.legend);
  }

  /** A new scenario: its trails hint, following on (or the close-up it starts in), vectors as they were. */
  setScenario(scenario) {
    this.trails.input.checked = scenario.view.trails;
    this.follow.input.checked = true;
    this.scene.setFollow(true);
    this.closeUp.replaceChildren(el('option', { value: '', text: 'none' }),
      ...scenario.bodies.map((_, i) => el('option', { value: String(i), text: bodyName(scenario, i) })));
    this.showCloseUp(this.scene.closeUp);
    for (const kind of ['velocity', 'momentum', 'centre']) this.scene.setVectors(kind, this[kind].input.checked);
    this.#legend();
  }

  /** Shows or hides the trails (a share link's setting); the check box follows. */
  setTrails(on) {
    this.trails.input.checked = on;
    this.scene.setTrails(on);
  }

  /** Following was turned off by a manual pan or zoom. */
  followStopped() {
    this.follow.input.checked = false;
  }

  /** The close-up shown (null: none), as the scene decided it (a scenario's start, a manual pan). */
  showCloseUp(index) {
    this.closeUp.value = index === null || index === undefined ? '' : String(index);
  }

  setPresenting(on) {
    this.present.setAttribute('aria-pressed', String(on));
    this.present.lastChild.textContent = on ? 'Leave presentation' : 'Present';
  }

  #vectors(kind, on) {
    this.scene.setVectors(kind, on);
    this.#legend();
  }

  /** The arrows' scale in words: how much scene one unit of velocity or momentum takes. */
  #legend() {
    const { velocity, momentum } = this.scene.vectorLegend;
    const parts = [];
    if (this.velocity.input.checked) parts.push(`velocity: 1 m/s is drawn ${formatNumber(velocity, 2)} m long`);
    if (this.momentum.input.checked) parts.push(`momentum: 1 kg·m/s is drawn ${formatNumber(momentum, 2)} m long`);
    if (this.centre.input.checked) parts.push(`⊕ centre of mass${this.momentum.input.checked ? ', with the total momentum' : ''}`);
    this.legend.hidden = parts.length === 0;
    this.legend.textContent = parts.join(' · ');
  }
}
