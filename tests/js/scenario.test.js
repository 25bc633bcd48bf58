// checkScenario and normalizeScenario through the wasm module: the same messages as `oblique check`,
// every built-in scenario valid, normalisation idempotent.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
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
    'a lone surrogate escape, at its string': '{"title": "a\\ud800b", "bodies": [{"name": "x"}]}',
    'deep nesting followed by another key': `{"zz": ${'['.repeat(3000)}${']'.repeat(3000)}, "bodies": []}`,
    'a name that imitates the world, and a bidi override': {
      oblique: 1, title: '\u202Edlrow', bodies: [{ name: 'w\u03BFrld' }, { name: 'WORLD' }],
    },
    'bodies overlapping at the start, by name': {
      oblique: 1, collide: 'all', gravity: [0, 0],
      planes: [{ name: 'floor' }, { name: 'right', point: [1, 0], normal: [-1, 0] }],
      bodies: [
        { name: 'ball', position: [-1, 1], shape: { type: 'disk', radius: 0.1 } },
        { name: 'b', position: [0.95, 1], shape: { type: 'disk', radius: 0.5 } },
        { name: 'lid', position: [-1, 1.18], shape: { type: 'box', width: 0.5, height: 0.2 } },
        { name: 'left', position: [3, 2], shape: { type: 'rod', length: 1, radius: 0 } },
        { name: 'right', position: [3.5, 2], shape: { type: 'rod', length: 1, radius: 0 } },
      ],
      contacts: [{ type: 'rope', anchor_a: [-1, 3], body_b: 'ball', length: 1.5 }],
    },
    'thirty disks in the floor: twenty listed, then how many more': {
      oblique: 1, collide: 'all', planes: [{ name: 'floor' }],
      bodies: Array.from({ length: 30 }, (_, i) => ({ name: `d${i}`, position: [i, 0.05] })),
    },
    'magnitudes beyond the bounds and degenerate geometry': {
      oblique: 1, gravity: [0, -1e300],
      bodies: [{ name: 'a', mass: 1e308, angular_velocity: 1e300, position: [0, 1] }],
      joints: [{ type: 'distance', anchor_a: [0, 1], body_b: 'a' }],
      contacts: [{ type: 'rope', anchor_a: [0, 1], body_b: 'a', length: 0.5 }],
    },
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
      // The same pointers and messages, malformed JSON included (the CLI puts the file's name first).
      expect(asLines).toEqual(cliIssues(text));
    });
  }

  it('names the bodies and planes of an overlap at the start, at the body\'s position', () => {
    const issues = oblique.checkScenario({
      oblique: 1, collide: 'all',
      planes: [{ name: 'right', point: [1, 0], normal: [-1, 0] }],
      bodies: [{ name: 'b', position: [0.95, 1], shape: { type: 'disk', radius: 0.5 } }],
    });
    expect(issues).toEqual([{ pointer: '/bodies/0/position', message: 'disk "b" starts 0.45 m inside plane "right"' }]);
  });

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

  it('shows bodies that overlap at the start, which checkScenario names and createSimulation refuses', () => {
    const doc = { oblique: 1, collide: 'all', gravity: [0, 0], planes: [{ name: 'right', point: [1, 0], normal: [-1, 0] }],
      bodies: [{ name: 'a', position: [1.1, 0], shape: { type: 'disk', radius: 0.2 } }] };
    expect(oblique.normalizeScenario(doc).bodies[0].position).toEqual([1.1, 0]);
    expect(oblique.checkScenario(doc)).toEqual([{ pointer: '/bodies/0/position', message: 'disk "a" starts 0.3 m inside plane "right"' }]);
    expect(() => oblique.createSimulation(doc)).toThrow(/^\/bodies\/0\/position: disk "a" starts 0\.3 m inside plane "right"$/);
  });
});

