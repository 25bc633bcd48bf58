// The Simulation of the JS API on the wasm module: physics through the engine, views versus copies,
// live controls, disposal, agreement with the native `oblique simulate`, determinism, and memory.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique, ObliqueEngine, Simulation } from '../../web/src/engine/index.js';
import { cliPath, loadScenario, scenarioIndex, scenarioPath, scenesPath } from './scenarios.js';
import { runTo } from './simulation-runs.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** A ball of radius r dropped with its bottom at height h above a floor, restitution e. */
function droppedBall(h, e) {
  return {
    oblique: 1, title: 'drop', restitution: e, gravity: [0, -9.81],
    bodies: [{ name: 'ball', shape: { type: 'disk', radius: 0.1 }, mass: 2, position: [0, h + 0.1] }],
    planes: [{ name: 'floor', point: [0, 0], normal: [0, 1] }],
    contacts: [{ type: 'body_plane', body: 'ball', plane: 'floor' }],
  };
}

describe('Simulation: physics through the engine', () => {
  it('drops a ball: first impact at √(2h/g), rebound speed e·v, γ = e²', () => {
    const [h, e, g] = [1, 0.8, 9.81];
    expect(oblique).toBeInstanceOf(ObliqueEngine);
    expect(loadOblique()).toBeInstanceOf(Promise);
    const sim = oblique.createSimulation(droppedBall(h, e));
    expect(sim).toBeInstanceOf(Simulation);
    expect(sim.advanceToNextImpact(5)).toBe(true);
    const t0 = Math.sqrt((2 * h) / g);
    expect(sim.time).toBeCloseTo(t0, 9);
    const record = sim.impact(0);
    expect(record.t).toBeCloseTo(t0, 9);
    expect(-record.qd_minus[1]).toBeCloseTo(g * t0, 7);
    expect(record.qd_plus[1]).toBeCloseTo(e * g * t0, 7);
    expect(record.gamma).toBeCloseTo(e * e, 9);
    // The record carries the matrices of the panels, and R² = I to rounding.
    expect(record.S).toHaveLength(3);
    expect(record.identities.R2_minus_I).toBeLessThan(1e-12);
    sim.dispose();
  });

  it('logs impacts that analyzeImpact reproduces from their own M, A, q̇⁻ and E', () => {
    for (const id of ['double-pendulum', 'box-corner', 'newtons-cradle', 'chamfered-corner']) {
      const sim = oblique.createSimulation(loadScenario(id));
      runTo(sim, 2);
      const records = sim.impactsSince(0).filter((r) => !r.scheduled);
      expect(records.length, id).toBeGreaterThan(0);
      for (const record of records) {
        const again = oblique.analyzeImpact({ M: record.M, A: record.A, qd: record.qd_minus, E: record.restitution });
        record.qd_plus.forEach((v, i) => expect(again.qd_plus[i], id).toBeCloseTo(v, 10));
        expect(again.rank).toBe(record.rank);
      }
      sim.dispose();
    }
  });

  it('changes e live: with e = 1 the ball comes back to its height', () => {
    const sim = oblique.createSimulation(droppedBall(1, 0.5));
    sim.setRestitution(1);
    expect(sim.scenario.restitution).toBe(1);
    sim.advanceToNextImpact(5);
    sim.advance(Math.sqrt(2 / 9.81));  // one rise time later: at the apex again
    expect(sim.positions[1]).toBeCloseTo(1.1, 6);
    expect(sim.state().total).toBeCloseTo(2 * 9.81 * 1.1, 6);
    sim.dispose();
  });

  it('changes ν live: cond(Mc) follows, q̇⁺ does not', () => {
    const run = (nu) => {
      const sim = oblique.createSimulation(loadScenario('falling-rod'));
      sim.setNu(nu);
      sim.advanceToNextImpact(5);
      const record = sim.impact(0);
      sim.dispose();
      return record;
    };
    const optimal = run(null);
    const skewed = run(optimal.nu * 1000);
    expect(skewed.nu).toBeCloseTo(optimal.nu * 1000, 6);
    expect(skewed.cond_Mc).toBeGreaterThan(optimal.cond_Mc * 10);
    for (let i = 0; i < optimal.qd_plus.length; i++) expect(skewed.qd_plus[i]).toBeCloseTo(optimal.qd_plus[i], 9);
  });

  it('names the field of every bad control value', () => {
    const sim = oblique.createSimulation(droppedBall(1, 0.5));
    expect(() => sim.setRestitution(1.2)).toThrow(/^e: must be in \[0, 1\]/);
    expect(() => sim.setRestitution(NaN)).toThrow(/^e: /);
    expect(() => sim.setContactRestitution(0, -1)).toThrow(/^contacts\[0\]\.e: /);
    expect(() => sim.setContactRestitution(7, 0.5)).toThrow(/^contact/);
    expect(() => sim.setNu(-3)).toThrow(/^nu: /);
    expect(() => sim.advance(-1)).toThrow(/dt/);
    expect(() => sim.impact(0)).toThrow(/^impact: 0 is not an impact index/);
    // Nothing was changed by the failed calls.
    expect(sim.scenario.restitution).toBe(0.5);
    sim.setContactRestitution(0, 0.25);
    expect(sim.scenario.contacts[0].e).toBe(0.25);
    sim.dispose();
  });

  it('rejects a scenario naming its JSON pointer', () => {
    expect(() => oblique.createSimulation({ oblique: 1, bodies: [{ name: 'a', mass: -2 }] }))
      .toThrow(/^\/bodies\/0\/mass: must be positive/);
    expect(() => oblique.createSimulation('{"oblique": 1,')).toThrow(/malformed JSON/);
    expect(() => oblique.createSimulation(null)).toThrow(/^scenario: must be an object, got null$/);
  });

  it('resets to the initial state and clears the log, keeping the overrides', () => {
    const sim = oblique.createSimulation(droppedBall(1, 0.5));
    const initial = sim.readPositions(new Float64Array(3));
    sim.setRestitution(0.9);
    sim.advance(2);
    expect(sim.impactCount).toBeGreaterThan(0);
    sim.reset();
    expect(sim.time).toBe(0);
    expect(sim.impactCount).toBe(0);
    expect(Array.from(sim.positions)).toEqual(Array.from(initial));
    expect(sim.scenario.restitution).toBe(0.9);
    sim.dispose();
  });

  it('reports contact points with their state', () => {
    const sim = oblique.createSimulation(loadScenario('box-flat'));
    expect(sim.bodyCount).toBe(1);
    expect(sim.contactCount).toBe(1);
    expect(sim.contactPointCount).toBe(4);
    expect(sim.contactPoints().every((p) => p.state === 'inactive')).toBe(true);
    sim.advanceToNextImpact(5);
    const points = sim.contactPoints();
    const impacting = points.filter((p) => p.state === 'impacting');
    expect(impacting.length).toBe(2);  // the two lower corners land together
    for (const p of impacting) expect(Math.abs(p.gap)).toBeLessThan(1e-6);
    const record = sim.impact(0);
    expect(record.points).toHaveLength(2);
    expect(record.positions).toHaveLength(2);
    sim.dispose();
  });
});

