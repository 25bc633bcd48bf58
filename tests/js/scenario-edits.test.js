// What the scene editor does to a document (JSON Patch operations, applied to the file's text as the page
// applies them): every built-in scenario stays valid for the engine after a disk, a box and a rod are added,
// after any body is deleted (with what refers to it) and renamed (references follow); a thrown ball made
// in the editor lands where the closed form says.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { applyPatchToText } from '../../web/src/editor/json-text-edit.js';
import {
  addBody, contactsOf, deleteBody, gridStep, moveBody, renameBody, roundTo, setBodyProperty, setBodyRestitution, setVelocity,
} from '../../web/src/editor/scenario-edits.js';
import { scenarioDir, scenarioIndex } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** The text after the operations, and its document. */
function edit(text, operations) {
  const out = applyPatchToText(text, operations);
  return { text: out, doc: JSON.parse(out) };
}

const builtins = () => scenarioIndex().map(({ id, file }) => ({ id, text: readFileSync(new URL(file, scenarioDir), 'utf8') }));

describe('scene edits', () => {
  it('add a disk, a box and a rod to every built-in scenario, each with its contacts, and the engine accepts it', () => {
    for (const { id, text } of builtins()) {
      let current = { text, doc: JSON.parse(text) };
      const added = [];
      for (const type of ['disk', 'box', 'rod']) {
        // In free space, as a user places it: the first place of a grid over and above the view where the new
        // body and its contacts overlap nothing (far from the scene may be beyond a wall: the billiards
        // table's cushions enclose it, and the check refuses a body that starts inside one).
        const view = current.doc.view ?? { center: [0, 0.5], width: 4 };
        let placed = null;
        for (let row = 0; row < 9 && !placed; row += 1) {
          for (let col = 0; col < 9 && !placed; col += 1) {
            const at = [view.center[0] + view.width * (col / 8 - 0.5), view.center[1] + view.width * (1 - row / 8)];
            const { operations, index, name } = addBody(current.doc, type, at, view.width);
            const next = edit(current.text, operations);
            const overlap = oblique.checkScenario(next.text).some((i) => i.pointer === `/bodies/${index}/position`);
            if (!overlap) placed = { next, index, name };
          }
        }
        expect(placed, `${id}: a free place for a ${type}`).not.toBeNull();
        current = placed.next;
        expect(current.doc.bodies[placed.index].name).toBe(placed.name);
        added.push(placed.name);
      }
      expect(added).toEqual(['disk 1', 'box 1', 'rod 1']);
      // With "collide": "all" every pair already collides: no declared contact is added.
      const automatic = current.doc.collide === 'all';
      const planes = automatic ? 0 : (current.doc.planes ?? []).length;
      const disks = automatic ? 0 : JSON.parse(text).bodies.filter((b) => (b.shape?.type ?? 'disk') === 'disk').length;
      expect(contactsOf(current.doc, 'disk 1'), id).toHaveLength(planes + disks);
      expect(contactsOf(current.doc, 'rod 1'), id).toHaveLength(planes);
      expect((current.doc.contacts ?? []).length, id).toBe((JSON.parse(text).contacts ?? []).length + 3 * planes + disks);
      expect(oblique.checkScenario(current.text), id).toEqual([]);
    }
  });

  it('a disk added to a "collide": "all" scenario has no declared contact, yet lands on the floor and rests there', () => {
    const text = builtins().find((b) => b.id === 'domino-row').text;
    const { operations, index } = addBody(JSON.parse(text), 'disk', [-2, 1], 4);
    const { doc, text: out } = edit(text, operations);
    expect(doc.contacts).toEqual(JSON.parse(text).contacts);
    const radius = doc.bodies[index].shape.radius;
    const sim = oblique.createSimulation(out);
    try {
      while (sim.time < 3) sim.advanceTo(3);
      // Resting on the floor (y = r, still) through an automatic contact: it did not fall through.
      const q = sim.positions;
      expect(q[3 * index + 1]).toBeCloseTo(radius, 6);
      expect(Math.abs(sim.velocities[3 * index + 1])).toBeLessThan(1e-6);
    } finally {
      sim.dispose();
    }
  });

  it('delete any body of any built-in with everything that refers to it, and the engine accepts it', () => {
    for (const { id, text } of builtins()) {
      const doc = JSON.parse(text);
      if (doc.bodies.length < 2) {
        expect(() => deleteBody(doc, 0)).toThrow(/at least one body/);
        continue;
      }
      for (let i = 0; i < doc.bodies.length; i++) {
        const { doc: after, text: out } = edit(text, deleteBody(doc, i));
        expect(after.bodies.map((b) => b.name)).toEqual(doc.bodies.filter((_, k) => k !== i).map((b) => b.name));
        expect(JSON.stringify([after.joints, after.contacts, after.forces, after.impulses])).not.toContain(`"${doc.bodies[i].name}"`);
        expect(oblique.checkScenario(out), `${id} without ${doc.bodies[i].name}`).toEqual([]);
      }
    }
  });

  it('rename a body everywhere it is named', () => {
    const text = builtins().find((b) => b.id === 'four-bar').text;
    const { doc, text: out } = edit(text, renameBody(JSON.parse(text), 1, 'link “b”'));
    expect(doc.bodies[1].name).toBe('link “b”');
    expect(doc.joints.filter((j) => j.body_a === 'link “b”' || j.body_b === 'link “b”')).toHaveLength(2);
    expect(out).not.toContain('"coupler"');
    expect(oblique.checkScenario(out)).toEqual([]);
  });

  it('set properties, velocities and e, and remove a velocity set to zero', () => {
    const text = builtins().find((b) => b.id === 'two-balls').text;
    let current = { text, doc: JSON.parse(text) };
    current = edit(current.text, setBodyProperty(current.doc, 0, 'shape.radius', 0.2));
    current = edit(current.text, setBodyProperty(current.doc, 0, 'mass', 3));
    current = edit(current.text, setBodyRestitution(current.doc, 0, 0.25));
    expect(current.doc.bodies[0]).toMatchObject({ mass: 3, shape: { radius: 0.2 } });
    expect(current.doc.contacts.map((c) => c.e)).toEqual([0.25]);
    current = edit(current.text, setVelocity(current.doc, 0, [0, 0]));
    expect(current.doc.bodies[0].velocity).toBeUndefined();
    expect(setVelocity(current.doc, 0, [0, 0])).toEqual([]);
    expect(oblique.checkScenario(current.text)).toEqual([]);
  });

  it('round positions to the pixel’s power of ten, without binary noise', () => {
    expect(gridStep(0.0052)).toBe(0.001);
    expect(gridStep(0.08)).toBe(0.01);
    expect(roundTo(0.30000000000000004, 0.001)).toBe(0.3);
    expect(roundTo(-0.0004, 0.001)).toBe(0);
    expect(Object.is(roundTo(-0.0004, 0.001), -0)).toBe(false);
    expect(roundTo(1.23456, 0.01)).toBe(1.23);
  });

  it('make a thrown ball that lands where the closed form says', () => {
    const text = builtins().find((b) => b.id === 'bouncing-ball').text;
    let current = { text, doc: JSON.parse(text) };
    current = edit(current.text, moveBody(current.doc, 0, [0.25, 0.9]));
    current = edit(current.text, setVelocity(current.doc, 0, [1.5, 2]));
    const sim = oblique.createSimulation(current.text);
    expect(sim.advanceToNextImpact(5)).toBe(true);
    // y = 0.9 + 2t − 4.905t² = 0.1 (the radius): t = (2 + √(4 + 2·9.81·0.8)) / 9.81.
    const t = (2 + Math.sqrt(4 + 2 * 9.81 * 0.8)) / 9.81;
    expect(sim.time).toBeCloseTo(t, 10);
    expect(sim.positions[0]).toBeCloseTo(0.25 + 1.5 * t, 10);
    sim.dispose();
  });
});
