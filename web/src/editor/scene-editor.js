// Editing a scenario in its scene, as PhET users expect: drag a body to move it, drag from it (the Velocity
// tool, or with Shift) to draw its initial velocity as an arrow, drag an arrow's tip to change it; add a
// disk, a box or a rod from the palette, delete the selected body, and change its mass, size, position,
// velocity and e in the inspector. The scene shows the document's initial state; every change is handed to
// the editor as JSON Patch operations (scenario-edits.js), so the JSON follows it and one undo reverts it.
// With the keyboard: the arrow keys move the selected body, Delete removes it, Escape lets it go.
import * as THREE from 'three';
import { Scene } from '../ui/playground/scene.js';
import { boundingRadius } from '../ui/playground/scene-objects.js';
import { el, uniqueId } from '../ui/widgets/dom.js';
import { segmented } from '../ui/widgets/segmented.js';
import {
  addBody, contactsOf, deleteBody, gridStep, moveBody, newShape, renameBody, roundTo, setBodyProperty, setBodyRestitution,
  setVelocity,
} from './scenario-edits.js';
import { freeSpot } from './free-space.js';

/** A velocity arrow is as long as the distance the body covers in this time (s). */
export const ARROW_SECONDS = 0.25;
/** Pixels within which a pointer picks an arrow's tip. */
const TIP_PIXELS = 10;
/** Pixels a pointer must move before a press becomes a drag. */
const DRAG_PIXELS = 3;
const ARROW_COLOR = new THREE.Color('#0b5fa5');
const SELECT_COLOR = new THREE.Color('#1a73e8');

/** The fields of the inspector, by shape: [key, label, unit]. */
const SHAPE_FIELDS = {
  disk: [['shape.radius', 'radius', 'm']],
  box: [['shape.width', 'width', 'm'], ['shape.height', 'height', 'm']],
  rod: [['shape.length', 'length', 'm'], ['shape.radius', 'end radius', 'm']],
  point: [['shape.radius', 'radius (drawn)', 'm']],
  wheel: [['shape.radius', 'spoke length', 'm'], ['shape.spokes', 'spokes', '']],
};

/** True when world point p is on body b (normalized) at its position and angle: the shape itself, a few pixels around thin ones. */
function onBody(body, p, slack) {
  const [cx, cy] = body.position;
  const a = body.angle;
  const dx = p[0] - cx;
  const dy = p[1] - cy;
  // In the body's frame.
  const x = Math.cos(a) * dx + Math.sin(a) * dy;
  const y = -Math.sin(a) * dx + Math.cos(a) * dy;
  const { shape } = body;
  switch (shape.type) {
    case 'box': return Math.abs(x) <= shape.width / 2 + slack && Math.abs(y) <= shape.height / 2 + slack;
    case 'rod': {
      const half = shape.length / 2;
      return Math.hypot(x - Math.max(-half, Math.min(half, x)), y) <= Math.max(shape.radius, 0) + slack;
    }
    default: return Math.hypot(x, y) <= shape.radius + slack;
  }
}

/** A flat arrow from the origin along +x, `length` long, `width` wide (world units), in `color`. */
function arrowMesh(length, width, color) {
  const head = Math.min(length * 0.4, width * 4);
  const shape = new THREE.Shape([
    new THREE.Vector2(0, -width / 2), new THREE.Vector2(length - head, -width / 2), new THREE.Vector2(length - head, -head * 0.55),
    new THREE.Vector2(length, 0), new THREE.Vector2(length - head, head * 0.55), new THREE.Vector2(length - head, width / 2),
    new THREE.Vector2(0, width / 2),
  ]);
  return new THREE.Mesh(new THREE.ShapeGeometry(shape), new THREE.MeshBasicMaterial({ color, transparent: true, opacity: 0.9, depthTest: false }));
}

function ring(radius, width, color) {
  return new THREE.Mesh(new THREE.RingGeometry(Math.max(0, radius - width / 2), radius + width / 2, 48),
    new THREE.MeshBasicMaterial({ color, transparent: true, opacity: 0.85, depthTest: false }));
}

