// Holding the run still on an impact that shows what the tour explains, and letting it go on after: the tour
// talks about γ, S and R while the panels show a bounce that keeps some energy, not the last plastic impact
// of a ball that has come to rest (γ = 0).
import { GAMMA_ZERO } from '../widgets/format.js';
import { plasticPoints } from '../impact-panels/restitution-used.js';

/** Impacts "Next impact" looks for at most before the hold gives up (a run whose first ones are all plastic). */
const MAX_STEPS = 3;
/** How long the hold waits for the panels to show its impact (ms). */
const SHOWN_WAIT_MS = 8000;

export class RunHold {
  /** @param {import('./playground.js').Playground} playground */
  constructor(playground) {
    this.playground = playground;
    this.held = null;
  }

  /**
   * Pauses the run on its representative impact (representativeImpact), stepping to the next impact when it
   * has none yet; resolves once the panels show it. Remembers whether the run was playing.
   */
  async hold() {
    const p = this.playground;
    if (!p.scenario || p.impactless) return;
    this.held = { playing: p.playing };
    p.pause();
    const held = this.held;
    let index = this.#representative();
    for (let k = 0; index < 0 && k < MAX_STEPS; k++) {
      await p.step();
      // Released meanwhile (the tour closed at once): the run is the reader's again.
      if (this.held !== held || !p.frame?.found) return;
      index = this.#representative();
    }
    if (index < 0 || this.held !== held) return;
    const shown = this.#whenShown(index);
    await p.showImpact(index);
    await shown;
  }

  /** A run that was playing when held follows its latest impact and plays on. */
  async release() {
    const held = this.held;
    this.held = null;
    const p = this.playground;
    if (!held?.playing || p.playing) return;
    await p.followLatest();
    p.play();
  }

  /**
   * The first impact of the run that keeps some kinetic energy and used the e set for its contacts: the
   * first bounce, not the last plastic one. −1 when there is none yet.
   */
  #representative() {
    const { scenario, impacts } = this.playground;
    // The scenario's rest speed, for records without their points' own (plasticPoints).
    const restSpeed = scenario.integrator.rest_speed;
    return impacts.findIndex((impact) => impact.gamma >= GAMMA_ZERO && !impact.scheduled &&
      !plasticPoints(impact, restSpeed).slow.length);
  }

  /** Resolves once the panels show impact `index` (or after SHOWN_WAIT_MS, should they not). */
  #whenShown(index) {
    return new Promise((resolve) => {
      const off = this.playground.on('shown', (detail) => {
        if (detail.index !== index) return;
        off();
        clearTimeout(timer);
        resolve();
      });
      const timer = setTimeout(() => { off(); resolve(); }, SHOWN_WAIT_MS);
    });
  }
}
