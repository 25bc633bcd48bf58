// The core's house rules, read from its sources (docs/architecture.md, "The layers"): every source of wasm/src
// and header of wasm/include/oblique sits in the folder of its layer; a layer includes only the layers below
// it; JSON (nlohmann-json) is read and written in io alone, so the physics never depends on a document
// format; and no source file of the core is over 800 lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = new URL('../../', import.meta.url).pathname;
const ROOTS = ['wasm/src', 'wasm/include/oblique'];
const MAX_LINES = 800;

/** The layers, bottom up: each may include the ones before it. */
const LAYERS = ['math', 'sparse', 'scenario', 'model', 'geometry', 'friction', 'simulation', 'io'];

/**
 * The one place that reaches up, and why: the scenario validator runs before a model or any geometry is
 * built from the scenario, and measures with them — a body's default inertia (model) and the overlaps of
 * the initial state (geometry).
 */
const UPWARD_ALLOWED = new Map([
  ['wasm/src/scenario/scenario_check.cpp', ['model', 'geometry']],
  ['wasm/src/scenario/scenario_overlap_rule.cpp', ['geometry']],
]);

function files(dir) {
  return readdirSync(join(REPO, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(REPO, path)).isDirectory() ? files(path) : /\.(cpp|hpp)$/.test(name) ? [path] : [];
  });
}

const sources = ROOTS.flatMap((root) => files(root).map((path) => ({ path, root })));

/** The layer of a file: the folder right below its root. */
function layerOf({ path, root }) {
  return relative(root, path).split('/')[0];
}

/** The project includes of a file, as the layer each one names ("oblique/math/x.hpp" or "math/x.hpp"). */
function includedLayers(path) {
  const text = readFileSync(join(REPO, path), 'utf8');
  return [...text.matchAll(/^#include\s+"(?:oblique\/)?([a-z_]+)\/[^"]+"/gm)].map((m) => m[1]);
}

describe('the core, layer by layer', () => {
  it('has every source and header in the folder of a layer', () => {
    const astray = sources.filter((s) => !LAYERS.includes(layerOf(s))).map((s) => s.path);
    expect(astray).toEqual([]);
  });

  it('includes only layers below a file’s own, except the scenario validator’s measures', () => {
    const upward = [];
    for (const source of sources) {
      const own = LAYERS.indexOf(layerOf(source));
      for (const layer of includedLayers(source.path)) {
        const allowed = UPWARD_ALLOWED.get(source.path) ?? [];
        if (LAYERS.indexOf(layer) > own && !allowed.includes(layer)) upward.push(`${source.path} includes ${layer}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the allowed exceptions real (a stale exception would hide nothing)', () => {
    for (const [path, layers] of UPWARD_ALLOWED) {
      for (const layer of layers) expect(includedLayers(path), path).toContain(layer);
    }
  });

  it('reads and writes JSON in io alone', () => {
    const json = sources.filter((s) => /#include\s+<nlohmann\//.test(readFileSync(join(REPO, s.path), 'utf8')))
      .filter((s) => layerOf(s) !== 'io').map((s) => s.path);
    expect(json).toEqual([]);
  });

  it('has no source file over 800 lines', () => {
    const long = sources.map((s) => [s.path, readFileSync(join(REPO, s.path), 'utf8').split('\n').length - 1])
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
