// matter-js on a bench scene. matter works in pixels with y down and in steps of milliseconds: one metre is
// SCALE pixels, y is flipped, gravity is |g|·SCALE·1e-6 px/ms², velocities are pixels per 1/60 s (matter's
// base step). Disks are circles (matter's polygons of up to 25 sides), rods rectangles with their ends
// rounded by a radius (chamfer), planes 1 m thick static rectangles 200 m long, pins rigid constraints of
// length 0 (stiffness 1); Oblique's mass and inertia set explicitly (matter would otherwise scale inertia
// by 4). Every body carries the scene's e and friction μ (matter mixes e by the larger and friction by the
// smaller: e and μ for every pair), and no air drag (frictionAir 0: the scenes have none; matter's default
// 0.01 would slow every body). matter's defaults otherwise: 6 position, 4 velocity and 2 constraint
// iterations, 0.05 px slop, no continuous collision, no sleeping.
import Matter from 'matter-js';

/** Pixels per metre: disks of 0.1 m become 10 px, the size matter's tolerances are set for. */
const SCALE = 100;
/** matter's base step: velocities are pixels per this many milliseconds. */
const BASE_MS = 1000 / 60;

export const peer = {
  id: 'matter',
  name: 'matter-js',
  packageName: 'matter-js',
  note: `circles (polygons of up to 25 sides), rectangles with rounded ends for rods, 1 m thick static ` +
    `rectangles for planes, rigid constraints for pins, ${SCALE} px per metre; every body given the scene's e ` +
    `and friction μ (mixing: max for e, min for friction), no air drag (frictionAir 0); Oblique's mass and ` +
    `inertia; defaults otherwise: 6 position, 4 velocity, 2 constraint iterations, 0.05 px slop, no CCD`,

  async load() {
    // matter logs a banner on its first engine; nothing else is written.
    Matter.Common.logLevel = 0;
  },

  create(scene, dt) {
    const { Bodies, Body, Composite, Constraint, Engine } = Matter;
    const g = Math.hypot(scene.gravity[0], scene.gravity[1]);
    const engine = Engine.create({
      gravity: g > 0 ? { x: scene.gravity[0] / g, y: -scene.gravity[1] / g, scale: g * SCALE * 1e-6 } : { x: 0, y: 0, scale: 0 },
    });
    const surface = { restitution: scene.restitution, friction: scene.mu, frictionAir: 0 };
    const toPx = (x, y) => ({ x: x * SCALE, y: -y * SCALE });
    for (const p of scene.planes) {
      const thickness = 1, length = 200;
      const centre = toPx(p.point[0] - 0.5 * thickness * p.normal[0], p.point[1] - 0.5 * thickness * p.normal[1]);
      const angle = Math.atan2(-p.normal[0], -p.normal[1]);  // the rectangle's x axis along the plane, in y-down
      Composite.add(engine.world, Bodies.rectangle(centre.x, centre.y, length * SCALE, thickness * SCALE,
        { ...surface, isStatic: true, angle }));
    }
    const bodies = scene.bodies.map((b) => {
      const at = toPx(b.x, b.y);
      const options = { ...surface, angle: -b.angle };
      const body = b.shape === 'rod'
        ? Bodies.rectangle(at.x, at.y, (b.length + 2 * b.radius) * SCALE, 2 * b.radius * SCALE,
          { ...options, chamfer: { radius: b.radius * SCALE }, collisionFilter: { group: -1 } })
        : Bodies.circle(at.x, at.y, b.radius * SCALE, options);
      Body.setMass(body, b.mass);
      Body.setInertia(body, b.inertia * SCALE * SCALE);
      Body.setVelocity(body, { x: (b.vx * SCALE * BASE_MS) / 1000, y: (-b.vy * SCALE * BASE_MS) / 1000 });
      Body.setAngularVelocity(body, (-b.w * BASE_MS) / 1000);
      return body;
    });
    Composite.add(engine.world, bodies);
    for (const pin of scene.pins) {
      // matter's constraint points are offsets in world orientation, turned with their body from then on.
      const offset = (anchor, b) => {
        const c = Math.cos(b.angle), s = Math.sin(b.angle);
        return toPx(c * anchor[0] - s * anchor[1], s * anchor[0] + c * anchor[1]);
      };
      Composite.add(engine.world, Constraint.create({
        bodyA: bodies[pin.a], pointA: offset(pin.anchorA, scene.bodies[pin.a]),
        bodyB: bodies[pin.b], pointB: offset(pin.anchorB, scene.bodies[pin.b]), length: 0, stiffness: 1,
      }));
    }
    const ms = dt * 1000;
    return {
      step: () => Engine.update(engine, ms),
      read(state) {
        bodies.forEach((body, i) => {
          const v = Body.getVelocity(body);
          state.set([body.position.x / SCALE, -body.position.y / SCALE, -body.angle,
            (v.x * 1000) / (BASE_MS * SCALE), (-v.y * 1000) / (BASE_MS * SCALE),
            (-Body.getAngularVelocity(body) * 1000) / BASE_MS], 6 * i);
        });
      },
      dispose: () => Engine.clear(engine),
    };
  },
};
