// Playing a run: one tick of the worker per animation frame, each asking for the wall-clock time since the
// previous one (times the speed), and the speed achieved, which the timeline shows when it falls behind.

/** Longest wall-clock step one animation frame may ask for (a stalled tab does not jump ahead). */
const MAX_FRAME = 0.05;
/**
 * Longest time (ms) the page goes on applying ticks without drawing them: a bound, so that a worker that
 * answers faster than the page draws can never keep the page from drawing.
 */
const UNDRAWN_MS = 1000;
/** The achieved speed is measured over this much wall-clock time (s). */
const SPEED_WINDOW = 1;

export class PlaybackLoop {
  /**
   * @param {{client: {request: Function}, isRun: (generation: number) => boolean, isPlaying: () => boolean,
   *   speed: () => number, until: () => number, apply: (frame: object, elapsed: number) => void,
   *   ended: () => void, failed: (error: Error) => void, showSpeed: (real: number|null, asked: number) => void}} options
   *   `isRun(generation)`: whether the run of that load is still the one shown
   */
  constructor({ client, isRun, isPlaying, speed, until, apply, ended, failed, showSpeed }) {
    Object.assign(this, { client, isRun, isPlaying, speed, until, apply, ended, failed, showSpeed });
    this.token = 0;
  }

  /**
   * Starts a loop for the run of load `generation` from simulated time `time`; a loop started before is
   * dropped. A tick the worker could not finish in its share of real time (frame.limited: the run is slower
   * than asked) is followed at once by the next, sent before its frame is applied and drawn, so that the
   * worker computes while the page draws; but not once the page has gone UNDRAWN_MS without drawing the
   * frames applied. The ticks stay one at a time and in order: the run is the same whatever their size.
   */
  start(generation, time) {
    let measured = { wall: 0, simulated: 0 };
    const token = ++this.token;
    const current = () => this.isPlaying() && this.isRun(generation) && token === this.token;
    let lastSent = null;
    let lastTime = time;
    let inFlight = false;
    let applied = 0;  // frames applied by this loop
    let drawn = 0;    // of those, the ones an animation frame has passed since (drawn)
    let drawnAt = performance.now();
    const measure = (elapsed, simulated, frame) => {
      if (frame.ended || frame.replaying) return;
      measured.wall += elapsed;
      measured.simulated += Math.max(0, simulated);
      if (measured.wall < SPEED_WINDOW) return;
      const real = measured.simulated / measured.wall;
      const asked = this.speed();
      this.showSpeed(real < 0.85 * asked ? real : null, asked);
      measured = { wall: 0, simulated: 0 };
    };
    const send = () => {
      if (!current() || inFlight) return;
      if (drawn < applied && performance.now() - drawnAt > UNDRAWN_MS) return;
      inFlight = true;
      const sent = performance.now();
      const elapsed = lastSent === null ? 1 / 60 : (sent - lastSent) / 1000;
      lastSent = sent;
      const asked = Math.min(MAX_FRAME, elapsed) * this.speed();
      this.client.request('tick', { dt: asked, until: this.until() }).then((frame) => {
        inFlight = false;
        // A tick in flight when play was paused is still applied (the worker ran it); one of an older load is not.
        if (token !== this.token || !this.isRun(generation)) return;
        const simulated = frame.time - lastTime;
        lastTime = frame.time;
        if (frame.limited && !frame.ended) send();
        this.apply(frame, elapsed);
        const count = ++applied;
        // The speed of a paused run is not measured: it would show the behind-notice that the pause took down.
        if (current()) measure(elapsed, simulated, frame);
        if (frame.ended) this.ended();
        else {
          requestAnimationFrame(() => {
            if (count > drawn) {
              drawn = count;
              drawnAt = performance.now();
            }
            send();
          });
        }
      }, (error) => this.failed(error));
    };
    requestAnimationFrame(send);
  }
}
