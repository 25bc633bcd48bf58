// Where each value of a JSON text is: a map from JSON pointer (RFC 6901) to text offsets, so that the
// engine's issues ("/bodies/0/mass: must be positive") land on their line and column in the editor, and so
// that a scene edit can replace one value without reformatting the rest. Pure.

/** Deepest nesting read (a scenario needs 5 levels; a hostile text may have thousands). */
const MAX_DEPTH = 256;

/**
 * @typedef {Object} JsonNode
 * @property {string} pointer
 * @property {'object'|'array'|'string'|'number'|'literal'} kind
 * @property {number} from  offset of the value's first character
 * @property {number} to    offset just past its last character
 * @property {{from: number, to: number}} [key]  the member's key (with its quotes), for object members
 * @property {string[]} [keys]      an object's keys in text order
 * @property {number} [length]      an array's length
 */

/** A JSON syntax error with the offset where reading stopped. */
export class JsonSyntaxError extends Error {
  constructor(message, offset) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
  }
}

/** The pointer token for a key: `~` as `~0`, `/` as `~1`. */
export function escapeToken(key) {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The tokens of a pointer ('' is the whole document). */
export function pointerTokens(pointer) {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A pointer from tokens. */
export function pointerOf(tokens) {
  return tokens.map((t) => `/${escapeToken(t)}`).join('');
}

/**
 * Reads a JSON text and returns every value's place.
 * @param {string} text
 * @returns {Map<string, JsonNode>}
 * @throws {JsonSyntaxError} where the text stops being JSON
 */
export function mapJsonPointers(text) {
  const nodes = new Map();
  let i = 0;
  const fail = (message) => { throw new JsonSyntaxError(message, i); };
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const string = () => {
    const from = i;
    i++;  // the opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('a control character inside a string');
      i++;
    }
    if (i >= text.length) fail('a string is not closed');
    i++;
    return from;
  };
  const value = (pointer, depth, key) => {
    if (depth > MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH} levels`);
    space();
    const from = i;
    const c = text[i];
    const node = { pointer, kind: 'literal', from, to: from };
    if (key) node.key = key;
    nodes.set(pointer, node);
    if (c === '{') {
      node.kind = 'object';
      node.keys = [];
      i++;
      space();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          space();
          if (text[i] !== '"') fail('expected a key in quotes');
          const keyFrom = string();
          let name;
          try { name = JSON.parse(text.slice(keyFrom, i)); } catch { fail('a key is not a valid string'); }
          const keyRange = { from: keyFrom, to: i };
          space();
          if (text[i] !== ':') fail('expected ":" after a key');
          i++;
          node.keys.push(name);
          value(`${pointer}/${escapeToken(name)}`, depth + 1, keyRange);
          space();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === '}') { i++; break; }
          fail('expected "," or "}"');
        }
      }
    } else if (c === '[') {
      node.kind = 'array';
      node.length = 0;
      i++;
      space();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          value(`${pointer}/${node.length}`, depth + 1);
          node.length++;
          space();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === ']') { i++; break; }
          fail('expected "," or "]"');
        }
      }
    } else if (c === '"') {
      node.kind = 'string';
      string();
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      node.kind = 'number';
      const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400));
      if (!match) fail('a number is not valid');
      i += match[0].length;
    } else {
      const word = /^(true|false|null)/.exec(text.slice(i, i + 5));
      if (!word) fail(i >= text.length ? 'the text ends where a value should be' : 'expected a value');
      i += word[0].length;
    }
    node.to = i;
  };
  value('', 0);
  space();
  if (i < text.length) fail('text after the end of the document');
  return nodes;
}

/**
 * The text range an issue at `pointer` is about: the value there; for a missing member (a required field
 * left out, a body that is not there), the key of its nearest existing parent, or that parent's opening
 * bracket when it has no key (`exact` false). The whole text's start when nothing matches.
 * @param {Map<string, JsonNode>} nodes
 * @param {string} pointer
 * @returns {{from: number, to: number, exact: boolean}}
 */
export function rangeOfPointer(nodes, pointer) {
  const node = nodes.get(pointer);
  if (node) return { from: node.from, to: node.to, exact: true };
  const tokens = pointerTokens(pointer);
  for (let k = tokens.length - 1; k >= 0; k--) {
    const parent = nodes.get(pointerOf(tokens.slice(0, k)));
    if (!parent) continue;
    if (parent.key) return { from: parent.key.from, to: parent.key.to, exact: false };
    return { from: parent.from, to: parent.from + 1, exact: false };
  }
  return { from: 0, to: 0, exact: false };
}

/**
 * The range to underline for an engine issue at `pointer`: a member's key with its value when the value
 * is a scalar (`"mass": -2`), the key alone when it is an object or array (`"bodies"`), an array element's
 * scalar or its opening bracket; for a missing member, as rangeOfPointer says.
 * @returns {{from: number, to: number, exact: boolean}}
 */
export function rangeOfIssue(nodes, pointer) {
  const node = nodes.get(pointer);
  if (!node) return rangeOfPointer(nodes, pointer);
  const scalar = node.kind !== 'object' && node.kind !== 'array';
  const from = node.key ? node.key.from : node.from;
  const to = scalar ? node.to : node.key ? node.key.to : node.from + 1;
  return { from, to, exact: true };
}

/** Line (1-based) and column (1-based) of an offset. */
export function lineColumn(text, offset) {
  let line = 1;
  let start = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      start = k + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * The offset of a line (1-based) and column (1-based), clamped to the line. `bytes`: the column counts
 * UTF-8 bytes (as the engine's JSON reader does), not characters.
 */
export function offsetOf(text, line, column, { bytes = false } = {}) {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf('\n', offset);
  const lineEnd = end < 0 ? text.length : end;
  if (!bytes) return Math.min(lineEnd, offset + Math.max(0, column - 1));
  let left = Math.max(0, column - 1);
  let k = offset;
  while (left > 0 && k < lineEnd) {
    const code = text.codePointAt(k);
    left -= code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    k += code > 0xffff ? 2 : 1;
  }
  return k;
}
