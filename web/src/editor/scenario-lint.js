// The editor's checks: the engine's own checkScenario (in the worker), the messages `oblique check` prints,
// each put at its place in the text by its JSON pointer (json-pointer-map.js); a syntax error at the line
// and column the engine names (it counts bytes; the editor characters), or where its likely cause is, named
// first ("missing comma after line 12?", json-syntax-hint.js).
import { lineColumn, mapJsonPointers, offsetOf, rangeOfIssue } from './json-pointer-map.js';
import { syntaxHint } from './json-syntax-hint.js';

/** Longest text sent to the checks (a scenario within the format's limits is far smaller). */
export const MAX_TEXT_CHARS = 1_000_000;

/**
 * @typedef {{from: number, to: number, line: number, pointer: string, message: string, hint?: string}} Issue
 *   `hint`: the likely cause of a syntax error, which `message` then starts with
 */

/**
 * The problems of a scenario text, placed.
 * @param {string} text
 * @param {(text: string) => Promise<{pointer: string, message: string}[]>} check  the engine's checkScenario
 * @returns {Promise<Issue[]>}
 */
export async function scenarioIssues(text, check) {
  if (text.length > MAX_TEXT_CHARS) {
    return [{ from: 0, to: 0, line: 1, pointer: '', message: `the text is ${text.length} characters long (at most ${MAX_TEXT_CHARS})` }];
  }
  const issues = await check(text);
  let nodes = null;
  try {
    nodes = mapJsonPointers(text);
  } catch {
    nodes = null;  // not JSON: the engine's message says where
  }
  return issues.map(({ pointer, message }) => {
    let range = { from: 0, to: Math.min(text.length, 1) };
    const at = /line (\d+), column (\d+)/.exec(message);
    if (!nodes && at) {
      const from = offsetOf(text, Number(at[1]), Number(at[2]), { bytes: true });
      range = { from, to: Math.min(text.length, from + 1) };
      const cause = syntaxHint(text, message, from);
      if (cause) {
        const offset = Math.min(text.length, Math.max(0, cause.offset));
        return { from: offset, to: Math.min(text.length, offset + 1), line: lineColumn(text, offset).line, pointer,
          message: `${cause.hint} (${message})`, hint: cause.hint };
      }
    } else if (nodes) {
      range = rangeOfIssue(nodes, pointer);
    }
    return { ...range, line: lineColumn(text, range.from).line, pointer, message };
  });
}
