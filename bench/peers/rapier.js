// Rapier 2D (@dimforge/rapier2d-compat: Rapier's wasm build, the bytes inlined) on a bench scene. Disks are
// balls, rods capsules, planes half-spaces on one fixed body, pins revolute impulse joints; Oblique's mass and
// inertia; every collider carries the scene's e and μ, so Rapier's combine rule (the average, by default)
// gives e and μ for every pair. Rapier's defaults otherwise: 4 solver iterations with 1 internal PGS
// iteration, no CCD, predictive contacts within 2 cm, bodies may sleep.
import RAPIER from '@dimforge/rapier2d-compat';

export const peer = {
  id: 'rapier',
  name: 'Rapier 2D',
  packageName: '@dimforge/rapier2d-compat',
  note: 'balls, capsules for rods, half-spaces for planes, revolute joints; every collider given the scene\'s ' +
    'e and μ (combine rule: average, the default), so each pair gets e and μ; Oblique\'s mass and inertia; ' +
    'defaults otherwise: 4 solver iterations, no CCD, predictive contacts, sleeping allowed',

  async load() {
    // Rapier's init takes an options object; called with none it warns about deprecated parameters.
    await RAPIER.init({});
  },

  /** A world of `scene` (peers/scene.js) stepped by `dt` seconds. */
  create(scene, dt) {
    const world = new RAPIER.World({ x: scene.gravity[0], y: scene.gravity[1] });
    world.timestep = dt;
    const surface = (desc) => desc.setRestitution(scene.restitution).setFriction(scene.mu);
    const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    for (const p of scene.planes) {
      world.createCollider(surface(RAPIER.ColliderDesc.halfspace({ x: p.normal[0], y: p.normal[1] })
        .setTranslation(p.point[0], p.point[1])), ground);
    }
    // Rods in collision group 2, filtering out group 2: they meet planes and disks, never each other.
    const rodGroups = (0x0002 << 16) | (0xffff & ~0x0002);
    const bodies = scene.bodies.map((b) => {
      const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(b.x, b.y)
        .setRotation(b.angle).setLinvel(b.vx, b.vy).setAngvel(b.w));
      const shape = b.shape === 'rod'
        ? RAPIER.ColliderDesc.capsule(0.5 * b.length, b.radius).setRotation(Math.PI / 2).setCollisionGroups(rodGroups)
        : RAPIER.ColliderDesc.ball(b.radius);
      world.createCollider(surface(shape).setMassProperties(b.mass, { x: 0, y: 0 }, b.inertia), body);
      return body;
    });
    for (const pin of scene.pins) {
      const joint = RAPIER.JointData.revolute({ x: pin.anchorA[0], y: pin.anchorA[1] }, { x: pin.anchorB[0], y: pin.anchorB[1] });
      world.createImpulseJoint(joint, bodies[pin.a], bodies[pin.b], true);
    }
    return {
      step: () => world.step(),
      /** x, y, θ, vx, vy, ω of every body into `state`. */
      read(state) {
        bodies.forEach((body, i) => {
          const p = body.translation(), v = body.linvel();
          state.set([p.x, p.y, body.rotation(), v.x, v.y, body.angvel()], 6 * i);
        });
      },
      dispose: () => world.free(),
    };
  },
};
