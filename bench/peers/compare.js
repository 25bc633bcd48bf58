// The browser peers a user would otherwise pick — Rapier 2D, planck, matter-js — on the bench's scenes, at
// their default step (1/60 s) and at 1 ms: speed over the same runs as Oblique's whole runs (process CPU
// of their step calls, in the same Node process), and beside it each one's error against the closed forms
// (closed-forms.js): the ball's apex heights, the row's exit velocities, the deepest penetration of each
// scene. Each peer's set-up is in its own file here; bench/README.md, "Peers", explains the table.
import { readFileSync } from 'node:fs';
import {
  ApexTracker, apexError, ballApexes, deepestPenetration, rowExitVelocities, velocityError,
} from '../closed-forms.js';
import { cpuSince, runInFrames } from '../whole-runs.js';
import { peer as matter } from './matter.js';
import { peer as planck } from './planck.js';
import { peer as rapier } from './rapier.js';
import { describeScene } from './scene.js';

export const PEERS = [rapier, planck, matter];
/** The steps each peer runs at: its default (a frame) and Oblique's integrator step. */
export const PEER_STEPS = [{ label: '1/60 s', key: '60hz', dt: 1 / 60 }, { label: '1 ms', key: '1ms', dt: 0.001 }];
/** The ball's apexes read (the fifth at t = 2.7 s, bouncing at 1.45 m/s: above planck's 1 m/s threshold). */
export const BALL_APEXES = 5;
/** The row's exit velocities are read at this time: well after the striker's impact (t = 1 ms). */
export const ROW_EXIT_TIME = 0.5;

/** The installed version of a peer's package (its package.json, which not every package exports). */
export const versionOf = (peer) =>
  JSON.parse(readFileSync(new URL(`../../node_modules/${peer.packageName}/package.json`, import.meta.url), 'utf8')).version;

/** A peer's scene as a world of runInFrames: steps of `dt` up to the step nearest each frame's time. */
function peerWorld(peer, scene, dt) {
  const world = peer.create(scene, dt);
  let steps = 0;
  return {
    /** To the step nearest t (a peer's run stops only between frames). */
    advanceTo(t) {
      for (const target = Math.round(t / dt); steps < target; steps++) world.step();
      return true;
    },
    time: () => steps * dt,
    read: (state) => world.read(state),
    stepAndRead(state) {
      world.step();
      steps++;
      world.read(state);
    },
    dispose: () => world.dispose(),
  };
}

/**
 * The measures every engine's run of a scene gives: the deepest penetration over its frames and, for the
 * row, its exit velocities' error at ROW_EXIT_TIME. `observe(t, world)` after each frame, untimed.
 */
export function sceneMeasures(scene, family) {
  const state = new Float64Array(6 * scene.bodies.length);
  const measures = { deepest_penetration_m: 0 };
  const expected = family === 'row'
    ? rowExitVelocities(scene.bodies.length, scene.restitution, scene.bodies[0].vx) : null;
  return {
    measures,
    observe(t, world) {
      world.read(state);
      measures.deepest_penetration_m = Math.max(measures.deepest_penetration_m, deepestPenetration(scene, state));
      if (expected && Math.abs(t - ROW_EXIT_TIME) < 1e-9) measures.row_exit_error = velocityError(state, expected);
    },
  };
}

/** The ball's apexes over `samples` states given by `sample(state)`: their error against h e^(2k). */
export function ballError(scene, h, sample, samples) {
  const state = new Float64Array(6);
  const expected = ballApexes(h, scene.restitution, BALL_APEXES);
  // Rises lower than a tenth of the last apex read are the floor pushing back, not bounces.
  const tracker = new ApexTracker(-scene.gravity[1], scene.bodies[0].radius, 0.1 * expected.at(-1));
  for (let k = 0; k < samples; k++) {
    sample(state);
    tracker.sample(state[1], state[4]);
  }
  return apexError(tracker.apexes, expected);
}

/** One timed run of a peer on a scene (its world's construction included). */
function timedRun(peer, scene, dt, { seconds, cpuCap, observe }) {
  const start = process.cpuUsage();
  const world = peerWorld(peer, scene, dt);
  const made = cpuSince(start);
  const run = runInFrames(world, { seconds, cpuCap, cpu: made, observe: observe && ((t) => observe(t, world)) });
  world.dispose();
  return run;
}

/**
 * A peer's set-up in SI units, checked before it is timed: the ball of `scene` (peers/scene.js) falls freely
 * for 0.3 s at 1 ms and must be where ½gt² puts it, to a first-order step's error (g·t·dt/2 = 1.5 mm).
 * Throws an Error naming the peer otherwise: its figures would not be of the same scene.
 */
