// Presses of “Next impact” taken one after another: pressed again while a step is in flight (N pressed
// three times quickly), the next step waits for it, so each press finds one more impact. A step sent at
// once would supersede the one in flight in the worker and cut it short.

/** How many presses wait for the step in flight (a held key does not queue a minute of steps). */
export const MAX_WAITING_STEPS = 8;

export class StepQueue {
  #running = null;
  #waiting = 0;

  /**
   * @param {(isCurrent: () => boolean) => Promise<boolean>} stepOnce one step; resolves true when it found
   *   and showed an impact (the queue goes on only then)
   */
  constructor(stepOnce) {
    this.stepOnce = stepOnce;
  }

  /**
   * One more step: taken now, or after those in flight and waiting. Resolves once the last of them is shown.
   * `isCurrent` says whether the run they were asked for is still the one shown.
   */
  push(isCurrent) {
    if (this.#running) {
      this.#waiting = Math.min(this.#waiting + 1, MAX_WAITING_STEPS);
      return this.#running;
    }
    this.#running = (async () => {
      try {
        let found = await this.stepOnce();
        while (found && this.#waiting > 0 && isCurrent()) {
          this.#waiting -= 1;
          found = await this.stepOnce();
        }
      } finally {
        this.#running = null;
        this.#waiting = 0;
      }
    })();
    return this.#running;
  }

  /** The steps asked for and not yet begun are not taken (the reader moved elsewhere). */
  drop() {
    this.#waiting = 0;
  }
}