describe('Simulation: saving and restoring the state', () => {
  /** The calls of a run: odd amounts (ending between grid points) and to the next impact. */
  const callOf = (sim, k) => (k % 4 === 3 ? sim.advanceToNextImpact(0.2) : sim.advance(k % 3 === 0 ? 0.0123 : 1 / 60));
  /** Everything a call shows, with the impact records numbered from `since` on. */
  function observe(sim, since) {
    const records = sim.impactsSince(since).map((r) => [r.t, r.qd_plus, r.i_lambda, r.points]);
    return { time: sim.time, q: Array.from(sim.positions), qd: Array.from(sim.velocities), state: sim.state(),
      contacts: sim.contactPoints(), count: sim.impactCount, records };
  }

  for (const id of ['billiards-break', 'double-pendulum', 'rimless-wheel', 'box-corner']) {
    it(`${id}: a restored state replays the run bit for bit, in the same simulation and in a new one`, () => {
      const calls = 60;
      const savedAt = 23;
      const original = oblique.createSimulation(loadScenario(id));
      let saved = null;
      const reference = [];
      for (let k = 0; k < calls; k++) {
        callOf(original, k);
        if (k === savedAt) saved = original.saveState();
        if (k > savedAt) reference.push(observe(original, saved.impact_count));
      }
      // Through structured cloning and JSON, as a worker keeps and posts it.
      const kept = structuredClone(JSON.parse(JSON.stringify(saved)));
      const fresh = oblique.createSimulation(loadScenario(id));
      fresh.advance(0.5);
      for (const sim of [fresh, original]) {
        sim.restoreState(kept);
        expect(sim.impactCount).toBe(saved.impact_count);
        expect(sim.time).toBe(saved.shown_time);
        for (let k = savedAt + 1; k < calls; k++) {
          callOf(sim, k);
          expect(observe(sim, saved.impact_count), `${id} after call ${k}`).toEqual(reference[k - savedAt - 1]);
        }
      }
      original.dispose();
      fresh.dispose();
    });
  }

  it('a state restored into a fresh simulation counts the impacts before it as dropped from the log', () => {
    const original = oblique.createSimulation(loadScenario('bouncing-ball'));
    runTo(original, 1.5);
    const state = original.saveState();
    expect(state.impact_count).toBeGreaterThan(1);
    expect(original.droppedImpacts).toBe(0);
    const fresh = oblique.createSimulation(loadScenario('bouncing-ball'));
    fresh.restoreState(state);
    expect(fresh.impactCount).toBe(state.impact_count);
    expect(fresh.droppedImpacts).toBe(state.impact_count);
    expect(() => fresh.impact(0)).toThrow(/^impact: 0 was dropped from the bounded log/);
    // The next impact is logged under the run's own numbering, as in the original.
    runTo(original, 2.5);
    runTo(fresh, 2.5);
    expect(fresh.impactSummary(state.impact_count)).toEqual(original.impactSummary(state.impact_count));
    original.dispose();
    fresh.dispose();
  });

  it('refuses a state that does not fit, naming its field, and changes nothing', () => {
    const sim = oblique.createSimulation(loadScenario('box-corner'));
    sim.advance(0.3);
    const state = sim.saveState();
    const before = observe(sim, 0);
    expect(() => sim.restoreState({ ...state, q: [0, 1] })).toThrow(/^state\.q: must have 3 entries/);
    expect(() => sim.restoreState({ ...state, qd: [0, 'NaN', 0] })).toThrow(/^state\.qd\[1\]: must be a finite number/);
    expect(() => sim.restoreState({ ...state, active: [2, 0, 0, 0] })).toThrow(/^state\.active\[0\]: must be 0 or 1/);
    expect(() => sim.restoreState({ ...state, colour: 1 })).toThrow(/^state\.colour: unknown field/);
    const { time: _time, ...timeless } = state;
    expect(() => sim.restoreState(timeless)).toThrow(/^state\.time: missing/);
    expect(() => sim.restoreState(null)).toThrow(/^state: must be an object/);
    expect(observe(sim, 0)).toEqual(before);
    sim.dispose();
  });
});

