// The scene: Three.js with an orthographic camera looking at the plane of motion, framed by the scenario's
// `view`. The camera follows the bodies (when `follow` is on it pans, and zooms out only when it must, so
// that every body stays inside the view); dragging pans and the wheel, a pinch or the +/− buttons zoom (and
// turn following off); ⤢ frames the bodies where they are now. Optional vectors: each body's velocity and
// momentum, the centre of mass with the total momentum. Follows its container's size (ResizeObserver) and
// the device pixel ratio; draws only when something changed.
//
// Test hooks on the scene element, refreshed at each draw: data-view = "left bottom right top" of the camera,
// data-frames = draws with bodies, data-outside = draws in which some body was not wholly inside the view,
// data-positions = q drawn (JSON), data-time = the time of the frame drawn (so a test reads positions of the
// moment it waits for, not of the draw before), data-arrows = impulse arrows shown and data-arrow-reach = the longest
// one's length over the radius of the body it pushes, data-programs = the WebGL programs compiled so far
// (constant while a scenario plays: no material compiles a program of its own).
import * as THREE from 'three';
import { CONTACT_COLORS } from '../widgets/colors.js';
import { el } from '../widgets/dom.js';
import { bodyIndex } from './names.js';
import {
  arrowObject, bodyColor, bodyObject, boundingRadius, centreOfMassMaterials, centreOfMassObject, clearTrail,
  contactMarker, disposeObject, haloObject, linkObject, pinObject, planeObject, programSamples, pushTrail,
  setArrowFade, setContactState, setLink, setVectorArrow, trailObject, vectorArrow, vectorMaterial,
} from './scene-objects.js';

/**
 * How long an impulse arrow takes to fade: 0.9 s of play, or 0.5 s of simulated time if that is sooner (at
 * 16× the arrows of many impacts would otherwise pile up). It stays while paused.
 */
const ARROW_FADE = 0.9;
const ARROW_FADE_SIMULATED = 0.5;
/** Bodies smaller than this on screen (px, radius) get a ring of HALO_PX around them. */
const HALO_BELOW = 4;
const HALO_PX = 7;
/** Following re-centres the bodies once they reach the margin, easing this share of the way per frame. */
const RECENTRE_RATE = 0.12;
const TRAIL_LENGTH = 400;
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 40;
/** Following: a body closer than this share of the view to its edge moves the camera. */
const FOLLOW_MARGIN = 0.07;
/** Vector colours (Okabe–Ito blue-green and purple; the centre of mass in ink). */
export const VECTOR_COLORS = { velocity: '#007a5e', momentum: '#7a3e9d' };

/** The performance mark set at the first draw of bodies (bench/page-load.js measures the page by it). */
export const FIRST_FRAME_MARK = 'oblique:first-frame';
let firstFrameMarked = false;

