// A short guided tour of the page for a first visit: one card at a time beside the part it explains (which
// is outlined), with Back, Next and Skip; Escape skips. Shown once (remembered in localStorage; not when
// the page is embedded in a frame) and again from the Tour button. Not modal: the page stays usable. While
// it is open the run holds still on an impact that shows what the cards say (the owner's `hold`), and goes
// on as it was when the tour closes (`release`).
import { el, uniqueId } from '../widgets/dom.js';

const STORAGE_KEY = 'oblique.tour';

/** The steps: what to look at (a selector; the first one present is used) and what it means. */
export const TOUR_STEPS = [
  { target: ['.scene-figure'], title: 'The scene',
    text: 'The scenario runs here. Contact points are grey while apart, green while touching and orange at an ' +
      'impact, where a translucent arrow shows the impulse. The time bar below goes back and forth through the ' +
      'run; “Follow the bodies” keeps every body in view.' },
  { target: ['.playback'], title: 'Playback',
    text: 'Play, go to the previous or the next impact, reset, change the speed. “What am I looking at?” says ' +
      'which idea of the paper the scenario shows.' },
  { target: ['.restitution'], title: 'Restitution e',
    text: 'Newton’s law for each contact: φ̇⁺ = −e φ̇⁻, the speed of approach reversed and scaled by e. e = 1 ' +
      'is elastic, e = 0 plastic. A change applies from the next impact on.' },
  { target: ['.energy-plot'], title: 'Energy and the log',
    text: 'Kinetic, potential and total energy over time. The total drops at each impact (the orange lines) by ' +
      'W_loss; click a line, or a row of the impact log, to go to that impact.' },
  { target: ['.impact-summary', '.impact-view'], title: 'γ, the energy an impact keeps',
    text: 'γ = K⁺/K⁻: the share of kinetic energy left after the impact — 1 when it is elastic, e² for one ' +
      'contact with restitution e, less when contacts interact.' },
  { target: ['.matrix-panel', '.impact-view'], title: 'S and R',
    text: 'S is the oblique projector: it picks the part of the velocity that the constraints block. The impact ' +
      'keeps the rest, (I − S)q̇⁻, and reverses that part scaled by e; with e = 1 this is the reflection ' +
      'R = I − 2S, so q̇⁺ = (eR + (1 − e)(I − S))q̇⁻. Every impact on the page is this one formula.' },
  { target: ['#tab-lab'], title: 'The matrix lab',
    text: 'Any impact by hand: type M, A, q̇⁻ and e, and see the same panels computed as you type.' },
];

export class Tour {
  /**
   * @param {{hold?: () => Promise<unknown>, release?: () => void}} [options]  `hold` pauses the run on a
   *   representative impact (resolves once its panels show it); `release` lets the run go on as before
   */
  constructor({ hold = async () => {}, release = () => {} } = {}) {
    this.hold = hold;
    this.release = release;
    this.held = false;
    this.index = 0;
    this.target = null;
    const titleId = uniqueId('tour-title');
    this.title = el('h2', { id: titleId });
    this.text = el('p', { class: 'tour-text' });
    this.count = el('p', { class: 'tour-count muted small' });
    this.back = el('button', { type: 'button', class: 'button small', text: 'Back', on: { click: () => this.go(this.index - 1) } });
    this.next = el('button', { type: 'button', class: 'button small primary', on: { click: () => this.#next() } });
    this.skip = el('button', { type: 'button', class: 'button small', 'data-testid': 'tour-skip', text: 'Skip the tour',
      on: { click: () => this.close() } });
    this.element = el('div', { class: 'tour', role: 'dialog', 'aria-labelledby': titleId, 'aria-modal': 'false',
      'data-testid': 'tour', hidden: true },
    this.count, this.title, this.text, el('div', { class: 'tour-buttons' }, this.back, this.next, this.skip));
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.close();
      }
    });
    this.button = el('button', { type: 'button', class: 'button small tour-button', 'data-testid': 'tour-start',
      text: 'Tour', on: { click: () => this.open() } });
  }

  /**
   * Opens the tour if this browser has not seen it (or cannot say). Not in a frame: a page that embeds the
   * playground decides what its readers see first (the Tour button is there).
   */
  openOnFirstVisit() {
    if (window.self !== window.top) return;
    let seen = false;
    try {
      seen = localStorage.getItem(STORAGE_KEY) === 'done';
    } catch {
      seen = false;
    }
    if (!seen) this.open();
  }

  async open() {
    if (!this.element.hidden) return;
    this.element.hidden = false;
    this.go(0);
    this.held = true;
    try {
      await this.hold();
    } catch {
      // Nothing to hold on (no scenario yet): the cards still explain the page.
    }
    // The parts the later cards point at (the impact's panels) may have appeared meanwhile.
    if (!this.element.hidden) this.#mark(this.#target(TOUR_STEPS[this.index]));
  }

  /** Closes the tour and remembers it was seen. */
  close() {
    this.element.hidden = true;
    if (this.held) {
      this.held = false;
      this.release();
    }
    this.#mark(null);
    try {
      localStorage.setItem(STORAGE_KEY, 'done');
    } catch {
      // Storage is off (a sandboxed frame): the tour will show again next time.
    }
    this.button.focus();
  }

  /** Shows step `index`. */
  go(index) {
    this.index = Math.max(0, Math.min(TOUR_STEPS.length - 1, index));
    const step = TOUR_STEPS[this.index];
    this.title.textContent = step.title;
    this.text.textContent = step.text;
    this.count.textContent = `Tour, ${this.index + 1} of ${TOUR_STEPS.length}`;
    this.back.disabled = this.index === 0;
    this.next.textContent = this.index === TOUR_STEPS.length - 1 ? 'Done' : 'Next';
    const target = this.#target(step);
    this.#mark(target);
    target?.scrollIntoView({ block: 'nearest' });
    this.title.setAttribute('tabindex', '-1');
    this.title.focus();
  }

  /** The first of a step's targets on screen, or null. */
  #target(step) {
    return step.target.map((selector) => document.querySelector(selector)).find((node) => node && node.offsetParent) ?? null;
  }

  #next() {
    if (this.index === TOUR_STEPS.length - 1) this.close();
    else this.go(this.index + 1);
  }

  #mark(target) {
    this.target?.classList.remove('tour-target');
    this.target = target;
    target?.classList.add('tour-target');
  }
}
