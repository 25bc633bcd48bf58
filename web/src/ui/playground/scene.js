// The scene: Three.js with an orthographic camera looking at the plane of motion, framed by the scenario's
// `view`. Pan by dragging, zoom with the wheel, a pinch or the +/− buttons; follows its container's size
// (ResizeObserver) and the device pixel ratio; draws only when something changed.
import * as THREE from 'three';
import { el } from '../widgets/dom.js';
import { bodyIndex } from './names.js';
import {
  arrowObject, bodyObject, clearTrail, contactMarker, disposeObject, linkObject, pinObject, planeObject, pushTrail,
  setContactState, setLink, trailObject, bodyColor,
} from './scene-objects.js';

/** How long an impulse arrow takes to fade, in seconds of play (it stays while paused). */
const ARROW_FADE = 0.9;
const TRAIL_LENGTH = 400;
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 40;

export class Scene {
  constructor() {
    this.canvas = el('canvas', { class: 'scene-canvas', 'data-testid': 'scene', role: 'img', 'aria-label': 'Simulation view' });
    this.fallback = el('p', { class: 'scene-fallback', hidden: true });
    this.zoomIn = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom in', title: 'Zoom in', text: '+' });
    this.zoomOut = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom out', title: 'Zoom out', text: '−' });
    this.fit = el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Fit the view', title: 'Fit the view', text: '⤢' });
    this.element = el('div', { class: 'scene' }, this.canvas, this.fallback,
      el('div', { class: 'scene-tools', role: 'group', 'aria-label': 'View' }, this.zoomIn, this.zoomOut, this.fit));
    this.camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -10, 10);
    this.camera.position.z = 5;
    this.world = new THREE.Scene();
    this.world.background = new THREE.Color('#fbfaf7');
    this.root = new THREE.Group();
    this.world.add(this.root);
    this.view = { center: [0, 0.5], width: 4 };
    this.pan = [0, 0];
    this.zoom = 1;
    this.size = [1, 1];
    this.arrows = [];
    this.impulseScale = 0;
    this.scheduled = false;
    this.onChange = () => {};
    this.wheelPolicy = () => true;  // see setWheelPolicy
    this.pointerHandler = null;     // see setPointerHandler
    try {
      this.renderer = new THREE.WebGLRenderer({ canvas: this.canvas, antialias: true });
      this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    } catch (error) {
      this.renderer = null;
      this.fallback.hidden = false;
      this.fallback.textContent = 'This browser cannot draw the scene (WebGL is not available). The panels still work.';
    }
    this.canvas.addEventListener('webglcontextlost', (event) => event.preventDefault());
    this.canvas.addEventListener('webglcontextrestored', () => this.requestRender());
    this.#interaction();
    this.#watchPixelRatio();
    new ResizeObserver(() => this.#resize()).observe(this.element);
  }

  /** Builds the objects of a (normalized) scenario and frames its view. */
  setScenario(scenario) {
    disposeObject(this.root);
    this.root.clear();
    this.arrows = [];
    this.impulseScale = 0;
    this.scenario = scenario;
    const view = scenario.view ?? {};
    this.view = { center: view.center ?? [0, 0.5], width: view.width ?? 4 };
    this.pan = [0, 0];
    this.zoom = 1;
    const unit = this.view.width;
    this.bodies = (scenario.bodies ?? []).map((body, i) => {
      const object = bodyObject(body, i);
      this.root.add(object);
      return object;
    });
    for (const plane of scenario.planes ?? []) this.root.add(planeObject(plane, scenario.planes));
    const ends = (item) => ({ a: bodyIndex(scenario, item.body_a), b: bodyIndex(scenario, item.body_b),
      anchorA: item.anchor_a ?? [0, 0], anchorB: item.anchor_b ?? [0, 0] });
    // Pins (and welds) as rings at their anchor, distance joints as lines, sliders as a guide line along
    // their axis (drawn through the anchor on body a) with a ring where the slider is.
    this.joints = (scenario.joints ?? []).map((joint) => {
      const type = joint.type ?? 'pin';
      const item = { type, ...ends(joint), axis: joint.axis ?? [1, 0], parts: [] };
      if (type === 'distance' || type === 'slider') item.parts.push(linkObject(type === 'slider' ? '#8a8f98' : '#222831', type === 'slider'));
      if (type !== 'distance') item.parts.push(pinObject(unit * 0.011));
      for (const part of item.parts) this.root.add(part);
      return item;
    });
    this.ropes = (scenario.contacts ?? []).filter((c) => c.type === 'rope').map((contact) => {
      const object = linkObject('#6b4f2a', true);
      this.root.add(object);
      return { ...ends(contact), object };
    });
    this.markers = [];
    this.markerSize = unit * 0.007;
    // A separated contact point is shown only while it is near (a gap under 5% of the view): the points of
    // distant pairs (two billiard balls across the table) would otherwise float in empty space.
    this.nearGap = unit * 0.05;
    // Trails are always recorded and shown when the scenario's view asks for them (setTrails toggles).
    this.trails = this.bodies.map((_, i) => {
      const trail = trailObject(bodyColor(scenario.bodies[i].color, i), TRAIL_LENGTH);
      trail.visible = Boolean(view.trails);
      this.root.add(trail);
      return trail;
    });
    this.#frame();
    this.requestRender();
  }