export class SceneEditor {
  /**
   * @param {{onEdit: (operations: object[], what: string, select?: number) => void, onError: (message: string) => void}} options
   *   onEdit gets the operations of one change, a few words for it, and the body to select afterwards
   */
  constructor({ onEdit, onError }) {
    this.onEdit = onEdit;
    this.onError = onError;
    this.doc = null;
    this.normalized = null;
    this.selected = null;
    this.tool = 'move';
    this.drag = null;
    this.scene = new Scene({ autoCloseUp: false });
    // The view stays where the reader put it: bodies are moved in it, the camera does not chase them.
    this.scene.setFollow(false);
    this.scene.canvas.tabIndex = 0;
    this.scene.canvas.dataset.testid = 'editor-scene';
    this.overlay = new THREE.Group();
    this.overlay.renderOrder = 10;
    this.scene.addOverlay(this.overlay);
    this.scene.setPointerHandler({
      down: (event, world) => this.#down(event, world),
      move: (event, world) => this.#move(event, world),
      up: (event, world, cancelled) => this.#up(event, world, cancelled),
      hover: (event, world) => this.#hover(world),
    });
    this.scene.canvas.addEventListener('keydown', (event) => this.#key(event));

    const tools = segmented({
      legend: 'What a drag on a body does',
      options: [{ value: 'move', label: 'Move' }, { value: 'velocity', label: 'Velocity ↗' }],
      value: 'move', onChange: (tool) => { this.tool = tool; },
    });
    this.tools = tools;
    const add = (type, label) => el('button', { type: 'button', class: 'button small', 'data-add': type, text: label,
      on: { click: () => this.#add(type) } });
    this.deleteButton = el('button', { type: 'button', class: 'button small', text: 'Delete body', disabled: true,
      'data-testid': 'editor-delete', on: { click: () => this.#delete() } });
    this.stale = el('p', { class: 'scene-stale', hidden: true,
      text: 'The JSON has a problem: the scene shows the last version that worked, and waits.' });
    this.inspector = el('div', { class: 'inspector' });
    this.element = el('section', { class: 'scene-editor panel', 'aria-label': 'Edit in the scene' },
      el('div', { class: 'palette', role: 'toolbar', 'aria-label': 'Scene tools' },
        el('span', { class: 'palette-label', 'aria-hidden': 'true', text: 'Drag:' }), tools.element, el('span', { class: 'palette-sep', 'aria-hidden': 'true' }),
        add('disk', '+ Disk'), add('box', '+ Box'), add('rod', '+ Rod'), this.deleteButton),
      el('div', { class: 'scene-editor-stage' }, this.scene.element, this.stale),
      el('p', { class: 'small muted scene-editor-help', text: 'Drag a body to move it. With Velocity (or holding Shift), ' +
        'drag from a body to draw its initial velocity; drag an arrow’s tip to change it. Arrow keys move the selected ' +
        'body, Delete removes it. Every change is one step of undo (Ctrl+Z).' }),
      this.inspector);
    this.#inspect();
  }

  /** Shows a document (`doc`, as written) through its normalized form (every default filled). */
  show(doc, normalized) {
    const keep = this.normalized ? this.scene.shownRegion : null;
    const sameView = keep && JSON.stringify(this.normalized.view) === JSON.stringify(normalized.view);
    this.doc = doc;
    this.normalized = normalized;
    this.scene.setScenario(normalized);
    // The reader's pan and zoom stay across edits.
    if (sameView) this.scene.showRegion(keep);
    if (this.pendingSelect !== undefined) {
      this.selected = this.pendingSelect;
      this.pendingSelect = undefined;
    }
    if (this.selected !== null && this.selected >= normalized.bodies.length) this.selected = null;
    this.stale.hidden = true;
    this.#draw();
    this.#inspect();
  }

  /** The text cannot be shown (not JSON, or not a valid scenario): keep the last good scene, say so. */
  showStale() {
    this.stale.hidden = false;
  }

  /** Selects body `i` (null: none). */
  select(i) {
    this.selected = i;
    this.#draw();
    this.#inspect();
  }

  // ---- drawing ----

  #positions() {
    const bodies = this.normalized.bodies;
    const q = new Float64Array(3 * bodies.length);
    bodies.forEach((b, i) => {
      const p = this.drag?.index === i && this.drag.position ? this.drag.position : b.position;
      q.set([p[0], p[1], b.angle], 3 * i);
    });
    return q;
  }

  /** The velocity of body i shown now (the one being dragged, or the document's). */
  #velocity(i) {
    if (this.drag?.index === i && this.drag.velocity) return this.drag.velocity;
    return this.normalized.bodies[i].velocity;
  }

  #draw() {
    if (!this.normalized) return;
    this.scene.update({ positions: this.#positions(), contacts: [], impacts: [] });
    for (const child of [...this.overlay.children]) {
      this.overlay.remove(child);
      child.geometry?.dispose();
      child.material?.dispose();
    }
    const px = this.scene.pixelSize || this.normalized.view.width / 600;
    const q = this.#positions();
    this.normalized.bodies.forEach((body, i) => {
      const [vx, vy] = this.#velocity(i);
      const speed = Math.hypot(vx, vy);
      const at = [q[3 * i], q[3 * i + 1]];
      if (i === this.selected) {
        const mark = ring(boundingRadius(body) + 4 * px, 2.5 * px, SELECT_COLOR);
        mark.position.set(at[0], at[1], 0.5);
        this.overlay.add(mark);
      }
      if (speed * ARROW_SECONDS < 2 * px) return;
      const arrow = arrowMesh(speed * ARROW_SECONDS, 3 * px, ARROW_COLOR);
      arrow.position.set(at[0], at[1], 0.6);
      arrow.rotation.z = Math.atan2(vy, vx);
      this.overlay.add(arrow);
      const tip = ring(5 * px, 2 * px, ARROW_COLOR);
      tip.position.set(at[0] + vx * ARROW_SECONDS, at[1] + vy * ARROW_SECONDS, 0.61);
      this.overlay.add(tip);
    });
    this.scene.requestRender();
    this.scene.canvas.setAttribute('aria-label', this.#describe());
  }

  #describe() {
    const bodies = this.normalized.bodies.map((b, i) => {
      const v = b.velocity;
      return `${b.name} (${b.shape.type}) at (${b.position.map((x) => x.toFixed(3)).join(', ')})` +
        (v[0] || v[1] ? ` moving at (${v.map((x) => x.toFixed(2)).join(', ')}) m/s` : '') + (i === this.selected ? ', selected' : '');
    });
    return `Scene editor: ${bodies.join('; ')}.`;
  }

  // ---- pointer ----

  #tipAt(world) {
    if (!this.normalized) return null;
    const px = this.scene.pixelSize;
    const q = this.#positions();
    for (let i = this.normalized.bodies.length - 1; i >= 0; i--) {
      const [vx, vy] = this.#velocity(i);
      if (Math.hypot(vx, vy) * ARROW_SECONDS < 2 * px) continue;
      const tip = [q[3 * i] + vx * ARROW_SECONDS, q[3 * i + 1] + vy * ARROW_SECONDS];
      if (Math.hypot(world[0] - tip[0], world[1] - tip[1]) <= TIP_PIXELS * px) return i;
    }
    return null;
  }

  #bodyAt(world) {
    if (!this.normalized) return null;
    const slack = 3 * this.scene.pixelSize;
    for (let i = this.normalized.bodies.length - 1; i >= 0; i--) if (onBody(this.normalized.bodies[i], world, slack)) return i;
    return null;
  }

  #down(event, world) {
    if (event.button !== 0 || !this.normalized) return false;
    this.scene.canvas.focus({ preventScroll: true });
    const tip = this.#tipAt(world);
    if (tip !== null) {
      this.select(tip);
      this.drag = { kind: 'velocity', index: tip, start: [event.clientX, event.clientY], moved: false };
      return true;
    }
    const i = this.#bodyAt(world);
    if (i === null) {
      if (this.selected !== null) this.select(null);
      return false;  // the scene pans
    }
    this.select(i);
    const body = this.normalized.bodies[i];
    const kind = this.tool === 'velocity' || event.shiftKey ? 'velocity' : 'move';
    this.drag = { kind, index: i, start: [event.clientX, event.clientY], moved: false,
      offset: [world[0] - body.position[0], world[1] - body.position[1]] };
    return true;
  }

  #move(event, world) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.start[0], event.clientY - drag.start[1]) < DRAG_PIXELS) return;
    drag.moved = true;
    const body = this.normalized.bodies[drag.index];
    if (drag.kind === 'move') drag.position = [world[0] - drag.offset[0], world[1] - drag.offset[1]];
    else drag.velocity = [(world[0] - body.position[0]) / ARROW_SECONDS, (world[1] - body.position[1]) / ARROW_SECONDS];
    this.#draw();
  }

  #up(event, world, cancelled) {
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.moved || cancelled) {
      this.#draw();
      return;
    }
    const i = drag.index;
    const name = this.normalized.bodies[i].name;
    const step = gridStep(this.scene.pixelSize);
    if (drag.kind === 'move') {
      const position = drag.position.map((x) => roundTo(x, step));
      this.#edit(moveBody(this.doc, i, position), `moved ${name}`, i);
    } else {
      const vStep = gridStep(this.scene.pixelSize / ARROW_SECONDS);
      let velocity = drag.velocity.map((v) => roundTo(v, vStep));
      if (Math.hypot(...velocity) * ARROW_SECONDS < 4 * this.scene.pixelSize) velocity = [0, 0];
      this.#edit(setVelocity(this.doc, i, velocity), `set the velocity of ${name}`, i);
    }
  }

