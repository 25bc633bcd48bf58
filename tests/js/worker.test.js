// The worker's simulation service (web/src/worker/simulation-service.js) driven as the page drives it, in
// Node: the protocol's requests and replies — the live run, the past replayed from the core's saved state
// (seek, seekImpact), changes with their moments and cuts, records and a trajectory for export; and, on a
// scenario far too heavy for real time (64 rods pinned in a chain, a step of 1 µs: one call of the core does
// one projection at n = 192), a reset, a change or any other request sent during a long run is answered
// while the run is pending, which then stops at a moment of the run and says it was superseded. Ordering is
// asserted, with generous bounds on the time a reply may take; no speed is tested.
import { afterEach, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { createSimulationService } from '../../web/src/worker/simulation-service.js';
import { loadScenario } from './scenarios.js';

/** A service with the page's side: request(type, payload) resolves with the reply; `replies` in order. */
function harness() {
  const replies = [];
  const waiting = new Map();
  const service = createSimulationService({
    loadEngine: loadOblique,
    post: (message) => {
      if (message.type !== 'reply') return;
      replies.push({ ...message, at: performance.now() });
      const settle = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) settle?.reject(new Error(message.error));
      else settle?.resolve(message.value);
    },
  });
  let nextId = 1;
  const request = (type, payload = {}) => {
    const id = nextId++;
    const reply = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    // As a posted message: delivered in a later turn of the event loop.
    setTimeout(() => service.receive({ id, type, ...payload }), 0);
    return { id, reply };
  };
  return { service, request, replies };
}

/** n rods of 0.1 m pinned end to end from a pivot, at an integrator step of 1 µs. */
function heavyChain(count = 64) {
  const bodies = [];
  const joints = [];
  for (let i = 0; i < count; i++) {
    bodies.push({ name: `r${i}`, shape: { type: 'rod', length: 0.1, radius: 0.01 }, position: [0.05 + 0.1 * i, 2] });
    joints.push({ type: 'pin', body_a: i === 0 ? 'world' : `r${i - 1}`, anchor_a: i === 0 ? [0, 2] : [0.05, 0],
      body_b: `r${i}`, anchor_b: [-0.05, 0] });
  }
  return { oblique: 1, title: 'heavy chain', bodies, joints, integrator: { step: 1e-6 } };
}

let current = null;
afterEach(async () => {
  // Leave nothing running: supersede any run, free the simulation.
  if (current) await current.request('load', { scenario: loadScenario('bouncing-ball') }).reply;
  current = null;
});

