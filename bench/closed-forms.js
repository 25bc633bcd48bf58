// The closed forms every engine of the bench is read against (bench/peers/compare.js), and the measures
// taken from a run's states: the bouncing ball's apex heights, the row's exit velocities, the deepest
// penetration. A state is x, y, θ, vx, vy, ω per body (Float64Array of 6 per body); a scene is
// peers/scene.js's description of the scenario.
import { rodEnds } from './peers/scene.js';

/**
 * Apex heights of a ball dropped from rest with its lowest point h above a floor, restitution e: after
 * bounce k it leaves at e^k √(2gh) and rises to h e^(2k), k = 1..count.
 */
export function ballApexes(h, e, count) {
  return Array.from({ length: count }, (_, k) => h * e ** (2 * (k + 1)));
}

/**
 * x-velocities after a striker of speed v hits a touching row of n − 1 equal disks, every contact of the row
 * in one simultaneous impact with restitution e (the paper's projection, Newton's law on every row of A):
 * the common motion v/n is kept and the relative one reversed and scaled by e, so the striker leaves at
 * v(1 + e)/n − e v and every disk of the row at v(1 + e)/n. Each contact's approach speed goes from −v
 * (striker) or 0 (the touching row) to −e times that.
 */
export function rowExitVelocities(n, e, v) {
  const common = (v * (1 + e)) / n;
  return Array.from({ length: n }, (_, i) => (i === 0 ? common - e * v : common));
}

/**
 * Follows a ball's flight over samples of its state (any step), and gives the apex of each rise: on a rise
 * (vy > 0) the height its lowest point reaches in a free flight from the sample, y − r + vy²/(2g), from the
 * last sample before it falls again. Exact in closed-form flight at any sample; for a stepping engine it
 * carries the step's error. A rise below `lowest` (m) is not a bounce but an engine pushing the ball out of
 * the floor, and is not counted.
 */
export class ApexTracker {
  constructor(g, radius, lowest) {
    this.g = g;
    this.radius = radius;
    this.lowest = lowest;
    this.apexes = [];
    this.rising = null;  // the apex predicted by the latest sample of the current rise
  }

  /** One sample: the centre's height and vertical velocity. */
  sample(y, vy) {
    if (vy > 0) {
      this.rising = y - this.radius + (vy * vy) / (2 * this.g);
    } else if (this.rising != null) {
      if (this.rising >= this.lowest) this.apexes.push(this.rising);
      this.rising = null;
    }
  }
}

/**
 * The largest relative error of the apexes seen against the closed form's h e^(2k); an apex not seen (the
 * ball stopped bouncing) counts as an error of 1 (100 %).
 */
export function apexError(apexes, expected) {
  let worst = 0;
  expected.forEach((h, k) => {
    worst = Math.max(worst, k < apexes.length ? Math.abs(apexes[k] - h) / h : 1);
  });
  return worst;
}

/** The largest |v_i − v̂_i| of the x-velocities in `state` against `expected` (m/s). */
export function velocityError(state, expected) {
  return expected.reduce((worst, v, i) => Math.max(worst, Math.abs(state[6 * i + 3] - v)), 0);
}

/**
 * The deepest overlap in `state` (m, 0 when nothing overlaps): every disk and rod end against every plane
 * (its signed distance below the radius), every two disks (their radii's sum less the distance of their
 * centres) and each disk against each rod end circle. Rods against rods are not read (the chain's
 * neighbours overlap at their pins by construction).
 */
export function deepestPenetration(scene, state) {
  const circles = [];  // [x, y, r, isRod]
  scene.bodies.forEach((b, i) => {
    const x = state[6 * i], y = state[6 * i + 1];
    if (b.shape === 'rod') {
      for (const [ex, ey] of rodEnds(b, x, y, state[6 * i + 2])) circles.push([ex, ey, b.radius, true]);
    } else {
      circles.push([x, y, b.radius, false]);
    }
  });
  let deepest = 0;
  for (const [x, y, r] of circles) {
    for (const p of scene.planes) {
      deepest = Math.max(deepest, r - ((x - p.point[0]) * p.normal[0] + (y - p.point[1]) * p.normal[1]));
    }
  }
  for (let i = 0; i < circles.length; i++) {
    const [xi, yi, ri, rodI] = circles[i];
    for (let j = i + 1; j < circles.length; j++) {
      const [xj, yj, rj, rodJ] = circles[j];
      if (rodI && rodJ) continue;
      const reach = ri + rj - deepest;
      const dx = xi - xj, dy = yi - yj;
      if (dx > reach || dx < -reach || dy > reach || dy < -reach) continue;
      deepest = Math.max(deepest, ri + rj - Math.hypot(dx, dy));
    }
  }
  return deepest;
}
