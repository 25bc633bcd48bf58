// The scene: Three.js drawing the plane of motion through its camera (scene-camera.js: framed by the
// scenario's `view`, following the bodies, or a close-up of one), with the bodies, planes, joints and ropes
// of a normalized scenario, the contacts and impulse arrows (scene-contacts.js), trails, and optional
// vectors (scene-vectors.js). Follows its container's size (ResizeObserver) and the device pixel ratio;
// draws only when something changed.
//
// Test hooks on the scene element, refreshed at each draw: data-view = "left bottom right top" of the camera,
// data-frames = draws with bodies, data-outside = draws in which some body was not wholly inside the view,
// data-positions = q drawn (JSON), data-time = the time of the frame drawn (so a test reads positions of the
// moment it waits for, not of the draw before), data-arrows = impulse arrows shown and data-arrow-reach = the longest
// one's length over the radius of the body it pushes, data-sliding = contact points drawn sliding,
// data-programs = the WebGL programs compiled so far (constant while a scenario plays: no material compiles a
// program of its own), data-close-up = the body a close-up follows.
import * as THREE from 'three';
import { el } from '../widgets/dom.js';
import { bodyIndex } from '../../scenario/names.js';
import { SceneCamera } from './scene-camera.js';
import { ContactMarks, ImpulseArrows } from './scene-contacts.js';
import { BodyVectors } from './scene-vectors.js';
import {
  bodyColor, bodyObject, boundingRadius, clearTrail, disposeObject, haloObject, linkObject, pinObject, planeObject,
  programSamples, pushTrail, setLink, trailObject,
} from './scene-objects.js';

export { VECTOR_COLORS } from './scene-vectors.js';

/** Bodies smaller than this on screen (px, radius) get a ring of HALO_PX around them. */
const HALO_BELOW = 4;
const HALO_PX = 7;
const TRAIL_LENGTH = 400;
/**
 * A scenario of one body whose radius is below this share of its view's width (a few pixels on a screen)
 * starts in a close-up of it.
 */
const AUTO_CLOSE_UP_BELOW = 0.01;

/** The performance mark set at the first draw of bodies (bench/page-load.js measures the page by it). */
export const FIRST_FRAME_MARK = 'oblique:first-frame';
let firstFrameMarked = false;

