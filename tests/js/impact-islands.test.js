// An impact takes only the contact islands of its collisions (the bodies joined to them by touching contacts
// and joints): the whole system's S is block diagonal over islands, so every other body keeps its velocity.
// The matrix panel names the bodies it takes from the record's A (web/src/ui/impact-panels/matrix-panel.js);
// checked here against the velocities the run computed.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { matrixLabels } from '../../web/src/scenario/names.js';
import { actedCoordinates, bodiesOf } from '../../web/src/ui/impact-panels/matrix-panel.js';
import { scenarioDir } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

const scenario = (id) => readFileSync(new URL(`${id}.json`, scenarioDir), 'utf8');

describe('the bodies an impact takes', () => {
  it('are those its rows of A join; every other body leaves the impact with its velocity, bit for bit', () => {
    for (const id of ['pile-in-bin', 'domino-row']) {
      const text = scenario(id);
      const document = JSON.parse(text);
      const sim = oblique.createSimulation(text);
      let partial = 0;
      try {
        while (sim.time < 1 && sim.impactCount < 40) {
          if (!sim.advanceToNextImpact(1 - sim.time)) continue;
          const record = sim.impact(sim.impactCount - 1);
          const labels = matrixLabels(document, record);
          const taken = bodiesOf(actedCoordinates(record.A, record.n), labels.coordBlocks);
          expect(taken.length, `${id} at t = ${record.t}`).toBeGreaterThan(0);
          if (taken.length < labels.coordBlocks.length) partial += 1;
          // A body the panel does not name: its x, y and θ after the impact are those before.
          labels.coordBlocks.forEach((block) => {
            if (taken.includes(block.name)) return;
            for (let j = block.start; j < block.start + block.size; j++) {
              expect(Object.is(record.qd_plus[j], record.qd_minus[j]), `${id}: ${block.name}, coordinate ${j}`).toBe(true);
            }
          });
        }
      } finally {
        sim.dispose();
      }
      // The scenes hold impacts of a few of their bodies: the check above was not vacuous.
      expect(partial, id).toBeGreaterThan(0);
    }
  });
});
