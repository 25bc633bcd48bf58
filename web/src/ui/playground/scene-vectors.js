// The vectors a lecture needs, drawn over the bodies: each body's velocity and momentum, the centre of mass
// and the total momentum. Scales are fixed per scenario (so that lengths compare over the run): a speed of
// the order of the fastest initial one or of a fall across the view, √(g·width), is drawn a tenth of the
// view long. Off by default: their objects are made when first shown.
import { centreOfMassMaterials, centreOfMassObject, setVectorArrow, vectorArrow, vectorMaterial } from './scene-objects.js';

/** Vector colours (Okabe–Ito blue-green and purple; the centre of mass in ink). */
export const VECTOR_COLORS = { velocity: '#007a5e', momentum: '#7a3e9d' };

export class BodyVectors {
  /**
   * @param {THREE.Group} root
   * @param {{scenario: object, unit: number, smallest: number}} scene  `unit` the view's width, `smallest` the
   *   smallest body's radius (m)
   */
  constructor(root, { scenario, unit, smallest }) {
    this.root = root;
    this.count = scenario.bodies.length;
    this.masses = scenario.bodies.map((body) => body.mass);
    const g = Math.hypot(...scenario.gravity);
    const speeds = scenario.bodies.map((b) => Math.hypot(...b.velocity));
    const speed = Math.max(1e-9, Math.sqrt(g * unit), ...speeds);
    const mass = Math.max(...this.masses, 1e-12);
    this.scale = { velocity: (0.1 * unit) / speed, momentum: (0.1 * unit) / (speed * mass) };
    this.width = Math.min(unit * 0.006, smallest * 0.3);
    this.centreSize = Math.min(unit * 0.014, Math.max(smallest * 0.5, unit * 0.006));
    this.show = { velocity: false, momentum: false, centre: false };
    // Their materials are made now, in the order they always were made: Three.js draws opaque objects in the
    // order of their materials' ids, and the arrows write no depth, so that order decides which of two
    // overlapping arrows (or a friction arrow) shows on top.
    this.materials = {
      velocity: this.masses.map(() => vectorMaterial(VECTOR_COLORS.velocity)),
      momentum: this.masses.map(() => vectorMaterial(VECTOR_COLORS.momentum)),
      total: vectorMaterial(VECTOR_COLORS.momentum),
      centre: centreOfMassMaterials(),
    };
    this.objects = null;
  }

  /** Shows or hides a kind: 'velocity', 'momentum' or 'centre' (the centre of mass). */
  set(kind, on) {
    this.show[kind] = on;
  }

  /** The objects, built (hidden) at the first call. */
  #build() {
    if (this.objects) return this.objects;
    const m = this.materials;
    // Velocity thinner and above momentum: for a body of unit mass the two arrows coincide.
    this.objects = {
      velocity: m.velocity.map((material) => vectorArrow(VECTOR_COLORS.velocity, 0.36, material)),
      momentum: m.momentum.map((material) => vectorArrow(VECTOR_COLORS.momentum, 0.35, material)),
      total: vectorArrow(VECTOR_COLORS.momentum, 0.47, m.total),
      centre: centreOfMassObject(this.centreSize, m.centre),
    };
    const { velocity, momentum, total, centre } = this.objects;
    for (const object of [...velocity, ...momentum, total, centre]) {
      object.visible = false;
      this.root.add(object);
    }
    return this.objects;
  }

  /** Moves the vectors to positions `q` and velocities `v` (null: not known yet). */
  update(q, v) {
    // Nothing to hide while none has been shown.
    if (!this.objects && !this.show.velocity && !this.show.momentum && !this.show.centre) return;
    const objects = this.#build();
    const ready = Boolean(q && v);
    const width = this.width;
    let mass = 0;
    const centre = [0, 0];
    const momentum = [0, 0];
    for (let i = 0; i < this.count; i++) {
      const at = ready ? [q[3 * i], q[3 * i + 1]] : [0, 0];
      const vel = ready ? [v[3 * i], v[3 * i + 1]] : [0, 0];
      const m = this.masses[i];
      mass += m;
      centre[0] += m * at[0];
      centre[1] += m * at[1];
      momentum[0] += m * vel[0];
      momentum[1] += m * vel[1];
      const velocity = objects.velocity[i];
      if (ready && this.show.velocity) setVectorArrow(velocity, at, [vel[0] * this.scale.velocity, vel[1] * this.scale.velocity], width * 0.55);
      else velocity.visible = false;
      const arrow = objects.momentum[i];
      const s = this.scale.momentum;
      if (ready && this.show.momentum) setVectorArrow(arrow, at, [m * vel[0] * s, m * vel[1] * s], width);
      else arrow.visible = false;
    }
    const showCentre = ready && this.show.centre && this.count > 0;
    objects.centre.visible = showCentre;
    if (showCentre) objects.centre.position.set(centre[0] / mass, centre[1] / mass, objects.centre.position.z);
    if (showCentre && this.show.momentum) {
      const s = this.scale.momentum;
      setVectorArrow(objects.total, [centre[0] / mass, centre[1] / mass], [momentum[0] * s, momentum[1] * s], width * 1.6);
    } else objects.total.visible = false;
  }
}
