// What the scene draws at the contacts: a marker per contact point (grey while apart and near, green while
// touching, amber while sliding faster than the run's slip tolerance, orange at an impact) with the friction
// force along the tangent, and the impulse arrows of the impacts just passed, which fade.
import { CONTACT_COLORS } from '../widgets/colors.js';
import { bodyIndex } from '../../scenario/names.js';
import {
  arrowObject, contactMarker, disposeObject, setArrowFade, setContactState, setVectorArrow, vectorArrow,
} from './scene-objects.js';
import { isSliding, slipTolerance } from './sliding.js';

/**
 * How long an impulse arrow takes to fade: 0.9 s of play, or 0.5 s of simulated time if that is sooner (at
 * 16× the arrows of many impacts would otherwise pile up). It stays while paused.
 */
const ARROW_FADE = 0.9;
const ARROW_FADE_SIMULATED = 0.5;

/** Contact markers and friction arrows, one of each per contact point, made as the points appear. */
export class ContactMarks {
  /**
   * @param {THREE.Group} root where they are drawn
   * @param {{scenario: object, unit: number, markerSize: number, vectorWidth: number}} sizes  `unit` the
   *   view's width (m)
   */
  constructor(root, { scenario, unit, markerSize, vectorWidth }) {
    Object.assign(this, { root, unit, markerSize, vectorWidth });
    this.tolerance = slipTolerance(scenario);
    this.markers = [];
    this.arrows = [];
    // The largest contact force seen: the friction arrows' scale.
    this.largestForce = 0;
    // A separated contact point is shown only while it is near (a gap under 5% of the view): the points of
    // distant pairs (two billiard balls across the table) would otherwise float in empty space.
    this.nearGap = unit * 0.05;
  }

  /** Draws the frame's contact points (sim.contactPoints()). */
  update(points) {
    while (this.markers.length < points.length) {
      const marker = contactMarker(this.markerSize);
      this.root.add(marker);
      this.markers.push(marker);
    }
    while (this.arrows.length < points.length) {
      const arrow = vectorArrow(CONTACT_COLORS.sliding, 0.42);
      arrow.visible = false;
      this.root.add(arrow);
      this.arrows.push(arrow);
    }
    for (const p of points) this.largestForce = Math.max(this.largestForce, Math.abs(p.multiplier), Math.abs(p.friction));
    this.markers.forEach((marker, k) => {
      const p = points[k];
      const arrow = this.arrows[k];
      marker.visible = Boolean(p) && (p.state !== 'inactive' || p.gap < this.nearGap);
      arrow.visible = false;
      if (!marker.visible) return;
      marker.position.set(p.point[0], p.point[1], 0.3);
      setContactState(marker, p.state, isSliding(p, this.tolerance));
      // The friction force on the body (body b of a pair), along the tangent t = perp(n), as long as its
      // share of the largest contact force so far (up to 12% of the view).
      if (p.state === 'active' && p.friction && this.largestForce > 0) {
        const length = (0.12 * this.unit * p.friction) / this.largestForce;
        setVectorArrow(arrow, p.point, [-p.normal[1] * length, p.normal[0] * length], this.vectorWidth);
        arrow.userData.friction = p.friction;
      }
    });
  }

  /** Points drawn sliding now (a test hook). */
  get sliding() {
    return this.markers.filter((m) => m.visible && m.userData.sliding).length;
  }
}

/**
 * The impulse arrows: one per impact point, along its normal, as long as its share of the largest impulse
 * so far, but never longer than the body it pushes (nor wider than a fraction of it), translucent with an
 * outline: the bodies stay visible under the arrows (a billiard rack is not covered by them).
 */
export class ImpulseArrows {
  /** @param {THREE.Group} root  @param {{scenario: object, unit: number, radii: number[]}} scene */
  constructor(root, { scenario, unit, radii }) {
    Object.assign(this, { root, scenario, unit, radii });
    this.arrows = [];
    this.scale = 0;
  }

  add(impact) {
    const at = impact.positions;
    const { normals } = impact;
    const rows = impact.normal_rows;
    const impulses = impact.i_lambda;
    const magnitude = (k) => Math.abs(impulses[rows[k]] ?? 0);
    for (let k = 0; k < at.length; k++) this.scale = Math.max(this.scale, magnitude(k));
    if (!(this.scale > 0)) return;
    for (let k = 0; k < at.length; k++) {
      const size = magnitude(k) / this.scale;
      if (!(size > 0.02) || !normals[k]) continue;
      // The impulse on body b of the contact pushes along the normal (a tensile one would point back); for a
      // body on a plane that is the body itself.
      const sign = Math.sign(impulses[rows[k]]) || 1;
      const pushed = this.#pushedRadius(impact, k);
      const length = Math.min(this.unit * 0.14, pushed * 1.1) * size;
      const width = Math.min(this.unit * 0.005, pushed * 0.2);
      const arrow = arrowObject(at[k], [sign * normals[k][0], sign * normals[k][1]], length, width);
      arrow.userData.age = 0;
      arrow.userData.reach = length / pushed;
      this.root.add(arrow);
      this.arrows.push(arrow);
    }
  }

  /**
   * Radius of the body that impact point `k` pushes (body b of a pair, the body of a body–plane contact; of
   * an automatic point, its body b or its one body, as the worker found them).
   */
  #pushedRadius(impact, k) {
    const contact = this.scenario.contacts[impact.contacts[k]];
    let index = -1;
    if (contact) index = bodyIndex(this.scenario, contact.type === 'body_plane' ? contact.body : contact.body_b);
    else if (impact.point_bodies?.[k]) {
      const [a, b] = impact.point_bodies[k];
      index = b >= 0 ? b : a;
    }
    return index >= 0 ? this.radii[index] : this.unit;
  }

  /** Ages the arrows by `elapsed` seconds of play or `simulated` seconds of the run, whichever fades more. */
  fade(elapsed, simulated) {
    for (const arrow of this.arrows) {
      arrow.userData.age += Math.max(elapsed, (simulated * ARROW_FADE) / ARROW_FADE_SIMULATED);
      setArrowFade(arrow, 1 - arrow.userData.age / ARROW_FADE);
    }
    const gone = this.arrows.filter((a) => a.userData.age >= ARROW_FADE);
    for (const arrow of gone) {
      this.root.remove(arrow);
      disposeObject(arrow);
    }
    if (gone.length) this.arrows = this.arrows.filter((a) => a.userData.age < ARROW_FADE);
  }

  clear() {
    for (const arrow of this.arrows) {
      this.root.remove(arrow);
      disposeObject(arrow);
    }
    this.arrows = [];
  }

  /** Forgets the largest impulse too (reset, new scenario). */
  reset() {
    this.clear();
    this.scale = 0;
  }

  get count() {
    return this.arrows.length;
  }

  /** The longest arrow's length over the radius of the body it pushes. */
  get reach() {
    return Math.max(0, ...this.arrows.map((a) => a.userData.reach));
  }
}
