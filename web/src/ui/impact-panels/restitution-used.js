// The e an impact used for each of its contact points against the e set for the contact: they differ when
// the point was plastic for a reason of the simulator's, which the log and the panels then explain.

/** Normal speeds at or below this are "at rest" (the core's contact speed tolerance, m/s). */
const AT_REST = 1e-9;

/**
 * Why the impact's points did not get the e set for their contacts (lists of point indices of the impact):
 * `touching`, already in contact at rest (φ̇⁻ = 0: e changes nothing for them); `slow`, approaching slower
 * than the point's rest speed (plastic: a bouncing sequence ends); `stacked`, those of `slow` whose rest
 * speed was the bound of a point nearly resting in a stack (the record's `nearly_resting`: its rest speed
 * √(2ε|g|L), above the scenario's); `joined`, plastic for another reason (a point the activation rule added,
 * or its fallback). `restSpeeds`, per point of the impact, the rest speed it was held to: the record's
 * `rest_speeds`, or `restSpeed` (the scenario's integrator.rest_speed) for a record without them.
 */
export function plasticPoints(impact, restSpeed) {
  const touching = [];
  const slow = [];
  const stacked = [];
  const joined = [];
  const restSpeeds = (impact.normal_rows ?? []).map((_, k) => pointRestSpeed(impact, k, restSpeed));
  (impact.normal_rows ?? []).forEach((row, k) => {
    const used = impact.restitution?.[row];
    const set = impact.contact_e?.[k];
    if (!(set > 0) || used !== 0) return;
    const speed = Math.abs(impact.phid_minus?.[row] ?? 0);
    if (speed <= AT_REST) touching.push(k);
    else if (speed < restSpeeds[k]) {
      slow.push(k);
      if (impact.nearly_resting?.[k]) stacked.push(k);
    } else joined.push(k);
  });
  return { touching, slow, stacked, joined, restSpeeds };
}

/** The rest speed point `k` of an impact was held to: the record's, else the scenario's `restSpeed` (m/s). */
export function pointRestSpeed(impact, k, restSpeed) {
  const own = impact.rest_speeds?.[k];
  return typeof own === 'number' && Number.isFinite(own) ? own : restSpeed;
}
