// The JavaScript API of Oblique: the only way the playground, course pages and scripts reach the C++ core.
//
//   import { loadOblique } from './engine/index.js';
//   const oblique = await loadOblique();
//   oblique.analyzeImpact({ M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 0.8 }).qd_plus; // [-1.8, 1.4]
//
// The embind module (generated/oblique.js) is raw bindings only (wasm/bindings/); this wrapper gives the
// idiomatic API: plain objects in and out, with the same keys as the `oblique` CLI, and JS `Error`s that
// carry the C++ message, which names the offending field.
import createObliqueModule from './generated/oblique.js';

let enginePromise = null;

/**
 * Loads the WebAssembly core once and resolves to the engine. Works with no arguments in a browser (the
 * bundler serves the .wasm next to the glue) and in Node (the .wasm is read from disk).
 * @returns {Promise<ObliqueEngine>}
 */
export function loadOblique() {
  if (!enginePromise) {
    enginePromise = instantiate().then((module) => new ObliqueEngine(module));
    // A failed load may be retried.
    enginePromise.catch(() => { enginePromise = null; });
  }
  return enginePromise;
}

/** Instantiates the Emscripten module; in Node, hands it the .wasm bytes (3.1.6 would `fetch` a path). */
async function instantiate() {
  const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
    typeof window === 'undefined' && typeof self === 'undefined';
  if (!isNode) return createObliqueModule();
  const fsModule = 'node:fs/promises';  // a variable keeps bundlers from resolving it for the browser
  const { readFile } = await import(/* @vite-ignore */ fsModule);
  const wasmBinary = await readFile(new URL('./generated/oblique.wasm', import.meta.url));
  return createObliqueModule({ wasmBinary });
}

/**
 * JSON text of `value`, with NaN and ±Infinity sent as the strings "NaN", "Infinity", "-Infinity" so that
 * the core can say which entry is not finite (JSON itself has no such numbers).
 * @param {unknown} value
 * @returns {string}
 */
export function toEngineJson(value) {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  });
}

/**
 * Runs `call` and makes sure whatever it throws is an `Error` with a readable message.
 * @template T
 * @param {() => T} call
 * @returns {T}
 */
export function callCore(call) {
  try {
    return call();
  } catch (error) {
    if (error instanceof Error) throw error;
    // A bare number is an Emscripten exception pointer that escaped a binding: a bug, still an Error.
    throw new Error(`internal error in the Oblique core (${String(error)})`);
  }
}

/** Throws unless `value` is a plain object (not an array, not null). */
function requireObject(value, field) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    throw new Error(`${field}: must be an object, got ${got}`);
  }
}

/**
 * @typedef {number[][]} MatrixRows  A matrix as an array of rows.
 *
 * @typedef {Object} ImpactInput  Exactly the input document of `oblique impact`.
 * @property {MatrixRows} M       inertia matrix, symmetric positive definite
 * @property {MatrixRows} A       constraint Jacobian of the impact ([] for none; any rank)
 * @property {number[]} qd        pre-impact velocity q̇⁻
 * @property {number} [e]         global restitution coefficient in [0, 1] (give e or E)
 * @property {number[]} [E]       one restitution coefficient per row of A
 * @property {number[]} [iu]      external impulse (default 0)
 * @property {number|null} [nu]   virtual mass ν > 0 (default: the one minimising cond(Mc))
 * @property {boolean[]} [unilateral]  rows that may raise flags (default all)
 *
 * @typedef {Object} ImpactFlags
 * @property {number[]} tensile_impulse        rows whose impulse pulls (i_λ < 0)
 * @property {number[]} approach_after_impact  rows still approaching after the impact (Aq̇⁺ < 0)
 * @property {boolean} energy_gain             γ > 1
 *
 * @typedef {Object} ImpactOutput  Exactly the output document of `oblique impact`.
 * @property {number} n
 * @property {number} m
 * @property {number} rank
 * @property {number} nu
 * @property {[number, number]} nu_range  [λ_min≠0(Mo), λ_max(Mo)], where every ν minimises cond(Mc)
 * @property {number} cond_Mc
 * @property {MatrixRows} P
 * @property {MatrixRows} Mc
 * @property {MatrixRows} S
 * @property {MatrixRows} R
 * @property {MatrixRows} E_tilde
 * @property {MatrixRows} Q
 * @property {number[]} restitution
 * @property {number[]} qd_minus
 * @property {number[]} qd_plus
 * @property {number[]} i_f
 * @property {number[]} i_lambda
 * @property {number[]} phid_minus
 * @property {number[]} phid_plus
 * @property {number} K_minus
 * @property {number} K_plus
 * @property {number} W_loss     K⁺ − K⁻ (negative when energy is lost)
 * @property {number|null} gamma K⁺/K⁻, null when K⁻ = 0
 * @property {number} qmi_max_eig  λ_max(EQE − Q)
 * @property {boolean} energy_consistent
 * @property {number} newton_residual
 * @property {ImpactFlags} flags
 * @property {Object<string, number>} identities  relative residuals of the paper's identities
 */

/** The loaded core. Obtain it with {@link loadOblique}; it holds no per-call state. */
export class ObliqueEngine {
  /** @type {any} */
  #module;

  /** @param {any} module the instantiated Emscripten module */
  constructor(module) {
    this.#module = module;
  }

  /**
   * Solves one impact with the projection method: the same input and output objects as `oblique impact`.
   * @param {ImpactInput} input
   * @returns {ImpactOutput}
   * @throws {Error} naming the field, e.g. "e: must be in [0, 1], got 1.5"
   */
  analyzeImpact(input) {
    requireObject(input, 'input');
    return JSON.parse(callCore(() => this.#module.analyzeImpact(toEngineJson(input))));
  }
}
