// Which impact the panels show, and getting its full record to them: the one the reader chose, or the latest
// at the moment shown. While playing, the log and the plots mark the latest impact at once and its panels
// follow at most every PANEL_INTERVAL seconds, taking at most PANEL_SHARE of the time: an impact's record and
// its cond(Mc) curve cost the worker far more than a tick at many coordinates (about 200 ms at n = 90), and a
// busy run logs impacts at every tick. The panels catch up at once when the run stops. One record is asked
// for at a time; the newest wish wins.
import { impactContactNames, matrixLabels } from '../../scenario/names.js';
import { jacobianPointBodies } from '../../scenario/impact-pairs.js';

const PANEL_INTERVAL = 0.5;
const PANEL_SHARE = 0.25;

export class ImpactFeed {
  /**
   * @param {{client: {request: Function}, panels: object, heading: import('./impact-heading.js').ImpactHeading,
   *   run: () => {scenario: object, frame: object|null, impacts: object[], playing: boolean},
   *   mark: (index: number|null, following: boolean) => void, relabel: (summary: object) => void,
   *   shown: (detail: {record: object, index: number}) => void,
   *   unavailable: (detail: {error: Error, index: number, summary: object|undefined}) => void}} options
   *   `mark` puts the mark of the impact to show on the log and the plots; `relabel` names a log row again;
   *   `shown` is told when the panels show an impact; `unavailable` when its record cannot be had
   */
  constructor({ client, panels, heading, run, mark, relabel, shown, unavailable }) {
    Object.assign(this, { client, panels, heading, run, markers: mark, relabel, onShown: shown, onUnavailable: unavailable });
    this.selected = null;  // null: the latest impact at the moment shown
    this.shown = null;
    this.record = null;
    this.fetching = false;
    this.timer = null;     // a fetch of the latest impact waiting for its turn while playing
    this.nextAt = 0;       // performance.now() before which no such fetch starts
    this.generation = 0;   // records of an earlier run still on their way are dropped
  }

  /** A new run (a load, a reset): nothing shown, the latest followed. */
  clear() {
    this.generation += 1;
    this.selected = null;
    this.shown = null;
    this.record = null;
    this.panels.clear();
    this.heading.clear();
  }

  /** The run was cut before impact `count`: a choice of a later one goes back to following the latest. */
  keep(count) {
    if (this.selected !== null && this.selected >= count) this.selected = null;
  }

  /** Shows impact `index` in the panels (null: the latest at the moment shown). */
  select(index) {
    this.selected = index;
    this.fetch();
  }

  /** The impact the panels show: {index, record} (matrices included), or null. */
  current() {
    return this.record ? { index: this.shown, record: this.record } : null;
  }

  /** The impact the panels should show (−1: none). */
  get wanted() {
    const { frame, impacts } = this.run();
    return this.selected ?? (frame ? frame.impactCount - 1 : impacts.length - 1);
  }

  /** The log and the plots mark the impact the panels should show (before the panels have it). */
  mark() {
    const index = this.wanted;
    this.markers(index >= 0 ? index : null, this.selected === null && !this.run().frame?.replaying);
    return index;
  }

  /**
   * After a frame: the panels follow what it changed — new impacts, a jump, another impact count — unless
   * the frame is `passing` on the way to another, or the reader chose an impact.
   */
  follow(frame, { fresh, previous, passing }) {
    if (passing || this.selected !== null) return;
    if (!(fresh.length || frame.jumped || (previous && previous.impactCount !== frame.impactCount))) return;
    if (this.run().playing && !frame.jumped) this.soon();
    else this.fetch();
  }

  /** While playing: the latest impact's panels at their turn, never while a fetch is in flight (its end asks again). */
  soon() {
    this.mark();
    if (this.fetching || this.timer !== null) return;
    const wait = this.nextAt - performance.now();
    if (wait <= 0) {
      this.fetch();
      return;
    }
    const generation = this.generation;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (generation === this.generation && !this.fetching && this.wanted !== this.shown) this.fetch();
    }, wait);
  }

  /** Fetches the full record of the impact to show and shows it. */
  async fetch() {
    const index = this.mark();
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (index < 0) {
      if (this.shown !== null) {
        this.shown = null;
        this.record = null;
        this.panels.clear();
        this.heading.clear();
      }
      return;
    }
    if (this.fetching || index === this.shown) return;
    this.fetching = true;
    const generation = this.generation;
    const started = performance.now();
    const { scenario, impacts } = this.run();
    const summary = impacts[index];
    try {
      let record;
      try {
        record = await this.client.request('impact', { index });
      } catch (error) {
        if (generation !== this.generation) return;
        // Not asked for again: the panels say why it is missing, the head still names it.
        this.shown = index;
        this.record = null;
        if (summary) this.heading.show(summary, index, { names: impactContactNames(scenario, summary), following: this.#following() });
        this.onUnavailable({ error, index, summary });
        return;
      }
      if (generation !== this.generation) return;
      this.shown = index;
      this.record = record;
      // What was set for its contacts when it happened (the log's summary keeps it).
      record.contact_e = summary?.contact_e;
      // The bodies of its automatic contact points: exactly from its A, else as the worker found them; the
      // log's row learns them too.
      const exact = jacobianPointBodies(record);
      if (exact) {
        record.point_bodies = exact.map((pair, j) => pair ?? summary?.point_bodies?.[j] ?? null);
        if (summary && JSON.stringify(summary.point_bodies) !== JSON.stringify(record.point_bodies)) {
          summary.point_bodies = record.point_bodies;
          this.relabel(summary);
        }
      }
      await this.panels.show(record, { labels: matrixLabels(scenario, record),
        context: { restSpeed: scenario?.integrator?.rest_speed } });
      if (generation !== this.generation) return;
      // The head names the impact once its panels show it: at a ν of the reader's the panels wait for the
      // engine, and a head set before would name one impact above the γ of another.
      this.heading.show(record, index, { names: impactContactNames(scenario, record), following: this.#following() });
      this.onShown({ record, index });
    } finally {
      this.fetching = false;
      this.nextAt = started + Math.max(1000 * PANEL_INTERVAL, (performance.now() - started) / PANEL_SHARE);
      // Meanwhile a newer impact, another row or another run may have been asked for: while playing the
      // latest waits for its turn, anything else is fetched now.
      if (this.wanted !== this.shown) {
        if (this.run().playing && this.selected === null) this.soon();
        else this.fetch();
      }
    }
  }

  #following() {
    if (this.selected !== null) return '';
    return this.run().frame?.replaying ? ' · the latest at the time shown' : ' · following the latest';
  }
}