describe('worker service: the protocol', () => {
  it('loads, ticks, steps to an impact, shows it, seeks into the past and back, sets, resets', async () => {
    const h = (current = harness());
    await h.service.ready;
    const loaded = await h.request('load', { scenario: loadScenario('bouncing-ball') }).reply;
    expect(loaded.bodyCount).toBe(1);
    expect(loaded.frame.time).toBe(0);
    const ticked = await h.request('tick', { dt: 0.1 }).reply;
    expect(ticked.time).toBeCloseTo(0.1, 12);
    expect(ticked.limited).toBe(false);
    expect(ticked.replaying).toBe(false);
    expect(ticked.positions[1]).toBeCloseTo(1.1 - 0.5 * 9.81 * 0.01, 9);
    expect(ticked.velocities[1]).toBeCloseTo(-0.981, 9);
    const stepped = await h.request('step', { horizon: 5 }).reply;
    expect(stepped.found).toBe(true);
    expect(stepped.impactCount).toBe(1);
    expect(stepped.impacts[0].t).toBeCloseTo(Math.sqrt(2 / 9.81), 9);
    expect(stepped.samples.length).toBeGreaterThan(10);
    const record = await h.request('impact', { index: 0 }).reply;
    expect(record.S).toHaveLength(3);
    expect(record.t).toBe(stepped.impacts[0].t);
    // The past, replayed from the core's saved state: the same moment as the tick showed, bit for bit.
    const past = await h.request('seek', { time: ticked.time }).reply;
    expect(past.replaying).toBe(true);
    expect(past.impactCount).toBe(0);
    expect(Array.from(past.positions)).toEqual(Array.from(ticked.positions));
    expect(Array.from(past.velocities)).toEqual(Array.from(ticked.velocities));
    const impact = await h.request('seekImpact', { index: 0 }).reply;
    expect([impact.time, impact.impactCount]).toEqual([stepped.time, 1]);
    expect(Array.from(impact.positions)).toEqual(Array.from(stepped.positions));
    // A change in the past cuts the run there.
    const cut = await h.request('seek', { time: 0.2 }).reply;
    const set = await h.request('set', { restitution: 0.5 }).reply;
    expect(set.branched).toEqual({ time: cut.time, impactCount: 0 });
    expect(set.edits).toEqual([{ time: cut.time, impactCount: 0, change: { restitution: 0.5 } }]);
    const { first, records } = await h.request('records', { from: 0 }).reply;
    expect([first, records]).toEqual([0, []]);
    const reset = await h.request('reset').reply;
    expect(reset.time).toBe(0);
    const consistent = await h.request('call', { method: 'analyzeImpact',
      args: [{ M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 0.8 }] }).reply;
    expect(consistent.qd_plus[0]).toBeCloseTo(-1.8, 12);
    await expect(h.request('set', { restitution: 2 }).reply).rejects.toThrow(/^e: must be in \[0, 1\]/);
    await expect(h.request('save').reply).rejects.toThrow(/unknown request save/);
    await expect(h.request('teleport').reply).rejects.toThrow(/unknown request teleport/);
  });

  it('gives the records of the log with their matrices, and a fresh trajectory as the CLI samples it', async () => {
    const h = (current = harness());
    await h.request('load', { scenario: loadScenario('box-corner') }).reply;
    await h.request('seek', { time: 1 }).reply;
    const { first, records } = await h.request('records', { from: 1, to: 3 }).reply;
    expect(first).toBe(1);
    expect(records.map((r) => r.S.length)).toEqual([3, 3]);
    const trajectory = await h.request('trajectory', { scenario: loadScenario('box-corner'), duration: 1, sample: 0.1 }).reply;
    expect(Object.keys(trajectory).sort()).toEqual(['csv', 'duration', 'impacts', 'samples']);
    expect([trajectory.samples, trajectory.duration]).toEqual([11, 1]);  // t = 0, 0.1, …, 1
    expect(trajectory.csv.split('\n')[0]).toMatch(/^t,box\.x,/);
    // The bytes of the CLI's writer for the same document, duration and sample, and its count of impacts.
    const oblique = await loadOblique();
    const whole = oblique.simulationCsv(loadScenario('box-corner'), { duration: 1, sample: 0.1 });
    expect(trajectory.csv).toBe(whole);
    expect(trajectory.impacts).toBe(whole.trimEnd().split('\n\n')[1].split('\n').length - 1);
    expect(trajectory.impacts).toBeGreaterThan(0);
  });
});

