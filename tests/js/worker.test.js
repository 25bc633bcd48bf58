// The worker's simulation service (web/src/worker/simulation-service.js) driven as the page drives it, in
// Node: the protocol's requests and replies; and, on a scenario far too heavy for real time (64 rods pinned
// in a chain, a step of 1 µs: one call of the core does one projection at n = 192), a reset or any other
// request sent during a long run is answered while the run is pending, which then stops and says it was
// superseded. Ordering is asserted, with generous bounds on the time a reply may take; no speed is tested.
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
  it('loads, ticks, steps to an impact, resets, sets, shows an impact, saves and restores', async () => {
    const h = (current = harness());
    await h.service.ready;
    const loaded = await h.request('load', { scenario: loadScenario('bouncing-ball') }).reply;
    expect(loaded.bodyCount).toBe(1);
    expect(loaded.frame.time).toBe(0);
    const ticked = await h.request('tick', { dt: 0.1 }).reply;
    expect(ticked.time).toBeCloseTo(0.1, 12);
    expect(ticked.limited).toBe(false);
    expect(ticked.positions[1]).toBeCloseTo(1.1 - 0.5 * 9.81 * 0.01, 9);
    const saved = await h.request('save').reply;
    expect(saved.shown_time).toBe(ticked.time);
    const stepped = await h.request('step', { horizon: 5 }).reply;
    expect(stepped.found).toBe(true);
    expect(stepped.impactCount).toBe(1);
    expect(stepped.impacts[0].t).toBeCloseTo(Math.sqrt(2 / 9.81), 9);
    expect(stepped.samples.length).toBeGreaterThan(10);
    const record = await h.request('impact', { index: 0 }).reply;
    expect(record.S).toHaveLength(3);
    expect(await h.request('set', { restitution: 0.5 }).reply).toBe(null);
    const restored = await h.request('restore', { state: saved }).reply;
    expect(restored.time).toBe(ticked.time);
    expect(restored.impactCount).toBe(0);
    expect(Array.from(restored.positions)).toEqual(Array.from(ticked.positions));
    const reset = await h.request('reset').reply;
    expect(reset.time).toBe(0);
    const consistent = await h.request('call', { method: 'analyzeImpact',
      args: [{ M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 0.8 }] }).reply;
    expect(consistent.qd_plus[0]).toBeCloseTo(-1.8, 12);
    await expect(h.request('set', { restitution: 2 }).reply).rejects.toThrow(/^e: must be in \[0, 1\]/);
    await expect(h.request('teleport').reply).rejects.toThrow(/unknown request teleport/);
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
    const saved = await h.request('save').reply;
    expect(saved.q).toHaveLength(192);
    expect(await h.request('set', { nu: 2 }).reply).toBe(null);
    const loaded = await h.request('load', { scenario: loadScenario('two-balls') }).reply;
    const stepFrame = await step.reply;
    expect(stepFrame.superseded).toBe(true);
    expect(loaded.bodyCount).toBe(2);
    expect(stepFrame.positions).toHaveLength(6);  // the frame of the simulation now loaded
    const order = h.replies.map((r) => r.id);
    expect(order.at(-1)).toBe(step.id);
  });

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
