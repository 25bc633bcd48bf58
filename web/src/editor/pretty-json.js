// JSON laid out for reading and for diffs, as the built-in scenario files are: two-space indents, and any
// object or array that fits on its line within `width` (116) characters written on that line ({"type": "rod",
// "length": 0.25}, [0, -9.81]). Numbers keep their shortest round-trip form. Pure.
import { compactJson } from './json-text-edit.js';

/**
 * @param {unknown} value a JSON value (finite numbers only)
 * @param {{width?: number, indent?: number}} [options]
 * @returns {string} the text, with a final newline
 */
export function prettyJson(value, { width = 116, indent = 2 } = {}) {
  const write = (node, depth, lead) => {
    const pad = ' '.repeat(indent * depth);
    const one = compactJson(node);
    if (node === null || typeof node !== 'object' || pad.length + lead + one.length <= width) return one;
    const inner = ' '.repeat(indent * (depth + 1));
    if (Array.isArray(node)) {
      if (!node.length) return '[]';
      return `[\n${node.map((item) => `${inner}${write(item, depth + 1, 0)}`).join(',\n')}\n${pad}]`;
    }
    const entries = Object.entries(node);
    if (!entries.length) return '{}';
    return `{\n${entries.map(([k, v]) => {
      const key = `${JSON.stringify(k)}: `;
      return `${inner}${key}${write(v, depth + 1, key.length)}`;
    }).join(',\n')}\n${pad}}`;
  };
  return `${write(value, 0, 0)}\n`;
}
