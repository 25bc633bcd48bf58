// Three.js objects for the parts of a scenario, all flat in the z = 0 plane: bodies (disk with a radius
// line, box, capsule rod, point, rimless wheel with spokes), half-planes (a filled ground area with a border
// line), joints (pins as rings, distance links as lines), contact-point markers and impulse arrows. They are
// made from a normalized scenario (the engine's normalizeScenario: every field present, every default filled
// in by the core), so nothing here repeats a default of the format.
import * as THREE from 'three';
import { BODY_PALETTE, CONTACT_COLORS } from '../widgets/colors.js';

const CIRCLE_SEGMENTS = 64;

let probe = null;

/** #rgb or #rrggbb: the colours written as bytes, read without painting. */
const HEX_COLOR = /^\s*#([0-9a-f]{3}|[0-9a-f]{6})\s*$/i;

/** A THREE.Color from a scenario's CSS colour, or the palette's i-th colour when it is empty or invalid. */
export function bodyColor(css, i) {
  const valid = typeof css === 'string' && css.trim() !== '' && globalThis.CSS?.supports?.('color', css);
  if (!valid) return new THREE.Color(BODY_PALETTE[i % BODY_PALETTE.length]);
  // A hex colour is its sRGB bytes: the same bytes the painted pixel below gives, without a 2D canvas (the
  // first one costs the page a GPU context in Chromium, on the way to its first frame).
  const hex = HEX_COLOR.exec(css)?.[1];
  if (hex) {
    const digits = hex.length === 3 ? [...hex].map((d) => d + d) : [hex.slice(0, 2), hex.slice(2, 4), hex.slice(4, 6)];
    const [r, g, b] = digits.map((pair) => Number.parseInt(pair, 16));
    return new THREE.Color().setRGB(r / 255, g / 255, b / 255, THREE.SRGBColorSpace);
  }
  // Any other CSS colour the browser knows, resolved to sRGB bytes by painting one pixel.
  probe ??= new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = '#000';
  probe.fillStyle = css;
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
  return new THREE.Color().setRGB(r / 255, g / 255, b / 255, THREE.SRGBColorSpace);
}

const darker = (color, f = 0.55) => color.clone().multiplyScalar(f);
const lighter = (color, f = 0.45) => color.clone().lerp(new THREE.Color(1, 1, 1), f);

/** A flat material of `color`, translucent when `opacity` < 1. */
function solid(color, opacity = 1) {
  return new THREE.MeshBasicMaterial({ color, transparent: opacity < 1, opacity });
}

/** A mesh of `geometry` at depth `z`, drawn with `material` (a colour: a material of its own). */
function fill(geometry, material, z = 0, opacity = 1) {
  const mesh = new THREE.Mesh(geometry, material.isMaterial ? material : solid(material, opacity));
  mesh.position.z = z;
  return mesh;
}

function outline(points, color, z = 0.01, closed = true) {
  const geometry = new THREE.BufferGeometry().setFromPoints(points.map((p) => new THREE.Vector3(p.x, p.y, z)));
  const material = new THREE.LineBasicMaterial({ color });
  return closed ? new THREE.LineLoop(geometry, material) : new THREE.Line(geometry, material);
}

/** A thin rectangle from (x0, y0) to (x1, y1) of width w (`color`, or a material): lines thicker than WebGL's one pixel. */
export function bar(x0, y0, x1, y1, w, color, z = 0.02) {
  const length = Math.hypot(x1 - x0, y1 - y0);
  const mesh = fill(new THREE.PlaneGeometry(Math.max(length, 1e-9), w), color, z);
  mesh.position.set((x0 + x1) / 2, (y0 + y1) / 2, z);
  mesh.rotation.z = Math.atan2(y1 - y0, x1 - x0);
  return mesh;
}

function circlePoints(r) {
  return Array.from({ length: CIRCLE_SEGMENTS }, (_, k) => {
    const a = (2 * Math.PI * k) / CIRCLE_SEGMENTS;
    return new THREE.Vector2(r * Math.cos(a), r * Math.sin(a));
  });
}

