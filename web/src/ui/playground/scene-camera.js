// The scene's camera: an orthographic view of the plane of motion, framed by the scenario's `view` and kept
// on the bodies. Following pans (and zooms out only when it must) so that every body stays inside the view;
// a close-up follows one body instead, zoomed so that it is drawn at least CLOSE_UP_PX in radius (a bowling
// ball on a 24 m lane is a few pixels otherwise, its spin invisible). Dragging pans, the wheel, a pinch or
// the +/− buttons zoom (and turn following off); ⤢ frames the bodies where they are now.
import * as THREE from 'three';

/** Following re-centres the bodies once they reach the margin, easing this share of the way per frame. */
const RECENTRE_RATE = 0.12;
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 40;
/** Following: a body closer than this share of the view to its edge moves the camera. */
const FOLLOW_MARGIN = 0.07;
/** A close-up draws its body at least this radius on screen (px). */
export const CLOSE_UP_PX = 40;

export class SceneCamera {
  constructor() {
    this.camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -10, 10);
    this.camera.position.z = 5;
    this.view = { center: [0, 0.5], width: 4 };
    this.region = { center: [0, 0.5], width: 4, height: 2 };
    this.size = [1, 1];
    this.follow = true;
    this.closeUp = null;  // the body a close-up follows, or null
    this.recentring = false;
    this.worldPerPixel = 0;
  }

  /** A new scenario's view ({center, width} of its normalized `view`): framed from the start. */
  setView(view) {
    this.view = { center: [...view.center], width: view.width };
    this.recentring = false;
    this.region = { center: [...this.view.center], width: this.view.width, height: this.view.width / 2 };
    this.apply();
  }

  /** The drawing area's size in CSS pixels. */
  setSize(w, h) {
    this.size = [w, h];
    this.apply();
  }

  /** World units per pixel that show the framed region whole. */
  get unitsPerPixel() {
    const [w, h] = this.size;
    return Math.max(this.region.width / w, this.region.height / h);
  }

  /** The visible rectangle {left, right, bottom, top}. */
  get visibleRect() {
    const [w, h] = this.size;
    const u = this.unitsPerPixel;
    const [cx, cy] = this.region.center;
    return { left: cx - (w * u) / 2, right: cx + (w * u) / 2, bottom: cy - (h * u) / 2, top: cy + (h * u) / 2 };
  }

  /** Puts the framed region on the camera. */
  apply() {
    Object.assign(this.camera, this.visibleRect);
    this.camera.updateProjectionMatrix();
    this.worldPerPixel = this.unitsPerPixel;
  }

  /** The world point at canvas pixel (px, py). */
  toWorld(px, py) {
    const c = this.camera;
    return [c.left + (px / this.size[0]) * (c.right - c.left), c.top - (py / this.size[1]) * (c.top - c.bottom)];
  }

  /**
   * Keeps the bodies in view: a close-up on its body, else (following) the box of every body. `box`
   * {left, right, bottom, top} of every body; `target` {x, y, radius} of the close-up's body.
   */
  track(box, target) {
    if (this.closeUp !== null && target) this.#closeUp(target);
    else if (this.follow && box) this.#keepInView(box);
  }

  /**
   * Centres the close-up's body, zoomed in until it is CLOSE_UP_PX in radius (never out beyond the scenario's
   * view), the whole body always inside (a drawing area not laid out yet is a pixel wide).
   */
  #closeUp({ x, y, radius }) {
    const [w, h] = this.size;
    const base = Math.max(this.view.width / w, this.view.width / 2 / h);
    const u = Math.max(Math.min(base, radius / CLOSE_UP_PX), (2.5 * radius) / Math.min(w, h));
    this.region = { center: [x, y], width: w * u, height: h * u };
    this.apply();
  }

  /**
   * Following: when a body comes within FOLLOW_MARGIN of the view's edge the camera eases the bodies back
   * towards the middle (and always pans at least enough to keep them inside); when the bodies no longer
   * fit, it zooms out just enough. A scene whose bodies stay inside keeps a still camera.
   */
  #keepInView(box) {
    const [w, h] = this.size;
    const spanX = box.right - box.left;
    const spanY = box.top - box.bottom;
    // Zoom out if the box with its margins does not fit at the current scale.
    const u = Math.max(this.unitsPerPixel, spanX / (w * (1 - 2 * FOLLOW_MARGIN)), spanY / (h * (1 - 2 * FOLLOW_MARGIN)));
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
    if (u === this.unitsPerPixel && center[0] === cx && center[1] === cy) return;
    this.region = { center, width: w * u, height: h * u };
    this.apply();
  }

  /** Zooms by `factor` about the canvas point (px, py) (default: the centre). */
  zoomBy(factor, px = this.size[0] / 2, py = this.size[1] / 2) {
    const base = Math.max(this.view.width / this.size[0], this.view.width / 2 / this.size[1]);
    const next = Math.min(base / MIN_ZOOM, Math.max(base / MAX_ZOOM, this.unitsPerPixel / factor));
    const before = this.toWorld(px, py);
    this.region = { center: this.region.center, width: this.size[0] * next, height: this.size[1] * next };
    this.apply();
    const after = this.toWorld(px, py);
    this.region.center = [this.region.center[0] + before[0] - after[0], this.region.center[1] + before[1] - after[1]];
    this.apply();
  }

  /** Pans by (dx, dy) canvas pixels. */
  panBy(dx, dy) {
    const [cx, cy] = this.region.center;
    this.region.center = [cx - dx * this.worldPerPixel, cy + dy * this.worldPerPixel];
    this.apply();
  }

  /** The scenario's view again, moved and widened as the bodies in `box` need. */
  frame(box) {
    this.region = { center: [...this.view.center], width: this.view.width, height: this.view.width / 2 };
    this.apply();
    if (box) this.#keepInView(box);
  }

  /** The part of the world framed now, {center, width, height} in metres (a copy). */
  get shownRegion() {
    return { center: [...this.region.center], width: this.region.width, height: this.region.height };
  }

  showRegion(region) {
    this.region = { center: [...region.center], width: region.width, height: region.height };
    this.apply();
  }
}