describe('worker service: long runs do not hold the worker', () => {
  it('answers a reset sent during a long step at once; the step stops, superseded', async () => {
    const h = (current = harness());
    await h.request('load', { scenario: heavyChain() }).reply;
    // The next impact within 10 s: there is none (no floor), and 10 s take some 10⁷ steps of 1 µs.
    const step = h.request('step', { horizon: 10 });
    await new Promise((resolve) => setTimeout(resolve, 200));  // the step is well under way
    const sentAt = performance.now();
    const reset = h.request('reset');
    const resetFrame = await reset.reply;
    const stepFrame = await step.reply;
    // The reset was answered while the step was pending, and first.
    const order = h.replies.map((r) => r.id);
    expect(order.indexOf(reset.id)).toBeLessThan(order.indexOf(step.id));
    expect(resetFrame.time).toBe(0);
    expect(stepFrame.superseded).toBe(true);
    expect(stepFrame.found).toBe(false);
    expect(stepFrame.time).toBe(0);  // its frame is of the state when it stopped: the reset one
    // Generous: a bounded call or two, against the hours the whole step would take.
    expect(h.replies.find((r) => r.id === reset.id).at - sentAt).toBeLessThan(5000);
  });

  it('answers other requests during a long step, and a load supersedes it', async () => {
    const h = (current = harness());
    await h.request('load', { scenario: heavyChain() }).reply;
    const step = h.request('step', { horizon: 10 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const record = h.request('call', { method: 'analyzeImpact', args: [{ M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 0.8 }] });
    expect((await record.reply).gamma).toBeCloseTo(0.6509090909090901, 14);
    const loaded = await h.request('load', { scenario: loadScenario('two-balls') }).reply;
    const stepFrame = await step.reply;
    expect(stepFrame.superseded).toBe(true);
    // The call was answered while the step ran, and the step was still under way then.
    const order = h.replies.map((r) => r.id);
    expect(order.indexOf(record.id)).toBeLessThan(order.indexOf(step.id));
    expect(loaded.bodyCount).toBe(2);
    expect(stepFrame.positions).toHaveLength(6);  // the frame of the simulation now loaded
    expect(order.at(-1)).toBe(step.id);
  });

  it('a change of ν during a long seek ahead is made at the moment the seek had reached, which it stops at', async () => {
    const h = (current = harness());
    await h.request('load', { scenario: heavyChain() }).reply;
    const seek = h.request('seek', { time: 1 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const set = await h.request('set', { nu: 2 }).reply;
    const seekFrame = await seek.reply;
    expect(seekFrame.superseded).toBe(true);
    expect(set.branched).toBeUndefined();
    // The change is recorded at the live moment the seek stood at, and the frame shows that moment.
    expect(set.edits).toEqual([{ time: seekFrame.time, impactCount: 0, change: { nu: 2 } }]);
    expect(seekFrame.time).toBeLessThan(1);
    expect(seekFrame.replaying).toBe(false);
    // A newer seek supersedes an older one: the first replies with the moment it had reached.
    const first = h.request('seek', { time: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await h.request('seek', { time: 0 }).reply;
    const firstFrame = await first.reply;
    expect(firstFrame.superseded).toBe(true);
    expect(second.time).toBe(0);
    expect(second.replaying).toBe(true);
  });

  it('the largest touching frictional scene loads and runs in bounded ticks, the grid at rest', async () => {
    // 256 disks exactly touching in a 16 × 16 grid on the floor, μ = 0.3 at every point, "collide": "all":
    // createSimulation settles the initial state within its call's budget, leaving any rest to the advance
    // calls (test_work_budget_contacts.cpp: the same bits as a settle run whole); the load replies, every
    // tick replies, and the grid rests on its active points.
    const bodies = [];
    for (let i = 0; i < 16; i++) {
      for (let j = 0; j < 16; j++) {
        bodies.push({ name: `d${i}_${j}`, shape: { type: 'disk', radius: 0.05 }, position: [0.1 * j, 0.05 + 0.1 * i] });
      }
    }
    const grid = { oblique: 1, title: 'touching grid', collide: 'all', mu: 0.3, planes: [{ name: 'floor' }], bodies };
    const h = (current = harness());
    const loaded = await h.request('load', { scenario: grid }).reply;
    const active = (frame) => frame.contacts.filter((point) => point.state === 'active').length;
    expect(loaded.frame.time).toBe(0);
    let frame = loaded.frame;
    let ticks = 0;
    while (frame.time < 0.02) {
      frame = await h.request('tick', { dt: 1 / 60 }).reply;
      ticks += 1;
      expect(ticks).toBeLessThan(400);
    }
    expect(active(frame)).toBeGreaterThanOrEqual(256);
    // At rest on the floor and on one another: no disk moves faster than round-off lets it.
    expect(Math.max(...frame.velocities.map(Math.abs))).toBeLessThan(1e-9);
  }, 120000);

  it('a tick on a scenario too heavy for real time replies short of its target', async () => {
    const h = (current = harness());
    await h.request('load', { scenario: heavyChain() }).reply;
    const frame = await h.request('tick', { dt: 1 / 60 }).reply;
    expect(frame.limited).toBe(true);
    expect(frame.time).toBeLessThan(1 / 60);
    // The next tick goes on from there.
    const next = await h.request('tick', { dt: 1 / 60 }).reply;
    expect(next.state.time).toBeGreaterThanOrEqual(frame.time);
  });
});
