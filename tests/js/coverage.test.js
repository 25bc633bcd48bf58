// Coverage of the API, in the spirit of MuJoCo's coverage_test.py: every function the bindings register is
// called by the JS wrapper, and every export of the wrapper (functions, classes, their methods and getters)
// is exercised by some test. A new binding or method without a test fails here.
//
// "Called" means a real call in the code, found in its syntax tree (Vite's parseAst): a mention in a
// comment, a string or a test's title does not count. A method counts when some test calls `x.name(…)`, a
// getter when some test reads `x.name`, an exported function when it is called, an exported class when it
// is constructed or referred to in code. Names are matched without types: `x.name(…)` counts for every
// class with a method `name`.
import { readdirSync, readFileSync } from 'node:fs';
import { parseAst } from 'vite';
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

/** Visits every node of an ESTree tree, with its parent and the key under which the parent holds it. */
function walk(node, visit, parent = null, key = null) {
  visit(node, parent, key);
  for (const [childKey, child] of Object.entries(node)) {
    for (const item of Array.isArray(child) ? child : [child]) {
      if (item && typeof item === 'object' && typeof item.type === 'string') walk(item, visit, node, childKey);
    }
  }
}

/** The name of a member expression's property (`x.name`, `x['name']`), or null. */
function propertyName(member) {
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.computed && member.property.type === 'Literal' && typeof member.property.value === 'string') {
    return member.property.value;
  }
  return null;
}

/**
 * What `source` uses in code: names it calls (`f(…)`, `x.f(…)`; imported names under their exported name),
 * constructs (`new C(…)`), reads as a property (`x.p`), and refers to as an identifier.
 */
function usesIn(source) {
  const uses = { calls: new Set(), constructs: new Set(), reads: new Set(), references: new Set() };
  const ast = parseAst(source);
  const importedAs = new Map();  // local name → exported name
  walk(ast, (node) => {
    if (node.type === 'ImportSpecifier') importedAs.set(node.local.name, node.imported.name ?? node.imported.value);
  });
  const exported = (name) => importedAs.get(name) ?? name;
  walk(ast, (node, parent, key) => {
    if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
      const name = callee.type === 'Identifier' ? exported(callee.name)
        : callee.type === 'MemberExpression' ? propertyName(callee) : null;
      if (name) (node.type === 'CallExpression' ? uses.calls : uses.constructs).add(name);
    } else if (node.type === 'MemberExpression') {
      const name = propertyName(node);
      if (name) uses.reads.add(name);
    } else if (node.type === 'Identifier') {
      // A reference, not a property name, an object key or a name in an import.
      const isProperty = parent?.type === 'MemberExpression' && key === 'property' && !parent.computed;
      const isKey = parent?.type === 'Property' && key === 'key' && !parent.computed;
      const inImport = parent?.type?.startsWith('Import');
      if (!isProperty && !isKey && !inImport) uses.references.add(exported(node.name));
    }
  });
  return uses;
}

/** Every member of a class prototype (without the constructor), as {name, getter}. */
function members(cls) {
  return Object.entries(Object.getOwnPropertyDescriptors(cls.prototype))
    .filter(([name]) => name !== 'constructor')
    .map(([name, descriptor]) => ({ name, getter: typeof descriptor.get === 'function' }));
}

/** The uses of every test file and test helper of tests/js/ except this one. */
function testUses() {
  const all = { calls: new Set(), constructs: new Set(), reads: new Set(), references: new Set() };
  for (const file of readdirSync(new URL('tests/js/', root))) {
    if (!file.endsWith('.js') || file === 'coverage.test.js' || file.startsWith('vitest.config')) continue;
    const uses = usesIn(read(`tests/js/${file}`));
    for (const kind of Object.keys(all)) for (const name of uses[kind]) all[kind].add(name);
  }
  return all;
}

describe('API coverage', () => {
  it('counts real calls only, not comments, strings or titles', () => {
    const uses = usesIn([
      "import { loadOblique as load } from '../../web/src/engine/index.js';",
      '// sim.dispose() in a comment; /* engine.checkScenario(x) */',
      "it('calls sim.reset()', () => { const text = 'sim.impact(0)'; return `${sim.time}`; });",
      'sim.advance(0.1); const e = await load(); x?.state(); new Simulation(m, h); sim.positions;',
    ].join('\n'));
    expect([...uses.calls].sort()).toEqual(['advance', 'it', 'loadOblique', 'state']);
    expect([...uses.constructs]).toEqual(['Simulation']);
    expect(uses.reads.has('time') && uses.reads.has('positions')).toBe(true);
    for (const name of ['dispose', 'checkScenario', 'reset', 'impact']) {
      expect(uses.calls.has(name) || uses.reads.has(name), name).toBe(false);
    }
  });

  it('the wrapper calls every binding', () => {
    // The wrapper: index.js and the modules beside it (the generated glue aside).
    const sources = readdirSync(new URL('web/src/engine/', root)).filter((f) => f.endsWith('.js'));
    expect(sources).toContain('index.js');
    const wrapper = { calls: new Set(sources.flatMap((f) => [...usesIn(read(`web/src/engine/${f}`)).calls])) };
    const names = boundNames();
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(wrapper.calls.has(name), `binding ${name} is not called by the wrapper`).toBe(true);
  });

  it('the tests exercise every export, method and getter', () => {
    const uses = testUses();
    const exported = Object.keys(engineModule);
    expect(exported).toEqual(expect.arrayContaining(['loadOblique', 'ObliqueEngine', 'Simulation', 'CsvExport']));
    for (const name of exported) {
      const value = engineModule[name];
      const isClass = typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
      const used = isClass ? uses.constructs.has(name) || uses.references.has(name)
        : typeof value === 'function' ? uses.calls.has(name) : uses.references.has(name) || uses.reads.has(name);
      expect(used, `export ${name} is not ${typeof value === 'function' && !isClass ? 'called' : 'used'} by a test`).toBe(true);
    }
    for (const cls of [engineModule.ObliqueEngine, engineModule.Simulation, engineModule.CsvExport]) {
      for (const { name, getter } of members(cls)) {
        const used = getter ? uses.reads.has(name) : uses.calls.has(name);
        expect(used, `${cls.name}.${name} is not ${getter ? 'read' : 'called'} by a test`).toBe(true);
      }
    }
  });
});