describe('hostile documents (issue #13)', () => {
  const nested = (depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('refuses deep nesting at its pointer, without a RangeError or a leak', () => {
    const text = `{"zz": ${nested(20000)}, "bodies": [{"name": "a"}]}`;
    const [issue] = oblique.checkScenario(text);
    expect(issue.pointer).toMatch(/^\/zz(\/0)+$/);
    expect(issue.message).toBe('nested deeper than 64 levels of arrays and objects');
    expect(() => oblique.createSimulation(text)).toThrow(/^scenario:\/zz\/0\/0.*: nested deeper than 64 levels/);
    expect(() => oblique.normalizeScenario(text)).toThrow(/nested deeper than 64 levels/);
    expect(() => oblique.analyzeImpact({ M: JSON.parse(nested(200)) }))
      .toThrow(/^input:\/M\/0\/0.*: nested deeper than 64 levels/);
    // Repeated calls do not grow the heap: a refused document leaves nothing allocated behind.
    for (let i = 0; i < 20; i++) oblique.checkScenario(text);
    const before = oblique.memoryBytes;
    for (let i = 0; i < 300; i++) {
      oblique.checkScenario(text);
      expect(() => oblique.createSimulation(text)).toThrow();
    }
    expect(oblique.memoryBytes).toBe(before);
  });

  it('names the limit when an object is too deep for JSON.stringify', () => {
    let deep = [];
    for (let i = 0; i < 200000; i++) deep = [deep];
    expect(oblique.checkScenario({ bodies: deep }))
      .toEqual([{ pointer: '', message: 'nested deeper than 64 levels of arrays and objects' }]);
    expect(() => oblique.createSimulation({ bodies: deep }))
      .toThrow(/^scenario: nested deeper than 64 levels of arrays and objects$/);
  });

  it('refuses a document beyond 32 MiB before it reaches wasm memory, as the CLI does', () => {
    const huge = `{"title": "${'x'.repeat(32 * 2 ** 20)}", "bodies": [{"name": "a"}]}`;
    const before = oblique.memoryBytes;
    expect(oblique.checkScenario(huge)).toEqual([{ pointer: '', message: 'too large (more than 32 MiB)' }]);
    expect(() => oblique.createSimulation(huge)).toThrow(/^scenario: too large \(more than 32 MiB\)$/);
    expect(() => oblique.normalizeScenario(huge)).toThrow(/^scenario: too large/);
    expect(() => oblique.analyzeImpact({ M: [[1]], A: [], qd: [0], e: 0, pad: 'x'.repeat(32 * 2 ** 20) }))
      .toThrow(/^input: too large \(more than 32 MiB\)$/);
    expect(oblique.memoryBytes).toBe(before);
    expect(cliIssues(huge)).toEqual([' too large (more than 32 MiB)']);
  });

  it('bounds the work of objects with many keys (it took a minute)', () => {
    const keys = Array.from({ length: 10000 }, (_, i) => `"k${i}":0`).join(',');
    const text = `{"bodies": [{"name": "a"}], "x": [${Array(300).fill(`{${keys}}`).join(',')}]}`;
    const [issue] = oblique.checkScenario(text);
    expect(issue.pointer).toBe('/x/1');
    expect(issue.message).toMatch(/^too many keys in its objects/);
  });

  it('reports a raw lone surrogate in JSON text at its string instead of swallowing the next character', () => {
    // Emscripten's UTF-8 encoder merged U+D800 with the "b" after it: the title silently became "a𐁢".
    const text = '{"title": "a\uD800b", "bodies": [{"name": "x"}]}';
    const issues = oblique.checkScenario(text);
    expect(issues).toHaveLength(1);
    expect(issues[0].pointer).toBe('/title');
    expect(issues[0].message).toMatch(/lone surrogate is not text/);
    // The same from an object (JSON.stringify writes it as an escape), and a low half alone.
    expect(oblique.checkScenario({ title: 'a\uD800b', bodies: [{ name: 'x' }] })[0].pointer).toBe('/title');
    expect(oblique.checkScenario({ title: 'ok', bodies: [{ name: '\uDC00' }] })[0].pointer).toBe('/bodies/0/name');
    // A backslash before it: still an error at the string, never a valid escape.
    expect(oblique.checkScenario('{"title": "a\\\uD800", "bodies": [{"name": "x"}]}')[0].pointer).toBe('/title');
    // A pair is text.
    expect(oblique.normalizeScenario('{"title": "a\uD83D\uDE00b", "bodies": [{"name": "x"}]}').title).toBe('a😀b');
  });

  it('refuses magnitudes that would make the run meaningless, naming the field', () => {
    const ball = { name: 'ball', position: [0, 1] };
    expect(() => oblique.createSimulation({ bodies: [{ ...ball, mass: 1e308 }] }))
      .toThrow(/^\/bodies\/0\/mass: must be at most 1000000 kg, got 1e\+308$/);
    expect(() => oblique.createSimulation({ bodies: [ball], gravity: [0, -1e300] }))
      .toThrow(/^\/gravity\/1: must be at most 1000 m\/s² in magnitude/);
    expect(() => oblique.createSimulation({ bodies: [{ ...ball, angular_velocity: 1e300 }] }))
      .toThrow(/^\/bodies\/0\/angular_velocity: /);
    expect(() => oblique.createSimulation({
      bodies: [ball], contacts: [{ type: 'rope', anchor_a: [0, 1], body_b: 'ball', length: 0.5 }],
    })).toThrow(/^\/contacts\/0\/anchor_b: is 0 m from anchor_a at t = 0/);
  });
});