  #hover(world) {
    const canvas = this.scene.canvas;
    if (this.#tipAt(world) !== null) canvas.style.cursor = 'crosshair';
    else if (this.#bodyAt(world) !== null) canvas.style.cursor = this.tool === 'velocity' ? 'crosshair' : 'move';
    else canvas.style.cursor = '';
  }

  #key(event) {
    if (this.selected === null || !this.normalized || event.ctrlKey || event.metaKey || event.altKey) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const i = this.selected;
    if (moves[event.key]) {
      event.preventDefault();
      event.stopPropagation();
      const step = gridStep(this.normalized.view.width / 100) * (event.shiftKey ? 10 : 1);
      const p = this.normalized.bodies[i].position;
      const position = [roundTo(p[0] + moves[event.key][0] * step, step / 10), roundTo(p[1] + moves[event.key][1] * step, step / 10)];
      this.#edit(moveBody(this.doc, i, position), `moved ${this.normalized.bodies[i].name}`, i);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      this.#delete();
    } else if (event.key === 'Escape') {
      this.select(null);
    }
  }

  // ---- palette and inspector ----

  #edit(operations, what, select) {
    if (!operations.length) return;
    this.pendingSelect = select;
    this.onEdit(operations, what);
  }

  /**
   * Adds a body of `type` in free space inside the view (free-space.js): clear of every body and on the free
   * side of every plane, nearest to the middle of what is shown; when the view has no such place, says so.
   */
  #add(type) {
    if (!this.normalized) return;
    const width = this.normalized.view.width;
    const step = gridStep(width / 100);
    const shape = newShape(type, width);
    const radius = boundingRadius({ shape });
    const spot = freeSpot({
      rect: this.scene.visibleRect,
      radius,
      bodies: this.normalized.bodies.map((b) => ({ position: b.position, radius: boundingRadius(b) })),
      planes: this.normalized.planes,
      margin: Math.max(radius * 0.1, step),
      round: (x) => roundTo(x, step),
    });
    if (!spot) {
      this.onError(`No free space for a new ${type} in the part of the scene shown: zoom out (−) or move bodies, then add it. Nothing was added.`);
      return;
    }
    const { operations, index, name } = addBody(this.doc, type, spot, width, shape);
    this.#edit(operations, `added ${name} at (${spot.join(', ')})`, index);
  }

  #delete() {
    if (this.selected === null) return;
    const name = this.normalized.bodies[this.selected].name;
    try {
      this.#edit(deleteBody(this.doc, this.selected), `deleted ${name}`, null);
    } catch (error) {
      this.onError(error.message);
    }
  }

  #inspect() {
    const i = this.selected;
    this.deleteButton.disabled = i === null;
    if (i === null || !this.normalized) {
      this.inspected = null;
      this.inspector.replaceChildren(el('p', { class: 'muted small', text: this.normalized
        ? 'Select a body (click it) to change its mass, size, position, velocity and restitution here.' : '' }));
      return;
    }
    const body = this.normalized.bodies[i];
    const raw = this.doc.bodies[i] ?? {};
    const { shape } = body;
    const contacts = contactsOf(this.doc, raw.name);
    // A contact's e is null when it takes the scenario's restitution (the normalized form says so).
    const es = contacts.map((k) => this.normalized.contacts[k].e ?? this.normalized.restitution);
    const sameE = es.length && es.every((e) => e === es[0]) ? es[0] : '';
    const focused = document.activeElement?.dataset?.field;
    const field = (key, label, unit, value, { type = 'number', commit, step = 'any', disabled = false } = {}) => {
      const id = uniqueId('inspect');
      const input = el('input', { id, type, step, value: value ?? '', class: 'number-input', 'data-field': key, disabled,
        autocomplete: 'off', spellcheck: 'false' });
      input.addEventListener('change', () => {
        const text = input.value.trim();
        if (text === '') return;
        const parsed = type === 'number' ? Number(text) : text;
        if (type === 'number' && !Number.isFinite(parsed)) return;
        commit(parsed);
      });
      return el('div', { class: 'inspect-row' }, el('label', { for: id, text: label }), input,
        el('span', { class: 'unit', text: unit }));
    };
    const edit = (operations, what) => this.#edit(operations, what, i);
    // Commits read the body as it is then (the fields outlive edits made elsewhere).
    const now = () => this.normalized.bodies[i];
    const velocity = () => now().velocity;
    const rows = [
      field('name', 'name', '', raw.name, { type: 'text', commit: (v) => edit(renameBody(this.doc, i, v), `renamed ${raw.name}`) }),
      field('mass', 'mass', 'kg', body.mass, { commit: (v) => edit(setBodyProperty(this.doc, i, 'mass', v), `mass of ${now().name}`) }),
      ...(SHAPE_FIELDS[shape.type] ?? []).map(([key, label, unit]) => field(key, label, unit, shape[key.slice(6)],
        { step: key === 'shape.spokes' ? 1 : 'any', commit: (v) => edit(setBodyProperty(this.doc, i, key, v), `${label} of ${now().name}`) })),
      field('position.x', 'x', 'm', body.position[0], { commit: (v) => edit(moveBody(this.doc, i, [v, now().position[1]]), `moved ${now().name}`) }),
      field('position.y', 'y', 'm', body.position[1], { commit: (v) => edit(moveBody(this.doc, i, [now().position[0], v]), `moved ${now().name}`) }),
      field('angle', 'angle', 'rad', body.angle, { commit: (v) => edit(setBodyProperty(this.doc, i, 'angle', v), `turned ${now().name}`) }),
      field('velocity.x', 'vx', 'm/s', body.velocity[0], { commit: (v) => edit(setVelocity(this.doc, i, [v, velocity()[1]]), `velocity of ${now().name}`) }),
      field('velocity.y', 'vy', 'm/s', body.velocity[1], { commit: (v) => edit(setVelocity(this.doc, i, [velocity()[0], v]), `velocity of ${now().name}`) }),
      field('angular_velocity', 'ω', 'rad/s', body.angular_velocity, { commit: (v) => edit(setBodyProperty(this.doc, i, 'angular_velocity', v), `spin of ${now().name}`) }),
      field('e', `e (${contacts.length} contact${contacts.length === 1 ? '' : 's'})`, '', sameE, { disabled: !contacts.length,
        commit: (v) => edit(setBodyRestitution(this.doc, i, v), `e of ${now().name}`) }),
    ];
    // The same body as before: new values go into the fields in place (the one being typed in is left
    // alone); another body, or another shape: new fields.
    const key = JSON.stringify([i, raw.name, shape.type, contacts.length]);
    if (this.inspected === key) {
      for (const row of rows) {
        const input = row.querySelector('input');
        const current = this.inspector.querySelector(`[data-field="${CSS.escape(input.dataset.field)}"]`);
        if (current && current !== document.activeElement) current.value = input.value;
      }
      return;
    }
    this.inspected = key;
    this.inspector.replaceChildren(el('h3', { text: `Selected: ${raw.name} (${shape.type})` }),
      el('div', { class: 'inspect-grid' }, rows));
    if (focused) this.inspector.querySelector(`[data-field="${CSS.escape(focused)}"]`)?.focus();
  }
}
