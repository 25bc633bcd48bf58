// Code the first screen does not draw (KaTeX, uPlot, the matrix lab) is loaded when it is first needed.
// One loader per module: the import starts once and its promise is shared; a failed import (the network
// dropped, a new deployment removed the chunk) is announced to the page — main.js shows it in the message
// area — and tried again at the next use.

/** The window event of a module that could not be loaded: `detail` is {what, error}. */
export const MODULE_FAILED = 'oblique:module-failed';

/**
 * A function that loads the module once and resolves to `importer()`'s value.
 * @template T
 * @param {string} what the module as a reader would name it ("the formulas (KaTeX)")
 * @param {() => Promise<T>} importer the dynamic import(s)
 * @returns {(() => Promise<T>) & {loaded: () => T|undefined}}
 */
export function lazyModule(what, importer) {
  let promise = null;
  let value;
  const load = () => {
    promise ??= importer().then((result) => {
      value = result;
      return result;
    }, (error) => {
      promise = null;
      window.dispatchEvent(new CustomEvent(MODULE_FAILED, { detail: { what, error } }));
      throw error;
    });
    return promise;
  };
  load.loaded = () => value;
  return load;
}

/** The message shown when `what` could not be loaded. */
export function moduleFailedMessage(what, error) {
  return `${what} could not be loaded (${error?.message ?? error}). Check the connection; it is tried again at the ` +
    'next use, or reload the page.';
}

/**
 * Calls `onVisible()` once, the first time `element` comes within `margin` of the viewport (an element
 * inside a hidden tab or panel never does until it is shown). Without IntersectionObserver, at once.
 */
export function whenVisible(element, onVisible, margin = '0px') {
  if (typeof IntersectionObserver !== 'function') {
    queueMicrotask(onVisible);
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    onVisible();
  }, { rootMargin: margin });
  observer.observe(element);
}