/** A body in its own frame (the group is moved to (x, y) and turned by θ every frame). */
export function bodyObject(body, index) {
  const { shape } = body;
  const color = bodyColor(body.color, index);
  const edge = darker(color);
  const group = new THREE.Group();
  group.name = body.name || `body ${index + 1}`;
  const { type } = shape;
  const r = shape.radius;
  if (type === 'box') {
    const w = shape.width;
    const h = shape.height;
    group.add(fill(new THREE.PlaneGeometry(w, h), color));
    group.add(outline([new THREE.Vector2(-w / 2, -h / 2), new THREE.Vector2(w / 2, -h / 2),
      new THREE.Vector2(w / 2, h / 2), new THREE.Vector2(-w / 2, h / 2)], edge));
    group.add(fill(new THREE.CircleGeometry(Math.min(w, h) * 0.06, 16), edge, 0.02));
  } else if (type === 'rod') {
    const L = shape.length;
    const capsule = new THREE.Shape();
    capsule.absarc(L / 2, 0, r, -Math.PI / 2, Math.PI / 2, false);
    capsule.absarc(-L / 2, 0, r, Math.PI / 2, (3 * Math.PI) / 2, false);
    group.add(fill(new THREE.ShapeGeometry(capsule, 24), color));
    group.add(outline(capsule.getPoints(24), edge));
    group.add(fill(new THREE.CircleGeometry(Math.max(r, L * 0.01) * 0.35, 16), edge, 0.02));
  } else if (type === 'point') {
    group.add(fill(new THREE.CircleGeometry(r, 32), darker(color, 0.8)));
    group.add(outline(circlePoints(r), edge));
  } else if (type === 'wheel') {
    const { spokes } = shape;
    const w = Math.max(r * 0.045, 0.004);
    for (let j = 0; j < spokes; j++) {
      const a = (2 * Math.PI * j) / spokes;
      group.add(bar(0, 0, r * Math.cos(a), r * Math.sin(a), w, j === 0 ? edge : color));
      const tip = fill(new THREE.CircleGeometry(w * 1.2, 12), edge, 0.03);
      tip.position.set(r * Math.cos(a), r * Math.sin(a), 0.03);
      group.add(tip);
    }
    group.add(fill(new THREE.CircleGeometry(r * 0.14, 24), color, 0.025));
    group.add(outline(circlePoints(r * 0.14), edge, 0.03));
  } else {
    // Disk: solid, with a radius line so that rotation shows.
    group.add(fill(new THREE.CircleGeometry(r, CIRCLE_SEGMENTS), color));
    group.add(outline(circlePoints(r), edge));
    group.add(bar(0, 0, r, 0, Math.max(r * 0.07, 0.003), lighter(color, 0.85)));
  }
  return group;
}

/**
 * The solid side of the half-plane {p : n·(p − point) < 0}: a large filled quad, and its border line where
 * it borders free space (not inside the solid of another plane of `planes`, so that two walls meeting in a
 * corner show a corner, not a cross).
 */
export function planeObject(plane, planes = [plane]) {
  const [px, py] = plane.point;
  let [nx, ny] = plane.normal;
  const len = Math.hypot(nx, ny) || 1;
  nx /= len;
  ny /= len;
  const tx = -ny;
  const ty = nx;
  const L = 1e4;
  const group = new THREE.Group();
  const shape = new THREE.Shape([
    new THREE.Vector2(px + L * tx, py + L * ty), new THREE.Vector2(px - L * tx, py - L * ty),
    new THREE.Vector2(px - L * tx - L * nx, py - L * ty - L * ny), new THREE.Vector2(px + L * tx - L * nx, py + L * ty - L * ny),
  ]);
  group.add(fill(new THREE.ShapeGeometry(shape), new THREE.Color('#e4ded3'), -0.5));
  // The border p(s) = point + s·t is in free space where every other plane j has n_j·(p(s) − point_j) ≥ 0.
  let [from, to] = [-L, L];
  for (const other of planes) {
    if (other === plane) continue;
    const [ox, oy] = other.point;
    let [mx, my] = other.normal;
    const m = Math.hypot(mx, my) || 1;
    mx /= m;
    my /= m;
    const offset = mx * (px - ox) + my * (py - oy);
    const slope = mx * tx + my * ty;
    if (Math.abs(slope) < 1e-12) {
      if (offset < 0) to = from;  // parallel and inside the other solid: no border shows
    } else if (slope > 0) {
      from = Math.max(from, -offset / slope);
    } else {
      to = Math.min(to, -offset / slope);
    }
  }
  if (to > from) {
    group.add(outline([new THREE.Vector2(px + from * tx, py + from * ty), new THREE.Vector2(px + to * tx, py + to * ty)],
      new THREE.Color('#5d564b'), -0.4, false));
  }
  return group;
}

