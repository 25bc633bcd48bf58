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
import { callCore, leakedHandles } from './core-call.js';
import { CsvExport } from './csv-export.js';
import { instantiateDeferred, loadDeferredCode, printErr } from './deferred-code.js';

export { CsvExport };

let enginePromise = null;

/**
 * Loads the WebAssembly core once and resolves to the engine. Works with no arguments in a browser (the
 * bundler serves the .wasm next to the glue) and in Node (the .wasm is read from disk). The core comes in
 * two files (deferred-code.js): by default both are loaded before the engine resolves; with `lazyCode` (the
 * page's worker, so that its first frame comes sooner) only the first, and the rest is fetched by
 * `engine.loadAll()` or, in a worker, at its first use.
 * @param {{lazyCode?: boolean}} [options]
 * @returns {Promise<ObliqueEngine>}
 */
export function loadOblique({ lazyCode = false } = {}) {
  if (!enginePromise) {
    enginePromise = Promise.all([instantiate(), lazyCode ? null : loadDeferredCode()])
      .then(([module]) => new ObliqueEngine(module));
    // A failed load may be retried.
    enginePromise.catch(() => { enginePromise = null; });
  }
  return enginePromise;
}

/** Instantiates the Emscripten module; in Node, hands it the .wasm bytes (3.1.6 would `fetch` a path). */
async function instantiate() {
  const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
    typeof window === 'undefined' && typeof self === 'undefined';
  const hooks = { loadSplitModule: instantiateDeferred, printErr };
  if (!isNode) return createObliqueModule(hooks);
  const fsModule = 'node:fs/promises';  // a variable keeps bundlers from resolving it for the browser
  const { readFile } = await import(/* @vite-ignore */ fsModule);
  const wasmBinary = await readFile(new URL('./generated/oblique.wasm', import.meta.url));
  return createObliqueModule({ ...hooks, wasmBinary });
}

/**
 * JSON text of `value`, with NaN and ±Infinity sent as the strings "NaN", "Infinity", "-Infinity" so that
 * the core can say which entry is not finite (JSON itself has no such numbers).
 * @param {unknown} value
 * @returns {string}
 */
function toEngineJson(value) {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  });
}

/** A lone UTF-16 surrogate (with the `u` flag, a pair is one code point and does not match). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES_AFTER_BACKSLASHES = /(\\*)([\uD800-\uDFFF])/gu;

/**
 * A problem with a whole document found before it reaches the core (too large, too deep to convert): an
 * `Error` "<source>: <reason>", and the issue `checkScenario` lists for it.
 */
class DocumentError extends Error {
  /** @param {string} source @param {string} reason */
  constructor(source, reason) {
    super(`${source}: ${reason}`);
    this.issue = { pointer: '', message: reason };
  }
}

/**
 * JSON text of an object for the core; a JS value too deeply nested for JSON.stringify becomes an Error
 * naming the core's own depth limit instead of a RangeError.
 * @param {unknown} value
 * @param {string} source the document's name in messages
 * @param {{maxDepth: number}} limits
 * @returns {string}
 */
