// Impacts read out by screen readers (a polite live region), at most one message every few seconds: a fast
// run is summarised ("4 more impacts; the latest …") instead of flooding the reader.
import { el } from './dom.js';

const MIN_GAP_MS = 3000;

export class Announcer {
  constructor() {
    this.element = el('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true',
      'data-testid': 'announcer' });
    this.last = 0;
    this.pending = [];
    this.timer = null;
  }

  /** Queues a message about `count` new impacts, the latest described by `text`. */
  impacts(count, text) {
    this.pending.push({ count, text });
    const wait = this.last + MIN_GAP_MS - performance.now();
    if (wait <= 0) this.#flush();
    else if (!this.timer) this.timer = setTimeout(() => this.#flush(), wait);
  }

  /** Says `text` now (a state change the user asked for); it replaces anything queued. */
  say(text) {
    this.cancel();
    this.element.textContent = text;
    this.last = performance.now();
  }

  /** Drops anything queued (new scenario, reset). */
  cancel() {
    clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }

  #flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.length) return;
    const count = this.pending.reduce((sum, p) => sum + p.count, 0);
    const latest = this.pending[this.pending.length - 1].text;
    this.pending = [];
    this.say(count > 1 ? `${count} impacts; the latest: ${latest}` : `Impact: ${latest}`);
  }
}
