// The bodies of each automatic contact point of an impact ("collide": "all": points the core finds, with no
// declared contact to name them). A record lists its points by their index in the simulation's contact
// points at the moment of the impact, with the point and normal of each; the frame that reports it is a
// little later. The point at the same index (or, if the list changed, another automatic point) is taken as
// the same contact when it has the same normal and has moved less than MAX_SHIFT; otherwise the point is
// left unnamed (null) rather than guessed. When the page fetches the whole record of an impact (its panels),
// the bodies are read exactly from its Jacobian instead (jacobianPointBodies).

/** Largest distance (m) between the impact's point and the point found now for them to be the same contact. */
export const MAX_SHIFT = 0.05;
/** Smallest cosine between the two normals. */
const MIN_COS = 0.98;

/**
 * `[bodyA, bodyB]` (−1: the world or a plane) for each automatic point of `record`, null for a declared
 * point or one not found in `points`; null altogether when the record has no automatic point.
 * @param {{points?: number[], contacts?: number[], positions?: number[][], normals?: number[][]}} record
 * @param {{contact: number, bodyA: number, bodyB: number, point: number[], normal: number[]}[]} points the
 *   simulation's contact points now
 * @returns {([number, number]|null)[]|null}
 */
export function automaticPointBodies(record, points) {
  const contacts = record.contacts ?? [];
  if (!contacts.some((c) => c < 0)) return null;
  return contacts.map((contact, j) => {
    const at = record.positions?.[j];
    const normal = record.normals?.[j];
    if (contact >= 0 || !at || !normal) return null;
    const shift = (p) => (p && p.contact < 0 && p.normal[0] * normal[0] + p.normal[1] * normal[1] >= MIN_COS
      ? Math.hypot(p.point[0] - at[0], p.point[1] - at[1]) : Infinity);
    let best = points[record.points?.[j]];
    if (!(shift(best) <= MAX_SHIFT)) {
      best = null;
      for (const p of points) if (shift(p) <= Math.min(MAX_SHIFT, best ? shift(best) : Infinity)) best = p;
    }
    return best ? [best.bodyA, best.bodyB] : null;
  });
}

/**
 * `[bodyA, bodyB]` for each automatic point of a full impact record, exactly, from its Jacobian A: the
 * normal row of a point (`normal_rows`) has non-zero entries only in the columns (x, y, θ) of the bodies it
 * joins — two bodies, or one against the world (−1). Null for a declared point (or without A); null
 * altogether when the record has no automatic point.
 * @param {{contacts?: number[], normal_rows?: number[], A?: number[][]}} record
 * @returns {([number, number]|null)[]|null}
 */
export function jacobianPointBodies(record) {
  const contacts = record.contacts ?? [];
  if (!contacts.some((c) => c < 0)) return null;
  return contacts.map((contact, j) => {
    const row = record.A?.[record.normal_rows?.[j]];
    if (contact >= 0 || !row) return null;
    const bodies = [];
    for (let b = 0; 3 * b < row.length; b++) {
      if (row[3 * b] !== 0 || row[3 * b + 1] !== 0 || row[3 * b + 2] !== 0) bodies.push(b);
    }
    if (bodies.length === 1) return [-1, bodies[0]];
    return bodies.length === 2 ? bodies : null;
  });
}