export class Scene {
  /**
   * @param {{onFollowChange?: (on: boolean) => void, onCloseUpChange?: (index: number|null) => void,
   *   autoCloseUp?: boolean}} [options]  told when a manual pan or zoom stops following (and a close-up), and
   *   of the close-up a scenario starts in; `autoCloseUp` false: never a close-up unless asked (the editor)
   */
  constructor({ onFollowChange = () => {}, onCloseUpChange = () => {}, autoCloseUp = true } = {}) {
    this.onFollowChange = onFollowChange;
    this.onCloseUpChange = onCloseUpChange;
    this.autoCloseUp = autoCloseUp;
    this.canvas = el('canvas', { class: 'scene-canvas', 'data-testid': 'scene', role: 'img', 'aria-label': 'Simulation view' });
    this.fallback = el('p', { class: 'scene-fallback', hidden: true });
    this.zoomIn = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom in', title: 'Zoom in', text: '+' });
    this.zoomOut = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom out', title: 'Zoom out', text: '−' });
    this.fit = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Frame the bodies',
      title: 'Frame the bodies where they are now', text: '⤢' });
    this.element = el('div', { class: 'scene' }, this.canvas, this.fallback,
      el('div', { class: 'scene-tools', role: 'group', 'aria-label': 'View' }, this.zoomIn, this.zoomOut, this.fit));
    this.view = new SceneCamera();
    this.camera = this.view.camera;
    this.world = new THREE.Scene();
    this.world.background = new THREE.Color('#fbfaf7');
    this.root = new THREE.Group();
    this.world.add(this.root);
    this.bodies = [];
    this.scheduled = false;
    this.wheelPolicy = () => true;  // see setWheelPolicy
    this.pointerHandler = null;     // see setPointerHandler
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

  /** Builds the objects of a normalized scenario (every field present) and frames its view. */
  setScenario(scenario) {
    disposeObject(this.root);
    this.root.clear();
    this.scenario = scenario;
    this.positions = null;
    this.velocities = null;
    this.view.setView(scenario.view);
    const unit = scenario.view.width;
    const { bodies } = scenario;
    this.radii = bodies.map((body) => boundingRadius(body));
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
    for (const plane of scenario.planes) this.root.add(planeObject(plane, scenario.planes));
    const ends = (item) => ({ a: bodyIndex(scenario, item.body_a), b: bodyIndex(scenario, item.body_b),
      anchorA: item.anchor_a, anchorB: item.anchor_b });
    // Pins (and welds) as rings at their anchor, distance joints as lines, sliders as a guide line along
    // their axis (drawn through the anchor on body a) with a ring where the slider is.
    this.joints = scenario.joints.map((joint) => {
      const item = { type: joint.type, ...ends(joint), axis: joint.axis, parts: [] };
      if (joint.type === 'distance' || joint.type === 'slider') item.parts.push(linkObject(joint.type === 'slider' ? '#8a8f98' : '#222831', joint.type === 'slider'));
      if (joint.type !== 'distance') item.parts.push(pinObject(Math.min(unit * 0.011, smallest * 0.4)));
      for (const part of item.parts) this.root.add(part);
      return item;
    });
    this.ropes = scenario.contacts.filter((c) => c.type === 'rope').map((contact) => {
      const object = linkObject('#6b4f2a', true);
      this.root.add(object);
      return { ...ends(contact), object };
    });
    // Points of the world the links hang from: they stay in view with the bodies.
    this.anchors = [...this.joints, ...this.ropes].flatMap((link) =>
      [[link.a, link.anchorA], [link.b, link.anchorB]].filter(([index]) => index < 0).map(([, anchor]) => anchor));
    // Markers and arrows in proportion to the bodies as well as to the view, so that a rack of small balls
    // is not covered by them.
    this.contacts = new ContactMarks(this.root, { scenario, unit, markerSize: Math.min(unit * 0.007, smallest * 0.28),
      vectorWidth: Math.min(unit * 0.006, smallest * 0.3) });
    this.impulses = new ImpulseArrows(this.root, { scenario, unit, radii: this.radii });
    // Trails are always recorded and shown when the scenario's view asks for them (setTrails toggles).
    this.trails = this.bodies.map((_, i) => {
      const trail = trailObject(bodyColor(bodies[i].color, i), TRAIL_LENGTH);
      trail.visible = scenario.view.trails;
      this.root.add(trail);
      return trail;
    });
    const shown = this.vectors?.show;
    this.vectors = new BodyVectors(this.root, { scenario, unit, smallest });
    for (const kind of Object.keys(shown ?? {})) this.vectors.set(kind, shown[kind]);
    this.framesDrawn = 0;
    this.framesOutside = 0;
    // A lone body the scenario's view shows a few pixels wide (a ball on a long lane): a close-up of it.
    const tiny = this.autoCloseUp && bodies.length === 1 && this.radii[0] < AUTO_CLOSE_UP_BELOW * unit;
    this.setCloseUp(tiny ? 0 : null);
    this.onCloseUpChange(this.view.closeUp);
    this.requestRender();
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
        const L = this.view.view.width * 2;
        setLink(first, [a[0] - L * axis[0], a[1] - L * axis[1]], [a[0] + L * axis[0], a[1] + L * axis[1]]);
        second.position.set(b[0], b[1], 0);
      } else first.position.set(b[0], b[1], 0);
    }
    for (const rope of this.ropes) setLink(rope.object, this.#anchor(rope.a, rope.anchorA), this.#anchor(rope.b, rope.anchorB));
    this.contacts.update(frame.contacts ?? []);
    if (frame.reset || frame.jumped) {
      for (const trail of this.trails) clearTrail(trail);
      this.impulses.clear();
    }
    if (playing || frame.reset || frame.jumped || frame.found !== undefined) {
      this.trails.forEach((trail, i) => pushTrail(trail, q[3 * i], q[3 * i + 1]));
    }
    this.impulses.fade(playing ? elapsed : 0, playing ? this.simulatedStep : 0);
    // Stepping shows the arrows of the new impact only; playing lets the older ones fade.
    if (!playing && passed.length) this.impulses.clear();
    for (const impact of passed) this.impulses.add(impact);
    this.vectors.update(this.positions, this.velocities);
    this.#track();
    this.#updateHalos();
    this.requestRender();
  }

  /** The camera keeps the bodies in view, or its close-up's body. */
  #track() {
    const i = this.view.closeUp;
    const q = this.positions;
    const target = i !== null && q ? { x: q[3 * i], y: q[3 * i + 1], radius: this.radii[i] } : null;
    this.view.track(this.view.follow ? this.#bodyBox() : null, target);
  }

  /** Rings around the bodies the camera shows smaller than HALO_BELOW pixels. */
  #updateHalos() {
    const q = this.positions;
    const u = this.view.worldPerPixel;
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
    this.vectors?.set(kind, on);
    this.vectors?.update(this.positions, this.velocities);
    this.requestRender();
  }

  /** Turns following on or off (on: re-frames at once if a body is out of view). */
  setFollow(on) {
    this.view.follow = on;
    this.element.dataset.follow = String(on);
    if (on && this.positions) this.#track();
    this.requestRender();
  }

  /**
   * A close-up of body `index` (null: none): the camera follows it, zoomed in until it is drawn at least
   * CLOSE_UP_PX in radius, so that a small body's spin shows.
   */
  setCloseUp(index) {
    this.view.closeUp = index !== null && index >= 0 && index < this.bodies.length ? index : null;
    this.element.dataset.closeUp = this.view.closeUp === null ? '' : String(this.view.closeUp);
    if (this.view.closeUp === null) this.view.frame(this.#bodyBox());
    else this.#track();
    this.#updateHalos();
    this.requestRender();
  }

  /** The body a close-up follows, or null. */
  get closeUp() {
    return this.view.closeUp;
  }

  /** Removes every impulse arrow (reset, new scenario). */
  clearImpulses() {
    this.impulses?.reset();
    this.requestRender();
  }

  /** The world point of `anchor` on body `index` (the world when index is −1). */
  #anchor(index, anchor) {
    if (index < 0 || !this.positions) return anchor;
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

  /** The vector scales in words, for the legend: metres of scene per m/s and per kg·m/s. */
  get vectorLegend() {
    return this.vectors?.scale ?? { velocity: 0, momentum: 0 };
  }

  /** Number of impulse arrows still visible (for the text alternative). */
  get arrowCount() {
    return this.impulses?.count ?? 0;
  }

  // ---- size and interaction ----

  /** The visible rectangle {left, right, bottom, top}. */
  get visibleRect() {
    return this.view.visibleRect;
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

  #resize() {
    this.measured = true;
    const box = this.element.getBoundingClientRect();
    const w = Math.max(1, Math.round(box.width));
    const h = Math.max(1, Math.round(box.height));
    if (w === this.view.size[0] && h === this.view.size[1]) return;
    this.view.setSize(w, h);
    this.renderer?.setSize(w, h, false);
    this.#track();
    this.requestRender();
  }

  #watchPixelRatio() {
    const watch = () => {
      const query = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
      query.addEventListener('change', () => {
        this.renderer?.setPixelRatio(window.devicePixelRatio || 1);
        this.renderer?.setSize(this.view.size[0], this.view.size[1], false);
        this.requestRender();
        watch();
      }, { once: true });
    };
    watch();
  }

  /** A manual change of the view: following and a close-up stop (the reader chose what to look at). */
  #manual() {
    if (this.view.closeUp !== null) {
      this.view.closeUp = null;
      this.element.dataset.closeUp = '';
      this.onCloseUpChange(null);
    }
    if (!this.view.follow) return;
    this.view.follow = false;
    this.element.dataset.follow = 'false';
    this.onFollowChange(false);
  }

  /** Zooms by `factor` about the canvas point (px, py) (default: the centre). */
  zoomBy(factor, px, py) {
    this.#manual();
    this.view.zoomBy(factor, px, py);
    this.#updateHalos();
    this.requestRender();
  }

  /** Frames the bodies where they are now: the scenario's view, moved and widened as they need. */
  frameBodies() {
    if (this.view.closeUp !== null) this.#track();
    else this.view.frame(this.#bodyBox());
    this.requestRender();
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
        this.view.panBy(now[0] - previous[0], now[1] - previous[1]);
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

  /**
   * What the scene draws now, as a 2D canvas of `pixelRatio` image pixels per CSS pixel (default: the
   * screen's), and the ratio it was drawn at: `pixelRatio`, lowered to what the GPU and the browser can
   * draw. The renderer draws once at that ratio — the canvas's CSS size does not change, so the page's
   * layout does not move — and is put back at the screen's ratio and drawn again at once (a resized WebGL
   * canvas is blank until its next draw). Without WebGL, a blank canvas of the scene's size.
   * @param {{pixelRatio?: number}} [options]
   * @returns {{canvas: HTMLCanvasElement, pixelRatio: number}}
   */
  snapshot({ pixelRatio } = {}) {
    const renderer = this.renderer;
    const screenRatio = renderer ? renderer.getPixelRatio() : (window.devicePixelRatio || 1);
    const [width, height] = this.view.size;
    const out = document.createElement('canvas');
    if (!renderer) {
      out.width = Math.round(width * screenRatio);
      out.height = Math.round(height * screenRatio);
      return { canvas: out, pixelRatio: screenRatio };
    }
    const gl = renderer.getContext();
    const largest = Math.min(...gl.getParameter(gl.MAX_VIEWPORT_DIMS), gl.getParameter(gl.MAX_RENDERBUFFER_SIZE));
    let ratio = Math.min(pixelRatio ?? screenRatio, largest / Math.max(width, height));
    try {
      if (ratio !== screenRatio) {
        renderer.setPixelRatio(ratio);
        // The browser may give the drawing buffer fewer pixels than asked (its own memory limit): draw at that.
        if (gl.drawingBufferWidth < this.canvas.width) {
          ratio *= gl.drawingBufferWidth / this.canvas.width;
          renderer.setPixelRatio(ratio);
        }
      }
      renderer.render(this.world, this.camera);
      out.width = this.canvas.width;
      out.height = this.canvas.height;
      out.getContext('2d').drawImage(this.canvas, 0, 0);
      return { canvas: out, pixelRatio: ratio };
    } finally {
      if (renderer.getPixelRatio() !== screenRatio) {
        renderer.setPixelRatio(screenRatio);
        renderer.render(this.world, this.camera);
      }
    }
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
    return this.view.toWorld(clientX - box.left, clientY - box.top);
  }

  /** World length of one CSS pixel now. */
  get pixelSize() {
    return this.view.worldPerPixel;
  }

  /** The part of the world framed now, {center, width, height} in metres (a copy, for showRegion). */
  get shownRegion() {
    return this.view.shownRegion;
  }

  /** Frames `region` (one shownRegion gave) again, e.g. after setScenario, as the reader left it. */
  showRegion(region) {
    this.view.showRegion(region);
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
    this.element.dataset.arrows = String(this.arrowCount);
    this.element.dataset.arrowReach = String(this.impulses?.reach ?? 0);
    this.element.dataset.sliding = String(this.contacts?.sliding ?? 0);
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
