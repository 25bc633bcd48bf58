// Names in a scenario document: bodies are referred to by name ("world" is the fixed world), planes too.
// These turn references into indices and give every contact a readable label.

/** Index of the body named `ref` (−1 for "world" or a missing reference); numbers pass through. */
export function bodyIndex(scenario, ref) {
  if (typeof ref === 'number') return ref;
  if (ref === undefined || ref === null || ref === 'world') return -1;
  return (scenario.bodies ?? []).findIndex((b) => b.name === ref);
}

/**
 * A label for an automatic contact point ("collide": "all": found by the core, not declared) between bodies
 * `a` and `b` (−1: the world): the two bodies' names, "ball 3 – floor"; against the world, the plane whose
 * normal is the point's (the direction in which the gap opens), or "world". "automatic contact" when the
 * bodies are not known.
 */
export function automaticLabel(scenario, pair, normal) {
  if (!pair) return 'automatic contact';
  const bodies = scenario?.bodies ?? [];
  const name = (i) => bodies[i]?.name || `body ${i + 1}`;
  const named = pair.filter((i) => i >= 0).map(name);
  if (named.length === 2) return `${named[0]} – ${named[1]}`;
  let plane = null;
  let best = -Infinity;
  for (const candidate of scenario?.planes ?? []) {
    const n = candidate.normal ?? [0, 1];
    const cos = normal ? (n[0] * normal[0] + n[1] * normal[1]) / (Math.hypot(n[0], n[1]) || 1) : -Infinity;
    if (cos > best) [plane, best] = [candidate, cos];
  }
  const other = plane && best > 0.99 ? plane.name || `plane ${scenario.planes.indexOf(plane) + 1}` : 'world';
  return `${named[0] ?? 'world'} – ${other}`;
}

/**
 * A label for contact `i`: its own name, or what it joins ("ball–floor"), or "contact i+1". An automatic
 * point (i < 0) is named by `automatic`: {pair, normal} (see automaticLabel).
 */
export function contactLabel(scenario, i, automatic = null) {
  if (i < 0) return automaticLabel(scenario, automatic?.pair, automatic?.normal);
  const c = scenario?.contacts?.[i];
  if (!c) return `contact ${i + 1}`;
  if (c.name) return c.name;
  const named = (ref) => (typeof ref === 'number' ? scenario.bodies?.[ref]?.name : ref);
  const planeName = typeof c.plane === 'number' ? scenario.planes?.[c.plane]?.name : c.plane;
  if (c.type === 'body_plane' && c.body !== undefined) return `${named(c.body)}–${planeName ?? 'plane'}`;
  if (c.type === 'disk_disk') return `${named(c.body_a)}–${named(c.body_b)}`;
  if (c.type === 'rope') return 'rope';
  return `contact ${i + 1}`;
}

/**
 * Names for the rows of an impact's A from the core's layout (`record.rows`): a joint's rows by the joint's
 * name and the component ("hinge x"), a contact's normal row by the contact ("ball–floor", numbered "·2"
 * when several of its points are in the impact), its tangential row as "(tangential)". An automatic point
 * is named by its bodies from `impact` (its points, point_bodies and normals; see automaticLabel).
 */
export function rowLabels(scenario, rows = [], impact = null) {
  const joints = scenario?.joints ?? [];
  // A contact's name; an automatic point's by its bodies (the impact's point_bodies and normals).
  const contactName = (row) => {
    if (row.contact >= 0) return contactLabel(scenario, row.contact);
    const j = impact?.points?.indexOf(row.point) ?? -1;
    return contactLabel(scenario, -1, { pair: impact?.point_bodies?.[j], normal: impact?.normals?.[j] });
  };
  // The points of each contact (an automatic pair counts as one contact), to number them when several.
  const key = (row) => (row.contact >= 0 ? row.contact : contactName(row));
  const pointsOf = new Map();
  for (const row of rows) {
    if (row.kind === 'normal') pointsOf.set(key(row), [...(pointsOf.get(key(row)) ?? []), row.point]);
  }
  return rows.map((row) => {
    if (row.kind === 'joint') {
      const name = joints[row.joint]?.name || `joint ${row.joint + 1}`;
      return row.part ? `${name} ${row.part}` : name;
    }
    const points = pointsOf.get(key(row)) ?? [];
    const name = contactName(row) + (points.length > 1 ? ` ·${points.indexOf(row.point) + 1}` : '');
    return row.kind === 'tangent' ? `${name} (tangential)` : name;
  });
}

