// The editor's text kept in localStorage, so that a reload, a crash of the simulation worker or of the tab
// loses nothing: the draft (saved as you type) and the one before it (kept when the editor is given
// other text: a built-in, an import, a link). Storage can be missing or full (a sandboxed frame, private
// browsing): then nothing is saved and the editor says so.

const KEY = 'oblique.editor.draft.v1';
const PREVIOUS = 'oblique.editor.previous.v1';

function storage() {
  try {
    const store = window.localStorage;
    const probe = `${KEY}.probe`;
    store.setItem(probe, '1');
    store.removeItem(probe);
    return store;
  } catch {
    return null;
  }
}

/**
 * @typedef {{text: string, savedAt: number, synced: boolean}} Draft
 *   synced: the text is the running scenario's (nothing to lose by replacing it)
 */

export class DraftStore {
  constructor() {
    this.store = storage();
  }

  /** False when the browser keeps nothing (the editor warns). */
  get available() {
    return this.store !== null;
  }

  /** @returns {Draft|null} */
  load(key = KEY) {
    try {
      const value = JSON.parse(this.store?.getItem(key) ?? 'null');
      return value && typeof value.text === 'string' ? value : null;
    } catch {
      return null;
    }
  }

  /** The draft before the last replacement, or null. */
  previous() {
    return this.load(PREVIOUS);
  }

  /** Saves the text being edited; false when it could not be saved (storage full or missing). */
  save(text, { synced = false } = {}) {
    try {
      this.store?.setItem(KEY, JSON.stringify({ text, savedAt: Date.now(), synced }));
      return Boolean(this.store);
    } catch {
      return false;
    }
  }

  /** Keeps the current draft as the previous one (before the editor's text is replaced). */
  keepPrevious() {
    const current = this.load();
    if (!current || current.synced) return;
    try {
      this.store?.setItem(PREVIOUS, JSON.stringify(current));
    } catch { /* storage full: the current draft stays where it was until the next save */ }
  }
}