function documentJson(value, source, limits) {
  try {
    return toEngineJson(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new DocumentError(source, `nested deeper than ${limits.maxDepth} levels of arrays and objects`);
  }
}

/**
 * `text` made ready to cross into the core. A text longer than the core reads is refused here, before it is
 * copied into wasm memory (a JS string of n UTF-16 units has at least n UTF-8 bytes; the core checks the
 * exact bytes). A lone surrogate — which Emscripten's UTF-8 encoder would merge with the character after
 * it — is written as its JSON escape, so that the core reports it at the JSON pointer of its string; one
 * escaped by a backslash (never valid JSON) becomes U+FFFD, still an error at that string.
 * @param {string} text
 * @param {string} source
 * @param {{maxBytes: number}} limits
 * @returns {string}
 */
function forCore(text, source, limits) {
  if (text.length > limits.maxBytes) {
    throw new DocumentError(source, `too large (more than ${limits.maxBytes / 2 ** 20} MiB)`);
  }
  if (!LONE_SURROGATE.test(text)) return text;
  return text.replace(LONE_SURROGATES_AFTER_BACKSLASHES, (_match, slashes, unit) => slashes + (slashes.length % 2
    ? '\uFFFD'
    : `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`));
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
 * @property {[number, number][]} [pairs]  Coulomb friction (docs/friction.md): the [normal row, tangential
 *   row] of A of each frictional contact point; required with `mu`
 * @property {number|string|(number|string)[]} [mu]  Coulomb's μ ≥ 0 for every pair, or one per pair;
 *   "stick" (or "Infinity") for a point that never slips; required with `pairs`
 *
 * @typedef {Object} ImpactFlags
 * @property {number[]} tensile_impulse        rows whose impulse pulls (i_λ < 0)
 * @property {number[]} approach_after_impact  rows still approaching after the impact (Aq̇⁺ < 0)
 * @property {boolean} energy_gain             the constraint impulse does positive work (γ > 1 when iu = 0)
 *
 * @typedef {Object} ImpactOutput  Exactly the output document of `oblique impact`.
 * @property {number} n
 * @property {number} m
 * @property {number} rank
 * @property {number} nu
 * @property {[number, number]} nu_range  [λ_min≠0(Mo), λ_max(Mo)], where every ν minimises cond(Mc)
 * @property {number} nu_optimal  the default ν, √(λ_min≠0(Mo) λ_max(Mo))
 * @property {number[]} [row_scale]  present when rows of A of extreme length were rescaled (by powers of
 *   two, to unit length): the factor of each row; phid_minus, phid_plus, i_lambda and Q are per rescaled row
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
 * @property {number} W_constraint  i_f·(q̇⁻ + q̇⁺)/2, the constraints' share of W_loss (equal without iu)
 * @property {number|null} gamma K⁺/K⁻, null when K⁻ = 0
 * @property {number} qmi_max_eig  λ_max(EQE − Q)
 * @property {boolean|null} energy_consistent  null where not established (a summary of the sparse path)
 * @property {number} newton_residual
 * @property {ImpactFlags} flags
 * @property {{allowed: number, blocked: number, plus: [number, number], outside: number}} velocity_plane
 *   |(I − S)q̇⁻| and |Sq̇⁻| in the kinetic-energy metric, q̇⁺ along each, and its length off that plane
 * @property {Object<string, number>} identities  relative residuals of the paper's identities
 * @property {FrictionOutput} [friction]  present when the input has `mu` and `pairs`; then S and R are those
 *   of the modes used, and E_tilde, Q, qmi_max_eig, energy_consistent and velocity_plane are absent (the
 *   sticking mode's Q and QMI are in `friction.sticking`)
 *
 * @typedef {Object} FrictionPairOutput  One frictional contact point of an impact (docs/friction.md).
 * @property {number} normal_row
 * @property {number} tangent_row
 * @property {number|string} mu       "stick" for +∞
 * @property {'stick'|'slip'} mode
 * @property {number} direction        s = ±1 of a slipping point (friction impulse −μ s i_n), 0 otherwise
 * @property {number} i_n
 * @property {number} i_t
 * @property {number} phid_minus
 * @property {number} phid_plus
 * @property {number} slip_minus      v_t⁻
 * @property {number} slip_plus       v_t⁺
 * @property {number|null} mu_critical  |i_t|/i_n of the sticking-mode impulse (null: +∞)
 * @property {number|null} discriminator  μ²(i_n^st)² − (i_t^st)²: ≥ 0 sticks (null for "stick")
 * @property {number} cone_angle       angle of the impulse to the friction cone, radians (≤ 0: inside or on it)
 * @property {number} sticking_cone_angle  the same for the sticking-mode impulse (> 0: it would leave the cone)
 * @property {[number, number]} sticking_impulse
 * @property {boolean} slip_stopped
 * @property {boolean} slip_reversed
 * @property {number} W_normal       work of the normal impulse
 * @property {number} W_tangential   work of the friction impulse
 *
 * @typedef {Object} FrictionOutput
 * @property {FrictionPairOutput[]} pairs
 * @property {boolean} modes_consistent  every point obeys Coulomb's law in its mode
 * @property {number} combinations_tried
 * @property {number[]} velocity_rows
 * @property {{qd_plus: number[], i_lambda: number[], W_loss: number, gamma: number|null, Q: MatrixRows,
 *   qmi_max_eig: number, energy_consistent: boolean}} sticking  the sticking-mode impact (every point sticking)
 *
 * @typedef {Object} FrictionEnergyMap  The (μ, e) plane of one frictional pair (frictionEnergyMap).
 * @property {number} pair
 * @property {number} resolution
 * @property {number} mu_max
 * @property {number[]} mu          μ of each column, 0 … mu_max
 * @property {number[]} e           e of each row, 0 … 1
 * @property {number[]} energy_change  (K⁺ − K⁻)/K⁻ at entry row·resolution + col: ≤ 0 is admissible
 * @property {number[]} mode        0 stick, ±1 slip in that direction
 * @property {boolean[]} energy_gain
 * @property {boolean[]} modes_consistent
 * @property {(number|null)[]} mu_critical  μ_crit at each e (the boundary between stick and slip)
 * @property {number|null} e_stick   one contact point: sticking keeps K⁺ ≤ K⁻ iff e ≤ e_stick
 * @property {{mu: number|string, e: number, mode: string, direction: number, energy_change: number,
 *   energy_gain: boolean}} at  the input's own pair
 */

/** The loaded core. Obtain it with {@link loadOblique}; it holds no per-call state. */
export class ObliqueEngine {
  /** @type {any} */
  #module;
  /** The core's limits on a document (bytes of UTF-8, levels of nesting), the same as the CLI's. */
  #limits;

  /** @param {any} module the instantiated Emscripten module */
  constructor(module) {
    this.#module = module;
    this.#limits = { maxBytes: module.maxJsonBytes(), maxDepth: module.maxJsonDepth() };
  }

  /**
   * Resolves once the whole core is compiled: what loadOblique({lazyCode: true}) left for later (nothing
   * otherwise). No call waits for it then; rejects with a readable Error if it cannot be fetched.
   * @returns {Promise<void>}
   */
  loadAll() {
    return loadDeferredCode();
  }

  /** The text of a scenario given as an object or as JSON text, ready for the core. */
  #scenarioText(scenario) {
    if (typeof scenario === 'string') return forCore(scenario, 'scenario', this.#limits);
    requireObject(scenario, 'scenario');
    return forCore(documentJson(scenario, 'scenario', this.#limits), 'scenario', this.#limits);
  }

  /** The text of an argument object or array, ready for the core. */
  #argumentText(value, source) {
    return forCore(documentJson(value, source, this.#limits), source, this.#limits);
  }

  /** Bytes of wasm memory in use by the core (it only grows; useful to watch for leaks). @type {number} */
  get memoryBytes() {
    return this.#module.HEAP8.length;
  }

  /**
   * Bytes of that memory held by live allocations: it falls back when a Simulation is disposed (the memory
   * itself stays, ready for reuse). @type {number}
   */
  get heapBytesInUse() {
    return this.#module.heapBytesInUse();
  }

  /**
   * Solves one impact with the projection method: the same input and output objects as `oblique impact`.
   * @param {ImpactInput} input
   * @returns {ImpactOutput}
   * @throws {Error} naming the field, e.g. "e: must be in [0, 1], got 1.5"
   */
  analyzeImpact(input) {
    requireObject(input, 'input');
    const text = this.#argumentText(input, 'input');
    return JSON.parse(callCore(this.#module, () => this.#module.analyzeImpact(text)));
  }

  /**
   * The energetic consistency of a frictional impact over the (μ, e) plane of one of its pairs: the impact
   * solved at each μ ∈ [0, muMax] and e ∈ [0, 1] of that pair's normal row, every other coefficient as the
   * input gives it (docs/friction.md, "Energetic consistency").
   * @param {ImpactInput} input an analyzeImpact input with `mu` and `pairs` (no `iu`)
   * @param {{pair?: number, muMax: number, resolution: number}} options the pair (default 0), the largest
   *   μ, and the grid points per side (2 … 256, fewer for large impacts: the core names the limit)
   * @returns {FrictionEnergyMap}
   * @throws {Error} naming the field of the input, "pair", "mu_max" or "resolution"
   */
  frictionEnergyMap(input, { pair = 0, muMax, resolution } = {}) {
    requireObject(input, 'input');
    if (!Number.isInteger(pair)) throw new Error('pair: must be the index of a pair');
    if (typeof muMax !== 'number') throw new Error('mu_max: must be a finite number > 0');
    if (!Number.isInteger(resolution)) throw new Error('resolution: must be an integer in [2, 256]');
    const text = this.#argumentText(input, 'input');
    return JSON.parse(callCore(this.#module, () => this.#module.frictionEnergyMap(text, pair, muMax, resolution)));
  }

  /**
   * Every problem of a scenario document, with the messages of `oblique check`.
   * @param {object|string} scenario a scenario object, or its JSON text
   * @returns {{pointer: string, message: string}[]} empty when the scenario is valid
   */
  checkScenario(scenario) {
    let text;
    try {
      text = this.#scenarioText(scenario);
    } catch (error) {
      if (error instanceof DocumentError) return [error.issue];
      throw error;
    }
    return JSON.parse(callCore(this.#module, () => this.#module.checkScenario(text)));
  }

  /**
   * The scenario with every field written, defaults included (what the simulator will run). Bodies that
   * overlap at the start are allowed here, so that an editor can show them: checkScenario lists such
   * overlaps, and createSimulation refuses them.
   * @param {object|string} scenario a scenario object, or its JSON text
   * @returns {object}
   * @throws {Error} "<JSON pointer>: <message>" of the first problem
   */
  normalizeScenario(scenario) {
    const text = this.#scenarioText(scenario);
    return JSON.parse(callCore(this.#module, () => this.#module.normalizeScenario(text)));
  }

  /**
   * Starts a simulation of a scenario. Call `dispose()` on it when done.
   * @param {object|string} scenario a scenario object, or its JSON text
   * @returns {Simulation}
   * @throws {Error} "<JSON pointer>: <message>" when the scenario is not valid or cannot start
   */
  createSimulation(scenario) {
    const text = this.#scenarioText(scenario);
    const handle = callCore(this.#module, () => this.#module.createSimulation(text));
    return new Simulation(this.#module, handle);
  }

  /**
   * The CSV of `oblique simulate --format csv` for a scenario, written by the core's own writer: the same
   * bytes as the CLI for the same document, duration and sample. Runs the whole scenario before it returns;
   * {@link ObliqueEngine#createCsvExport} takes the run a piece at a time.
   * @param {object|string} scenario a scenario object (with any settings written into it), or its JSON text
   * @param {CsvExportOptions} [options]
   * @returns {string}
   * @throws {Error} "<JSON pointer>: <message>" for the scenario, "duration: ..." or "sample: ..."
   */
  simulationCsv(scenario, options) {
    const run = this.createCsvExport(scenario, options);
    try {
      const parts = [];
      do parts.push(run.takeText()); while (run.advance());
      parts.push(run.takeText());
      return parts.join('');
    } finally {
      run.dispose();
    }
  }

  /**
   * Starts the CSV of `oblique simulate --format csv` for a scenario, to be taken a piece at a time: each
   * `advance()` is one advance call of the core's sampled run, within its work budget, and `takeText()`
   * hands over the text written so far. Call `dispose()` when done.
   * @param {object|string} scenario a scenario object (with any settings written into it), or its JSON text
   * @param {CsvExportOptions} [options]
   * @returns {CsvExport}
   * @throws {Error} "<JSON pointer>: <message>" for the scenario, "duration: ..." or "sample: ..."
   */
  createCsvExport(scenario, { duration = null, sample = 0.01, impactsOnly = false } = {}) {
    if (duration !== null && typeof duration !== 'number') {
      throw new Error(`duration: must be a number of seconds or null, got ${typeof duration}`);
    }
    if (typeof sample !== 'number') throw new Error(`sample: must be a positive number of seconds, got ${typeof sample}`);
    const text = this.#scenarioText(scenario);
    const handle = callCore(this.#module, () => this.#module.createCsvExport(text, duration, sample, Boolean(impactsOnly)));
    return new CsvExport(this.#module, handle);
  }

  /**
   * cond(Mc) against the virtual mass ν for the M and A of an impact (paper, appendix: Mc has the non-zero
   * eigenvalues of Mo and ν, so cond(Mc) = max(ν, λ_max(Mo)) / min(ν, λ_min≠0(Mo))), computed by the core's
   * projection. Rows of A of extreme length are brought to unit length first, as in analyzeImpact.
   * @param {{M: MatrixRows, A: MatrixRows}} input an analyzeImpact input or an impact record (other keys
   *   are ignored)
   * @param {number[]|Float64Array} nus values of ν, each finite and > 0
   * @returns {{nu_optimal: number, nu_range: [number, number], cond_Mc: number[]}} the default (optimal) ν,
   *   the interval where cond(Mc) is smallest, and cond(Mc) at each ν
   * @throws {Error} naming "M", "A" or "nu[i]"
   */
  conditionCurve(input, nus) {
    requireObject(input, 'input');
    const values = Array.from(nus ?? [], Number);
    const text = this.#argumentText({ M: input.M, A: input.A }, 'input');
    const nuText = this.#argumentText(values, 'nus');
    return JSON.parse(callCore(this.#module, () => this.#module.conditionCurve(text, nuText)));
  }

  /**
   * λ_max(EQE − Q) over [0, 1]² of two restitution coefficients: negative or zero where (e₁, e₂) is
   * energetically consistent (paper eq. (55)). E is `restitution` with row `rows[0]` set to e₁ and row
   * `rows[1]` to e₂; entry `row * resolution + col` is for e₁ = col/(resolution − 1), e₂ = row/(resolution − 1).
   * @param {number[][]} Q the matrix Q = GᵀMG of an impact (an impact record's `Q`)
   * @param {number} resolution grid points per side, 2 … 512
   * @param {{rows?: [number, number], restitution?: number[]}} [options] the two rows that vary (default
   *   [0, 1], required when Q is larger than 2×2: e.g. a record's two `normal_rows`) and the coefficients
   *   of every row (default 0: joints and tangential rows have none)
   * @returns {{resolution: number, rows: [number, number], values: Float64Array}} `values` is a copy
   */
  energyConsistencyMap(Q, resolution, { rows, restitution } = {}) {
    if (!Number.isInteger(resolution)) throw new Error('resolution: must be an integer in [2, 512]');
    const size = Array.isArray(Q) ? Q.length : 0;
    if (!rows && size > 2) throw new Error(`rows: give the two rows of Q to vary (Q has ${size})`);
    const [rowA, rowB] = rows ?? [0, 1];
    if (!Number.isInteger(rowA) || !Number.isInteger(rowB)) throw new Error('rows: must be two row indices');
    const e = restitution ?? new Array(size).fill(0);
    const qText = this.#argumentText(Q, 'Q');
    const eText = this.#argumentText(e, 'E');
    const values = callCore(this.#module,
      () => this.#module.energyConsistencyMap(qText, eText, rowA, rowB, resolution));
    return { resolution, rows: [rowA, rowB], values };
  }
}

/**
 * The core's contact buffer, as the binding describes it (contactPointLayout): `stride` doubles per point,
 * the index of each named field, and the names of the state values. Read once per module.
 * @param {any} module
 * @returns {{stride: number, at: Object<string, number>, states: string[]}}
 */
function contactLayout(module) {
  let layout = contactLayouts.get(module);
  if (!layout) {
    const { stride, fields, states } = JSON.parse(module.contactPointLayout());
    layout = { stride, at: Object.fromEntries(fields.map((name, i) => [name, i])), states };
    contactLayouts.set(module, layout);
  }
  return layout;
}
const contactLayouts = new WeakMap();

/**
 * @typedef {Object} SimulationState  What saveState returns and restoreState takes (simulation_state.hpp).
 * @property {number} time              committed time (s), on the step grid or at an event
 * @property {number} grid_index        k with k·step ≤ time < (k + 1)·step
 * @property {number[]} q               committed positions, x, y, θ per body
 * @property {number[]} qd              committed velocities
 * @property {number[]} active          per contact point, 1 in resting contact
 * @property {number[]} sliding         per contact point: 1 for an active `stick` point that slides or a frictional point slipping toward +t, 2 toward −t (docs/friction.md), else 0
 * @property {number[]} impacting       per contact point, 1 when part of the impact just resolved
 * @property {number} next_impulse      scheduled impulses already applied
 * @property {number} last_impact_time  the Zeno guard's time of the last impact ...
 * @property {number} impacts_at_instant  ... and impacts in a row at that instant
 * @property {number} shown_time        the time shown (the target of the last advance)
 * @property {number} impact_count      impacts logged up to the state
 * @property {{q?: number[], qd?: number[], multiplier: number[], friction: number[]}} [shown]  what the
 *   simulation showed: q and q̇ at shown_time when it lies inside a step, and each contact point's multiplier
 *   and friction; restored as they are (no solve), so drop it from a state changed by hand
 */

/**
 * @typedef {Object} CsvExportOptions  The options of `oblique simulate --format csv` that shape its CSV.
 * @property {number|null} [duration]  seconds to simulate, in [0, 3600] (default null: the scenario's `duration`)
 * @property {number} [sample]         seconds between samples (default 0.01): samples at 0, Δ, 2Δ, … and the duration
 * @property {boolean} [impactsOnly]   the impacts table alone (`--impacts-only`)
 */


/**
 * A running simulation of one scenario, created by {@link ObliqueEngine#createSimulation}. It owns a C++
 * simulator: call {@link Simulation#dispose} when done. Every object and array it returns is a fresh copy,
 * except `positions` and `velocities`, which are views into wasm memory (see there).
 */
export class Simulation {
  #module;
  #handle;
  #bodyCount;
  #positionsView = null;
  #velocitiesView = null;

  /** @param {any} module @param {any} handle the SimulationHandle made by the core */
  constructor(module, handle) {
    this.#module = module;
    this.#handle = handle;
    this.#bodyCount = handle.bodyCount();
    leakedHandles?.register(this, handle, this);
  }

  /** The handle, or an Error after dispose(). */
  #live() {
    if (!this.#handle) throw new Error('Simulation: disposed');
    return this.#handle;
  }

  /** Runs a call on the live handle and turns a failure into an Error. */
  #call(call) {
    const handle = this.#live();
    return callCore(this.#module, () => call(handle));
  }

  /** A Float64Array over `length` doubles at `address` in wasm memory, rebuilt only when stale. */
  #view(cached, address, length) {
    const heap = this.#module.HEAPF64;
    if (cached && cached.buffer === heap.buffer && cached.byteOffset === address && cached.length === length) {
      return cached;
    }
    return new Float64Array(heap.buffer, address, length);
  }

  /** Number of bodies (3 coordinates each: x, y, θ). */
  get bodyCount() { this.#live(); return this.#bodyCount; }
  /** Number of contacts declared by the scenario. */
  get contactCount() { return this.#live().contactCount(); }
  /** Number of contact points (a box on a plane has four). */
  get contactPointCount() { return this.#live().contactPointCount(); }
  /** Simulated time (s). */
  get time() { return this.#live().time(); }
  /**
   * True when the last advance stopped at its work budget before its target time (at a committed state:
   * call again with the rest of the time; the results are those of one longer call).
   */
  get workLimitHit() { return this.#live().workLimitHit(); }

  /**
   * Floating-point work one advance call may do, in estimated flops (default 8e6: about 3 ms of
   * WebAssembly; one evaluation is never split). A smaller budget makes calls return sooner, never changes
   * results.
   * @type {number}
   */
  get workBudget() { return this.#live().workBudget(); }
  set workBudget(flops) { this.#call((h) => h.setWorkBudget(flops)); }

  /** Estimated flops the last advance call did. @type {number} */
  get lastWork() { return this.#live().lastWork(); }

  /** The scenario being run, every default written and the live overrides (e, ν) applied (a copy). */
  get scenario() { return JSON.parse(this.#call((h) => h.scenarioJson())); }

  /**
   * Integrates `dt` seconds, resolving every event on the way.
   * @param {number} dt seconds, finite and ≥ 0
   * @returns {number} impacts logged during the call
   */
  advance(dt) { return this.#call((h) => h.advance(dt)); }

  /**
   * Integrates to the absolute time `t` (nothing when t ≤ time), handling every event on the way. Like
   * `advance`, it may stop early at its work budget (`workLimitHit`): calling `advanceTo(t)` again until
   * `time` reaches `t` lands exactly on `t`.
   * @param {number} t seconds, finite
   * @returns {number} impacts logged during the call
   */
  advanceTo(t) { return this.#call((h) => h.advanceTo(t)); }

  /**
   * Integrates until right after the next impact, or for `maxDt` seconds.
   * @param {number} [maxDt=10]
   * @returns {boolean} true when an impact happened (false also when the call stopped at its work budget:
   *   see `workLimitHit`)
   */
  advanceToNextImpact(maxDt = 10) { return this.#call((h) => h.advanceToNextImpact(maxDt)); }

  /**
   * Integrates until right after the next impact, or to the absolute time `t`: what `advanceTo` is to
   * `advance` (a caller that resumes after the work budget stopped a call lands exactly on `t`).
   * @param {number} t seconds, finite
   * @returns {boolean} true when an impact happened (false also when the work budget stopped the call)
   */
  advanceToNextImpactBefore(t) { return this.#call((h) => h.advanceToNextImpactBefore(t)); }

  /** @returns {{time: number, kinetic: number, potential: number, total: number, violation: number, drift: number}} */
  state() {
    const values = this.#view(null, this.#call((h) => h.stateAddress()), 6);
    return { time: values[0], kinetic: values[1], potential: values[2], total: values[3], violation: values[4],
      drift: values[5] };
  }

  /**
   * q: x, y, θ of each body, as a VIEW into wasm memory (no copy, no allocation when nothing changed). It is
   * valid until the next call into the engine: read the property again after each call, or copy it with
   * `readPositions`.
   * @type {Float64Array}
   */
  get positions() {
    this.#positionsView = this.#view(this.#positionsView, this.#call((h) => h.positionsAddress()),
      3 * this.#bodyCount);
    return this.#positionsView;
  }

  /** q̇, a VIEW like `positions`. @type {Float64Array} */
  get velocities() {
    this.#velocitiesView = this.#view(this.#velocitiesView, this.#call((h) => h.velocitiesAddress()),
      3 * this.#bodyCount);
    return this.#velocitiesView;
  }

  /**
   * Copies q into `out` (length 3·bodyCount), allocating nothing.
   * @param {Float64Array} out
   * @returns {Float64Array} out
   */
  readPositions(out) { out.set(this.positions); return out; }

  /** Copies q̇ into `out` (length 3·bodyCount). @param {Float64Array} out @returns {Float64Array} out */
  readVelocities(out) { out.set(this.velocities); return out; }

  /**
   * Every contact point now (new objects).
   * @returns {{contact: number, bodyA: number, bodyB: number, point: [number, number], normal: [number, number],
   *   gap: number, normalVelocity: number, multiplier: number, state: 'inactive'|'active'|'impacting',
   *   slip: number, friction: number, slipSpeed: number}[]}
   */
  contactPoints() {
    const count = this.contactPointCount;
    const { stride, at, states } = contactLayout(this.#module);
    const values = this.#view(null, this.#call((h) => h.contactPointsAddress()), count * stride);
    const points = [];
    for (let i = 0; i < count; i++) {
      const v = values.subarray(i * stride, (i + 1) * stride);
      points.push({
        contact: v[at.contact], bodyA: v[at.bodyA], bodyB: v[at.bodyB], point: [v[at.x], v[at.y]],
        normal: [v[at.normalX], v[at.normalY]], gap: v[at.gap], normalVelocity: v[at.normalVelocity],
        multiplier: v[at.multiplier], state: states[v[at.state]], slip: v[at.slip], friction: v[at.friction],
        slipSpeed: v[at.slipSpeed],
      });
    }
    return points;
  }

  /** Impacts so far, including those the bounded log has dropped from its front. */
  get impactCount() {
    const handle = this.#live();
    return handle.droppedImpacts() + handle.impactLogSize();
  }

  /** Impacts the bounded log has dropped from its front: `impact(i)` throws for i below this. */
  get droppedImpacts() { return this.#live().droppedImpacts(); }

  /**
   * Impact number `i` (0-based, in time order): every key of the `oblique impact` output plus `t`,
   * `points`, `contacts`, `normal_rows`, `positions`, `normals`, `rest_speeds` and `nearly_resting` (per
   * impact point the rest speed below which it took e = 0, and whether that was the bound of a contact
   * nearly resting in a stack), `iterations`, `scheduled`, `M`, `A`, `iu`
   * (when an impulse was applied) and `unilateral` — with `qd_minus` and `restitution` as `E`, the
   * analyzeImpact input of this impact — and `rows`, what each row of A measures: `{kind: 'joint', joint,
   * part}` (part 'x', 'y', 'θ', '⊥' or '' for a distance joint) or `{kind: 'normal'|'tangent', point,
   * contact, feature}` (a new object). The log keeps no matrix: P, Mc, S, R, Ẽ, Q and the identities are
   * those of (M, A) at the ν asked for, recomputed (O(n³)) and the same to the last bit each time; q̇⁺, the
   * impulses and the energies are those the run computed (in mass-scaled coordinates: docs/engine-api.md),
   * which agree with them to round-off.
   * @param {number} i
   * @returns {object}
   * @throws {Error} when `i` is out of range or was dropped from the log
   */
  impact(i) {
    const index = this.#logIndex(i);
    const record = JSON.parse(this.#call((h) => h.impactJson(index)));
    record.rows = JSON.parse(this.#call((h) => h.impactRowsJson(index)));
    return record;
  }

  /**
   * Impacts `from` … impactCount − 1 that are still in the log (new objects).
   * @param {number} [from=0]
   * @returns {object[]}
   */
  impactsSince(from = 0) {
    const first = Math.max(from, this.#live().droppedImpacts());
    const records = [];
    for (let i = first; i < this.impactCount; i++) records.push(this.impact(i));
    return records;
  }

  /**
   * The summary of impact `i`: every key of {@link Simulation#impact} but the matrices (P, Mc, S, R,
   * E_tilde, Q), M, A, iu, unilateral, velocity_plane, the identities and rows — the keys of an impact of
   * `oblique simulate`. Cheap: the log keeps it, while `impact(i)` recomputes the projections of the
   * impact (O(n³)). Its rank, ν, nu_range, nu_optimal and cond(Mc) come from the block of coordinates A
   * touches (computed once, when first asked for: O(t³) for t touched coordinates), and agree with those of
   * `impact(i)` to round-off; `{projectionScalars: false}` leaves those five keys out and costs nothing.
   * @param {number} i
   * @param {{projectionScalars?: boolean}} [options]
   * @returns {object}
   * @throws {Error} when `i` is out of range or was dropped from the log
   */
  impactSummary(i, { projectionScalars = true } = {}) {
    const index = this.#logIndex(i);
    return JSON.parse(this.#call((h) => h.impactSummaryJson(index, projectionScalars)));
  }

  /**
   * Summaries of impacts `from` … impactCount − 1 that are still in the log (new objects).
   * @param {number} [from=0]
   * @param {{projectionScalars?: boolean}} [options] as for {@link Simulation#impactSummary}
   * @returns {object[]}
   */
  impactSummariesSince(from = 0, options = {}) {
    const first = Math.max(from, this.#live().droppedImpacts());
    const summaries = [];
    for (let i = first; i < this.impactCount; i++) summaries.push(this.impactSummary(i, options));
    return summaries;
  }

  /** Bytes the impact log holds (at most 32 MiB: older records are dropped beyond). @type {number} */
  get impactLogBytes() { return this.#live().impactLogBytes(); }

  /** The log position of impact number `i`, or an Error saying why it has none. */
  #logIndex(i) {
    const handle = this.#live();
    const dropped = handle.droppedImpacts();
    if (!Number.isInteger(i) || i < 0 || i >= dropped + handle.impactLogSize()) {
      throw new Error(`impact: ${i} is not an impact index (0 … ${dropped + handle.impactLogSize() - 1})`);
    }
    if (i < dropped) throw new Error(`impact: ${i} was dropped from the bounded log (first kept: ${dropped})`);
    return i - dropped;
  }

  /** Sets e of every contact. @param {number} e in [0, 1] */
  setRestitution(e) { this.#call((h) => h.setRestitution(e)); }

  /** Sets e of contact `contact` (its index in the scenario). @param {number} contact @param {number} e */
  setContactRestitution(contact, e) { this.#call((h) => h.setContactRestitution(contact, e)); }

  /**
   * Sets Coulomb's μ of every contact (ropes excepted) and of every body's automatic contacts, from the
   * committed state on (docs/friction.md, "Changing μ during a run"). @param {number|'stick'} mu in
   * [0, 1000], or 'stick' (or Infinity): μ = +∞; null: back to the μ the scenario states
   */
  setFriction(mu) { this.#call((h) => h.setFriction(mu ?? null)); }

  /** Sets μ of contact `contact` (its index in the scenario), as setFriction. @param {number} contact
   * @param {number|'stick'} mu */
  setContactFriction(contact, mu) { this.#call((h) => h.setContactFriction(contact, mu)); }

  /** Sets the virtual mass ν > 0, or null for the condition-optimal default. @param {number|null} nu */
  setNu(nu) { this.#call((h) => h.setNu(nu ?? null)); }

  /** Back to the initial state; the log is cleared, the overrides of e and ν are kept. */
  reset() { this.#call((h) => h.reset()); }

  /**
   * A copy of the simulation's state: everything that, with the scenario and the current e and ν,
   * determines its future (a plain object that survives structured cloning and JSON).
   * @returns {SimulationState}
   */
  saveState() { return JSON.parse(this.#call((h) => h.saveStateJson())); }

  /**
   * Puts back a state from {@link Simulation#saveState} (of this simulation or of another one of the same
   * scenario): advancing from it gives bit-identical results to advancing the run it was saved from, with
   * the same e and ν. The impact log is cut back to the state (`impact_count`); a state later than the log's
   * end empties it, its earlier impacts counting as dropped.
   * @param {SimulationState} state
   * @throws {Error} "state.<field>: ..." when the state does not fit this scenario; nothing changes then
   */
  restoreState(state) {
    requireObject(state, 'state');
    this.#call((h) => h.restoreStateJson(toEngineJson(state)));
  }

  /** Frees the C++ simulator. Safe to call twice; any other call afterwards throws. */
  dispose() {
    if (!this.#handle) return;
    leakedHandles?.unregister(this);
    this.#handle.delete();
    this.#handle = null;
    this.#positionsView = null;
    this.#velocitiesView = null;
  }
}