/** The name of body `i` (0-based): its own, or "body i+1". */
export function bodyName(scenario, i) {
  return scenario?.bodies?.[i]?.name || `body ${i + 1}`;
}

/**
 * The contacts of an impact (a record or a summary), each named once, in the order of its points: declared
 * contacts by contactLabel, automatic points by their bodies (the record's point_bodies and normals).
 */
export function impactContactNames(scenario, impact) {
  return [...new Set((impact?.contacts ?? []).map((c, j) => (typeof c === 'number'
    ? contactLabel(scenario, c, { pair: impact.point_bodies?.[j], normal: impact.normals?.[j] }) : String(c))))];
}

/**
 * Names as a short phrase: all of them up to `max` (one more too: "and 1 more" says no less than its name),
 * else the first `max` and "and N more" (`noun` names what is counted: "and 196 more contacts").
 */
export function namesPhrase(names, { max = 4, noun = '' } = {}) {
  if (names.length <= max + 1) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more${noun ? ` ${noun}` : ''}`;
}

const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
const subscript = (k) => String(k).split('').map((d) => SUBSCRIPTS[Number(d)]).join('');

/**
 * Names for the rows and columns of an impact's matrices: the coordinates x, y, θ of each body (x₁, y₁, θ₁,
 * …, one block of three per body, `coordBlocks` [{name, start, size}]) and the rows of A as the core lays them
 * out (rowLabels; consecutive rows of one joint or contact form a block of `rowBlocks`); `coordNames` name
 * each coordinate in words ("y of ball 3") and `coordAxes` by its axis alone (within a body's block);
 * `legend` says which body each subscript is. `coords` is left out when it does not match the record's n.
 */
export function matrixLabels(scenario, record) {
  const bodies = scenario?.bodies ?? [];
  const coords = bodies.length === 1 ? ['x', 'y', 'θ']
    : bodies.flatMap((_, i) => ['x', 'y', 'θ'].map((c) => `${c}${subscript(i + 1)}`));
  const legend = bodies.length > 1 ? bodies.map((_, i) => `${i + 1} = ${bodyName(scenario, i)}`).join(', ') : null;
  const fits = coords.length === record.n;
  const rows = rowLabels(scenario, record.rows, record);
  // A row's block: the joint's or the contact's name without the component or the point's number.
  const rowOwners = (record.rows ?? []).map((row, k) => (row.kind === 'joint'
    ? (scenario?.joints?.[row.joint]?.name || `joint ${row.joint + 1}`)
    : rows[k].replace(/ \(tangential\)$/, '').replace(/ ·\d+$/, '')));
  const rowBlocks = [];
  rowOwners.forEach((name, k) => {
    const last = rowBlocks[rowBlocks.length - 1];
    if (last && last.name === name) last.size += 1;
    else rowBlocks.push({ name, start: k, size: 1 });
  });
  return {
    coords: fits ? coords : undefined,
    coordBlocks: fits ? bodies.map((_, i) => ({ name: bodyName(scenario, i), start: 3 * i, size: 3 })) : undefined,
    coordNames: fits ? bodies.flatMap((_, i) => ['x', 'y', 'θ'].map((c) => `${c} of ${bodyName(scenario, i)}`)) : undefined,
    coordAxes: fits ? bodies.flatMap(() => ['x', 'y', 'θ']) : undefined,
    rows,
    rowBlocks,
    legend,
  };
}