describe('Simulation: the work budget of a call', () => {
  /** Frames at k/60 s and the log, calling advanceTo again while a call stops at its budget. */
  function runWithBudget(id, budget, frames) {
    const sim = oblique.createSimulation(loadScenario(id));
    sim.workBudget = budget;
    const out = { frames: [], calls: 0 };
    for (let k = 1; k <= frames; k++) {
      do {
        sim.advanceTo(k / 60);
        out.calls++;
      } while (sim.workLimitHit);
      out.frames.push([sim.time, ...sim.positions, ...sim.velocities, sim.impactCount]);
    }
    out.log = sim.impactSummariesSince(0);
    sim.dispose();
    return out;
  }

  for (const id of ['billiards-break', 'box-corner', 'chamfered-corner']) {
    it(`${id}: calls that stop after one evaluation give the same run, bit for bit`, () => {
      const whole = runWithBudget(id, 6e7, 90);
      const sliced = runWithBudget(id, 1, 90);
      expect(sliced.calls).toBeGreaterThan(whole.calls);
      expect(sliced.frames).toEqual(whole.frames);
      expect(sliced.log).toEqual(whole.log);
    });
  }

  it('one call of 64 rods pinned in a chain at a step of 1 µs does one projection, not 16 667 steps', () => {
    const bodies = [];
    const joints = [];
    for (let i = 0; i < 64; i++) {
      bodies.push({ name: `r${i}`, shape: { type: 'rod', length: 0.1, radius: 0.01 }, position: [0.05 + 0.1 * i, 2] });
      joints.push({ type: 'pin', body_a: i === 0 ? 'world' : `r${i - 1}`, anchor_a: i === 0 ? [0, 2] : [0.05, 0],
        body_b: `r${i}`, anchor_b: [-0.05, 0] });
    }
    const sim = oblique.createSimulation({ oblique: 1, bodies, joints, integrator: { step: 1e-6 } });
    expect(sim.workBudget).toBe(8e6);
    sim.advance(1 / 60);
    expect(sim.workLimitHit).toBe(true);
    expect(sim.lastWork).toBeLessThan(2e8);  // one projection at n = 192 is estimated at about 1e8 flops
    expect(() => { sim.workBudget = -1; }).toThrow(/^work_budget: must be a finite positive number/);
    sim.dispose();
  });
});

