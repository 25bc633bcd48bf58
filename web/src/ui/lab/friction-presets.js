// The matrix lab's frictional cases: analyzeImpact inputs with `mu` and `pairs` (docs/friction.md). Only the
// kinematics of each preset is written here (the rows of A from its geometry); every result comes from the
// engine. The same inputs are used by tests/js/friction.test.js and tests/e2e/lab-friction.test.js.

const ROD_TILT = Math.PI / 6;

/** A uniform rod (mass m, length 2h, I = mh²/3) tilted by φ, q = (x, y, φ), its lower end on the floor. */
function rodOnFloor({ mass, halfLength, tilt, qd, e, mu }) {
  const inertia = (mass * halfLength * halfLength) / 3;
  return {
    M: [[mass, 0, 0], [0, mass, 0], [0, 0, inertia]],
    // Rows: the end's vertical speed (normal) and its horizontal speed (slip).
    A: [[0, 1, -halfLength * Math.cos(tilt)], [1, 0, halfLength * Math.sin(tilt)]],
    qd, e, mu, pairs: [[0, 1]],
  };
}

/**
 * Kane and Levinson's double pendulum: two uniform bars (mass m, length L) pinned at the origin and to each
 * other, θ from the downward vertical, q = (x₁, y₁, θ₁, x₂, y₂, θ₂) of the centres; the free end of bar 2
 * strikes a rough floor. Rows: the pin at O (2), the pin between the bars (2), then the end's vertical
 * (normal) and horizontal (slip) speeds.
 */
function kanePendulum({ mass, length, theta1, theta2, omega1, omega2, e, mu }) {
  const h = length / 2;
  const [c1, s1, c2, s2] = [Math.cos(theta1), Math.sin(theta1), Math.cos(theta2), Math.sin(theta2)];
  const bar = (mass * length * length) / 12;
  return {
    M: [[mass, 0, 0, 0, 0, 0], [0, mass, 0, 0, 0, 0], [0, 0, bar, 0, 0, 0],
      [0, 0, 0, mass, 0, 0], [0, 0, 0, 0, mass, 0], [0, 0, 0, 0, 0, bar]],
    A: [[1, 0, -h * c1, 0, 0, 0], [0, 1, -h * s1, 0, 0, 0],
      [1, 0, h * c1, -1, 0, h * c2], [0, 1, h * s1, 0, -1, h * s2],
      [0, 0, 0, 0, 1, h * s2], [0, 0, 0, 1, 0, h * c2]],
    // The centres' velocities from the angular velocities.
    qd: [h * c1 * omega1, h * s1 * omega1, omega1,
      length * c1 * omega1 + h * c2 * omega2, length * s1 * omega1 + h * s2 * omega2, omega2],
    e, mu, pairs: [[4, 5]],
    // The pins are bilateral: only the floor contact may be flagged for pulling or approaching.
    unilateral: [false, false, false, false, true, false],
  };
}

export const FRICTION_PRESETS = [
  { id: 'rod-rough-floor', title: 'Rod on a rough floor',
    text: 'A rod (m = 2, length 1) tilted 30° strikes the floor with its end sliding left. Its critical μ is about ' +
      '1.08: below it the end slips on, above it the end sticks. e = 0.6.',
    ...rodOnFloor({ mass: 2, halfLength: 0.5, tilt: ROD_TILT, qd: [-1.5, -2, 1], e: 0.6, mu: 0.5 }),
    muMax: 2, coords: ['x', 'y', 'φ'], rows: ['end (normal)', 'end (slip)'] },
  { id: 'kane-pendulum', title: 'Kane’s double pendulum',
    text: 'Kane and Levinson’s double pendulum (bars of mass 1, length 1, at 30° and 17°) strikes a rough floor ' +
      'sliding. With e = 0.8 and μ = 0.5 the end sticks — and leaves with more energy than it had.',
    ...kanePendulum({ mass: 1, length: 1, theta1: Math.PI / 6, theta2: 0.3, omega1: -1, omega2: 0, e: 0.8, mu: 0.5 }),
    muMax: 1, coords: ['x₁', 'y₁', 'θ₁', 'x₂', 'y₂', 'θ₂'],
    rows: ['pin O (x)', 'pin O (y)', 'pin 1–2 (x)', 'pin 1–2 (y)', 'end (normal)', 'end (slip)'] },
];
