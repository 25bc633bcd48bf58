// The editor's JSON text tools: the pointer → range mapper (every value of every built-in scenario, keys
// that need escaping, missing members, the engine's own issues landing on their line) and the text edits
// that keep formatting (the same result as the operation on the parsed document).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import {
  JsonSyntaxError, escapeToken, lineColumn, mapJsonPointers, offsetOf, pointerTokens, rangeOfIssue, rangeOfPointer,
} from '../../web/src/editor/json-pointer-map.js';
import { applyPatch, applyPatchToText, compactJson, minimalChange } from '../../web/src/editor/json-text-edit.js';
import { prettyJson } from '../../web/src/editor/pretty-json.js';
import { randomGenerator } from './random-scenarios.js';
import { scenarioDir, scenarioIndex } from './scenarios.js';

const builtinText = (file) => readFileSync(new URL(file, scenarioDir), 'utf8');

/** The value a pointer names in a parsed document. */
function lookup(doc, pointer) {
  return pointerTokens(pointer).reduce((node, token) => node[Array.isArray(node) ? Number(token) : token], doc);
}

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

describe('pointer → range', () => {
  it('finds every value of every built-in scenario at its place in the text', () => {
    for (const { file } of scenarioIndex()) {
      const text = builtinText(file);
      const doc = JSON.parse(text);
      const nodes = mapJsonPointers(text);
      expect(nodes.size).toBeGreaterThan(20);
      for (const [pointer, node] of nodes) {
        expect(JSON.parse(text.slice(node.from, node.to)), `${file} ${pointer}`).toEqual(lookup(doc, pointer));
        if (node.key) expect(JSON.parse(text.slice(node.key.from, node.key.to))).toBe(pointerTokens(pointer).at(-1));
      }
    }
  });

  it('escapes ~ and / in keys as RFC 6901 says', () => {
    const text = '{"a/b": {"c~d": [1, {"": true}]}}';
    const nodes = mapJsonPointers(text);
    expect(escapeToken('a/b')).toBe('a~1b');
    expect(text.slice(nodes.get('/a~1b/c~0d/1/').from, nodes.get('/a~1b/c~0d/1/').to)).toBe('true');
    expect(pointerTokens('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
  });

  it('points a missing member at its nearest parent', () => {
    const text = '{\n  "bodies": [\n    {"mass": 1}\n  ]\n}';
    const nodes = mapJsonPointers(text);
    const missingName = rangeOfPointer(nodes, '/bodies/0/name');
    expect(missingName.exact).toBe(false);
    expect(text.slice(missingName.from, missingName.to)).toBe('{');
    expect(lineColumn(text, missingName.from)).toEqual({ line: 3, column: 5 });
    const missingPlanes = rangeOfPointer(nodes, '/planes/0/name');
    expect(missingPlanes).toEqual({ from: 0, to: 1, exact: false });
    const empty = '{"bodies": []}';
    const missingBody = rangeOfPointer(mapJsonPointers(empty), '/bodies/0');
    expect(empty.slice(missingBody.from, missingBody.to)).toBe('"bodies"');
  });

  it('puts each issue `oblique check` reports for the broken.json of docs/cli.md on its line', () => {
    const text = [
      '{',
      '  "restitution": 1.5,',
      '  "bodies": [',
      '    {"name": "ball", "mass": -2, "positon": [0, 1]},',
      '    {"name": "ball"},',
      '    {"name": "box", "shape": {"type": "box"}}',
      '  ],',
      '  "joints": [{"body_a": "bal", "body_b": "box"}],',
      '  "contacts": [{"type": "disk_disk", "body_a": "ball", "body_b": "box"}]',
      '}',
    ].join('\n');
    const nodes = mapJsonPointers(text);
    const issues = oblique.checkScenario(text);
    const placed = issues.map(({ pointer }) => {
      const range = rangeOfIssue(nodes, pointer);
      return [pointer, lineColumn(text, range.from).line, text.slice(range.from, range.to)];
    });
    expect(placed).toEqual([
      ['/restitution', 2, '"restitution": 1.5'],
      ['/bodies/0/positon', 4, '"positon"'],
      ['/bodies/0/mass', 4, '"mass": -2'],
      ['/bodies/1/name', 5, '"name": "ball"'],
      ['/joints/0/body_a', 8, '"body_a": "bal"'],
      ['/contacts/0/body_b', 9, '"body_b": "box"'],
    ]);
  });

  it('reports where a text stops being JSON, like the engine', () => {
    const text = '{\n  "bodies": [\n    {"name": "ä",, }\n  ]\n}';
    expect(() => mapJsonPointers(text)).toThrow(JsonSyntaxError);
    let offset = -1;
    try { mapJsonPointers(text); } catch (error) { offset = error.offset; }
    const [issue] = oblique.checkScenario(text);
    const [, line, column] = /line (\d+), column (\d+)/.exec(issue.message);
    // The engine counts bytes ("ä" is two), the editor characters.
    expect(offsetOf(text, Number(line), Number(column), { bytes: true })).toBe(offset);
    expect(text[offset]).toBe(',');
    expect(() => mapJsonPointers('[1, 2')).toThrow(/expected "," or "]"/);
    expect(() => mapJsonPointers('{"a": 1} x')).toThrow(/text after the end/);
    expect(() => mapJsonPointers(`${'['.repeat(300)}${']'.repeat(300)}`)).toThrow(/nested deeper/);
    expect(() => mapJsonPointers('"a\u0001"')).toThrow(/control character/);
  });
});

describe('text edits that keep formatting', () => {
  const text = builtinText('four-bar.json');

  it('replaces one value and touches nothing else', () => {
    const edited = applyPatchToText(text, [{ op: 'replace', path: '/bodies/1/position', value: [0.25, 0.8] }]);
    const change = minimalChange(text, edited);
    expect(edited.slice(change.from, change.from + change.insert.length)).toMatch(/^[\d.,\s[\]]+$/);
    expect(edited.split('\n').length).toBe(text.split('\n').length);
    expect(JSON.parse(edited).bodies[1].position).toEqual([0.25, 0.8]);
  });

  it('adds members and elements in the style of their neighbours', () => {
    const edited = applyPatchToText(text, [
      { op: 'add', path: '/bodies/0/velocity', value: [1, 0] },
      { op: 'add', path: '/bodies/-', value: { name: 'disk 1', shape: { type: 'disk', radius: 0.1 } } },
      { op: 'add', path: '/forces', value: [] },
      { op: 'add', path: '/forces/0', value: { body: 'disk 1', force: [0, 1] } },
      { op: 'add', path: '/contacts/0', value: { type: 'body_plane', body: 'disk 1', plane: 'stop' } },
    ]);
    expect(edited).toContain('"color": "#d04030",\n      "velocity": [1, 0]\n');
    expect(edited).toContain('    },\n    {"name": "disk 1", "shape": {"type": "disk", "radius": 0.1}}\n  ],');
    expect(edited).toContain('"contacts": [{"type": "body_plane", "body": "disk 1", "plane": "stop"}, {"type": "body_plane", "body": "crank", "plane": "stop"}]');
    expect(edited).toContain('"forces": [{"body": "disk 1", "force": [0, 1]}]\n}');
  });

  it('removes members and elements with their commas', () => {
    const edited = applyPatchToText(text, [
      { op: 'remove', path: '/bodies/1' },
      { op: 'remove', path: '/joints/0/name' },
      { op: 'remove', path: '/contacts/0' },
      { op: 'remove', path: '/title' },
    ]);
    const doc = JSON.parse(edited);
    expect(doc.bodies.map((b) => b.name)).toEqual(['crank', 'rocker']);
    expect(doc.contacts).toEqual([]);
    expect(doc.joints[0].name).toBeUndefined();
    expect(edited).toMatch(/^\{\n {2}"oblique": 1,\n {2}"description"/);
  });

  it('means the same as the operations on the parsed document, for random edits of random scenarios', () => {
    const generator = randomGenerator(7);
    for (let k = 0; k < 40; k++) {
      const doc = generator.scenario();
      const source = k % 2 ? JSON.stringify(doc, null, 2) : JSON.stringify(doc);
      const operations = [];
      const bodies = doc.bodies.length;
      operations.push({ op: 'replace', path: `/bodies/${generator.int(0, bodies - 1)}/mass`, value: 2.5 });
      operations.push({ op: 'add', path: `/bodies/${generator.int(0, bodies - 1)}/velocity`, value: [0.5, -1] });
      operations.push({ op: 'add', path: '/bodies/-', value: { name: `new ${k}`, shape: { type: 'box', width: 0.3, height: 0.2 } } });
      if (bodies > 1) operations.push({ op: 'remove', path: `/bodies/${generator.int(0, bodies - 1)}` });
      if (doc.contacts.length) operations.push({ op: 'remove', path: '/contacts/0' });
      operations.push({ op: 'add', path: '/title', value: 'Edited “in the scene”' });
      operations.push({ op: 'add', path: '/contacts/0', value: { type: 'rope', body_b: `new ${k}` } });
      const edited = applyPatchToText(source, operations);
      // The reference is the document the text holds (JSON text has no −0, which the generator may make).
      expect(JSON.parse(edited), `edit ${k}`).toEqual(applyPatch(JSON.parse(source), operations));
    }
  });

  it('lays out every built-in scenario exactly as its file is written', () => {
    for (const { file } of scenarioIndex()) {
      const text = builtinText(file);
      expect(prettyJson(JSON.parse(text)), file).toBe(text);
    }
  });

  it('writes compact JSON and finds the smallest change', () => {
    expect(compactJson({ a: [1, 2], b: { c: 'x"' } })).toBe('{"a": [1, 2], "b": {"c": "x\\""}}');
    expect(() => compactJson(NaN)).toThrow(/finite/);
    expect(minimalChange('abcdef', 'abXYef')).toEqual({ from: 2, to: 4, insert: 'XY' });
    expect(minimalChange('aaa', 'aaaa')).toEqual({ from: 3, to: 3, insert: 'a' });
    expect(() => applyPatchToText('{"a": 1}', [{ op: 'remove', path: '/b' }])).toThrow(/nothing at \/b/);
  });
});
