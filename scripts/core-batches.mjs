// The batches in which the sanitizer build compiles the core's sources (OBLIQUE_UNITY_CORE, CMake's unity
// build in GROUP mode): the files of one folder of wasm/src, at most BATCH_SIZE to a batch, no two of which
// declare the same name at namespace scope (an anonymous-namespace helper, a static function, a constant,
// a type, a macro or a using-declaration). A batch is one translation unit, where two such helpers would not
// compile together or, as overloads, would call each other's; a file that shares a name with every batch
// of its folder starts a batch of its own. The grouping follows the sources as they are: a helper renamed
// or added moves its file to another batch at the next configure, with nothing to maintain by hand.
//   node scripts/core-batches.mjs OUT.cmake   writes `set_source_files_properties(... UNITY_GROUP ...)`
//   node scripts/core-batches.mjs             prints the batches
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceScopeNames, stripLiterals } from './test-batch-names.mjs';

/** Files to a batch: large enough to share the parse of Eigen and nlohmann-json, small enough for two cores. */
const BATCH_SIZE = 6;

/** What a core source declares that another file of its batch must not: namespace-scope names and the names its using-declarations bring in. */
function declaredNames(text) {
  const names = new Map();
  for (const { name, kind, text: alias } of namespaceScopeNames(text)) names.set(name, `${kind} ${alias ?? ''}`);
  // `using a::b::name;` anywhere (inside a function too: a conservative reading).
  for (const match of stripLiterals(text).matchAll(/\busing\s+((?:\w+::)+(\w+))\s*;/g)) {
    if (!names.has(match[2])) names.set(match[2], `using ${match[1]}`);
  }
  return names;
}

/** Two files clash when a name is declared by both, unless both bring in the same entity or alias the same type. */
function clash(a, b) {
  for (const [name, what] of a) {
    if (!b.has(name)) continue;
    const same = what === b.get(name) && (what.startsWith('using ') || what.startsWith('type alias '));
    if (!same) return true;
  }
  return false;
}

/** The core's sources (`wasm/src/<folder>/<file>.cpp`), each with its batch name `<folder>_<k>`. */
export function coreBatches(repo) {
  const src = join(repo, 'wasm/src');
  const batches = [];
  for (const folder of readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    const files = readdirSync(join(src, folder)).filter((name) => name.endsWith('.cpp')).sort();
    const groups = [];
    for (const file of files) {
      const path = `wasm/src/${folder}/${file}`;
      const names = declaredNames(readFileSync(join(repo, path), 'utf8'));
      let group = groups.find((g) => g.files.length < BATCH_SIZE && g.files.every((other) => !clash(names, other.names)));
      if (!group) {
        group = { name: `${folder}_${groups.length}`, files: [] };
        groups.push(group);
      }
      group.files.push({ path, names });
    }
    for (const group of groups) batches.push({ name: group.name, files: group.files.map((f) => f.path) });
  }
  return batches;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const repo = new URL('..', import.meta.url).pathname;
  const batches = coreBatches(repo);
  const out = process.argv[2];
  if (out) {
    const lines = ['# Written by scripts/core-batches.mjs: the core\'s unity batches (OBLIQUE_UNITY_CORE).'];
    for (const { name, files } of batches) {
      for (const file of files) lines.push(`set_source_files_properties(\${PROJECT_SOURCE_DIR}/${file} PROPERTIES UNITY_GROUP ${name})`);
    }
    writeFileSync(out, `${lines.join('\n')}\n`);
  } else {
    for (const { name, files } of batches) console.log(`${name}: ${files.join(' ')}`);
  }
}
