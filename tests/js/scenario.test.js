// checkScenario and normalizeScenario through the wasm module: the same messages as `oblique check`,
// every built-in scenario valid, normalisation idempotent.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { cliPath, loadScenario, scenarioIndex } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** The problems `oblique check` prints for a document, as "<pointer>: <message>" lines. */
function cliIssues(document) {
  const dir = mkdtempSync(join(tmpdir(), 'oblique-check-'));
  const file = join(dir, 'doc.json');
  writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document));
  try {
    execFileSync(cliPath, ['check', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return [];
  } catch (error) {
    expect(error.status).toBe(2);
    return error.stderr.trim().split('\n').map((line) => line.slice(file.length).replace(/^:/, ''));
  }
}

describe('checkScenario', () => {
  it('accepts every built-in scenario', () => {
    const ids = scenarioIndex().map((s) => s.id);
    expect(ids.length).toBeGreaterThanOrEqual(12);
    for (const id of ids) expect(oblique.checkScenario(loadScenario(id)), id).toEqual([]);
  });

  const broken = {
    'negative mass and a typo': {
      oblique: 1, bodies: [{ name: 'a', mass: -1, colour: 'red' }],
    },
    'unknown references': {
      oblique: 1, bodies: [{ name: 'a' }], contacts: [{ type: 'body_plane', body: 'b', plane: 'floor' }],
    },
    'restitution out of range and NaN': {
      oblique: 1, restitution: 1.5, gravity: [0, NaN], bodies: [{ name: 'a' }],
    },
    'wrong types everywhere': { oblique: '1', title: 7, bodies: {}, planes: 'none' },
    'future version': { oblique: 99 },
    'malformed JSON': '{"oblique": 1, "bodies": [',
  };
  for (const [name, document] of Object.entries(broken)) {
    it(`reports ${name} exactly as oblique check does`, () => {
      const issues = oblique.checkScenario(document);
      expect(issues.length).toBeGreaterThan(0);
      for (const issue of issues) {
        expect(typeof issue.pointer).toBe('string');
        expect(issue.message.length).toBeGreaterThan(0);
      }
      const asLines = issues.map((i) => (i.pointer ? `${i.pointer}: ${i.message}` : ` ${i.message}`));
      // The CLI reads JSON text, so NaN reaches it as the same string the engine sends.
      const text = typeof document === 'string' ? document
        : JSON.stringify(document, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
      const fromCli = cliIssues(text);
      if (typeof document === 'string') {
        // The CLI names the file where the engine names the document; the reason is the same.
        expect(fromCli).toHaveLength(1);
        expect(issues).toHaveLength(1);
        expect(fromCli[0].trim()).toBe(issues[0].message.replace(/^scenario: /, ''));
      } else {
        expect(asLines).toEqual(fromCli);
      }
    });
  }

  it('names the field of a non-finite number', () => {
    const issues = oblique.checkScenario({ oblique: 1, bodies: [{ name: 'a', mass: Infinity }] });
    expect(issues.map((i) => i.pointer)).toContain('/bodies/0/mass');
    expect(issues.find((i) => i.pointer === '/bodies/0/mass').message).toMatch(/finite/);
  });
});

describe('normalizeScenario', () => {
  it('fills defaults and is idempotent on every built-in scenario', () => {
    for (const { id } of scenarioIndex()) {
      const once = oblique.normalizeScenario(loadScenario(id));
      expect(once.oblique).toBe(1);
      expect(once.integrator.step).toBeGreaterThan(0);
      expect(oblique.normalizeScenario(once), id).toEqual(once);
      expect(oblique.normalizeScenario(JSON.stringify(once)), id).toEqual(once);
    }
  });

  it('throws an Error naming the first problem', () => {
    expect(() => oblique.normalizeScenario({ oblique: 1, bodies: [{ name: 'a', mass: 0 }] }))
      .toThrow(/^\/bodies\/0\/mass: /);
    expect(() => oblique.normalizeScenario(42)).toThrow(/^scenario: must be an object, got number$/);
  });
});
