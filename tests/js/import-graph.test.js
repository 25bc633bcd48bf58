// The page's house rules, read from its sources: no import cycle between the folders of web/src (a folder may
// use the ones below it, never one that uses it back — docs/architecture.md, "The layers"), nor between the
// parts of web/src/ui; and no source file over 800 lines. Every import counts: static, re-exports, CSS and
// the dynamic import() of lazily loaded parts; type references in comments do not.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../web/src/', import.meta.url).pathname;
const MAX_LINES = 800;

/** Every source file under web/src (JS and CSS), the engine's generated glue left out. */
function sources(dir = ROOT) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sources(path);
    return /\.(js|css)$/.test(name) ? [path] : [];
  });
}

/** The text without comments (a `//` inside a string, such as a URL, is kept). */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The files of web/src a source imports (relative specifiers only). */
function imports(path) {
  if (!path.endsWith('.js')) return [];
  const text = withoutComments(readFileSync(path, 'utf8'));
  const pattern = /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [...text.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? m[3]).filter((s) => s.startsWith('.'))
    .map((s) => resolve(dirname(path), s)).filter((target) => target.startsWith(ROOT));
}

/**
 * The graph of units: a file's unit is its folder `depth` levels below web/src (a file directly in web/src
 * is a unit of its own). Edges carry the imports that make them, for the message.
 */
function unitGraph(depth) {
  const unit = (path) => {
    const parts = relative(ROOT, path).split('/');
    return parts.length === 1 ? parts[0] : parts.slice(0, Math.min(depth, parts.length - 1)).join('/');
  };
  const edges = new Map();
  for (const path of sources()) {
    for (const target of imports(path)) {
      const [a, b] = [unit(path), unit(target)];
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Map());
      if (!edges.get(a).has(b)) edges.get(a).set(b, `${relative(ROOT, path)} → ${relative(ROOT, target)}`);
    }
  }
  return edges;
}

/** Every cycle's path of units with the import of each step ([] when there is none). */
function cycles(edges) {
  const found = [];
  const state = new Map();  // unit → 'open' while on the path, 'done' after
  const path = [];
  const visit = (node) => {
    state.set(node, 'open');
    path.push(node);
    for (const [next, via] of edges.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const loop = path.slice(path.indexOf(next));
        found.push([...loop, next].map((u, k, all) => (k < all.length - 1 ? `${u} (${edges.get(u).get(all[k + 1])})` : u)).join(' → '));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('the import graph of web/src', () => {
  it('reads the imports it checks: the playground is imported, lazily, by the page', () => {
    const edges = unitGraph(1);
    expect(edges.get('page.js')?.has('ui')).toBe(true);
    expect(edges.get('page-actions.js')?.has('export')).toBe(true);  // a dynamic import()
    // And it finds a cycle where there is one.
    expect(cycles(new Map([['a', new Map([['b', 'x']])], ['b', new Map([['a', 'y']])]]))).toHaveLength(1);
  });

  it('has no cycle between the folders of web/src', () => {
    expect(cycles(unitGraph(1))).toEqual([]);
  });

  it('has no cycle between the parts of web/src/ui', () => {
    expect(cycles(unitGraph(2))).toEqual([]);
  });

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const long = sources().map((path) => [relative(ROOT, path), readFileSync(path, 'utf8').split('\n').length])
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