  /** Moves everything to a frame from the worker: positions, contact points, new impacts. */
  update(frame, { playing = false, elapsed = 0 } = {}) {
    const q = frame.positions;
    this.positions = q;
    this.bodies.forEach((object, i) => {
      object.position.set(q[3 * i], q[3 * i + 1], 0);
      object.rotation.z = q[3 * i + 2];
    });
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
    if (frame.reset) {
      for (const trail of this.trails) clearTrail(trail);
      this.#clearArrows();
    }
    if (playing || frame.reset || frame.found !== undefined) {
      this.trails.forEach((trail, i) => pushTrail(trail, q[3 * i], q[3 * i + 1]));
    }
    this.#fadeArrows(playing ? elapsed : 0);
    // Stepping shows the arrows of the new impact only; playing lets the older ones fade.
    if (!playing && frame.impacts?.length) this.#clearArrows();
    for (const impact of frame.impacts ?? []) this.#addArrows(impact);
    this.requestRender();
  }

  /** Shows or hides the bodies' trails. */
  setTrails(on) {
    for (const trail of this.trails ?? []) trail.visible = on;
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
    this.markers.forEach((marker, k) => {
      const p = points[k];
      marker.visible = Boolean(p) && (p.state !== 'inactive' || p.gap < this.nearGap);
      if (!marker.visible) return;
      marker.position.set(p.point[0], p.point[1], 0.3);
      setContactState(marker, p.state);
    });
  }

  /** One arrow per impact point, along its normal, as long as its share of the largest impulse so far. */
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
      // The impulse on body b of the contact pushes along the normal (a tensile one would point back).
      const sign = Math.sign(impulses[rows[k]]) || 1;
      const arrow = arrowObject(at[k], [sign * normals[k][0], sign * normals[k][1]], unit * 0.14 * size, unit * 0.005);
      arrow.userData.age = 0;
      this.root.add(arrow);
      this.arrows.push(arrow);
    }
  }

  #fadeArrows(elapsed) {
    for (const arrow of this.arrows) {
      arrow.userData.age += elapsed;
      arrow.userData.material.opacity = Math.max(0, 1 - arrow.userData.age / ARROW_FADE);
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

  #frame() {
    const [w, h] = this.size;
    const aspect = w / h;
    // The view's width across, but never less than half of it in height (wide, short containers).
    const width = Math.max(this.view.width, this.view.width * 0.5 * aspect) / this.zoom;
    const height = width / aspect;
    const cx = this.view.center[0] + this.pan[0];
    const cy = this.view.center[1] + this.pan[1];
    Object.assign(this.camera, { left: cx - width / 2, right: cx + width / 2, top: cy + height / 2, bottom: cy - height / 2 });
    this.camera.updateProjectionMatrix();
    this.worldPerPixel = width / w;
  }

  #resize() {
    const box = this.element.getBoundingClientRect();
    const w = Math.max(1, Math.round(box.width));
    const h = Math.max(1, Math.round(box.height));
    if (w === this.size[0] && h === this.size[1]) return;
    this.size = [w, h];
    this.renderer?.setSize(w, h, false);
    this.#frame();
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

  /** Zooms by `factor` about the canvas point (px, py) (default: the centre). */
  zoomBy(factor, px = this.size[0] / 2, py = this.size[1] / 2) {
    const next = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, this.zoom * factor));
    const before = this.#toWorld(px, py);
    this.zoom = next;
    this.#frame();
    const after = this.#toWorld(px, py);
    this.pan[0] += before[0] - after[0];
    this.pan[1] += before[1] - after[1];
    this.#frame();
    this.requestRender();
  }

  /** Back to the scenario's framing. */
  resetView() {
    this.pan = [0, 0];
    this.zoom = 1;
    this.#frame();
    this.requestRender();
  }

  #toWorld(px, py) {
    const c = this.camera;
    return [c.left + (px / this.size[0]) * (c.right - c.left), c.top - (py / this.size[1]) * (c.top - c.bottom)];
  }

  #interaction() {
    this.zoomIn.addEventListener('click', () => this.zoomBy(1.25));
    this.zoomOut.addEventListener('click', () => this.zoomBy(0.8));
    this.fit.addEventListener('click', () => this.resetView());
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
        this.pan[0] -= (now[0] - previous[0]) * this.worldPerPixel;
        this.pan[1] += (now[1] - previous[1]) * this.worldPerPixel;
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
      this.scheduled = false;
      this.renderer.render(this.world, this.camera);
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

  /** Sets the canvas's text alternative. */
  describe(text) {
    if (this.canvas.getAttribute('aria-label') !== text) this.canvas.setAttribute('aria-label', text);
  }
}
