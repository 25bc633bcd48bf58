// The likely cause of a JSON syntax error, in a person's words: the engine's reader says where it stopped
// ("parse error at line 4, column 5: … unexpected '{'; expected ']'"), which is often the line after the
// mistake. From the text around that place this names the mistake and the line it is on: a missing comma
// after the value before, a comma before a closing bracket, single quotes, text without quotes, a string
// left open, a bracket never closed. Pure.
import { lineColumn } from './json-pointer-map.js';

/**
 * @typedef {{hint: string, offset: number}} SyntaxHint  `offset`: where the mistake is (the editor marks it)
 */

/** Characters that end a JSON value: a string's quote, a closing bracket, a digit, true, false, null. */
const VALUE_END = /["}\]0-9el]/;
/** Characters that start a JSON value or a member's name. */
const VALUE_START = /["{[0-9tfn-]/;

/**
 * The likely cause of the engine's syntax error `message` in `text`, or null when there is none to add.
 * @param {string} text
 * @param {string} message the engine's message ("malformed JSON: parse error at line L, column C: …")
 * @param {number} offset the offset of the character the reader stopped at
 * @returns {SyntaxHint|null}
 */
export function syntaxHint(text, message, offset) {
  if (!/malformed JSON|parse error/.test(message)) return null;
  const lineOf = (at) => lineColumn(text, at).line;
  const start = tokenStart(text, offset);
  const before = previousCharacter(text, start - 1);
  const here = text[start];
  if (/unexpected end of input/.test(message)) {
    const open = unclosed(text, text.length);
    return open ? { hint: `a missing ${open.close}? The ${open.open} on line ${lineOf(open.at)} is never closed.`, offset: open.at }
      : { hint: 'the text ends too early: is something missing at its end?', offset: text.length };
  }
  if (/invalid string: control character/.test(message)) {
    const quote = text.lastIndexOf('"', offset - 1);
    return { hint: `a string left open on line ${lineOf(Math.max(0, quote))}? Its closing " is missing.`, offset: Math.max(0, quote) };
  }
  if (/invalid literal/.test(message)) {
    if (here === "'" || /last read: '.*''/.test(message)) {
      return { hint: `single quotes on line ${lineOf(start)}? JSON names and strings take double quotes (").`, offset: start };
    }
    return { hint: `text without quotes on line ${lineOf(start)}? A name or a text value is written in double quotes ("like this").`, offset: start };
  }
  // A closing bracket where a name or a value must come: a comma too many before it.
  if (/unexpected '[}\]]'; expected (string literal|'\[', '\{', or a literal)/.test(message) && before.char === ',') {
    return { hint: `a comma too many after line ${lineOf(before.at)}? JSON allows no comma before a closing ${here}.`, offset: before.at };
  }
  // A value or a name right after another value: the comma between them is missing.
  if (/unexpected (string literal|'[{[]'|number literal|literal)/.test(message) && VALUE_START.test(here ?? '') &&
      before.char !== undefined && VALUE_END.test(before.char)) {
    return { hint: `missing comma after line ${lineOf(before.at)}?`, offset: before.at + 1 };
  }
  // A closing bracket of the wrong kind: the one expected was never written.
  const wrong = /unexpected '([}\]])'; expected '([}\]])'/.exec(message);
  if (wrong) {
    const open = unclosed(text, start);
    const where = open ? ` The ${open.open} on line ${lineOf(open.at)} is not closed.` : '';
    return { hint: `a missing ${wrong[2]} before line ${lineOf(start)}?${where}`, offset: start };
  }
  return null;
}

/** The first character of the token that ends at `offset` (a string back to its opening quote). */
function tokenStart(text, offset) {
  let k = Math.min(offset, text.length - 1);
  if (k < 0) return 0;
  if (text[k] === '"') {
    k -= 1;
    while (k >= 0 && !(text[k] === '"' && text[k - 1] !== '\\')) k -= 1;
    return Math.max(0, k);
  }
  if (/[{}[\],:]/.test(text[k])) return k;
  while (k > 0 && !/[\s{}[\],:"]/.test(text[k - 1])) k -= 1;
  return k;
}

/** The last character before `at` (inclusive) that is not white space, and where it is. */
function previousCharacter(text, at) {
  let k = at;
  while (k >= 0 && /\s/.test(text[k])) k -= 1;
  return { char: k >= 0 ? text[k] : undefined, at: k };
}

/** The innermost bracket still open before `end` (strings skipped): {open, close, at}, or null. */
function unclosed(text, end) {
  const stack = [];
  let inString = false;
  for (let k = 0; k < end; k++) {
    const c = text[k];
    if (inString) {
      if (c === '\\') k += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(k);
    else if ((c === '}' || c === ']') && stack.length) stack.pop();
  }
  if (!stack.length) return null;
  const at = stack[stack.length - 1];
  return { open: text[at], close: text[at] === '{' ? '}' : ']', at };
}