describe('Simulation: calls to absolute times', () => {
  it('advanceToNextImpactBefore stops right after the next impact, or exactly at its time', () => {
    const sim = oblique.createSimulation(droppedBall(1, 0.8));
    // No impact before 0.3 s: exactly there (0.1 + 0.2 would not be).
    expect(sim.advanceToNextImpactBefore(0.1)).toBe(false);
    expect(sim.advanceToNextImpactBefore(0.3)).toBe(false);
    expect(sim.time).toBe(0.3);
    // The impact at √(2h/g) ≈ 0.4515 s comes first.
    expect(sim.advanceToNextImpactBefore(1)).toBe(true);
    expect(sim.time).toBeCloseTo(Math.sqrt(2 / 9.81), 9);
    expect(sim.impactCount).toBe(1);
    expect(() => sim.advanceToNextImpactBefore(NaN)).toThrow(/^t: must be a finite time/);
    sim.dispose();
  });
});

describe('Simulation: views, copies and ownership', () => {
  it('positions is a view updated in place; readPositions copies without allocating', () => {
    const sim = oblique.createSimulation(droppedBall(1, 0.5));
    const view = sim.positions;
    expect(sim.positions).toBe(view);  // the same object while memory did not move
    const copy = new Float64Array(3);
    sim.readPositions(copy);
    sim.advance(0.1);
    const after = sim.positions;
    expect(after[1]).toBeCloseTo(1.1 - 0.5 * 9.81 * 0.01, 9);
    expect(copy[1]).toBe(1.1);  // the copy did not move
    expect(sim.readVelocities(new Float64Array(3))[1]).toBeCloseTo(-0.981, 9);
    expect(sim.velocities[1]).toBeCloseTo(-0.981, 9);
    sim.dispose();
  });

  it('views are rebuilt after wasm memory grows', () => {
    const sim = oblique.createSimulation(droppedBall(1, 0.5));
    sim.advance(0.2);
    const before = Array.from(sim.positions);
    const heapBefore = oblique.memoryBytes;
    // Grow the heap: a 24 MB document has to be copied into wasm memory to be checked.
    const issues = oblique.checkScenario(`{"title": "${'x'.repeat(24 << 20)}"}`);
    expect(issues.length).toBeGreaterThan(0);
    expect(oblique.memoryBytes).toBeGreaterThan(heapBefore);  // it did grow: the test means something
    expect(Array.from(sim.positions)).toEqual(before);
    sim.dispose();
  });

  it('dispose frees; any later call throws; a second dispose is harmless', () => {
    const sim = oblique.createSimulation(droppedBall(1, 0.5));
    sim.dispose();
    sim.dispose();
    for (const call of [() => sim.time, () => sim.advance(0.1), () => sim.positions, () => sim.impactCount,
      () => sim.state(), () => sim.reset(), () => sim.setRestitution(0.5), () => sim.contactPoints()]) {
      expect(call).toThrow(/^Simulation: disposed$/);
    }
  });
});

