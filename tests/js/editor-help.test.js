// The editor's help with a scenario text: the likely cause of a JSON syntax error, named from the engine's
// own message and put on the line where the mistake is; and the free space where "+ shape" puts a body.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { freeSpot } from '../../web/src/editor/free-space.js';
import { scenarioIssues } from '../../web/src/editor/scenario-lint.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

const issuesOf = (text) => scenarioIssues(text, async (t) => oblique.checkScenario(t));

describe('the likely cause of a syntax error', () => {
  it('names each mistake, on its own line, before the reader’s words', async () => {
    const cases = [
      ['{\n  "title": "x"\n  "bodies": []\n}', 'missing comma after line 2?', 2],
      ['{\n  "bodies": [\n    {"name": "a"}\n    {"name": "b"}\n  ]\n}', 'missing comma after line 3?', 3],
      ['{\n  "bodies": [1, 2 3]\n}', 'missing comma after line 2?', 2],
      ['{\n  "bodies": [\n    {"name": "a",}\n  ]\n}', 'a comma too many after line 3? JSON allows no comma before a closing }.', 3],
      ['{\n  "title": "x",\n  "bodies": [],\n}', 'a comma too many after line 3? JSON allows no comma before a closing }.', 3],
      ['{\n  "bodies": [\n    {"name": "a"\n  ]\n}', 'a missing } before line 4? The { on line 3 is not closed.', 4],
      ['{\n  "bodies": [\n    {"name": a}\n  ]\n}', 'text without quotes on line 3? A name or a text value is written in double quotes ("like this").', 3],
      ["{\n  'title': 'x'\n}", 'single quotes on line 2? JSON names and strings take double quotes (").', 2],
      ['{\n  "title": "x\n}', 'a string left open on line 2? Its closing " is missing.', 2],
      ['{\n  "bodies": [\n    {"name": "a"}\n  ]\n', 'a missing }? The { on line 1 is never closed.', 1],
    ];
    for (const [text, hint, line] of cases) {
      const [issue, ...rest] = await issuesOf(text);
      expect(rest).toEqual([]);
      expect(issue.hint, text).toBe(hint);
      expect(issue.message.startsWith(`${hint} (malformed JSON: parse error at line `)).toBe(true);
      expect(issue.line, text).toBe(line);
    }
  });

  it('adds nothing to a problem that is not one of syntax', async () => {
    const [issue] = await issuesOf('{\n  "bodies": [{"name": "a", "mass": -1}]\n}');
    expect(issue.hint).toBeUndefined();
    expect(issue.message).toBe('must be positive, got -1');
  });
});

describe('free space for a new body', () => {
  const planes = [{ point: [0, 0], normal: [0, 1] }, { point: [-1, 0], normal: [1, 0] }, { point: [1, 0], normal: [-2, 0] }];
  const rect = { left: -1.5, right: 1.5, bottom: -0.5, top: 1.5 };

  it('is clear of every body and plane, inside the region, and as near its middle as the grid allows', () => {
    const bodies = [{ position: [0, 0.5], radius: 0.3 }, { position: [0.5, 0.5], radius: 0.2 }];
    const radius = 0.1;
    const margin = 0.01;
    const spot = freeSpot({ rect, radius, bodies, planes, margin });
    expect(spot).not.toBeNull();
    const [x, y] = spot;
    for (const b of bodies) expect(Math.hypot(b.position[0] - x, b.position[1] - y)).toBeGreaterThanOrEqual(b.radius + radius + margin - 1e-12);
    expect(y).toBeGreaterThanOrEqual(radius + margin - 1e-12);
    expect(Math.abs(x)).toBeLessThanOrEqual(1 - radius - margin + 1e-12);
    expect(x - radius).toBeGreaterThanOrEqual(rect.left);
    expect(y + radius).toBeLessThanOrEqual(rect.top);
    // The middle (0, 0.5) is taken; the spot is just clear of the first body, not at the far edge.
    expect(Math.hypot(x, y - 0.5)).toBeLessThan(0.3 + radius + margin + 0.1);
  });

  it('is none when the region shown is full', () => {
    const bodies = [{ position: [0, 0.5], radius: 5 }];
    expect(freeSpot({ rect, radius: 0.1, bodies, planes, margin: 0.01 })).toBeNull();
  });
});
