// Listeners by event type: `on(type, listener)` returns a remover, `emit(type, detail)` calls each listener of
// that type in turn; a listener that throws is reported to `onError` and the others still run.

export class Emitter {
  #listeners = new Map();
  #onError;

  /** @param {(error: unknown) => void} [onError] told of a listener that threw */
  constructor(onError = (error) => console.error(error)) {
    this.#onError = onError;
  }

  /** Calls `listener(detail)` at every `emit(type)`; returns a function that removes it. */
  on(type, listener) {
    if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
    this.#listeners.get(type).add(listener);
    return () => this.#listeners.get(type)?.delete(listener);
  }

  emit(type, detail) {
    for (const listener of this.#listeners.get(type) ?? []) {
      try {
        listener(detail);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
