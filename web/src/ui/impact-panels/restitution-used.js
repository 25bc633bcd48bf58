// The e an impact used for each of its contact points against the e set for the contact: they differ when
// the point was plastic for a reason of the simulator's, which the log and the panels then explain.

/** Normal speeds at or below this are "at rest" (the core's contact speed tolerance, m/s). */
const AT_REST = 1e-9;

/**
 * Why the impact's points did not get the e set for their contacts (lists of point indices of the impact):
 * `touching`, already in contact at rest (φ̇⁻ = 0: e changes nothing for them); `slow`, approaching slower
 * than `restSpeed` (plastic: a bouncing sequence ends); `joined`, plastic for another reason (a point the
 * activation rule added, or its fallback).
 */
export function plasticPoints(impact, restSpeed) {
  const touching = [];
  const slow = [];
  const joined = [];
  (impact.normal_rows ?? []).forEach((row, k) => {
    const used = impact.restitution?.[row];
    const set = impact.contact_e?.[k];
    if (!(set > 0) || used !== 0) return;
    const speed = Math.abs(impact.phid_minus?.[row] ?? 0);
    if (speed <= AT_REST) touching.push(k);
    else if (speed < restSpeed) slow.push(k);
    else joined.push(k);
  });
  return { touching, slow, joined };
}
