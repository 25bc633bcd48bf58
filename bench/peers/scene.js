// A scenario document of the bench's scenes (bench/scenes, written by build/native/oblique_scenes) read into
// what every peer's set-up needs: disks and rods with Oblique's mass and inertia, planes, pins, e, μ and
// gravity. Only what those scenes use is read; anything else is refused with the field named, so that a peer
// never runs a scene it would translate wrongly.

/** The moment of inertia Oblique gives a shape of `mass` (model.cpp's shape_inertia) when a body sets none. */
function inertiaOf(body, where) {
  if (body.inertia != null) return body.inertia;
  const { type, radius, length } = body.shape;
  if (type === 'disk') return 0.5 * body.mass * radius * radius;
  if (type === 'rod') return (body.mass * length * length) / 12;
  throw new Error(`${where}/shape/type: the peers' comparison reads disks and rods only, got "${type}"`);
}

/**
 * @param {object} doc  a normalized scenario document (every key present, as oblique_scenes writes them)
 * @returns {{bodies: object[], planes: object[], pins: object[], restitution: number, mu: number,
 *   gravity: number[], rodsCollide: boolean}}
 */
export function describeScene(doc) {
  const index = new Map(doc.bodies.map((b, i) => [b.name, i]));
  const bodies = doc.bodies.map((b, i) => {
    const where = `/bodies/${i}`;
    const inertia = inertiaOf(b, where);
    return {
      shape: b.shape.type, radius: b.shape.radius, length: b.shape.length ?? 0, mass: b.mass, inertia,
      x: b.position[0], y: b.position[1], angle: b.angle, vx: b.velocity[0], vy: b.velocity[1], w: b.angular_velocity,
    };
  });
  const pins = (doc.joints ?? []).map((j, i) => {
    if (j.type !== 'pin' || !index.has(j.body_a) || !index.has(j.body_b)) {
      throw new Error(`/joints/${i}: the peers' comparison reads pins between two bodies only`);
    }
    return { a: index.get(j.body_a), b: index.get(j.body_b), anchorA: j.anchor_a, anchorB: j.anchor_b };
  });
  for (const [key, value] of [['forces', doc.forces], ['impulses', doc.impulses]]) {
    if (value?.length) throw new Error(`/${key}: the peers' comparison runs scenes without ${key}`);
  }
  return {
    bodies,
    planes: doc.planes.map((p) => {
      const length = Math.hypot(p.normal[0], p.normal[1]);
      return { point: p.point, normal: [p.normal[0] / length, p.normal[1] / length] };
    }),
    pins,
    restitution: doc.restitution,
    mu: doc.mu,
    gravity: doc.gravity,
    // The chain declares rod–floor contacts only (neighbouring rods overlap at their pins): the peers let
    // rods collide with planes and disks, not with each other. Every other pair of bodies may collide.
    rodsCollide: false,
  };
}

/** The two centres of a rod's end circles: its axis along the body's x, `length` apart. */
export function rodEnds(body, x, y, angle) {
  const hx = 0.5 * body.length * Math.cos(angle), hy = 0.5 * body.length * Math.sin(angle);
  return [[x - hx, y - hy], [x + hx, y + hy]];
}
