// The trajectory export: the CSV of `oblique simulate --format csv` for a scenario, written by the core
// (ObliqueEngine#createCsvExport: its sampled run and its CSV writer, the CLI's own) — the CLI's bytes for
// the same document, duration and sample. Taken a piece at a time, so that the worker that runs it keeps
// answering the page; the run is a fresh simulation of its own.

/** Milliseconds of work between two pauses that let the worker answer the page. */
const SLICE_MS = 30;

/**
 * @typedef {Object} TrajectoryExport
 * @property {string} csv        the document, as `oblique simulate --format csv` writes it
 * @property {number} samples    rows of the samples table (t = 0, Δ, 2Δ, … and the duration)
 * @property {number} impacts    rows of the impacts table
 * @property {number} duration   seconds run
 */

/**
 * Runs `scenario` afresh and writes its CSV.
 * @param {import('../engine/index.js').ObliqueEngine} engine
 * @param {object|string} scenario  the document, with the settings in force written into it
 * @param {{duration?: number|null, sample?: number, pause?: () => Promise<void>}} [options] `duration`
 *   defaults to the scenario's, `sample` to 0.01 s; `pause` is awaited every SLICE_MS of work (the worker
 *   yields there)
 * @returns {Promise<TrajectoryExport>}
 * @throws {Error} naming the scenario's field, "duration" or "sample" (the CLI's messages)
 */
export async function exportTrajectory(engine, scenario, { duration = null, sample = 0.01, pause = async () => {} } = {}) {
  const run = engine.createCsvExport(scenario, { duration: duration ?? null, sample });
  try {
    const parts = [run.takeText()];
    let sliceStart = performance.now();
    while (run.advance()) {
      const text = run.takeText();
      if (text) parts.push(text);
      if (performance.now() - sliceStart > SLICE_MS) {
        await pause();
        sliceStart = performance.now();
      }
    }
    parts.push(run.takeText());
    return { csv: parts.join(''), samples: run.samples, impacts: run.impacts, duration: run.duration };
  } finally {
    run.dispose();
  }
}