/** A pin: a small ring; its position is set every frame. */
export function pinObject(size) {
  const group = new THREE.Group();
  group.add(fill(new THREE.RingGeometry(size * 0.55, size, 32), new THREE.Color('#222831'), 0.2));
  group.add(fill(new THREE.CircleGeometry(size * 0.55, 32), new THREE.Color('#ffffff'), 0.19));
  return group;
}

/** A link between two world points (distance joints, ropes): a line whose ends are set every frame. */
export function linkObject(color = '#222831', dashed = false) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(6), 3));
  const material = dashed
    ? new THREE.LineDashedMaterial({ color, dashSize: 0.04, gapSize: 0.03 })
    : new THREE.LineBasicMaterial({ color });
  const line = new THREE.Line(geometry, material);
  line.position.z = 0.15;
  return line;
}

/** Moves a link's ends. */
export function setLink(line, a, b) {
  const p = line.geometry.attributes.position;
  p.setXYZ(0, a[0], a[1], 0);
  p.setXYZ(1, b[0], b[1], 0);
  p.needsUpdate = true;
  line.geometry.computeBoundingSphere();
  if (line.material.isLineDashedMaterial) line.computeLineDistances();
}

const CONTACT_MATERIALS = Object.fromEntries(Object.entries(CONTACT_COLORS).map(([state, css]) => [state,
  new THREE.MeshBasicMaterial({ color: new THREE.Color(css), transparent: state === 'inactive',
    opacity: state === 'inactive' ? 0.55 : 1 })]));

/** A contact-point marker (a dot coloured by state: inactive, active, impacting). */
export function contactMarker(size) {
  const mesh = new THREE.Mesh(new THREE.CircleGeometry(size, 20), CONTACT_MATERIALS.inactive);
  mesh.position.z = 0.3;
  return mesh;
}

/** Recolours a contact marker for its state; an active point that slides (`sliding`) has its own colour. */
export function setContactState(mesh, state, sliding = false) {
  const shown = state === 'active' && sliding ? 'sliding' : state;
  mesh.userData.sliding = shown === 'sliding';
  mesh.material = CONTACT_MATERIALS[shown] ?? CONTACT_MATERIALS.inactive;
  mesh.scale.setScalar(state === 'impacting' ? 1.5 : state === 'active' ? 1.15 : 0.8);
}

/** Opacity of a fresh impulse arrow (translucent: the body under it shows). */
const IMPULSE_OPACITY = 0.62;
/**
 * The steps of an impulse arrow's fade. The arrows share one fill and one outline material per step: a
 * material of its own per arrow, freed when it faded, also freed its WebGL program once no arrow was left,
 * and the next impact compiled it again (most of the page's time when impacts come fast).
 */
const FADE_STEPS = 32;
const ARROW_COLOR = new THREE.Color(CONTACT_COLORS.impacting);
const ARROW_FILLS = Array.from({ length: FADE_STEPS + 1 }, (_, s) => new THREE.MeshBasicMaterial({
  color: ARROW_COLOR, transparent: true, opacity: (IMPULSE_OPACITY * s) / FADE_STEPS, depthWrite: false }));