export class Scene {
  /** @param {{onFollowChange?: (on: boolean) => void}} [options] told when a manual pan or zoom stops following */
  constructor({ onFollowChange = () => {} } = {}) {
    this.onFollowChange = onFollowChange;
    this.canvas = el('canvas', { class: 'scene-canvas', 'data-testid': 'scene', role: 'img', 'aria-label': 'Simulation view' });
    this.fallback = el('p', { class: 'scene-fallback', hidden: true });
    this.zoomIn = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom in', title: 'Zoom in', text: '+' });
    this.zoomOut = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom out', title: 'Zoom out', text: '−' });
    this.fit = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Frame the bodies',
      title: 'Frame the bodies where they are now', text: '⤢' });
    this.element = el('div', { class: 'scene' }, this.canvas, this.fallback,
      el('div', { class: 'scene-tools', role: 'group', 'aria-label': 'View' }, this.zoomIn, this.zoomOut, this.fit));
    this.camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -10, 10);
    this.camera.position.z = 5;
    this.world = new THREE.Scene();
    this.world.background = new THREE.Color('#fbfaf7');
    this.root = new THREE.Group();
    this.world.add(this.root);
    this.view = { center: [0, 0.5], width: 4 };
    this.region = { center: [0, 0.5], width: 4, height: 2 };
    this.size = [1, 1];
    this.arrows = [];
    this.impulseScale = 0;
    this.scheduled = false;
    this.wheelPolicy = () => true;  // see setWheelPolicy
    this.pointerHandler = null;     // see setPointerHandler
    this.follow = true;
    this.show = { velocity: false, momentum: false, centre: false };
    this.framesDrawn = 0;
    this.framesOutside = 0;
    this.programsCompiled = 0;
    this.measured = false;  // whether #resize has read the element's size yet
    try {
      this.renderer = new THREE.WebGLRenderer({ canvas: this.canvas, antialias: true });
      this.renderer.setPixelRatio(window.devicePixelRatio || 1);
      // The shaders are Three.js's own, made from the scene's few kinds of material, never from a reader's
      // input: their compile and link logs are read in development only. Each read waits for the GPU
      // process, four per program, and the first draw made them all.
      this.renderer.debug.checkShaderErrors = Boolean(import.meta.env?.DEV);
    } catch (error) {
      this.renderer = null;
      this.fallback.hidden = false;
      this.fallback.textContent = 'This browser cannot draw the scene (WebGL is not available). The panels still work.';
    }
    this.#compileAhead();
    this.canvas.addEventListener('webglcontextlost', (event) => event.preventDefault());
    this.canvas.addEventListener('webglcontextrestored', () => this.requestRender());
    this.#interaction();
    this.#watchPixelRatio();
    new ResizeObserver(() => this.#resize()).observe(this.element);
  }

  /**
   * Compiles the scene's WebGL programs now, before there is anything to draw: the GPU process compiles
   * them while this thread lays the page out and applies the first scenario, and the first draw does not
   * wait for them (with software WebGL that wait was about 100 ms). The samples' materials are kept (never
   * disposed), so their programs stay in the renderer's cache for the scenarios' objects.
   */
  #compileAhead() {
    if (!this.renderer) return;
    this.programSamples = programSamples();
    this.renderer.compile(this.programSamples, this.camera, this.world);
    // The compile commands go to the GPU process now, not at the first draw.
    this.renderer.getContext().flush();
  }

  /** Builds the objects of a (normalized) scenario and frames its view. */
  setScenario(scenario) {
    disposeObject(this.root);
    this.root.clear();
    this.arrows = [];
    this.impulseScale = 0;
    this.scenario = scenario;
    this.positions = null;
    const view = scenario.view ?? {};
    this.view = { center: view.center ?? [0, 0.5], width: view.width ?? 4 };
    const unit = this.view.width;
    const bodies = scenario.bodies ?? [];
    this.radii = bodies.map((body) => boundingRadius(body));
    this.masses = bodies.map((body) => body.mass ?? 1);
    const smallest = Math.min(unit, ...this.radii.filter((r) => r > 0));
    this.bodies = bodies.map((body, i) => {
      const object = bodyObject(body, i);
      this.root.add(object);
      return object;
    });
    this.halos = bodies.map((body, i) => {
      const halo = haloObject(body, i);
      this.root.add(halo);
      return halo;
    });
    this.recentring = false;
    for (const plane of scenario.planes ?? []) this.root.add(planeObject(plane, scenario.planes));
    const ends = (item) => ({ a: bodyIndex(scenario, item.body_a), b: bodyIndex(scenario, item.body_b),
      anchorA: item.anchor_a ?? [0, 0], anchorB: item.anchor_b ?? [0, 0] });
    // Pins (and welds) as rings at their anchor, distance joints as lines, sliders as a guide line along
    // their axis (drawn through the anchor on body a) with a ring where the slider is.
    this.joints = (scenario.joints ?? []).map((joint) => {
      const type = joint.type ?? 'pin';
      const item = { type, ...ends(joint), axis: joint.axis ?? [1, 0], parts: [] };
      if (type === 'distance' || type === 'slider') item.parts.push(linkObject(type === 'slider' ? '#8a8f98' : '#222831', type === 'slider'));
      if (type !== 'distance') item.parts.push(pinObject(Math.min(unit * 0.011, smallest * 0.4)));
      for (const part of item.parts) this.root.add(part);
      return item;
    });
    this.ropes = (scenario.contacts ?? []).filter((c) => c.type === 'rope').map((contact) => {
      const object = linkObject('#6b4f2a', true);
      this.root.add(object);
      return { ...ends(contact), object };
    });
    // Points of the world the links hang from: they stay in view with the bodies.
    this.anchors = [...this.joints, ...this.ropes].flatMap((link) =>
      [[link.a, link.anchorA], [link.b, link.anchorB]].filter(([index]) => index < 0).map(([, anchor]) => anchor));
    this.markers = [];
    // Friction arrows (one per contact point, shown while a frictional point is active) and the largest
    // contact force seen, their scale.
    this.frictionArrows = [];
    this.largestForce = 0;
    // Markers and arrows in proportion to the bodies as well as to the view, so that a rack of small balls
    // is not covered by them.
    this.markerSize = Math.min(unit * 0.007, smallest * 0.28);
    this.smallest = smallest;
    // A separated contact point is shown only while it is near (a gap under 5% of the view): the points of
    // distant pairs (two billiard balls across the table) would otherwise float in empty space.
    this.nearGap = unit * 0.05;
    // Trails are always recorded and shown when the scenario's view asks for them (setTrails toggles).
    this.trails = this.bodies.map((_, i) => {
      const trail = trailObject(bodyColor(bodies[i].color, i), TRAIL_LENGTH);
      trail.visible = Boolean(view.trails);
      this.root.add(trail);
      return trail;
    });
    this.#buildVectors(scenario);
    this.framesDrawn = 0;
    this.framesOutside = 0;
    this.region = { center: [...this.view.center], width: this.view.width, height: this.view.width / 2 };
    this.#frame();
    this.requestRender();
  }

  /**
   * The vectors: one velocity and one momentum arrow per body, the centre of mass and the total momentum.
   * Scales are fixed per scenario (so that lengths compare over the run): a speed of the order of the
   * fastest initial one or of a fall across the view, √(g·width), is drawn a tenth of the view long.
   */
  #buildVectors(scenario) {
    const unit = this.view.width;
    const g = Math.hypot(...(scenario.gravity ?? [0, -9.81]));
    const speeds = (scenario.bodies ?? []).map((b) => Math.hypot(...(b.velocity ?? [0, 0])));
    const speed = Math.max(1e-9, Math.sqrt(g * unit), ...speeds);
    const mass = Math.max(...this.masses, 1e-12);
    this.vectorScale = { velocity: (0.1 * unit) / speed, momentum: (0.1 * unit) / (speed * mass) };
    this.vectorWidth = Math.min(unit * 0.006, this.smallest * 0.3);
    this.centreSize = Math.min(unit * 0.014, Math.max(this.smallest * 0.5, unit * 0.006));
    // The arrows and the centre of mass are off by default: they are built when first shown (#vectorObjects),
    // not on the way to the first frame. Their materials are made now, in the order they always were made:
    // Three.js draws opaque objects in the order of their materials' ids, and the arrows write no depth, so
    // that order decides which of two overlapping arrows (or a friction arrow) shows on top.
    this.vectorMaterials = {
      velocity: this.bodies.map(() => vectorMaterial(VECTOR_COLORS.velocity)),
      momentum: this.bodies.map(() => vectorMaterial(VECTOR_COLORS.momentum)),
      total: vectorMaterial(VECTOR_COLORS.momentum),
      centre: centreOfMassMaterials(),
    };
    this.vectors = null;
  }

  /** The vectors' objects, built (hidden) at the first call for this scenario. */
  #vectorObjects() {
    if (this.vectors) return this.vectors;
    const materials = this.vectorMaterials;
    // Velocity thinner and above momentum: for a body of unit mass the two arrows coincide.
    this.vectors = {
      velocity: materials.velocity.map((material) => vectorArrow(VECTOR_COLORS.velocity, 0.36, material)),
      momentum: materials.momentum.map((material) => vectorArrow(VECTOR_COLORS.momentum, 0.35, material)),
      total: vectorArrow(VECTOR_COLORS.momentum, 0.47, materials.total),
      centre: centreOfMassObject(this.centreSize, materials.centre),
    };
    const { velocity, momentum, total, centre } = this.vectors;
    for (const object of [...velocity, ...momentum, total, centre]) {
      object.visible = false;
      this.root.add(object);
    }
    return this.vectors;
  }

  /** Moves everything to a frame from the worker: positions, velocities, contact points, new impacts. */
  update(frame, { playing = false, elapsed = 0, passed = [] } = {}) {
    const q = frame.positions;
    this.positions = q;
    this.velocities = frame.velocities ?? null;
    this.bodies.forEach((object, i) => {
      object.position.set(q[3 * i], q[3 * i + 1], 0);
      object.rotation.z = q[3 * i + 2];
    });
    this.simulatedStep = Math.max(0, frame.time - (this.lastTime ?? frame.time));
    this.lastTime = frame.time;
    for (const joint of this.joints) {
      const a = this.#anchor(joint.a, joint.anchorA);
      const b = this.#anchor(joint.b, joint.anchorB);
      const [first, second] = joint.parts;
      if (joint.type === 'distance') setLink(first, a, b);
      else if (joint.type === 'slider') {
        const axis = this.#direction(joint.a, joint.axis);
        const L = this.view.width * 2;
        setLink(first, [a[0] - L * axis[0], a[1] - L * axis[1]], [a[0] + L * axis[0], a[1] + L * axis[1]]);
        second.position.set(b[0], b[1], 0);
      } else first.position.set(b[0], b[1], 0);
    }
    for (const rope of this.ropes) setLink(rope.object, this.#anchor(rope.a, rope.anchorA), this.#anchor(rope.b, rope.anchorB));
    this.#contacts(frame.contacts ?? []);
    if (frame.reset || frame.jumped) {
      for (const trail of this.trails) clearTrail(trail);
      this.#clearArrows();
    }
    if (playing || frame.reset || frame.jumped || frame.found !== undefined) {
      this.trails.forEach((trail, i) => pushTrail(trail, q[3 * i], q[3 * i + 1]));
    }
    this.#fadeArrows(playing ? elapsed : 0, playing ? this.simulatedStep : 0);
    // Stepping shows the arrows of the new impact only; playing lets the older ones fade.
    if (!playing && passed.length) this.#clearArrows();
    for (const impact of passed) this.#addArrows(impact);
    this.#updateVectors();
    if (this.follow) this.#keepInView();
    this.#updateHalos();
    this.requestRender();
  }

  /** Rings around the bodies the camera shows smaller than HALO_BELOW pixels. */
  #updateHalos() {
    const q = this.positions;
    const u = this.worldPerPixel ?? 0;
    this.halos.forEach((halo, i) => {
      halo.visible = Boolean(q) && this.radii[i] < HALO_BELOW * u;
      if (!halo.visible) return;
      halo.position.set(q[3 * i], q[3 * i + 1], halo.position.z);
      halo.scale.setScalar(HALO_PX * u);
    });
  }

  /** Shows or hides the bodies' trails. */
  setTrails(on) {
    for (const trail of this.trails ?? []) trail.visible = on;
    this.requestRender();
  }

  /** Shows or hides a kind of vector: 'velocity', 'momentum' or 'centre' (the centre of mass). */
  setVectors(kind, on) {
    this.show[kind] = on;
    this.#updateVectors();
    this.requestRender();
  }

  /** Turns following on or off (on: re-frames at once if a body is out of view). */
  setFollow(on) {
    this.follow = on;
    this.element.dataset.follow = String(on);
    if (on && this.positions) this.#keepInView();
    this.requestRender();
  }

  /** Removes every impulse arrow (reset, new scenario). */
  clearImpulses() {
    this.#clearArrows();
    this.impulseScale = 0;
    this.requestRender();
  }

  /** The world point of `anchor` on body `index` (the world when index is −1 or absent). */
  #anchor(index, anchor = [0, 0]) {
    if (index === undefined || index === null || index < 0 || !this.positions) return anchor;
    const q = this.positions;
    const c = Math.cos(q[3 * index + 2]);
    const s = Math.sin(q[3 * index + 2]);
    return [q[3 * index] + c * anchor[0] - s * anchor[1], q[3 * index + 1] + s * anchor[0] + c * anchor[1]];
  }

  /** A direction fixed in body `index` (the world when −1), in world axes. */
  #direction(index, d) {
    if (index < 0 || !this.positions) return d;
    const t = this.positions[3 * index + 2];
    return [Math.cos(t) * d[0] - Math.sin(t) * d[1], Math.sin(t) * d[0] + Math.cos(t) * d[1]];
  }

  #contacts(points) {
    while (this.markers.length < points.length) {
      const marker = contactMarker(this.markerSize);
      this.root.add(marker);
      this.markers.push(marker);
    }
    while (this.frictionArrows.length < points.length) {
      const arrow = vectorArrow(CONTACT_COLORS.sliding, 0.42);
      arrow.visible = false;
      this.root.add(arrow);
      this.frictionArrows.push(arrow);
    }
    for (const p of points) this.largestForce = Math.max(this.largestForce, Math.abs(p.multiplier), Math.abs(p.friction ?? 0));
    this.markers.forEach((marker, k) => {
      const p = points[k];
      const arrow = this.frictionArrows[k];
      marker.visible = Boolean(p) && (p.state !== 'inactive' || p.gap < this.nearGap);
      arrow.visible = false;
      if (!marker.visible) return;
      marker.position.set(p.point[0], p.point[1], 0.3);
      setContactState(marker, p.state, p.slip);
      // The friction force on the body (body b of a pair), along the tangent t = perp(n), as long as its share of the largest
      // contact force so far (up to 12% of the view).
      if (p.state === 'active' && p.friction && this.largestForce > 0) {
        const length = (0.12 * this.view.width * p.friction) / this.largestForce;
        setVectorArrow(arrow, p.point, [-p.normal[1] * length, p.normal[0] * length], this.vectorWidth);
        arrow.userData.friction = p.friction;
      }
    });
  }

  #updateVectors() {
    // Nothing to hide while none has been shown.
    if (!this.vectors && !this.show.velocity && !this.show.momentum && !this.show.centre) return;
    const vectors = this.#vectorObjects();
    const q = this.positions;
    const v = this.velocities;
    const ready = Boolean(q && v);
    const width = this.vectorWidth;
    let mass = 0;
    const centre = [0, 0];
    const momentum = [0, 0];
    this.bodies.forEach((_, i) => {
      const at = ready ? [q[3 * i], q[3 * i + 1]] : [0, 0];
      const vel = ready ? [v[3 * i], v[3 * i + 1]] : [0, 0];
      const m = this.masses[i];
      mass += m;
      centre[0] += m * at[0];
      centre[1] += m * at[1];
      momentum[0] += m * vel[0];
      momentum[1] += m * vel[1];
      const velocity = vectors.velocity[i];
      if (ready && this.show.velocity) {
        const s = this.vectorScale.velocity;
        setVectorArrow(velocity, at, [vel[0] * s, vel[1] * s], width * 0.55);
      } else velocity.visible = false;
      const arrow = vectors.momentum[i];
      if (ready && this.show.momentum) {
        const s = this.vectorScale.momentum;
        setVectorArrow(arrow, at, [m * vel[0] * s, m * vel[1] * s], width);
      } else arrow.visible = false;
    });
    const showCentre = ready && this.show.centre && this.bodies.length > 0;
    vectors.centre.visible = showCentre;
    if (showCentre) vectors.centre.position.set(centre[0] / mass, centre[1] / mass, vectors.centre.position.z);
    if (showCentre && this.show.momentum) {
      const s = this.vectorScale.momentum;
      setVectorArrow(vectors.total, [centre[0] / mass, centre[1] / mass], [momentum[0] * s, momentum[1] * s], width * 1.6);
    } else vectors.total.visible = false;
  }

  /** The vector scales in words, for the legend: metres of scene per m/s and per kg·m/s. */
  get vectorLegend() {
    return this.vectorScale ?? { velocity: 0, momentum: 0 };
  }

  /**
   * One arrow per impact point, along its normal, as long as its share of the largest impulse so far, but
   * never longer than the body it pushes (nor wider than a fraction of it), translucent with an outline:
   * the bodies stay visible under the arrows (a billiard rack is not covered by them).
   */
  #addArrows(impact) {
    const at = impact.positions ?? [];
    const normals = impact.normals ?? [];
    const rows = impact.normal_rows ?? [];
    const impulses = impact.i_lambda ?? [];
    const magnitude = (k) => Math.abs(impulses[rows[k]] ?? 0);
    for (let k = 0; k < at.length; k++) this.impulseScale = Math.max(this.impulseScale, magnitude(k));
    if (!(this.impulseScale > 0)) return;
    const unit = this.view.width;
    for (let k = 0; k < at.length; k++) {
      const size = magnitude(k) / this.impulseScale;
      if (!(size > 0.02) || !normals[k]) continue;
      // The impulse on body b of the contact pushes along the normal (a tensile one would point back); for a
      // body on a plane that is the body itself.
      const sign = Math.sign(impulses[rows[k]]) || 1;
      const pushed = this.#pushedBodyRadius(impact, k);
      const length = Math.min(unit * 0.14, pushed * 1.1) * size;
      const width = Math.min(unit * 0.005, pushed * 0.2);
      const arrow = arrowObject(at[k], [sign * normals[k][0], sign * normals[k][1]], length, width);
      arrow.userData.age = 0;
      arrow.userData.reach = length / pushed;
      this.root.add(arrow);
      this.arrows.push(arrow);
    }
  }

  /** Radius of the body that impact point `k` pushes (body b of a pair, the body of a body–plane contact). */
  #pushedBodyRadius(impact, k) {
    const contact = this.scenario?.contacts?.[impact.contacts?.[k]];
    const ref = contact ? (contact.type === 'body_plane' ? contact.body : contact.body_b ?? contact.body_a) : null;
    const index = ref === null ? -1 : bodyIndex(this.scenario, ref);
    return index >= 0 ? this.radii[index] : this.view.width;
  }

  #fadeArrows(elapsed, simulated) {
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

  #clearArrows() {
    for (const arrow of this.arrows) {
      this.root.remove(arrow);
      disposeObject(arrow);
    }
    this.arrows = [];
  }

  /** Number of impulse arrows still visible (for the text alternative). */
  get arrowCount() {
    return this.arrows.length;
  }

  // ---- camera, size, interaction ----

  /** World units per pixel that show the framed region whole. */
  get #unitsPerPixel() {
    const [w, h] = this.size;
    return Math.max(this.region.width / w, this.region.height / h);
  }

  /** The visible rectangle {left, right, bottom, top}. */
  get visibleRect() {
    const [w, h] = this.size;
    const u = this.#unitsPerPixel;
    const [cx, cy] = this.region.center;
    return { left: cx - (w * u) / 2, right: cx + (w * u) / 2, bottom: cy - (h * u) / 2, top: cy + (h * u) / 2 };
  }

  #frame() {
    const rect = this.visibleRect;
    Object.assign(this.camera, rect);
    this.camera.updateProjectionMatrix();
    this.worldPerPixel = this.#unitsPerPixel;
  }

  /** The box {left, right, bottom, top} of every body now (with its size) and of the world anchors. */
  #bodyBox() {
    const q = this.positions;
    if (!q || !this.bodies.length) return null;
    const box = { left: Infinity, right: -Infinity, bottom: Infinity, top: -Infinity };
    const grow = (x, y, r) => {
      box.left = Math.min(box.left, x - r);
      box.right = Math.max(box.right, x + r);
      box.bottom = Math.min(box.bottom, y - r);
      box.top = Math.max(box.top, y + r);
    };
    this.bodies.forEach((_, i) => grow(q[3 * i], q[3 * i + 1], this.radii[i]));
    for (const [x, y] of this.anchors) grow(x, y, 0);
    return Number.isFinite(box.left + box.right + box.bottom + box.top) ? box : null;
  }

  /**
   * Following: when a body comes within FOLLOW_MARGIN of the view's edge the camera eases the bodies back
   * towards the middle (and always pans at least enough to keep them inside); when the bodies no longer
   * fit, it zooms out just enough. A scene whose bodies stay inside keeps a still camera.
   */
  #keepInView() {
    const box = this.#bodyBox();
    if (!box) return;
    const [w, h] = this.size;
    const spanX = box.right - box.left;
    const spanY = box.top - box.bottom;
    // Zoom out if the box with its margins does not fit at the current scale.
    const u = Math.max(this.#unitsPerPixel, spanX / (w * (1 - 2 * FOLLOW_MARGIN)), spanY / (h * (1 - 2 * FOLLOW_MARGIN)));
    const halfW = (w * u) / 2;
    const halfH = (h * u) / 2;
    const [cx, cy] = this.region.center;
    // The centres that keep the box inside the margins; the nearest to the current one.
    const keep = (c, lo, hi, half) => {
      const from = hi - half + 2 * FOLLOW_MARGIN * half;
      const to = lo + half - 2 * FOLLOW_MARGIN * half;
      return from <= to ? Math.min(to, Math.max(from, c)) : (lo + hi) / 2;
    };
    const kept = [keep(cx, box.left, box.right, halfW), keep(cy, box.bottom, box.top, halfH)];
    // Reaching the margin starts a re-centring, which goes on until the bodies are near the middle again.
    const middle = [(box.left + box.right) / 2, (box.bottom + box.top) / 2];
    if (kept[0] !== cx || kept[1] !== cy) this.recentring = true;
    let center = kept;
    if (this.recentring) {
      center = kept.map((c, k) => c + RECENTRE_RATE * (middle[k] - c));
      // Still inside the margins after easing (the easing moves towards the box, never away from it).
      center = [keep(center[0], box.left, box.right, halfW), keep(center[1], box.bottom, box.top, halfH)];
      if (Math.abs(middle[0] - center[0]) < 0.05 * halfW && Math.abs(middle[1] - center[1]) < 0.05 * halfH) {
        this.recentring = false;
      }
    }
    if (u === this.#unitsPerPixel && center[0] === cx && center[1] === cy) return;
    this.region = { center, width: w * u, height: h * u };
    this.#frame();
  }

  #resize() {
    this.measured = true;
    const box = this.element.getBoundingClientRect();
    const w = Math.max(1, Math.round(box.width));
    const h = Math.max(1, Math.round(box.height));
    if (w === this.size[0] && h === this.size[1]) return;
    this.size = [w, h];
    this.renderer?.setSize(w, h, false);
    this.#frame();
    if (this.follow) this.#keepInView();
    this.requestRender();
  }

  #watchPixelRatio() {
    const watch = () => {
      const query = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
      query.addEventListener('change', () => {
        this.renderer?.setPixelRatio(window.devicePixelRatio || 1);
        this.renderer?.setSize(this.size[0], this.size[1], false);
        this.requestRender();
        watch();
      }, { once: true });
    };
    watch();
  }

  /** A manual change of the view: following stops (the user chose what to look at). */
  #manual() {
    if (!this.follow) return;
    this.follow = false;
    this.element.dataset.follow = 'false';
    this.onFollowChange(false);
  }

  /** Zooms by `factor` about the canvas point (px, py) (default: the centre). */
  zoomBy(factor, px = this.size[0] / 2, py = this.size[1] / 2) {
    this.#manual();
    const base = Math.max(this.view.width / this.size[0], this.view.width / 2 / this.size[1]);
    const u = this.#unitsPerPixel;
    const next = Math.min(base / MIN_ZOOM, Math.max(base / MAX_ZOOM, u / factor));
    const before = this.#toWorld(px, py);
    this.region = { center: this.region.center, width: this.size[0] * next, height: this.size[1] * next };
    this.#frame();
    const after = this.#toWorld(px, py);
    this.region.center = [this.region.center[0] + before[0] - after[0], this.region.center[1] + before[1] - after[1]];
    this.#frame();
    this.requestRender();
  }

  /** Frames the bodies where they are now: the scenario's view, moved and widened as they need. */
  frameBodies() {
    this.region = { center: [...this.view.center], width: this.view.width, height: this.view.width / 2 };
    this.#frame();
    this.#keepInView();
    this.requestRender();
  }

  #toWorld(px, py) {
    const c = this.camera;
    return [c.left + (px / this.size[0]) * (c.right - c.left), c.top - (py / this.size[1]) * (c.top - c.bottom)];
  }

  #interaction() {
    this.zoomIn.addEventListener('click', () => this.zoomBy(1.25));
    this.zoomOut.addEventListener('click', () => this.zoomBy(0.8));
    this.fit.addEventListener('click', () => this.frameBodies());
    const pointers = new Map();
    let pinch = null;
    const local = (event) => {
      const box = this.canvas.getBoundingClientRect();
      return [event.clientX - box.left, event.clientY - box.top];
    };
    let dragging = null;  // the pointer the pointer handler took
    this.canvas.addEventListener('pointerdown', (event) => {
      this.canvas.setPointerCapture(event.pointerId);
      if (pointers.size === 0 && this.pointerHandler?.down(event, this.worldAt(event.clientX, event.clientY))) {
        dragging = event.pointerId;
        return;
      }
      pointers.set(event.pointerId, local(event));
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { distance: Math.hypot(a[0] - b[0], a[1] - b[1]) };
      }
    });
    this.canvas.addEventListener('pointermove', (event) => {
      if (dragging === event.pointerId || (dragging === null && !pointers.size)) {
        const world = this.worldAt(event.clientX, event.clientY);
        if (dragging === event.pointerId) this.pointerHandler?.move(event, world);
        else this.pointerHandler?.hover?.(event, world);
        if (dragging === event.pointerId) return;
      }
      const previous = pointers.get(event.pointerId);
      if (!previous) return;
      const now = local(event);
      pointers.set(event.pointerId, now);
      if (pointers.size === 1) {
        if (now[0] === previous[0] && now[1] === previous[1]) return;
        this.#manual();
        const [cx, cy] = this.region.center;
        this.region.center = [cx - (now[0] - previous[0]) * this.worldPerPixel, cy + (now[1] - previous[1]) * this.worldPerPixel];
        this.#frame();
        this.requestRender();
      } else if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const distance = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch.distance > 0) this.zoomBy(distance / pinch.distance, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        pinch.distance = distance;
      }
    });
    const release = (event) => {
      if (dragging === event.pointerId) {
        dragging = null;
        this.pointerHandler?.up(event, this.worldAt(event.clientX, event.clientY), event.type === 'pointercancel');
        return;
      }
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
    };
    this.canvas.addEventListener('pointerup', release);
    this.canvas.addEventListener('pointercancel', release);
    this.canvas.addEventListener('wheel', (event) => {
      if (!this.wheelPolicy(event)) return;
      event.preventDefault();
      const [px, py] = local(event);
      const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      this.zoomBy(Math.exp(-delta * 0.0015), px, py);
    }, { passive: false });
  }

  /** Schedules one draw on the next animation frame (several requests, one draw). */
  requestRender() {
    if (this.scheduled || !this.renderer) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      // Never a draw at a size not yet measured: a scenario loaded before the page's first layout would
      // otherwise be drawn once at the canvas's default size.
      if (!this.measured) this.#resize();
      this.scheduled = false;
      this.renderer.render(this.world, this.camera);
      this.#recordView();
    });
  }

  // ---- hooks for export, embeds and the scene editor (web/src/export, embed, editor) ----

  /** A 2D canvas with what the scene draws now (drawn afresh: WebGL keeps no buffer between frames). */
  snapshot() {
    const out = document.createElement('canvas');
    out.width = this.canvas.width;
    out.height = this.canvas.height;
    if (this.renderer) {
      this.renderer.render(this.world, this.camera);
      out.getContext('2d').drawImage(this.canvas, 0, 0);
    }
    return out;
  }

  /** Whether a wheel event zooms (`policy(event)` true) or is left to scroll the page (false). */
  setWheelPolicy(policy) {
    this.wheelPolicy = policy;
  }

  /**
   * Lets `handler` take pointer drags before panning: `down(event, world)` returns true to take this drag,
   * then `move(event, world)` and `up(event, world, cancelled)` follow; `hover(event, world)` while no
   * button is down. World points are [x, y] in metres. null gives the pointer back to panning.
   */
  setPointerHandler(handler) {
    this.pointerHandler = handler;
  }

  /** The world point under a client (viewport) position. */
  worldAt(clientX, clientY) {
    const box = this.canvas.getBoundingClientRect();
    return this.#toWorld(clientX - box.left, clientY - box.top);
  }

  /** World length of one CSS pixel now. */
  get pixelSize() {
    return this.worldPerPixel;
  }

  /** The part of the world framed now, {center, width, height} in metres (a copy, for showRegion). */
  get shownRegion() {
    return { center: [...this.region.center], width: this.region.width, height: this.region.height };
  }

  /** Frames `region` (one shownRegion gave) again, e.g. after setScenario, as the reader left it. */
  showRegion(region) {
    this.region = { center: [...region.center], width: region.width, height: region.height };
    this.#frame();
    this.requestRender();
  }

  /** Draws `object` (a Three.js object in world coordinates) over the scenario until removed; it is kept
   *  across setScenario. */
  addOverlay(object) {
    this.world.add(object);
    this.requestRender();
  }

  removeOverlay(object) {
    this.world.remove(object);
    disposeObject(object);
    this.requestRender();
  }

  /** The test hooks: the camera's rectangle, and whether every body was inside it at this draw. */
  #recordView() {
    const view = this.visibleRect;
    this.element.dataset.view = [view.left, view.bottom, view.right, view.top].join(' ');
    this.element.dataset.arrows = String(this.arrows.length);
    this.element.dataset.arrowReach = String(Math.max(0, ...this.arrows.map((a) => a.userData.reach)));
    // WebGL programs compiled so far: three.js numbers them in order, so the newest has the largest id yet.
    for (const program of this.renderer.info.programs ?? []) {
      this.programsCompiled = Math.max(this.programsCompiled, program.id + 1);
    }
    this.element.dataset.programs = String(this.programsCompiled);
    const q = this.positions;
    if (!q || !this.bodies.length) return;
    this.element.dataset.positions = JSON.stringify(Array.from(q));
    this.element.dataset.time = String(this.lastTime);
    const outside = this.bodies.some((_, i) => {
      const r = this.radii[i];
      return q[3 * i] - r < view.left || q[3 * i] + r > view.right || q[3 * i + 1] - r < view.bottom ||
        q[3 * i + 1] + r > view.top;
    });
    this.framesDrawn += 1;
    if (outside) this.framesOutside += 1;
    // The page's first frame with bodies, once per page load (bench/page-load.js reads this mark).
    if (!firstFrameMarked) {
      firstFrameMarked = true;
      performance.mark(FIRST_FRAME_MARK);
    }
    this.element.dataset.frames = String(this.framesDrawn);
    this.element.dataset.outside = String(this.framesOutside);
  }

  /** Sets the canvas's text alternative. */
  describe(text) {
    if (this.canvas.getAttribute('aria-label') !== text) this.canvas.setAttribute('aria-label', text);
  }
}
