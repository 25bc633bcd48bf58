// Automatic contact points ("collide": "all") are named in the page by their two bodies: the worker finds
// the bodies of each impact point among the run's contact points of the frame that reports it, the panels
// read them exactly from the record's Jacobian (web/src/scenario/impact-pairs.js), and names.js labels them
// ("ball 3 – floor"). Checked against the truth: the contact points read right after each impact, when
// the record's point indices are exact.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { automaticPointBodies, jacobianPointBodies } from '../../web/src/scenario/impact-pairs.js';
import { automaticLabel, contactLabel, matrixLabels, namesPhrase, rowLabels } from '../../web/src/scenario/names.js';
import { scenarioDir } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

const scenario = (id) => readFileSync(new URL(`${id}.json`, scenarioDir), 'utf8');

describe('names of automatic contact points', () => {
  it('finds the bodies of each automatic impact point: always from A, a frame later when still there, never wrong ones', () => {
    for (const id of ['pile-in-bin', 'box-stairs', 'seesaw']) {
      const sim = oblique.createSimulation(scenario(id));
      let named = 0;
      let points = 0;
      try {
        // Impact by impact: right after one the record's point indices are those of contactPoints().
        while (sim.time < 1.5 && sim.impactCount < 60) {
          if (!sim.advanceToNextImpact(1.5 - sim.time)) continue;
          const index = sim.impactCount - 1;
          const record = sim.impactSummary(index);
          const truth = record.points.map((p) => sim.contactPoints()[p]);
          const exact = jacobianPointBodies(sim.impact(index));
          // A frame later (1/60 s at 1×), as the worker reports it.
          sim.advance(1 / 60);
          const found = automaticPointBodies(record, sim.contactPoints());
          record.contacts.forEach((contact, j) => {
            if (contact >= 0) return;
            points += 1;
            expect(exact[j], `${id} impact ${index + 1} point ${j} from A`).toEqual([truth[j].bodyA, truth[j].bodyB]);
            if (found[j] === null) return;
            named += 1;
            expect(found[j], `${id} impact ${index + 1} point ${j}`).toEqual([truth[j].bodyA, truth[j].bodyB]);
          });
        }
      } finally {
        sim.dispose();
      }
      expect(points, id).toBeGreaterThan(0);
      // Most points are still there a frame later (a box bouncing off an edge is not: it keeps the label
      // "automatic contact" in the log until its panels are shown).
      expect(named / points, id).toBeGreaterThan(0.5);
    }
  });

  it('labels a pair by its bodies, a body against the world by the plane of the normal', () => {
    const doc = JSON.parse(scenario('pile-in-bin'));
    expect(automaticLabel(doc, [2, 4], [0, 1])).toBe(`${doc.bodies[2].name} – ${doc.bodies[4].name}`);
    expect(automaticLabel(doc, [-1, 2], [0, 1])).toBe('ball 3 – floor');
    expect(automaticLabel(doc, [-1, 0], [1, 0])).toBe(`${doc.bodies[0].name} – left wall`);
    expect(automaticLabel(doc, [-1, 0], [-1, 0])).toBe(`${doc.bodies[0].name} – right wall`);
    expect(automaticLabel(doc, null, [0, 1])).toBe('automatic contact');
    expect(contactLabel(doc, -1, { pair: [-1, 2], normal: [0, 1] })).toBe('ball 3 – floor');
  });

  it('names the rows of an impact of automatic points, normal and tangential', () => {
    const doc = JSON.parse(scenario('pile-in-bin'));
    const impact = { points: [4, 9, 11, 12], point_bodies: [[-1, 2], [2, 3], [-1, 1], [-1, 1]],
      normals: [[0, 1], [1, 0], [0, 1], [0, 1]] };
    const rows = [{ kind: 'normal', point: 4, contact: -1 }, { kind: 'tangent', point: 4, contact: -1 },
      { kind: 'normal', point: 9, contact: -1 }, { kind: 'normal', point: 11, contact: -1 }, { kind: 'normal', point: 12, contact: -1 }];
    // Two corners of one box on the floor are one pair: numbered as a declared contact's points are.
    expect(rowLabels(doc, rows, impact)).toEqual(['ball 3 – floor', 'ball 3 – floor (tangential)',
      `ball 3 – ${doc.bodies[3].name}`, `${doc.bodies[1].name} – floor ·1`, `${doc.bodies[1].name} – floor ·2`]);
  });
});

describe('names of the rows and columns of an impact, and of many contacts', () => {
  it('blocks the coordinates by body and the rows of A by contact, as the core lays them out', () => {
    const doc = oblique.normalizeScenario(scenario('newtons-cradle'));
    const sim = oblique.createSimulation(doc);
    do sim.advanceToNextImpact(10); while (sim.workLimitHit && sim.impactCount === 0);
    const record = sim.impact(0);
    sim.dispose();
    const labels = matrixLabels(doc, record);
    expect(labels.coords.slice(0, 4)).toEqual(['x₁', 'y₁', 'θ₁', 'x₂']);
    expect(labels.coordNames.slice(0, 4)).toEqual(['x of striker', 'y of striker', 'θ of striker', 'x of ball2']);
    expect(labels.coordBlocks).toEqual(doc.bodies.map((b, i) => ({ name: b.name, start: 3 * i, size: 3 })));
    expect(labels.rows).toEqual(['striker–ball2', 'ball2–ball3', 'ball3–ball4', 'ball4–ball5']);
    expect(labels.rowBlocks.map((b) => [b.name, b.start, b.size])).toEqual(labels.rows.map((name, k) => [name, k, 1]));
  });

  it('names a few and counts the rest', () => {
    const names = Array.from({ length: 20 }, (_, k) => `disk ${k + 1} – floor`);
    expect(namesPhrase(names, { max: 3, noun: 'contacts' })).toBe('disk 1 – floor, disk 2 – floor, disk 3 – floor and 17 more contacts');
    // One more is named rather than counted.
    expect(namesPhrase(names.slice(0, 4), { max: 3, noun: 'contacts' })).toBe(names.slice(0, 4).join(', '));
    expect(namesPhrase(names.slice(0, 2), { max: 3 })).toBe('disk 1 – floor, disk 2 – floor');
  });
});