const ARROW_EDGES = Array.from({ length: FADE_STEPS + 1 }, (_, s) => new THREE.LineBasicMaterial({
  color: darker(ARROW_COLOR, 0.6), transparent: true, opacity: s / FADE_STEPS }));
/** Materials shared by many objects, never freed (disposeObject leaves them). */
const SHARED_MATERIALS = new Set([...Object.values(CONTACT_MATERIALS), ...ARROW_FILLS, ...ARROW_EDGES]);

/** Outline points of an arrow along +x from 0 to `length`: shaft of `width`, head of `head`. */
function arrowOutline(length, width, head) {
  const neck = Math.max(length - head, 0);
  return [new THREE.Vector2(0, -width / 2), new THREE.Vector2(neck, -width / 2), new THREE.Vector2(neck, -head * 0.6),
    new THREE.Vector2(length, 0), new THREE.Vector2(neck, head * 0.6), new THREE.Vector2(neck, width / 2),
    new THREE.Vector2(0, width / 2)];
}

/**
 * An impulse arrow from `from` along `direction` (unit) of `length`: translucent, with a dark outline, so
 * that the body under it still shows. Fades with setArrowFade.
 */
export function arrowObject(from, direction, length, width) {
  const head = Math.min(length * 0.45, width * 3.5);
  const points = arrowOutline(length, width, head);
  const fill = new THREE.Mesh(new THREE.ShapeGeometry(new THREE.Shape(points)), ARROW_FILLS[FADE_STEPS]);
  const edge = new THREE.LineLoop(new THREE.BufferGeometry().setFromPoints(points.map((p) => new THREE.Vector3(p.x, p.y, 0.01))),
    ARROW_EDGES[FADE_STEPS]);
  const group = new THREE.Group();
  group.add(fill, edge);
  group.position.set(from[0], from[1], 0.4);
  group.rotation.z = Math.atan2(direction[1], direction[0]);
  group.userData.fill = fill;
  group.userData.edge = edge;
  return group;
}

/**
 * One object of each kind the scene draws, made as the scene makes them — a filled shape and an outline,
 * opaque, and an impulse arrow (a translucent fill and outline) — so that their four WebGL programs can be
 * compiled before the first draw. Three.js keys a program by the material's kind and settings and by the
 * geometry's attributes (colour and opacity are uniforms), so these four serve every body, plane, marker,
 * trail and arrow (a dashed link has its own).
 */
export function programSamples() {
  const group = new THREE.Group();
  group.add(bar(0, 0, 1, 0, 0.1, new THREE.Color(0, 0, 0)), outline(circlePoints(1), new THREE.Color(0, 0, 0)),
    arrowObject([0, 0], [1, 0], 1, 0.1));
  return group;
}

/** Shows an impulse arrow with `left` (1 fresh, 0 gone) of its opacity: the shared material of that step. */
export function setArrowFade(arrow, left) {
  const step = Math.round(Math.min(1, Math.max(0, left)) * FADE_STEPS);
  arrow.userData.fill.material = ARROW_FILLS[step];
  arrow.userData.edge.material = ARROW_EDGES[step];
}

/** A vector arrow's material: its colour, drawn over what lies under it without hiding what comes later. */
export function vectorMaterial(color) {
  return new THREE.MeshBasicMaterial({ color: new THREE.Color(color), depthWrite: false });
}

/**
 * A vector arrow (velocity, momentum) of fixed colour (or drawn with `material`, one vectorMaterial made) whose ends are set every frame with setVectorArrow:
 * a unit shaft and a unit head, scaled, so that nothing is allocated per frame.
 */
export function vectorArrow(color, z = 0.35, material = vectorMaterial(color)) {
  const shaft = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), material);
  const head = new THREE.Mesh(new THREE.ShapeGeometry(new THREE.Shape([new THREE.Vector2(-1, -0.6),
    new THREE.Vector2(0, 0), new THREE.Vector2(-1, 0.6)])), material);
  const group = new THREE.Group();
  group.add(shaft, head);
  group.position.z = z;
  group.userData = { shaft, head };
  return group;
}

