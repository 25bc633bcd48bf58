// Autocompletion of a scenario's field names, and of the values a field allows (a shape's "type", true or
// false), from the format's JSON Schema (web/scenarios/scenario.schema.json): where the cursor is in the
// document (the path of keys and indices, read from CodeMirror's JSON syntax tree) selects the schema of
// that object; its properties not yet present are offered, each with its description and default.
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import schema from '../../scenarios/scenario.schema.json';

/** A schema with its $ref followed (local references only: "#/$defs/…"). */
function resolve(node) {
  let current = node;
  for (let guard = 0; current?.$ref && guard < 16; guard++) {
    const path = current.$ref.replace(/^#\//, '').split('/');
    const target = path.reduce((at, key) => at?.[key], schema);
    // Keep the referring schema's own description and default over the target's.
    current = { ...target, ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')) };
  }
  return current;
}

/** The alternatives of a schema (oneOf / anyOf), resolved; the schema itself when it has none. */
function alternatives(node) {
  const resolved = resolve(node);
  const list = resolved?.oneOf ?? resolved?.anyOf;
  return list ? list.map(resolve) : [resolved];
}

/** The `type` const of an alternative (its discriminator), if any. */
const discriminator = (alt) => alt?.properties?.type?.const ?? null;

/**
 * The schema of the value at `path` (keys and indices), choosing among alternatives by the `type` each
 * object on the way has (`types`: path → its "type" value, where known).
 */
export function schemaAt(path, types = new Map()) {
  let node = resolve(schema);
  for (let k = 0; k < path.length && node; k++) {
    const choices = alternatives(node);
    const typed = types.get(path.slice(0, k).join('/'));
    const chosen = choices.find((alt) => typed !== undefined && discriminator(alt) === typed) ?? choices[0];
    const token = path[k];
    if (typeof token === 'number') node = chosen?.prefixItems?.[token] ?? chosen?.items;
    else {
      // The property in the chosen alternative, else in any alternative.
      node = chosen?.properties?.[token] ?? choices.map((alt) => alt?.properties?.[token]).find(Boolean);
    }
  }
  return node ? resolve(node) : null;
}

/** The properties an object schema allows (union over its alternatives, the typed one first). */
function propertiesOf(node, type) {
  const choices = alternatives(node);
  const ordered = [...choices.filter((alt) => discriminator(alt) === type), ...choices];
  const out = new Map();
  for (const alt of ordered) for (const [key, value] of Object.entries(alt?.properties ?? {})) if (!out.has(key)) out.set(key, resolve(value));
  return out;
}

/** The string of a String or PropertyName node. */
function stringOf(state, node) {
  try {
    return JSON.parse(state.sliceDoc(node.from, node.to));
  } catch {
    return null;
  }
}

/** The "type" value of an Object node, if it has one. */
function typeOf(state, object) {
  for (let child = object.firstChild; child; child = child.nextSibling) {
    if (child.name !== 'Property') continue;
    const name = child.getChild('PropertyName');
    const value = name?.nextSibling?.nextSibling ?? child.lastChild;
    if (name && stringOf(state, name) === 'type' && value?.name === 'String') return stringOf(state, value);
  }
  return undefined;
}

/** The keys present in an Object node. */
function keysOf(state, object) {
  const keys = new Set();
  for (let child = object.firstChild; child; child = child.nextSibling) {
    const name = child.name === 'Property' ? child.getChild('PropertyName') : null;
    if (name) keys.add(stringOf(state, name));
  }
  return keys;
}

const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

/** The path (keys and indices) from the document down to `node` (a syntax node or {parent, from}). */
function pathOf(state, node) {
  const path = [];
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.name === 'Property') {
      const name = parent.getChild('PropertyName');
      if (name && child !== name) path.unshift(stringOf(state, name));
    } else if (parent.name === 'Array') {
      let index = 0;
      for (let c = parent.firstChild; c && c.from < child.from; c = c.nextSibling) if (VALUE_NODES.has(c.name)) index++;
      path.unshift(index);
    }
  }
  return path;
}

/** The path (keys and indices) of an Object node, as pathOf gives for a node inside it. */
function objectPath(state, object) {
  return pathOf(state, { parent: object, from: object.to, name: '' });
}

/**
 * Applies a completion over what was typed: the word, its opening quote (before `from` for a key, whose
 * label has none) and the closing quote the editor added after the cursor.
 */
