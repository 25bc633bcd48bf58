// The timeline under the scene: a scrub bar over the run so far (an <input type=range> whose value is the
// simulated time in seconds), the time shown, what happens at the scenario's `duration` (stop, loop or go
// on), and a notice when the machine cannot keep up with the chosen speed. On the bar, ← and → step one
// sample of the run (SAMPLE), Shift with them one impact, Home goes to the start and End to how far the run
// has got.
import { el, uniqueId } from '../widgets/dom.js';

/** One sample of the run (s): the interval at which the worker samples a run on its way to an impact. */
export const SAMPLE = 1 / 60;

/** What the run does when it reaches the scenario's duration. */
export const END_MODES = [
  { value: 'stop', label: 'Stop at the end' },
  { value: 'loop', label: 'Loop' },
  { value: 'continue', label: 'Go on past the end' },
];

export class TimelineControls {
  /**
   * @param {{onSeek: (t: number) => void, onEndMode: (mode: string) => void,
   *   onStepSample: (direction: number) => void, onStepImpact: (direction: number) => void}} options  onSeek is
   *   called while the bar is dragged (the newest wish wins) and once more when it is let go; the step
   *   callbacks by the keys (direction 1 later, −1 earlier)
   */
  constructor({ onSeek, onEndMode, onStepSample, onStepImpact }) {
    const id = uniqueId('timeline');
    this.range = el('input', { id, type: 'range', min: 0, max: 1, step: 'any', value: 0, 'data-testid': 'timeline',
      'aria-describedby': `${id}-hint`, 'aria-keyshortcuts': 'ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight Home End' });
    this.range.addEventListener('input', () => onSeek(Number(this.range.value)));
    this.range.addEventListener('change', () => onSeek(Number(this.range.value)));
    // The keys step through the run as a person reads it, not by the bar's thousandths of its length.
    this.range.addEventListener('keydown', (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const direction = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
      if (direction) {
        if (event.shiftKey) onStepImpact(direction);
        else onStepSample(direction);
      } else if (event.key === 'Home') onSeek(0);
      else if (event.key === 'End') onSeek(this.horizon);
      else return;
      event.preventDefault();
      event.stopPropagation();  // the page's shortcuts (← and → step impacts) are not also run
    });
    // While the thumb is held, frames do not move it under the pointer.
    this.dragging = false;
    this.range.addEventListener('pointerdown', () => { this.dragging = true; });
    for (const type of ['pointerup', 'pointercancel', 'change']) {
      this.range.addEventListener(type, () => { this.dragging = false; });
    }
    this.readout = el('output', { for: id, class: 'timeline-time' });
    const endId = uniqueId('end-mode');
    this.endMode = el('select', { id: endId, 'data-testid': 'end-mode' },
      END_MODES.map((m) => el('option', { value: m.value, text: m.label })));
    this.endMode.addEventListener('change', () => onEndMode(this.endMode.value));
    this.speedNotice = el('p', { class: 'speed-notice', role: 'status', 'data-testid': 'real-speed', hidden: true });
    this.element = el('div', { class: 'timeline' },
      el('div', { class: 'timeline-row' },
        el('label', { for: id, text: 'Time' }), this.range, this.readout),
      el('div', { class: 'timeline-row timeline-options' },
        el('label', { for: endId, text: 'At the end of the run' }), this.endMode,
        el('span', { id: `${id}-hint`, class: 'muted small',
          text: 'Drag to go back and forth through the run; on the bar, ← and → step one sample (1/60 s), with ' +
            'Shift one impact. Click an impact line in the energy plot to go to it.' })),
      this.speedNotice);
    this.duration = 0;
    this.horizon = 0;
  }

  get mode() {
    return this.endMode.value;
  }

  /** Whether the choice of what happens at the end of the run is on screen (an embed hides it). */
  endModeShown() {
    return this.endMode.checkVisibility();
  }

  /**
   * The time one sample after (`direction` 1) or before (−1) `t`: the next multiple of SAMPLE, so that steps
   * from any time land on the same grid; never before 0.
   */
  sampleFrom(t, direction) {
    const k = direction > 0 ? Math.floor(t / SAMPLE + 1e-9) + 1 : Math.ceil(t / SAMPLE - 1e-9) - 1;
    return Math.max(0, k * SAMPLE);
  }

  /** Sets what happens at the end of the run (one of END_MODES' values), as if chosen. */
  setMode(mode) {
    if (END_MODES.some((m) => m.value === mode)) this.endMode.value = mode;
  }

  /** A new run: its duration (s). */
  setDuration(duration) {
    this.duration = duration;
    this.horizon = 0;
  }

  /** Shows time `t` of a run simulated up to `horizon`. */
  show(t, horizon) {
    this.horizon = horizon;
    // The bar spans the run so far, or the whole run when it stops or loops at the end.
    const max = this.mode === 'continue' ? Math.max(horizon, 1e-9) : Math.max(this.duration, horizon, 1e-9);
    if (Number(this.range.max) !== max) this.range.max = String(max);
    if (!this.dragging) this.range.value = String(t);
    const text = `t = ${t.toFixed(2)} s` + (this.mode === 'continue' ? '' : ` of ${format(this.duration)} s`);
    this.readout.textContent = text;
    this.range.setAttribute('aria-valuetext', `${text}; simulated up to ${horizon.toFixed(2)} s`);
  }

  /** Shows or hides the notice that the run is slower than asked (`real` and `asked` speeds, × real time). */
  showSpeed(real, asked) {
    if (real === null) {
      this.speedNotice.hidden = true;
      return;
    }
    this.speedNotice.hidden = false;
    this.speedNotice.textContent = `Running at ${format(real, 2)}× real time, not ${format(asked)}×: this computer ` +
      'cannot keep up, so the run slows down rather than skip time.';
  }
}

function format(x, digits = 3) {
  return String(Number(x.toPrecision(digits)));
}
