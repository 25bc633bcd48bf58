// The run's samples for the plots: at each frame (and on the way to each impact) the time, the energies,
// q, q̇ and, per contact point, its gap φ, normal velocity φ̇, normal force λₙ, friction force λₜ and slip
// speed v_t (the core's contact points). Bounded: beyond MAX_SAMPLES every other sample is dropped. Only new
// times are kept, so replaying the past adds nothing.

const MAX_SAMPLES = 6000;
/** The quantities kept per contact point, in the order they are stored. */
const POINT_FIELDS = ['gap', 'normalVelocity', 'multiplier', 'friction', 'slipSpeed'];

export class RunHistory {
  constructor() {
    this.clear();
  }

  clear() {
    this.t = [];
    this.kinetic = [];
    this.potential = [];
    this.q = [];
    this.qd = [];
    this.contacts = [];
    this.version = (this.version ?? 0) + 1;
  }

  get length() {
    return this.t.length;
  }

  /**
   * Adds a sample at `state.time` (ignored unless later than the last, or at the same time with another
   * kinetic energy: the two sides of an impact). `contacts` are the frame's contact points (optional).
   */
  add(state, q, qd, contacts) {
    const n = this.t.length;
    const last = n ? this.t[n - 1] : -Infinity;
    if (state.time < last || (state.time === last && state.kinetic === this.kinetic[n - 1])) return;
    this.t.push(state.time);
    this.kinetic.push(state.kinetic);
    this.potential.push(state.potential);
    this.q.push(q ? Float64Array.from(q) : null);
    this.qd.push(qd ? Float64Array.from(qd) : null);
    this.contacts.push(contacts ? Float64Array.from(contacts.flatMap((p) => POINT_FIELDS.map((field) => p[field]))) : null);
    if (this.t.length > MAX_SAMPLES) this.#thin();
    this.version += 1;
  }

  /** Drops the samples after time `t` (the run was cut there). */
  truncate(t) {
    let keep = this.t.length;
    while (keep > 0 && this.t[keep - 1] > t) keep -= 1;
    for (const series of [this.t, this.kinetic, this.potential, this.q, this.qd, this.contacts]) series.length = keep;
    this.version += 1;
  }

  /**
   * One quantity over time: [t, values] with null where a sample lacks it. `quantity` is {kind: 'q'|'qd',
   * index} (a coordinate of q or q̇), {kind: 'gap'|'normalVelocity'|'multiplier'|'friction'|'slipSpeed',
   * point}, or {kind: 'frictionRatio', point}: λₜ/λₙ, which Coulomb's law keeps within ±μ (null while the
   * point carries no normal force).
   */
  series({ kind, index, point }) {
    const width = POINT_FIELDS.length;
    const at = (k, field) => this.contacts[k]?.[width * point + POINT_FIELDS.indexOf(field)] ?? null;
    const values = this.t.map((_, k) => {
      if (kind === 'q' || kind === 'qd') return this[kind][k]?.[index] ?? null;
      if (kind === 'frictionRatio') {
        const normal = at(k, 'multiplier');
        return normal ? at(k, 'friction') / normal : null;
      }
      return at(k, kind);
    });
    return [this.t, values];
  }

  #thin() {
    const keep = (_, i, all) => i % 2 === 0 || i === all.length - 1;
    for (const name of ['t', 'kinetic', 'potential', 'q', 'qd', 'contacts']) this[name] = this[name].filter(keep);
  }
}
