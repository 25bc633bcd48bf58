// The worker's `load` request for a scenario document: what the playground sends for every load, and what
// the page sends ahead for its first scenario (client.preload) while the engine is still loading.
import { applyOverrides } from '../../scenario/overrides.js';

/**
 * The request for `doc` with overrides ({e, e_i, mu, mu_i, nu}), and the notices of overrides that did not
 * apply. e and eᵢ (and μ) are written into the document; ν is set on the run, as the ν panel sets it (the
 * two differ in round-off, and a link must replay the run it was made on bit for bit).
 * @param {object} doc
 * @param {import('../../scenario/overrides.js').Overrides} [overrides]
 * @returns {{request: {scenario: object, nu?: number}, notices: string[]}}
 */
export function loadRequest(doc, overrides = {}) {
  const { nu, ...written } = overrides;
  const { doc: running, notices } = applyOverrides(doc, written);
  return { request: { scenario: running, ...(nu !== undefined ? { nu } : {}) }, notices };
}