describe('Simulation: agreement with the native CLI and determinism', () => {
  /** `oblique simulate` natively for `duration`. */
  function native(id, duration) {
    const text = execFileSync(cliPath, ['simulate', scenarioPath(id), '--duration', String(duration), '--format', 'json'],
      { encoding: 'utf8', maxBuffer: 256 << 20 });
    return JSON.parse(text);
  }

  /** The same run through the engine: impacts (t, q̇⁺) and the final state. */
  function engine(id, duration) {
    const sim = oblique.createSimulation(loadScenario(id));
    runTo(sim, duration);
    const impacts = sim.impactsSince(0);
    const q = Array.from(sim.positions);
    sim.dispose();
    return { impacts, q };
  }

  // The core runs the same floating-point operations in both builds (scalar Eigen, no fused multiply-add,
  // portable cos/sin: see CMakeLists.txt and trigonometry.hpp), so the logs agree to the last bit, also
  // for the chaotic double pendulum and the billiards break.
  const cases = [['bouncing-ball', 3], ['two-balls', 2], ['falling-rod', 2], ['newtons-cradle-gaps', 1],
    ['double-pendulum', 5], ['billiards-break', 5], ['four-bar', 5], ['rimless-wheel', 5], ['box-corner', 3],
    // Automatic contacts ("collide": "all"), found by the broad and narrow phases each step.
    ['pile-in-bin', 1.5], ['domino-row', 1.5], ['box-stairs', 2], ['seesaw', 2],
    // The sparse path at 90 coordinates: the pile of 30's first 87 impacts.
    ['pile-of-30', 0.2]];
  for (const [id, duration] of cases) {
    it(`${id}: bit-identical impact times, velocities and final state to oblique simulate`, () => {
      const cli = native(id, duration);
      const js = engine(id, duration);
      expect(js.impacts.length).toBe(cli.impacts.length);
      expect(js.impacts.length).toBeGreaterThan(0);
      js.impacts.forEach((record, k) => {
        const reference = cli.impacts[k];
        expect(record.t, `impact ${k} t`).toBe(reference.t);
        expect(record.qd_plus, `impact ${k} q̇⁺`).toEqual(reference.qd_plus);
        expect(record.i_lambda, `impact ${k} i_λ`).toEqual(reference.i_lambda);
      });
      expect(js.q).toEqual(cli.q[cli.q.length - 1]);
    });
  }

  it('an advance that logs an impact and its plastic follow-up delivers both, in the API and the CLI', () => {
    // The chamfered corner with e = (0, 0.3, 0): the impact at t = 0.38237 s leaves a wall row moving (A is
    // rank-deficient, the e_i unequal), and a plastic follow-up record follows at the same instant.
    const doc = loadScenario('chamfered-corner');
    [0, 0.3, 0].forEach((e, k) => { doc.contacts[k].e = e; });
    const cli = JSON.parse(execFileSync(cliPath, ['simulate', '-', '--duration', '2', '--impacts-only'],
      { input: JSON.stringify(doc), encoding: 'utf8' }));
    const sim = oblique.createSimulation(doc);
    const times = [];
    while (sim.time < 2) {
      const before = sim.impactCount;
      sim.advanceToNextImpact(2 - sim.time);
      for (const record of sim.impactsSince(before)) times.push(record.t);
    }
    sim.dispose();
    expect(times).toHaveLength(3);
    expect(times[1]).toBe(times[0]);
    expect(cli.impacts.map((impact) => impact.t)).toEqual(times);
  });

  it('a large scene on the sparse smooth phase (16 rods, n = 48): bit-identical to oblique simulate', () => {
    // From 48 coordinates the smooth phase runs through the sparse Delassus factorisation (simulator.hpp);
    // the chain of the scene families has redundant pins (a rank-deficient A) and lands link by link.
    const doc = execFileSync(scenesPath, ['chain', '16'], { encoding: 'utf8' });
    const cli = JSON.parse(execFileSync(cliPath, ['simulate', '-', '--duration', '0.1', '--format', 'json'],
      { input: doc, encoding: 'utf8', maxBuffer: 256 << 20 }));
    const sim = oblique.createSimulation(doc);
    runTo(sim, 0.1);
    const impacts = sim.impactsSince(0);
    const q = Array.from(sim.positions);
    sim.dispose();
    expect(impacts.length).toBe(cli.impacts.length);
    expect(impacts.length).toBeGreaterThan(10);
    impacts.forEach((record, k) => {
      expect(record.t, `impact ${k} t`).toBe(cli.impacts[k].t);
      expect(record.qd_plus, `impact ${k} q̇⁺`).toEqual(cli.impacts[k].qd_plus);
    });
    expect(q).toEqual(cli.q[cli.q.length - 1]);
  });

  it('is deterministic: two runs give bit-identical trajectories and logs', () => {
    const a = engine('billiards-break', 2);
    const b = engine('billiards-break', 2);
    expect(b.q).toEqual(a.q);
    expect(JSON.stringify(b.impacts)).toBe(JSON.stringify(a.impacts));
  });

  it('runs every built-in scenario for a second without error or NaN', () => {
    for (const { id } of scenarioIndex()) {
      const sim = oblique.createSimulation(loadScenario(id));
      sim.advance(1);
      expect(Array.from(sim.positions).every(Number.isFinite), id).toBe(true);
      expect(Number.isFinite(sim.state().total), id).toBe(true);
      sim.dispose();
    }
  });
});

