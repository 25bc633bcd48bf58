// What the scene editor does to a scenario document, as JSON Patch operations (json-text-edit.js applies
// them to the text, keeping its formatting): move a body, set its initial velocity, change a property, add
// a disk, a box or a rod (with contacts against every plane, and against every other disk, so that it falls
// and collides as one expects), rename one (its references follow), delete one (with every joint, contact,
// force and impulse that refers to it). Each function returns the operations of one undoable change. Pure.

/** Bodies, joints, contacts, forces and impulses refer to a body by name (the format's rule). */
const REFERENCES = { joints: ['body_a', 'body_b'], contacts: ['body', 'body_a', 'body_b'], forces: ['body'], impulses: ['body'] };

/** A number rounded to `step` (a power of ten), without binary noise (0.30000000000000004 → 0.3). */
export function roundTo(value, step) {
  const decimals = Math.max(0, Math.min(12, -Math.floor(Math.log10(step) + 1e-9)));
  const rounded = Number((Math.round(value / step) * step).toFixed(decimals));
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** The power of ten just below `length` (the resolution of a drag that moves one pixel by `length`). */
export function gridStep(length) {
  return 10 ** Math.floor(Math.log10(Math.max(length, 1e-9)));
}

/** The operation that sets `/bodies/i/key` (add replaces a present member, RFC 6902). */
const setBody = (i, key, value) => ({ op: 'add', path: `/bodies/${i}/${key}`, value });

/** Moves body `i` to `position` ([x, y], metres). */
export function moveBody(doc, i, position) {
  return [setBody(i, 'position', position)];
}

/** Sets the initial velocity of body `i` ([vx, vy], m/s); a zero velocity removes the field (its default). */
export function setVelocity(doc, i, velocity) {
  const zero = velocity[0] === 0 && velocity[1] === 0;
  if (zero) return doc.bodies[i].velocity !== undefined ? [{ op: 'remove', path: `/bodies/${i}/velocity` }] : [];
  return [setBody(i, 'velocity', velocity)];
}

/** Sets a property of body `i`: a body key (mass, angle, angular_velocity, …) or `shape.<key>`. */
export function setBodyProperty(doc, i, key, value) {
  if (key.startsWith('shape.')) {
    const field = key.slice(6);
    if (doc.bodies[i].shape === undefined) return [setBody(i, 'shape', { type: 'disk', [field]: value })];
    return [{ op: 'add', path: `/bodies/${i}/shape/${field}`, value }];
  }
  return [setBody(i, key, value)];
}

/** The contacts (indices) that involve the body named `name`. */
export function contactsOf(doc, name) {
  return (doc.contacts ?? []).map((c, k) => [c, k]).filter(([c]) => REFERENCES.contacts.some((key) => c[key] === name)).map(([, k]) => k);
}

/** Sets e of every contact of body `i` (null: back to the scenario's restitution). */
export function setBodyRestitution(doc, i, e) {
  return contactsOf(doc, doc.bodies[i].name).map((k) => ({ op: 'add', path: `/contacts/${k}/e`, value: e }));
}

/** Renames body `i`; every reference to it follows. */
export function renameBody(doc, i, name) {
  const old = doc.bodies[i].name;
  const operations = [setBody(i, 'name', name)];
  for (const [list, keys] of Object.entries(REFERENCES)) {
    (doc[list] ?? []).forEach((item, k) => {
      for (const key of keys) if (item?.[key] === old) operations.push({ op: 'replace', path: `/${list}/${k}/${key}`, value: name });
    });
  }
  return operations;
}

/**
 * Deletes body `i` and everything that refers to it (the document would not be valid otherwise).
 * @throws {Error} when it is the only body (a scenario needs one)
 */
export function deleteBody(doc, i) {
  if ((doc.bodies ?? []).length <= 1) throw new Error('a scenario needs at least one body: add another before deleting this one');
  const name = doc.bodies[i].name;
  const operations = [];
  // From the last element to the first, so that the indices of those still to remove hold.
  for (const [list, keys] of Object.entries(REFERENCES)) {
    const items = doc[list] ?? [];
    for (let k = items.length - 1; k >= 0; k--) {
      if (keys.some((key) => items[k]?.[key] === name)) operations.push({ op: 'remove', path: `/${list}/${k}` });
    }
  }
  operations.push({ op: 'remove', path: `/bodies/${i}` });
  return operations;
}

/** Shapes the palette adds, sized for a view `width` metres across. */
export function newShape(type, width) {
  const size = roundTo(Math.max(0.02, width / 30), gridStep(width / 300));
  if (type === 'box') return { type: 'box', width: 2 * size, height: roundTo(1.4 * size, gridStep(width / 300)) };
  if (type === 'rod') return { type: 'rod', length: 5 * size, radius: roundTo(size / 4, gridStep(width / 1000)) };
  return { type: 'disk', radius: size };
}

/** A name not yet taken: "disk 1", "disk 2", … */
function freeName(doc, stem) {
  const taken = new Set((doc.bodies ?? []).map((b) => b.name));
  for (let k = 1; ; k++) if (!taken.has(`${stem} ${k}`)) return `${stem} ${k}`;
}

/**
 * Adds a body of `type` ('disk', 'box' or 'rod') at `position`, with a body_plane contact against every
 * plane and (a disk) a disk_disk contact with every other disk — unless the scenario says "collide": "all",
 * where every pair already collides and a declared contact would only duplicate an automatic one.
 * @param {object} doc
 * @param {'disk'|'box'|'rod'} type
 * @param {[number, number]} position
 * @param {number} viewWidth  the width of the view, to size the body
 * @param {object} [shape]  its shape (default: newShape for that width)
 * @returns {{operations: object[], index: number, name: string}}
 */
export function addBody(doc, type, position, viewWidth = 4, shape = newShape(type, viewWidth)) {
  const name = freeName(doc, type);
  const index = (doc.bodies ?? []).length;
  const operations = [{ op: 'add', path: '/bodies/-', value: { name, shape, mass: 1, position } }];
  const contacts = [];
  if (doc.collide === 'all') return { operations, index, name };
  for (const plane of doc.planes ?? []) contacts.push({ type: 'body_plane', body: name, plane: plane.name });
  if (type === 'disk') {
    for (const other of doc.bodies ?? []) {
      if ((other.shape?.type ?? 'disk') === 'disk') contacts.push({ type: 'disk_disk', body_a: other.name, body_b: name });
    }
  }
  if (contacts.length && doc.contacts === undefined) operations.push({ op: 'add', path: '/contacts', value: contacts });
  else for (const contact of contacts) operations.push({ op: 'add', path: '/contacts/-', value: contact });
  return { operations, index, name };
}
