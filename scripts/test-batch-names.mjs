// The names each C++ test file declares at namespace scope, and the ones two files share. The sanitized and
// the wasm builds compile tests/cpp/*.cpp in batches (CMake's unity build, OBLIQUE_UNITY_TESTS): a batch is
// one translation unit, where every file's anonymous namespace is the same one, so two files that each
// define a helper `f` (or a constant, a type, a macro) of their own either fail to compile together or,
// for overloads, call each other's. A test file's own names are therefore its own (what several files need
// lives in a header of tests/cpp/). Run as a script (scripts/build.sh does, before those builds), it lists
// the shared names and exits with 1; tests/js/test-batch-names.test.js checks the same.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The text of a C++ source without comments, string and character literals (each literal left as ""). */
export function stripLiterals(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
    } else if (c === 'R' && next === '"' && !/\w/.test(text[i - 1] ?? '')) {
      // A raw string R"delim( ... )delim".
      const open = text.indexOf('(', i + 2);
      const delimiter = text.slice(i + 2, open);
      const end = text.indexOf(`)${delimiter}"`, open + 1);
      i = end < 0 ? text.length : end + delimiter.length + 2;
      out += '""';
    } else if (c === '"' || (c === "'" && !/[0-9A-Fa-f]/.test(text[i - 1] ?? ''))) {
      // A string or a character literal (not a digit separator as in 1'000).
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      i++;
      out += '""';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `head` without a leading `template <...>` (nested angle brackets included), repeated. */
function withoutTemplateHead(head) {
  let rest = head.trim();
  while (/^template\s*</.test(rest)) {
    let depth = 0;
    let i = rest.indexOf('<');
    for (; i < rest.length; i++) {
      if (rest[i] === '<') depth++;
      else if (rest[i] === '>' && --depth === 0) break;
    }
    rest = rest.slice(i + 1).trim();
  }
  return rest;
}

/**
 * What a namespace-scope declaration `head` (the text before its `;` or its `{`) declares: `{ name, kind,
 * text }`, or null for what may appear in several files of a batch (namespaces, using-declarations and
 * using-directives, GoogleTest's macros, whose test names GoogleTest itself keeps unique, operators).
 */
export function declaredName(head) {
  const text = withoutTemplateHead(head.replace(/\s+/g, ' '));
  if (text === '' || /^(namespace|extern|static_assert|friend)\b/.test(text)) return null;
  if (/^using\b/.test(text)) {
    const alias = text.match(/^using (\w+) ?=(.*)$/);
    return alias ? { name: alias[1], kind: 'type alias', text: alias[2].trim() } : null;
  }
  const type = text.match(/^(?:(?:struct|class|union|enum(?: class| struct)?) )(?:\[\[[^\]]*\]\] )?(\w+)/);
  if (type) return { name: type[1], kind: 'type' };
  if (/\boperator\b/.test(text)) return null;
  const assign = text.search(/[^=!<>]=(?!=)/);
  const paren = text.indexOf('(');
  if (paren >= 0 && (assign < 0 || paren < assign)) {
    // A function (or a macro invocation such as TEST(Suite, Name), whose name is all capitals).
    const name = text.slice(0, paren).match(/(\w+)\s*$/)?.[1];
    if (!name || /^[A-Z0-9_]+$/.test(name)) return null;
    return { name, kind: 'function' };
  }
  // A variable: the last name before its initializer (=, { or [), or the end.
  const before = assign >= 0 ? text.slice(0, assign + 1) : text.replace(/\[.*$/, '');
  const name = before.match(/(\w+)\s*$/)?.[1];
  return name && !/^\d/.test(name) ? { name, kind: 'variable' } : null;
}

/** The names a test file declares at namespace scope (in any namespace, named or not), and its macros. */
export function namespaceScopeNames(source) {
  const names = [];
  const lines = source.split('\n');
  // Macros: #define NAME (continued lines joined); the other directives dropped.
  let code = '';
  for (let k = 0; k < lines.length; k++) {
    if (/^\s*#/.test(lines[k])) {
      const macro = lines[k].match(/^\s*#\s*define\s+(\w+)/);
      if (macro) names.push({ name: macro[1], kind: 'macro' });
      while (lines[k].endsWith('\\') && k + 1 < lines.length) k++;
      code += '\n';
    } else {
      code += `${lines[k]}\n`;
    }
  }
  code = stripLiterals(code);
  // Walk the braces: `namespaces` counts the namespace blocks the walk is in; any other block (a function's
  // body, a class, an initializer) is skipped whole.
  let head = '';
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === ';') {
      const declared = declaredName(head);
      if (declared) names.push(declared);
      head = '';
    } else if (c === '{') {
      if (/^\s*(inline\s+)?namespace\b[^=]*$/.test(head)) {
        head = '';
        continue;
      }
      const declared = declaredName(head);
      if (declared) names.push(declared);
      let depth = 1;
      while (depth > 0 && ++i < code.length) {
        if (code[i] === '{') depth++;
        else if (code[i] === '}') depth--;
      }
      // What follows a class or an initializer up to its `;` declares nothing new.
      head = declared?.kind === 'type' || declared?.kind === 'variable' ? '\u0000' : '';
    } else if (c === '}') {
      head = '';  // the end of a namespace
    } else if (head === '\u0000') {
      continue;
    } else {
      head += c;
    }
  }
  return names;
}

/**
 * The names that two or more of `files` (`{ path, text }`) declare at namespace scope, each with the files
 * that do, sorted by name. A type alias that every file defines alike is no clash (C++ allows it).
 */
export function sharedNames(files) {
  const byName = new Map();
  for (const { path, text } of files) {
    for (const declared of namespaceScopeNames(text)) {
      const entry = byName.get(declared.name) ?? { name: declared.name, files: new Map() };
      if (!entry.files.has(path)) entry.files.set(path, declared);
      byName.set(declared.name, entry);
    }
  }
  return [...byName.values()].filter(({ files: where }) => {
    if (where.size < 2) return false;
    const kinds = [...where.values()];
    return !kinds.every((d) => d.kind === 'type alias' && d.text === kinds[0].text);
  }).map(({ name, files: where }) => ({ name, files: [...where.keys()].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The C++ test files the batched builds compile: tests/cpp/*.cpp. */
export function testFiles(repo) {
  const dir = join(repo, 'tests/cpp');
  return readdirSync(dir).filter((name) => name.endsWith('.cpp')).sort()
    .map((name) => ({ path: `tests/cpp/${name}`, text: readFileSync(join(dir, name), 'utf8') }));
}

/** The message for the shared names: what clashes where, and what to do. */
export function clashMessage(shared) {
  return [
    'These names are declared at namespace scope in more than one C++ test file:',
    ...shared.map(({ name, files }) => `  ${name}: ${files.join(', ')}`),
    'The sanitized and wasm builds compile the test files in batches, one translation unit each, where these',
    'would clash or, as overloads, call each other\'s: give a file\'s own helper a name of its own, or move a',
    'helper several files need to a header of tests/cpp/ (docs/testing.md, "What `npm test` runs").',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const repo = new URL('..', import.meta.url).pathname;
  const shared = sharedNames(testFiles(repo));
  if (shared.length > 0) {
    console.error(clashMessage(shared));
    process.exit(1);
  }
}
