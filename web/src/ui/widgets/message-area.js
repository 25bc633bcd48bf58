// The one polite message area of the page (its text is data-testid "error"): an engine error quoted as plain text with
// where it came from, dismissable, replaced or cleared by the part of the page that raised it.
import { el } from './dom.js';

export class MessageArea {
  constructor() {
    this.text = el('p', { class: 'message-text', 'data-testid': 'error' });
    this.dismiss = el('button', { type: 'button', class: 'button small', text: 'Dismiss',
      on: { click: () => this.clear() } });
    this.box = el('div', { class: 'message-box', hidden: true }, this.text, this.dismiss);
    // The live region stays in the document; only its content comes and goes.
    this.element = el('div', { class: 'message-area', role: 'status', 'aria-live': 'polite' },
      this.box);
    this.source = null;
    this.listeners = new Set();
  }

  /** The message shown now ("source: text"), or null. */
  get current() {
    return this.box.hidden ? null : this.text.textContent;
  }

  /** Calls `listener(text, source)` after every message shown (the embed API forwards them); returns a remover. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shows `message` (an Error or text) raised by `source` ("Matrix lab", "Scenario", …). */
  show(message, source) {
    const text = message instanceof Error ? message.message : String(message);
    this.source = source;
    this.text.textContent = source ? `${source}: ${text}` : text;
    this.box.hidden = false;
    for (const listener of this.listeners) listener(text, source);
  }

  /** Clears the message, or only the one from `source` when given. */
  clear(source) {
    if (source && this.source !== source) return;
    this.source = null;
    this.text.textContent = '';
    this.box.hidden = true;
  }
}