export function checkFreeFall(peer, scene) {
  const world = peer.create(scene, 0.001);
  for (let k = 0; k < 300; k++) world.step();
  const state = new Float64Array(6);
  world.read(state);
  world.dispose();
  const g = -scene.gravity[1], t = 0.3, ball = scene.bodies[0];
  const errors = [Math.abs(state[1] - (ball.y - 0.5 * g * t * t)), Math.abs(state[4] + g * t), Math.abs(state[0] - ball.x)];
  if (!(errors[0] < 3e-3 && errors[1] < 1e-3 && errors[2] < 1e-9)) {
    throw new Error(`${peer.name}: the ball's free fall over 0.3 s at 1 ms is off by ${errors[0]} m in y, ` +
      `${errors[1]} m/s in vy and ${errors[2]} m in x: its set-up (bench/peers/${peer.id}.js) is not in SI units`);
  }
}

/**
 * Every peer on every scene at each step. `scenes`: [{key, family, doc, seconds, cpuCap}], the documents of
 * the whole runs; `ball`: the ball's document and drop height; a run of less than `repeatBelow` CPU
 * seconds is made three times and its median taken (the first, observed, gives the measures). Returns one
 * row per peer and step.
 */
export async function comparePeers({ scenes, ball, repeatBelow = 0 }) {
  const rows = [];
  for (const peer of PEERS) {
    await peer.load();
    checkFreeFall(peer, describeScene(JSON.parse(ball.doc)));
    // Warm-up, untimed: V8 compiles JavaScript and wasm with a baseline compiler first and optimises hot
    // functions later, on threads whose CPU time is the process's too; a fifth of a second of CPU on every
    // scene at each step lets it finish before any run is timed.
    for (const step of PEER_STEPS) {
      for (const { doc, seconds } of scenes) {
        const warm = peerWorld(peer, describeScene(JSON.parse(doc)), step.dt);
        runInFrames(warm, { seconds, cpuCap: 0.2 });
        warm.dispose();
      }
    }
    for (const step of PEER_STEPS) {
      const row = { engine: peer.name, id: peer.id, version: versionOf(peer), step: step.label, dt: step.dt, scenes: {} };
      for (const { key, family, doc, seconds, cpuCap } of scenes) {
        const scene = describeScene(JSON.parse(doc));
        const { measures, observe } = sceneMeasures(scene, family);
        const runs = [timedRun(peer, scene, step.dt, { seconds, cpuCap, observe })];
        while (runs[0].complete && runs[0].cpu < repeatBelow && runs.length < 3) {
          runs.push(timedRun(peer, scene, step.dt, { seconds, cpuCap }));
        }
        // The run of median CPU time (its frames' times with it, for a comparison over a shorter span).
        const run = [...runs].sort((a, b) => a.cpu - b.cpu)[Math.floor(runs.length / 2)];
        row.scenes[key] = { ...run, simulated: runs[0].simulated, complete: runs[0].complete,
          realtime: runs[0].simulated / run.cpu, runs: runs.length, ...measures };
        if (measures.row_exit_error != null) row.row_exit_error = measures.row_exit_error;
      }
      // The ball, untimed, sampled at every step.
      const scene = describeScene(JSON.parse(ball.doc));
      const world = peerWorld(peer, scene, step.dt);
      row.ball_apex_error = ballError(scene, ball.height, (state) => world.stepAndRead(state),
        Math.round(ball.seconds / step.dt));
      world.dispose();
      rows.push(row);
    }
  }
  return rows;
}

/** How each peer was set up, for `peers_note`. */
export function peersNote() {
  return `Each peer runs the scene's document translated body for body (bench/peers/*.js), in the same Node ` +
    `process, timed by process CPU of its step calls (its world's construction included), at its default step ` +
    `of 1/60 s and at 1 ms, over the same simulated time as Oblique's whole run (a CPU cap shortens a run as it ` +
    `does Oblique's; a capped run's time reached is given). Errors: the ball's first ${BALL_APEXES} apex heights ` +
    `against h·e^(2k) (largest relative error; an apex not reached counts 1), sampled at every step; the row's ` +
    `x-velocities at t = ${ROW_EXIT_TIME} s against the simultaneous impact's closed form (largest |Δv|, m/s, ` +
    `the striker at 1 m/s); the deepest overlap of any two bodies or a body and a plane over the frames of ` +
    `1/60 s. ${PEERS.map((p) => `${p.name}: ${p.note}.`).join(' ')} ` +
    `No peer is exact by design: their contacts are solved by a fixed number of iterations with a ` +
    `tolerated overlap; this table says at what speed and at what error each runs the same scenes.`;
}
