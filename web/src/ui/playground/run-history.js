// The run's samples for the plots: at each frame (and on the way to each impact) the time, the energies,
// q, q̇ and, per contact point, its gap φ, normal velocity φ̇ and multiplier λ. Bounded: beyond MAX_SAMPLES
// every other sample is dropped. Only new times are kept, so replaying the past adds nothing.

const MAX_SAMPLES = 6000;

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
    this.contacts.push(contacts ? Float64Array.from(contacts.flatMap((p) => [p.gap, p.normalVelocity, p.multiplier])) : null);
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
   * index} (a coordinate of q or q̇) or {kind: 'gap'|'normalVelocity'|'multiplier', point}.
   */
  series({ kind, index, point }) {
    const offset = { gap: 0, normalVelocity: 1, multiplier: 2 }[kind];
    const values = this.t.map((_, k) => {
      if (kind === 'q' || kind === 'qd') return this[kind][k]?.[index] ?? null;
      return this.contacts[k]?.[3 * point + offset] ?? null;
    });
    return [this.t, values];
  }

  #thin() {
    const keep = (_, i, all) => i % 2 === 0 || i === all.length - 1;
    for (const name of ['t', 'kinetic', 'potential', 'q', 'qd', 'contacts']) this[name] = this[name].filter(keep);
  }
}
