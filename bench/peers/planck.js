// planck (Box2D 2.4's algorithms in JavaScript) on a bench scene. Disks are circles; rods a box between two
// circles on one body (a capsule); planes 200 m static edges; pins revolute joints; Oblique's mass and
// inertia; every fixture carries the scene's e and μ (planck mixes restitution by the larger and friction by
// the geometric mean: e and μ for every pair). planck's defaults otherwise: 8 velocity and 3 position
// iterations, restitution only above 1 m/s (velocityThreshold), linear slop 5 mm, continuous collision of
// dynamic bodies against static ones (no bullets), warm starting, sleeping allowed.
import * as planck from 'planck';

export const peer = {
  id: 'planck',
  name: 'planck',
  packageName: 'planck',
  note: 'circles, capsules for rods (a box and two circles), 200 m static edges for planes, revolute joints; ' +
    'every fixture given the scene\'s e and μ (mixing: max for e, geometric mean for μ), so each pair gets e and ' +
    'μ; Oblique\'s mass and inertia; defaults otherwise: 8 velocity and 3 position iterations, no bounce below ' +
    '1 m/s, 5 mm slop, continuous collision against static bodies, sleeping allowed',

  async load() {},

  create(scene, dt) {
    const world = new planck.World({ gravity: planck.Vec2(scene.gravity[0], scene.gravity[1]) });
    const surface = { friction: scene.mu, restitution: scene.restitution, density: 1 };
    const ground = world.createBody();
    for (const p of scene.planes) {
      const along = planck.Vec2(-p.normal[1], p.normal[0]);
      const point = planck.Vec2(p.point[0], p.point[1]);
      ground.createFixture(planck.Edge(planck.Vec2.combine(1, point, -100, along), planck.Vec2.combine(1, point, 100, along)), surface);
    }
    // Rods share a negative group index: they meet edges and circles, never each other.
    const bodies = scene.bodies.map((b) => {
      const body = world.createDynamicBody({
        position: planck.Vec2(b.x, b.y), angle: b.angle,
        linearVelocity: planck.Vec2(b.vx, b.vy), angularVelocity: b.w,
      });
      if (b.shape === 'rod') {
        const rod = { ...surface, filterGroupIndex: -1 };
        body.createFixture(planck.Box(0.5 * b.length, b.radius), rod);
        body.createFixture(planck.Circle(planck.Vec2(-0.5 * b.length, 0), b.radius), rod);
        body.createFixture(planck.Circle(planck.Vec2(0.5 * b.length, 0), b.radius), rod);
      } else {
        body.createFixture(planck.Circle(b.radius), surface);
      }
      body.setMassData({ mass: b.mass, center: planck.Vec2(0, 0), I: b.inertia });
      return body;
    });
    for (const pin of scene.pins) {
      world.createJoint(planck.RevoluteJoint({
        localAnchorA: planck.Vec2(pin.anchorA[0], pin.anchorA[1]), localAnchorB: planck.Vec2(pin.anchorB[0], pin.anchorB[1]),
      }, bodies[pin.a], bodies[pin.b]));
    }
    return {
      step: () => world.step(dt),
      read(state) {
        bodies.forEach((body, i) => {
          const p = body.getPosition(), v = body.getLinearVelocity();
          state.set([p.x, p.y, body.getAngle(), v.x, v.y, body.getAngularVelocity()], 6 * i);
        });
      },
      dispose() {},
    };
  },
};