function replacing(text) {
  return (view, _completion, from, to) => {
    const doc = view.state;
    const start = doc.sliceDoc(from - 1, from) === '"' && doc.sliceDoc(from, from + 1) !== '"' ? from - 1 : from;
    const quoted = doc.sliceDoc(start, start + 1) === '"';
    const end = quoted && doc.sliceDoc(to, to + 1) === '"' ? to + 1 : to;
    view.dispatch({ changes: { from: start, to: end, insert: text }, selection: { anchor: start + text.length }, userEvent: 'input.complete' });
  };
}

/** The schema's text for a completion's detail: its type and default. */
function detailOf(node) {
  const type = Array.isArray(node?.type) ? node.type.join(' | ') : node?.type ?? (node?.const !== undefined ? 'const' : '');
  const def = node?.default !== undefined ? ` = ${JSON.stringify(node.default)}` : '';
  return `${type}${def}`;
}

/** The text inserted after a key: the default value when the schema has one. */
function valueText(node) {
  if (node?.const !== undefined) return JSON.stringify(node.const);
  if (node?.default !== undefined && node.default !== null) return JSON.stringify(node.default).replace(/,/g, ', ').replace(/:/g, ': ');
  return '';
}

/**
 * The completion source: field names where a key is expected, allowed values where a value is.
 * @param {import('@codemirror/autocomplete').CompletionContext} context
 */
export function scenarioCompletions(context) {
  const { state, pos } = context;
  const word = context.matchBefore(/"?[A-Za-z_]*$/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  // What comes before the word: "{" or "," (a key), ":" (a value), "[" (an element).
  const before = state.sliceDoc(Math.max(0, word.from - 200), word.from).replace(/\s+$/, '');
  const mark = before[before.length - 1];
  // The tree up to the cursor: CodeMirror parses in the background within a time budget, which a busy
  // machine can leave short of where the user types (then the tree parsed so far).
  const tree = ensureSyntaxTree(state, pos, 200) ?? syntaxTree(state);
  let node = tree.resolveInner(word.from, 1);
  if (mark === '{' || mark === ',') {
    while (node && node.name !== 'Object' && node.name !== 'Array') node = node.parent;
    if (!node || node.name !== 'Object') return null;
    const path = objectPath(state, node);
    const types = typesAlong(state, node);
    const objectSchema = schemaAt(path, types);
    if (!objectSchema) return null;
    const present = keysOf(state, node);
    const options = [...propertiesOf(objectSchema, typeOf(state, node))].filter(([key]) => !present.has(key)).map(([key, prop]) => {
      const value = valueText(prop);
      return { label: key, type: 'property', detail: detailOf(prop), info: prop?.description ?? '', apply: replacing(`"${key}": ${value}`) };
    });
    // Matched against the labels without the opening quote.
    const from = state.sliceDoc(word.from, word.from + 1) === '"' ? word.from + 1 : word.from;
    return { from, to: word.to, options, validFor: /^[A-Za-z_]*$/ };
  }
  if (mark === ':') {
    // The value of the property whose name is just before the colon.
    const nameMatch = /"((?:[^"\\]|\\.)*)"\s*$/.exec(before.slice(0, -1));
    while (node && node.name !== 'Object') node = node.parent;
    if (!nameMatch || !node) return null;
    const key = JSON.parse(`"${nameMatch[1]}"`);
    const path = [...objectPath(state, node), key];
    const types = typesAlong(state, node);
    const valueSchema = schemaAt(path, types);
    const values = new Set();
    for (const alt of alternatives(valueSchema ?? {})) {
      if (alt?.const !== undefined) values.add(alt.const);
      for (const v of alt?.enum ?? []) values.add(v);
      if (alt?.type === 'boolean' || (Array.isArray(alt?.type) && alt.type.includes('boolean'))) { values.add(true); values.add(false); }
    }
    // A shape's or contact's type: the consts of the alternatives of the object that holds it.
    if (key === 'type') for (const alt of alternatives(schemaAt(objectPath(state, node), types) ?? {})) if (discriminator(alt)) values.add(discriminator(alt));
    if (!values.size) return null;
    return { from: word.from, to: word.to,
      options: [...values].map((v) => ({ label: JSON.stringify(v), type: 'constant', apply: replacing(JSON.stringify(v)) })) };
  }
  return null;
}

/** The "type" of every object from the root down to `object`, keyed by its path. */
function typesAlong(state, object) {
  const types = new Map();
  for (let node = object; node; node = node.parent) {
    if (node.name === 'Object') {
      const type = typeOf(state, node);
      if (type !== undefined) types.set(objectPath(state, node).join('/'), type);
    }
  }
  return types;
}
