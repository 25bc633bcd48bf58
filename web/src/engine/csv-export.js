// The CSV of `oblique simulate --format csv`, written by the core a piece at a time: the object behind
// ObliqueEngine#createCsvExport (index.js).
import { callCore, leakedHandles } from './core-call.js';

/**
 * The CSV of `oblique simulate --format csv` for one scenario, written by the core as its sampled run goes,
 * created by {@link ObliqueEngine#createCsvExport}. It owns a C++ simulator: call {@link CsvExport#dispose}
 * when done.
 *
 *   const run = oblique.createCsvExport(scenario, { sample: 0.01 });
 *   const parts = [run.takeText()];                  // the header
 *   while (run.advance()) parts.push(run.takeText()); // yield to an event loop between calls if need be
 *   parts.push(run.takeText());
 *   run.dispose();
 */
export class CsvExport {
  #module;
  #handle;

  /** @param {any} module @param {any} handle the CsvExportHandle made by the core */
  constructor(module, handle) {
    this.#module = module;
    this.#handle = handle;
    leakedHandles?.register(this, handle, this);
  }

  /** Runs a call on the live handle and turns a failure into an Error. */
  #call(call) {
    if (!this.#handle) throw new Error('CsvExport: disposed');
    const handle = this.#handle;
    return callCore(this.#module, () => call(handle));
  }

  /**
   * The next piece of the run: the first call takes the initial state's sample, each later one advance call
   * of the simulator (within its work budget) and, when it reaches the next sample time, that sample; after
   * the last sample the impacts table is written. Nothing when done.
   * @returns {boolean} whether more remains
   * @throws {Error} when the run fails (the core's message: a diverging run, an impact log overflowing)
   */
  advance() {
    if (this.#call((h) => h.done())) return false;
    this.#call((h) => h.step());
    return !this.#call((h) => h.done());
  }

  /** Whether the whole document is written. @type {boolean} */
  get done() { return this.#call((h) => h.done()); }
  /** Seconds the run lasts (the option, or the scenario's `duration`). @type {number} */
  get duration() { return this.#call((h) => h.duration()); }
  /** Time of the last sample written (s). @type {number} */
  get sampleTime() { return this.#call((h) => h.sampleTime()); }
  /** Samples written so far. @type {number} */
  get samples() { return this.#call((h) => h.samples()); }
  /** Impact records logged so far (each one row of the impacts table). @type {number} */
  get impacts() { return this.#call((h) => h.impacts()); }

  /** The text written since the last call (the core keeps none of it afterwards). @returns {string} */
  takeText() { return this.#call((h) => h.takeText()); }

  /** Frees the C++ run. Safe to call twice; any other call afterwards throws. */
  dispose() {
    if (!this.#handle) return;
    leakedHandles?.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }
}