describe('Simulation: memory', () => {
  /** 64 disks over a floor: the first `falling` land one after the other in 0.1 … 0.15 s, the others are
   * far above. */
  function rowOf64(falling) {
    const bodies = [];
    const contacts = [];
    for (let i = 0; i < 64; i++) {
      bodies.push({ name: `d${i}`, shape: { type: 'disk', radius: 0.1 }, position: [0.3 * i, i < falling ? 0.15 + 0.001 * i : 50] });
      contacts.push({ type: 'body_plane', body: `d${i}`, plane: 'floor' });
    }
    return { oblique: 1, restitution: 0.9, bodies, planes: [{ name: 'floor' }], contacts };
  }

  it('keeps every record of a 64-body run, shows the first with its 192×192 matrices, and frees it all', () => {
    const before = oblique.heapBytesInUse;
    const sim = oblique.createSimulation(rowOf64(20));
    runTo(sim, 0.2);
    expect(sim.impactCount).toBe(20);  // beyond the 16 records the log once kept at this size
    const first = sim.impact(0);
    expect(first.S).toHaveLength(192);
    expect(first.identities.R2_minus_I).toBeLessThan(1e-12);
    expect(first.qd_plus[1]).toBeCloseTo(-0.9 * first.qd_minus[1], 12);  // the first disk rebounds with e
    expect(sim.impactLogBytes / sim.impactCount).toBeLessThan(8192);  // no matrix kept: a few kB a record
    // Without the scalars of its projections (the page's live log): the same summary but those five keys.
    const light = sim.impactSummary(1, { projectionScalars: false });
    const scalars = ['rank', 'nu', 'nu_range', 'nu_optimal', 'cond_Mc'];
    const full = sim.impactSummary(1);
    for (const key of scalars) {
      expect(light).not.toHaveProperty(key);
      expect(full).toHaveProperty(key);
      delete full[key];
    }
    // The sparse path's solve leaves λ_max(EQE − Q): the live log has it null, the summary computes it.
    // One row, e = 0.9: (e² − 1)·Q with Q = K⁺ = 1/m = 1.
    expect(light.qmi_max_eig).toBeNull();
    expect(light.energy_consistent).toBeNull();
    expect(full.qmi_max_eig).toBeCloseTo(-0.19, 12);
    expect(full.energy_consistent).toBe(true);
    expect({ ...light, qmi_max_eig: full.qmi_max_eig, energy_consistent: true }).toEqual(full);
    const summary = sim.impactSummary(0);
    expect(summary.qmi_max_eig).toBeCloseTo(-0.19, 12);
    expect(summary.energy_consistent).toBe(true);
    expect(first.qmi_max_eig).toBe(summary.qmi_max_eig);
    expect(first.energy_consistent).toBe(true);
    for (const key of ['M', 'A', 'unilateral', 'P', 'Mc', 'S', 'R', 'E_tilde', 'Q', 'velocity_plane', 'identities',
      'rows']) {
      delete first[key];
      delete summary[key];
    }
    expect(summary).toEqual(first);
    expect(sim.impactSummariesSince(18).map((r) => r.t)).toEqual([sim.impact(18).t, sim.impact(19).t]);
    sim.dispose();
    expect(Math.abs(oblique.heapBytesInUse - before)).toBeLessThan(64 << 10);  // returned on dispose
  });

  it('does not grow over 10 000 create/advance/dispose cycles', () => {
    const doc = JSON.stringify(droppedBall(0.05, 0.5));
    const cycle = () => {
      const sim = oblique.createSimulation(doc);
      sim.advance(0.2);  // through an impact, so the log holds a record
      sim.impact(0);
      sim.dispose();
    };
    for (let i = 0; i < 200; i++) cycle();  // warm up: let the allocator reach its working size
    const before = oblique.memoryBytes;
    for (let i = 0; i < 10000; i++) cycle();
    expect(oblique.memoryBytes).toBe(before);
  });

  it('does not grow over 10 000 failing calls', () => {
    const bad = { M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 1.5, pad: 'x'.repeat(2000) };
    for (let i = 0; i < 200; i++) expect(() => oblique.analyzeImpact(bad)).toThrow();
    const before = oblique.memoryBytes;
    for (let i = 0; i < 10000; i++) {
      expect(() => oblique.analyzeImpact(bad)).toThrow();
      expect(() => oblique.createSimulation('{"oblique": 1, "bodies": [{"mass": -1}]}')).toThrow();
    }
    expect(oblique.memoryBytes).toBe(before);
  });
});
