// The one message area of the page (its text is data-testid "error"), quoted as plain text with where it came
// from, and shown as what it is (data-kind): an error (something failed; the message says what still works),
// a warning (something is not as asked and the page goes on without it), a success or a note. Successes and
// notes are short-lived: they go after TRANSIENT_MS and at the next scenario (clearTransient). Dismissable,
// replaced or cleared by the part of the page that raised it.
import { el } from './dom.js';

/** The kinds of message, and the word a screen reader hears first. */
export const MESSAGE_KINDS = { error: 'Error', warning: 'Warning', success: 'Done', note: 'Note' };
/** How long a success or a note stays (ms). */
export const TRANSIENT_MS = 6000;

export class MessageArea {
  constructor() {
    this.kindLabel = el('span', { class: 'visually-hidden' });
    this.text = el('p', { class: 'message-text', 'data-testid': 'error' });
    this.dismiss = el('button', { type: 'button', class: 'button small', text: 'Dismiss',
      on: { click: () => this.clear() } });
    this.box = el('div', { class: 'message-box', hidden: true }, this.kindLabel, this.text, this.dismiss);
    // The live region stays in the document; only its content comes and goes.
    this.element = el('div', { class: 'message-area', role: 'status', 'aria-live': 'polite' },
      this.box);
    this.source = null;
    this.kind = null;
    this.timer = null;
    this.listeners = new Set();
  }

  /** The message shown now ("source: text"), or null. */
  get current() {
    return this.box.hidden ? null : this.text.textContent;
  }

  /** Calls `listener(text, source, kind)` after every message shown (the embed API forwards them); returns a remover. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Shows `message` (an Error or text) raised by `source` ("Matrix lab", "Playground", …) as `kind` (one of
   * MESSAGE_KINDS; an Error is an error and text a note unless said otherwise).
   */
  show(message, source, kind = message instanceof Error ? 'error' : 'note') {
    const text = message instanceof Error ? message.message : String(message);
    this.source = source;
    this.kind = MESSAGE_KINDS[kind] ? kind : 'note';
    this.text.textContent = source ? `${source}: ${text}` : text;
    this.kindLabel.textContent = `${MESSAGE_KINDS[this.kind]}: `;
    this.box.dataset.kind = this.kind;
    this.box.hidden = false;
    clearTimeout(this.timer);
    this.timer = this.#transient() ? setTimeout(() => this.clear(), TRANSIENT_MS) : null;
    for (const listener of this.listeners) listener(text, source, this.kind);
  }

  /** Clears the message, or only the one from `source` when given. */
  clear(source) {
    if (source && this.source !== source) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.source = null;
    this.kind = null;
    this.text.textContent = '';
    this.box.hidden = true;
  }

  /** Clears a success or a note (what was done or said about the scenario before this one). */
  clearTransient() {
    if (this.#transient()) this.clear();
  }

  #transient() {
    return this.kind === 'success' || this.kind === 'note';
  }
}
