// Determinism pinned in the wasm build, as Box2D's determinism test does: the chaotic runs of
// tests/determinism/golden.json (the double pendulum striking the floor, the billiards break) hashed bit
// for bit — t, q and q̇ after every 1/60 s call, then t, q̇⁻, q̇⁺ and i_λ of every impact — must give the
// golden hashes, the same ones the native build gives (tests/cpp/test_determinism.cpp). When a change is
// meant to alter results, update the hashes as golden.json says (the failure message prints the new one).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { loadScenario } from './scenarios.js';

const golden = JSON.parse(readFileSync(new URL('../determinism/golden.json', import.meta.url), 'utf8'));

/** FNV-1a, 64 bits, over the little-endian bytes of doubles. */
class Fnv1a {
  #hash = 0xcbf29ce484222325n;
  #bytes = new DataView(new ArrayBuffer(8));

  add(values) {
    for (const x of typeof values === 'number' ? [values] : values) {
      this.#bytes.setFloat64(0, x, true);
      for (let byte = 0; byte < 8; byte++) {
        this.#hash ^= BigInt(this.#bytes.getUint8(byte));
        this.#hash = (this.#hash * 0x100000001b3n) & 0xffffffffffffffffn;
      }
    }
  }

  get hex() { return this.#hash.toString(16).padStart(16, '0'); }
}

/** Every number of a parsed JSON document, in document order (booleans as 0 and 1, null as NaN). */
function addNumbers(value, fnv) {
  if (typeof value === 'number') fnv.add(value);
  else if (typeof value === 'boolean') fnv.add(value ? 1 : 0);
  else if (value === null) fnv.add(NaN);
  else if (typeof value === 'object') for (const item of Object.values(value)) addNumbers(item, fnv);
}

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

describe('determinism', () => {
  for (const { scenario, calls, hash } of golden.runs) {
    it(`${scenario}: ${calls} calls of 1/60 s hash to the golden value of the native build`, () => {
      const sim = oblique.createSimulation(loadScenario(scenario));
      const fnv = new Fnv1a();
      for (let k = 0; k < calls; k++) {
        sim.advance(1 / 60);
        expect(sim.workLimitHit, 'a light run: no call stops at its work budget').toBe(false);
        fnv.add(sim.time);
        fnv.add(sim.positions);
        fnv.add(sim.velocities);
      }
      const records = sim.impactsSince(0);
      expect(records).toHaveLength(sim.impactCount);
      for (const record of records) {
        fnv.add(record.t);
        fnv.add(record.qd_minus);
        fnv.add(record.qd_plus);
        fnv.add(record.i_lambda);
      }
      sim.dispose();
      expect(fnv.hex, `${scenario}: the arithmetic changed; if that is meant, set its hash in ` +
        `tests/determinism/golden.json to ${fnv.hex}`).toBe(hash);
    });
  }

  for (const { scenario, seconds, hash } of golden.records) {
    it(`${scenario}: the impact records as shown hash to the golden value of the native build`, () => {
      const sim = oblique.createSimulation(loadScenario(scenario));
      for (let k = 0; k < Math.round(seconds * 60); k++) sim.advance(1 / 60);
      const fnv = new Fnv1a();
      const records = sim.impactsSince(0);
      expect(records.length).toBeGreaterThan(1);
      // Every key the core writes (impact_record_to_json); `rows`, which the wrapper adds from the model's row
      // layout (indices, no arithmetic), is not part of the native hash.
      for (const { rows: _rows, ...record } of records) addNumbers(record, fnv);
      sim.dispose();
      expect(fnv.hex, `${scenario}: the records shown changed; if that is meant, set its hash in ` +
        `tests/determinism/golden.json to ${fnv.hex}`).toBe(hash);
    });
  }

  it('the hash sees one ulp', () => {
    const [a, b] = [new Fnv1a(), new Fnv1a()];
    a.add(0.1);
    b.add(0.1 + Number.EPSILON / 16);  // the next double after 0.1
    expect(0.1 + Number.EPSILON / 16).not.toBe(0.1);
    expect(a.hex).not.toBe(b.hex);
  });
});
