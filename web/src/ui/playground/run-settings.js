// The settings of a run: those it was loaded (or reset) with — {e, e_i, mu, mu_i, nu} over the scenario
// document — and its changes since, each at its moment ({time, impactCount, change}, as the worker's timeline
// keeps them and a share link replays them).
import { withChange } from '../../scenario/overrides.js';

export class RunSettings {
  constructor() {
    this.base = { e_i: {} };
    this.edits = [];
  }

  /** A new run that starts with `base` and has no changes yet. */
  start(base = {}) {
    this.base = { e_i: {}, ...structuredClone(base) };
    this.edits = [];
  }

  /** The run's changes as the worker lists them after a `set`. */
  setEdits(edits = []) {
    this.edits = edits;
  }

  /** The settings in force at the live end of the run. */
  now() {
    return this.edits.reduce((o, edit) => withChange(o, edit.change), structuredClone(this.base));
  }

  /**
   * The settings the run started with and the changes made since: those made at its very start (t = 0, no
   * impact yet) are part of its start (a link writes them as its e, eᵢ, μ, ν).
   */
  split() {
    let start = structuredClone(this.base);
    let k = 0;
    for (; k < this.edits.length && this.edits[k].time === 0 && this.edits[k].impactCount === 0; k++) {
      start = withChange(start, this.edits[k].change);
    }
    return { start, changes: this.edits.slice(k) };
  }

  /** The ν the engine holds now (null: the optimal one): the last change of ν, else the run's own. */
  nu(scenario) {
    for (let k = this.edits.length - 1; k >= 0; k--) {
      const { nu } = this.edits[k].change;
      if (nu !== undefined) return nu;
    }
    return this.base.nu ?? scenario?.nu ?? null;
  }
}
