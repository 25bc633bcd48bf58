// The rest speed each impact point used, through the engine API and the worker's timeline to the page's
// reading of it (web/src/ui/impact-panels/restitution-used.js): a disk landing on a resting stack below
// the nearly-resting speed √(2ε|g|L) is plastic for that reason, its record says so with the bound used, and
// a record without the new keys (an older one, or analyzeImpact's output) is read against the scenario's
// rest speed.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { Timeline } from '../../web/src/worker/timeline.js';
import { plasticPoints, pointRestSpeed } from '../../web/src/ui/impact-panels/restitution-used.js';
import { runTo } from './simulation-runs.js';

const G = 9.81;
const RADIUS = 0.05;
/** v_rest of two disks of radius 5 cm: the speed of a bounce 10⁻³ × 5 cm high. */
const V_REST = Math.sqrt(2 * 1e-3 * G * RADIUS);

/** Two disks resting on the floor and a third dropped onto them, landing at `speed`; e = 0.5. */
function droppedOnStack(speed) {
  const drop = (speed * speed) / (2 * G);
  const disk = (name, y) => ({ name, shape: { type: 'disk', radius: RADIUS }, mass: 1, position: [0, y] });
  return {
    oblique: 1, title: 'disk dropped on a stack', gravity: [0, -G], restitution: 0.5, duration: 0.5,
    planes: [{ name: 'floor', point: [0, 0], normal: [0, 1] }],
    bodies: [disk('low', RADIUS), disk('middle', 3 * RADIUS), disk('top', 5 * RADIUS + drop)],
    contacts: [{ type: 'body_plane', body: 'low', plane: 'floor' }, { type: 'disk_disk', body_a: 'low', body_b: 'middle' },
      { type: 'disk_disk', body_a: 'middle', body_b: 'top' }],
  };
}

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

describe('the rest speed of each impact point', () => {
  it('is the nearly-resting speed for a disk landing on a resting stack, which the page reads as such', () => {
    const sim = oblique.createSimulation(droppedOnStack(0.8 * V_REST));
    runTo(sim, 0.2);
    expect(sim.impactCount).toBe(1);
    const record = sim.impact(0);
    const j = record.contacts.indexOf(2);
    expect(j).toBeGreaterThanOrEqual(0);
    expect(record.rest_speeds).toHaveLength(record.points.length);
    expect(record.rest_speeds[j]).toBeCloseTo(V_REST, 15);
    expect(record.nearly_resting[j]).toBe(true);
    // Slower than it: plastic, the disk stops on the stack.
    const row = record.normal_rows[j];
    expect(-record.phid_minus[row]).toBeCloseTo(0.8 * V_REST, 9);
    expect(record.restitution[row]).toBe(0);
    // The page: plastic because nearly resting in a stack, at the bound the record gives (not the
    // scenario's 1 mm/s, which the approach is far above).
    const shown = { ...record, contact_e: record.contacts.map(() => 0.5) };
    const reasons = plasticPoints(shown, 1e-3);
    expect(reasons.slow).toContain(j);
    expect(reasons.stacked).toEqual([j]);
    expect(reasons.joined).toEqual([]);
    expect(reasons.restSpeeds[j]).toBe(record.rest_speeds[j]);
    sim.dispose();
  });

  it('lets a faster landing on the stack bounce with its e, at the same bound', () => {
    const sim = oblique.createSimulation(droppedOnStack(1.5 * V_REST));
    runTo(sim, 0.2);
    // 1.5 v_rest bounces at e = 0.5; its second landing, at 0.75 v_rest, is plastic.
    expect(sim.impactCount).toBe(2);
    const [first, second] = [sim.impact(0), sim.impact(1)];
    const j = first.contacts.indexOf(2);
    expect(first.restitution[first.normal_rows[j]]).toBe(0.5);
    expect(first.rest_speeds[j]).toBeCloseTo(V_REST, 15);
    expect(plasticPoints({ ...first, contact_e: [0.5, 0.5, 0.5] }, 1e-3).slow).not.toContain(j);
    const k = second.contacts.indexOf(2);
    expect(second.restitution[second.normal_rows[k]]).toBe(0);
    expect(plasticPoints({ ...second, contact_e: [0.5, 0.5, 0.5] }, 1e-3).stacked).toEqual([k]);
    sim.dispose();
  });

  it('is the scenario\'s rest speed for a lone ball, and the timeline\'s summaries carry both keys', async () => {
    const ball = { oblique: 1, title: 'ball', gravity: [0, -G], restitution: 0.8, duration: 5,
      bodies: [{ name: 'ball', shape: { type: 'disk', radius: 0.1 }, mass: 1, position: [0, 0.2] }],
      planes: [{ name: 'floor', point: [0, 0], normal: [0, 1] }],
      contacts: [{ type: 'body_plane', body: 'ball', plane: 'floor' }] };
    const timeline = new Timeline(oblique, ball);
    const summaries = [];
    while (timeline.live.time < 4.5) {
      const frame = await timeline.tick(0.25);
      summaries.push(...frame.impacts);
    }
    expect(summaries.length).toBeGreaterThan(10);
    for (const s of summaries) {
      expect(s.rest_speeds).toEqual([1e-3]);
      expect(s.nearly_resting).toEqual([false]);
    }
    // Its last impact is plastic by the scenario's rest speed, not for a stack.
    const last = summaries.at(-1);
    const reasons = plasticPoints(last, 1e-3);
    expect(reasons.slow).toEqual([0]);
    expect(reasons.stacked).toEqual([]);
  });

  it('falls back on the scenario\'s rest speed for a record without its own', () => {
    // An older record's keys: a point at 0.5 mm/s with e = 0 used, e = 0.8 set.
    const old = { normal_rows: [0], restitution: [0], contact_e: [0.8], phid_minus: [-5e-4] };
    expect(pointRestSpeed(old, 0, 1e-3)).toBe(1e-3);
    expect(plasticPoints(old, 1e-3)).toEqual({ touching: [], slow: [0], stacked: [], joined: [], restSpeeds: [1e-3] });
    // Faster than the scenario's: the rule's doing, not the rest speed.
    expect(plasticPoints(old, 1e-4).joined).toEqual([0]);
    // With its own bound, the record's wins.
    const own = { ...old, rest_speeds: [0.03], nearly_resting: [true], phid_minus: [-0.02] };
    expect(plasticPoints(own, 1e-3)).toEqual({ touching: [], slow: [0], stacked: [0], joined: [], restSpeeds: [0.03] });
  });
});
