// The part of the core that the page's first frame does not run: generated/oblique.deferred.wasm (the build
// splits the module, scripts/split-wasm.mjs). The first module calls it through placeholders; the first such
// call instantiates it synchronously (Emscripten's loadSplitModule hook) — from the module compiled
// beforehand by loadDeferredCode(), or else fetched and compiled on the spot by a synchronous request, which
// only a worker may make. Its functions are the same code as in one module: results do not change.

const DEFERRED_URL = new URL('./generated/oblique.deferred.wasm', import.meta.url);
const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined' && typeof self === 'undefined';

/** The compiled WebAssembly.Module, once there. */
let compiled = null;
/** The compilation in progress (null again after a failure, so that it can be retried). */
let compiling = null;
/** The Error of a synchronous load that failed during a call into the core, until callCore takes it. */
let failure = null;
/** The deferred module's instance, once made: made once only (see instantiateDeferred). */
let instance = null;

/** The deferred module's bytes (Node reads the file, a browser fetches it). */
async function fetchBytes() {
  if (isNode) {
    const fsModule = 'node:fs/promises';  // a variable keeps bundlers from resolving it for the browser
    const { readFile } = await import(/* @vite-ignore */ fsModule);
    return readFile(DEFERRED_URL);
  }
  const response = await fetch(DEFERRED_URL);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Fetches and compiles the deferred code once; resolves when it is ready. A failure rejects (with the
 * reason) and a later call tries again.
 * @returns {Promise<void>}
 */
export function loadDeferredCode() {
  compiling ??= fetchBytes().then((bytes) => WebAssembly.compile(bytes)).then((module) => { compiled = module; },
    (error) => {
      compiling = null;
      throw deferredError(error);
    });
  return compiling;
}

/** The Error a user sees when the deferred code cannot be had. */
function deferredError(error) {
  return new Error(`The physics engine could not load the rest of its code (${error?.message ?? error}); ` +
    'check the connection and try again');
}

/** The deferred module's bytes, synchronously: a worker's synchronous request. */
function fetchBytesSync() {
  if (typeof XMLHttpRequest !== 'function' || typeof window !== 'undefined') {
    throw new Error('it was not loaded beforehand (loadDeferredCode), and only a worker may load it on the spot');
  }
  const request = new XMLHttpRequest();
  request.open('GET', DEFERRED_URL.href, false);
  request.responseType = 'arraybuffer';
  request.send(null);
  if (request.status !== 200) throw new Error(`HTTP ${request.status}`);
  return request.response;
}

/**
 * Emscripten's loadSplitModule: instantiates the deferred module with the first module's exports, which
 * fills the table slots of its functions. Once only: embind keeps the placeholder functions it looked up in
 * the table when the bindings were registered, so its calls of deferred functions come back here after the
 * table is filled; the glue then calls the table's function. Instantiating again at each such call cost a
 * new instance per call, slower with every one (10 000 create/dispose cycles did not end). Throws the
 * user's Error (kept for callCore, since C++ code on the way may catch it) when the code cannot be had.
 * @param {string} _file the glue's guess of the file name (unused: the bundler names the file)
 * @param {WebAssembly.Imports} imports
 */
export function instantiateDeferred(_file, imports) {
  try {
    compiled ??= new WebAssembly.Module(fetchBytesSync());
    instance ??= new WebAssembly.Instance(compiled, imports);
    return instance;
  } catch (error) {
    failure = deferredError(error);
    throw failure;
  }
}

/** The Error of a failed synchronous load since the last call, if any (and forgets it). */
export function takeDeferredFailure() {
  const taken = failure;
  failure = null;
  return taken;
}

/** Emscripten's printErr without the two lines its split-module loader prints on every first use. */
export function printErr(text) {
  if (/^(placeholder function called|instantiated deferred module)/.test(text)) return;
  console.warn(text);
}
