// Edits to a JSON text that keep its formatting: JSON Patch operations (RFC 6902: add, replace, remove)
// applied to the text itself, so that dragging a body in the scene changes one `"position"` in the editor
// and nothing else, and the change undoes as one step. The same operations on a parsed document
// (applyPatch) say what the text edit must mean; the tests hold the two together. Pure.
import { JsonSyntaxError, mapJsonPointers, pointerOf, pointerTokens } from './json-pointer-map.js';

/** A value as one line of JSON, spaced for reading: {"type": "disk", "radius": 0.1}. */
export function compactJson(value) {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`).join(', ')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`a JSON number must be finite, got ${value}`);
  return JSON.stringify(value);
}

/** The whitespace that starts the line holding `offset`. */
function indentAt(text, offset) {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))[0];
}

/** The separator between two siblings of a container: a new line with the last child's indent, or a space. */
function separator(text, container, lastChildFrom) {
  const multiline = text.slice(container.from, container.to).includes('\n');
  return multiline ? `\n${indentAt(text, lastChildFrom)}` : ' ';
}

/** The child nodes of a container node, in text order. */
function children(nodes, container) {
  if (container.kind === 'object') return container.keys.map((k) => nodes.get(pointerOf([...pointerTokens(container.pointer), k])));
  return Array.from({ length: container.length }, (_, i) => nodes.get(`${container.pointer}/${i}`));
}

const start = (node) => (node.key ? node.key.from : node.from);

/** Text with [from, to) replaced by `insert`. */
const splice = (text, from, to, insert) => text.slice(0, from) + insert + text.slice(to);

/** One operation on the text. */
function applyOne(text, operation) {
  const nodes = mapJsonPointers(text);
  const { op, path } = operation;
  const tokens = pointerTokens(path);
  if (!tokens.length) {
    if (op === 'remove') throw new Error('remove: cannot remove the whole document');
    return `${compactJson(operation.value)}\n`;
  }
  const parentPointer = pointerOf(tokens.slice(0, -1));
  const parent = nodes.get(parentPointer);
  const last = tokens[tokens.length - 1];
  if (!parent || (parent.kind !== 'object' && parent.kind !== 'array')) throw new Error(`${op}: ${parentPointer || '/'} is not an object or array`);
  const target = nodes.get(path);
  const siblings = children(nodes, parent);

  if (op === 'replace' || (op === 'add' && parent.kind === 'object' && target)) {
    if (!target) throw new Error(`replace: nothing at ${path}`);
    return splice(text, target.from, target.to, compactJson(operation.value));
  }
  if (op === 'add') {
    const value = compactJson(operation.value);
    const entry = parent.kind === 'object' ? `${JSON.stringify(last)}: ${value}` : value;
    const index = parent.kind === 'array' ? (last === '-' ? siblings.length : Number(last)) : siblings.length;
    if (parent.kind === 'array' && !(Number.isInteger(index) && index >= 0 && index <= siblings.length)) {
      throw new Error(`add: ${path} is not an index of the array (0 … ${siblings.length})`);
    }
    if (!siblings.length) {
      // An empty container: the entry alone inside it (on its own line for the document itself).
      if (parent.pointer === '') return splice(text, parent.from, parent.to, `{\n  ${entry}\n}`);
      return splice(text, parent.from, parent.to, parent.kind === 'object' ? `{${entry}}` : `[${entry}]`);
    }
    if (index < siblings.length) {
      const before = siblings[index];
      return splice(text, start(before), start(before), `${entry},${separator(text, parent, start(before))}`);
    }
    const tail = siblings[siblings.length - 1];
    return splice(text, tail.to, tail.to, `,${separator(text, parent, start(tail))}${entry}`);
  }
  if (op === 'remove') {
    if (!target) throw new Error(`remove: nothing at ${path}`);
    const index = siblings.indexOf(target);
    if (siblings.length === 1) return splice(text, parent.from + 1, parent.to - 1, '');
    // With the comma before it (or, for the first, the comma after it).
    if (index > 0) return splice(text, siblings[index - 1].to, target.to, '');
    return splice(text, start(target), start(siblings[1]), '');
  }
  throw new Error(`unknown operation ${JSON.stringify(op)}`);
}

/**
 * Applies JSON Patch operations to a JSON text, in order, keeping its formatting.
 * @param {string} text a valid JSON text
 * @param {{op: 'add'|'replace'|'remove', path: string, value?: unknown}[]} operations
 * @returns {string}
 * @throws {JsonSyntaxError} when the text is not JSON; Error when an operation does not fit it
 */
export function applyPatchToText(text, operations) {
  let out = text;
  for (const operation of operations) out = applyOne(out, operation);
  return out;
}

/** The same operations on a parsed document (a deep copy is returned). */
export function applyPatch(doc, operations) {
  let root = structuredClone(doc);
  for (const { op, path, value } of operations) {
    const tokens = pointerTokens(path);
    if (!tokens.length) {
      root = structuredClone(value);
      continue;
    }
    let parent = root;
    for (const token of tokens.slice(0, -1)) parent = parent[Array.isArray(parent) ? Number(token) : token];
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op === 'add') parent.splice(index, 0, structuredClone(value));
      else if (op === 'replace') parent[index] = structuredClone(value);
      else parent.splice(index, 1);
    } else if (op === 'remove') {
      delete parent[last];
    } else {
      parent[last] = structuredClone(value);
    }
  }
  return root;
}

/** The smallest single change that turns `before` into `after` (common prefix and suffix kept). */
export function minimalChange(before, after) {
  let from = 0;
  const shortest = Math.min(before.length, after.length);
  while (from < shortest && before.charCodeAt(from) === after.charCodeAt(from)) from++;
  let tail = 0;
  while (tail < shortest - from && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return { from, to: before.length - tail, insert: after.slice(from, after.length - tail) };
}

export { JsonSyntaxError };
