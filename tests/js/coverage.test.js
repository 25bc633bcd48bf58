// Coverage of the API, in the spirit of MuJoCo's coverage_test.py: every function the bindings register is
// used by the JS wrapper, and every export of the wrapper (functions, classes, their methods and getters)
// is exercised by some test. A new binding or method without a test fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as engineModule from '../../web/src/engine/index.js';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');

/** Names registered with embind in wasm/bindings/*.cpp: function("x") and .function("x"). */
function boundNames() {
  const names = new Set();
  for (const file of readdirSync(new URL('wasm/bindings/', root))) {
    if (!file.endsWith('.cpp')) continue;
    for (const match of read(`wasm/bindings/${file}`).matchAll(/function\("(\w+)"/g)) names.add(match[1]);
  }
  return names;
}

/** Every member name of a class prototype (methods and accessors), without the constructor. */
function members(cls) {
  return Object.getOwnPropertyNames(cls.prototype).filter((name) => name !== 'constructor');
}

/** The text of every test file except this one. */
function testSources() {
  return readdirSync(new URL('tests/js/', root))
    .filter((file) => file.endsWith('.test.js') && file !== 'coverage.test.js')
    .map((file) => read(`tests/js/${file}`))
    .join('\n');
}

describe('API coverage', () => {
  it('the wrapper uses every binding', () => {
    const wrapper = read('web/src/engine/index.js');
    const names = boundNames();
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(wrapper, `binding ${name}`).toMatch(new RegExp(`\\.${name}\\(`));
  });

  it('the tests exercise every export, method and getter', () => {
    const sources = testSources();
    const exported = Object.keys(engineModule);
    expect(exported).toEqual(expect.arrayContaining(['loadOblique', 'ObliqueEngine', 'Simulation']));
    const used = (name) => new RegExp(`(\\.|\\b)${name}\\b`).test(sources);
    for (const name of exported) expect(used(name), `export ${name}`).toBe(true);
    for (const cls of [engineModule.ObliqueEngine, engineModule.Simulation]) {
      for (const name of members(cls)) expect(used(`\\.${name}`) || used(name), `${cls.name}.${name}`).toBe(true);
    }
  });
});