/** Puts a vector arrow from `from` to `from + vector`, `width` wide; hidden when too short to draw. */
export function setVectorArrow(group, from, vector, width) {
  const length = Math.hypot(vector[0], vector[1]);
  group.visible = length > width * 1.5;
  if (!group.visible) return;
  const head = Math.min(length * 0.4, width * 3.2);
  const { shaft, head: tip } = group.userData;
  shaft.scale.set(length - head, width, 1);
  shaft.position.set((length - head) / 2, 0, 0);
  tip.scale.set(head, head, 1);
  tip.position.set(length, 0, 0);
  group.position.x = from[0];
  group.position.y = from[1];
  group.rotation.z = Math.atan2(vector[1], vector[0]);
}

/** The centre of mass's four materials: its ring (ink), the disk inside (white) and its cross's two bars (ink). */
export function centreOfMassMaterials() {
  const ink = new THREE.Color('#1d2127');
  return [solid(ink), solid(new THREE.Color('#ffffff')), solid(ink), solid(ink)];
}

/**
 * The centre of mass: a ring with a cross (the usual ⊕ of diagrams), `size` its radius, drawn with the four
 * `materials` of centreOfMassMaterials.
 */
export function centreOfMassObject(size, materials = centreOfMassMaterials()) {
  const group = new THREE.Group();
  const [ring, disk, across, up] = materials;
  group.add(fill(new THREE.RingGeometry(size * 0.72, size, 32), ring, 0.45));
  group.add(fill(new THREE.CircleGeometry(size * 0.72, 32), disk, 0.44));
  group.add(bar(-size, 0, size, 0, size * 0.22, across, 0.46));
  group.add(bar(0, -size, 0, size, size * 0.22, up, 0.46));
  group.position.z = 0.45;
  return group;
}

/**
 * A ring of unit radius drawn around a body that the camera has zoomed out to a few pixels, so that it stays
 * visible; scaled to a fixed size on screen every frame.
 */
export function haloObject(body, index) {
  const ring = fill(new THREE.RingGeometry(0.72, 1, 32), darker(bodyColor(body.color, index), 0.8), 0.05);
  ring.visible = false;
  return ring;
}

/** Radius of the smallest circle about the centre of mass that holds the body's shape (a normalized body). */
export function boundingRadius(body) {
  const { shape } = body;
  if (shape.type === 'box') return Math.hypot(shape.width, shape.height) / 2;
  if (shape.type === 'rod') return shape.length / 2 + shape.radius;
  return shape.radius;
}

/** A trail: the last `capacity` positions of a body's centre, as a line. */
export function trailObject(color, capacity) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(3 * capacity), 3));
  geometry.setDrawRange(0, 0);
  const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: lighter(color, 0.3), transparent: true, opacity: 0.55 }));
  line.position.z = -0.1;
  line.frustumCulled = false;
  line.userData = { capacity, count: 0 };
  return line;
}

/** Appends a point to a trail (oldest dropped). */
export function pushTrail(line, x, y) {
  const { capacity } = line.userData;
  const p = line.geometry.attributes.position;
  if (line.userData.count < capacity) {
    p.setXYZ(line.userData.count, x, y, 0);
    line.userData.count += 1;
  } else {
    p.array.copyWithin(0, 3);
    p.setXYZ(capacity - 1, x, y, 0);
  }
  p.needsUpdate = true;
  line.geometry.setDrawRange(0, line.userData.count);
}

/** Empties a trail. */
export function clearTrail(line) {
  line.userData.count = 0;
  line.geometry.setDrawRange(0, 0);
}

/** Frees the GPU resources of an object tree (the shared materials excepted). */
export function disposeObject(root) {
  root.traverse((node) => {
    node.geometry?.dispose();
    if (node.material && !SHARED_MATERIALS.has(node.material)) node.material.dispose();
  });
}
