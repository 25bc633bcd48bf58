// Playback: the scenario picker (a native <select>, with the chosen scenario's description), play/pause,
// next impact, reset, and the speed (0.1× to 4×), with their keyboard shortcuts written next to them.
import { el, uniqueId } from '../widgets/dom.js';
import { icon } from '../widgets/icons.js';

export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 16];

export class PlaybackControls {
  /**
   * @param {{entries: {id: string, title: string, note?: string}[], onScenario: (id: string) => void,
   *          onPlay: () => void, onStep: () => void, onStepBack: () => void, onReset: () => void,
   *          onSpeed: (speed: number) => void}} options
   */
  constructor({ entries, onScenario, onPlay, onStep, onStepBack, onReset, onSpeed }) {
    const selectId = uniqueId('scenario');
    this.select = el('select', { id: selectId, 'data-testid': 'scenario-select' },
      entries.map((entry) => el('option', { value: entry.id, text: entry.title || entry.id })));
    this.select.addEventListener('change', () => onScenario(this.select.value));
    this.description = el('p', { class: 'scenario-description', id: uniqueId('description') });
    this.select.setAttribute('aria-describedby', this.description.id);
    // What the scenario shows of the paper, for a first look (from the index of built-in scenarios).
    this.noteText = el('p', { class: 'scenario-note-text' });
    this.note = el('details', { class: 'scenario-note', 'data-testid': 'scenario-note' },
      el('summary', { text: 'What am I looking at?' }), this.noteText);

    this.play = el('button', { type: 'button', class: 'button primary', 'data-testid': 'play',
      'aria-keyshortcuts': 'Space', on: { click: onPlay } });
    // Labels in spans of their own: a compact layout (the embed) may show some buttons as icons only.
    this.stepBack = el('button', { type: 'button', class: 'button', 'data-testid': 'step-back', title: 'Previous impact (B, ←)',
      'aria-keyshortcuts': 'B ArrowLeft', on: { click: onStepBack } }, icon('previous'), label('Previous impact'));
    this.step = el('button', { type: 'button', class: 'button', 'data-testid': 'step', 'aria-keyshortcuts': 'N ArrowRight',
      on: { click: onStep } }, icon('next'), label('Next impact'));
    this.reset = el('button', { type: 'button', class: 'button', 'data-testid': 'reset', title: 'Reset (R)', 'aria-keyshortcuts': 'R',
      on: { click: onReset } }, icon('reset'), label('Reset'));
    const speedId = uniqueId('speed');
    this.speed = el('input', { id: speedId, type: 'range', min: 0, max: SPEEDS.length - 1, step: 1,
      value: SPEEDS.indexOf(1), 'data-testid': 'speed', 'aria-keyshortcuts': '[ ]' });
    this.speedOut = el('output', { for: speedId, class: 'speed-value' });
    this.speed.addEventListener('input', () => {
      this.#showSpeed();
      onSpeed(this.speedValue);
    });
    this.setPlaying(false);
    this.#showSpeed();

    this.element = el('div', { class: 'playback' },
      el('div', { class: 'scenario-picker' },
        el('label', { for: selectId, text: 'Scenario' }), this.select),
      this.description,
      this.note,
      el('div', { class: 'transport', role: 'group', 'aria-label': 'Playback' },
        this.play, this.stepBack, this.step, this.reset,
        el('span', { class: 'speed' }, el('label', { for: speedId, text: 'Speed' }), this.speed, this.speedOut)),
      el('p', { class: 'shortcuts' }, 'Keys: ', kbd('Space'), ' play/pause · ', kbd('N'), ' or ', kbd('→'),
        ' next impact · ', kbd('B'), ' or ', kbd('←'), ' previous impact · ', kbd('R'), ' reset · ', kbd('['), ' ',
        kbd(']'), ' slower/faster'));
  }

  get speedValue() {
    return SPEEDS[Number(this.speed.value)];
  }

  #showSpeed() {
    const text = `${this.speedValue}×`;
    this.speedOut.textContent = text;
    this.speed.setAttribute('aria-valuetext', text);
  }

  /** Steps the speed up (+1) or down (−1) a notch; returns the new speed. */
  nudgeSpeed(direction) {
    const index = Math.min(SPEEDS.length - 1, Math.max(0, Number(this.speed.value) + direction));
    this.speed.value = String(index);
    this.#showSpeed();
    return this.speedValue;
  }

  setPlaying(playing) {
    this.play.replaceChildren(icon(playing ? 'pause' : 'play'), playing ? 'Pause' : 'Play');
    this.play.dataset.state = playing ? 'playing' : 'paused';
  }

  /** Shows the chosen scenario (its description and its note, as plain text). */
  setScenario(id, description, note) {
    this.select.value = id;
    this.description.textContent = description || '';
    this.noteText.textContent = note || '';
    this.note.hidden = !note;
  }

  // ---- hooks for share links, the editor and embeds (web/src/share, editor, embed) ----

  /** Shows a scenario that is not a built-in one (edited, imported, from a link) as the choice `value`. */
  showCustom(value, title, description) {
    let option = this.select.querySelector(`option[value="${value}"]`);
    if (!option) {
      option = el('option', { value });
      this.select.prepend(option);
    }
    option.textContent = `Yours: ${title || 'untitled scenario'}`;
    this.setScenario(value, description);
  }

  /** Sets the speed to the notch of `speed` (one of SPEEDS); returns the speed set. */
  setSpeed(speed) {
    const index = SPEEDS.indexOf(speed);
    if (index >= 0) this.speed.value = String(index);
    this.#showSpeed();
    return this.speedValue;
  }

  setEnabled(enabled) {
    for (const control of [this.play, this.stepBack, this.step, this.reset]) control.disabled = !enabled;
  }
}

function kbd(text) {
  return el('kbd', { text });
}

function label(text) {
  return el('span', { class: 'button-label', text });
}
