// Names in a scenario document: bodies are referred to by name ("world" is the fixed world), planes too.
// These turn references into indices and give every contact a readable label.

/** Index of the body named `ref` (−1 for "world" or a missing reference); numbers pass through. */
export function bodyIndex(scenario, ref) {
  if (typeof ref === 'number') return ref;
  if (ref === undefined || ref === null || ref === 'world') return -1;
  return (scenario.bodies ?? []).findIndex((b) => b.name === ref);
}

/** A label for contact `i`: its own name, or what it joins ("ball–floor"), or "contact i+1". */
export function contactLabel(scenario, i) {
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
 * when several of its points are in the impact), its tangential row as "(tangential)".
 */
export function rowLabels(scenario, rows = []) {
  const joints = scenario?.joints ?? [];
  const pointsOf = new Map();
  for (const row of rows) {
    if (row.kind === 'normal') pointsOf.set(row.contact, [...(pointsOf.get(row.contact) ?? []), row.point]);
  }
  return rows.map((row) => {
    if (row.kind === 'joint') {
      const name = joints[row.joint]?.name || `joint ${row.joint + 1}`;
      return row.part ? `${name} ${row.part}` : name;
    }
    const points = pointsOf.get(row.contact) ?? [];
    const name = contactLabel(scenario, row.contact) + (points.length > 1 ? ` ·${points.indexOf(row.point) + 1}` : '');
    return row.kind === 'tangent' ? `${name} (tangential)` : name;
  });
}
