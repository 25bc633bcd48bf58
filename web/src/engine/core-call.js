// How the engine API calls into the core (shared by index.js and csv-export.js): a call's failure, which
// the bindings leave behind instead of throwing, becomes a JS Error; and C++ objects whose JS owner was
// garbage-collected without dispose() are freed.
import { takeDeferredFailure } from './deferred-code.js';

/**
 * Runs one call into the core and throws an `Error` carrying the core's message if it failed. The bindings
 * never throw into JavaScript (that would leak wasm memory in Emscripten 3.1.6): a failed call returns a
 * neutral value and leaves its message behind, which `hasError()`/`takeError()` hand over.
 * @template T
 * @param {any} module the instantiated Emscripten module
 * @param {() => T} call
 * @returns {T}
 */
export function callCore(module, call) {
  let result;
  try {
    result = call();
  } catch (error) {
    throw takeDeferredFailure() ?? error;
  }
  // The deferred code could not be loaded on the way (C++ code may have caught that and failed the call).
  const failure = takeDeferredFailure();
  const message = module.hasError() ? module.takeError() : null;
  if (failure) throw failure;
  if (message !== null) throw new Error(message);
  return result;
}

/** Frees the C++ object of a Simulation or a CsvExport that was garbage-collected without dispose(). */
export const leakedHandles = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((handle) => { if (!handle.isDeleted()) handle.delete(); })
  : null;
