// Numbers typed or pasted into the matrix lab: a decimal (1, -0.5, 1e-3), a fraction (1/12), and matrices
// as rows separated by newlines or semicolons, entries by spaces or commas ([[1, 0], [0, 2]] works too).
// Problems are reported like the engine's: "<field>: <what is wrong>".

/** Longest quote of a typed entry in a message (characters); longer ones are cut short with "…". */
const QUOTE_LENGTH = 32;

/** The number in `text`, or throws "field: must be a number, got “text”" (the text cut short). */
export function parseEntry(text, field) {
  const s = String(text).trim().replace(/\u2212/g, '-');
  if (s === '') throw new Error(`${field}: empty — type a number`);
  const fraction = s.match(/^([^/]+)\/([^/]+)$/);
  const value = fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(s);
  if (!Number.isFinite(value)) {
    const characters = Array.from(s);
    const quote = characters.length > QUOTE_LENGTH ? `${characters.slice(0, QUOTE_LENGTH).join('')}…` : s;
    throw new Error(`${field}: must be a number, got “${quote}”`);
  }
  return value;
}

/** Rows of entry strings from pasted text (not yet numbers). */
export function splitRows(text) {
  const t = String(text).trim().replace(/\]\s*,?\s*\[/g, ';').replace(/[[\]]/g, '');
  return t.split(/[;\n]+/).map((row) => row.trim()).filter((row) => row !== '')
    .map((row) => row.split(/[\s,]+/).filter((x) => x !== ''));
}

/** A matrix (rows of numbers) from pasted text; every row the same length. */
export function parseMatrixText(text, field) {
  const rows = splitRows(text);
  if (!rows.length) throw new Error(`${field}: no numbers found in the pasted text`);
  const width = rows[0].length;
  rows.forEach((row, i) => {
    if (row.length !== width) {
      throw new Error(`${field}: every row must have the same number of entries; row 1 has ${width}, row ${i + 1} has ${row.length}`);
    }
  });
  return rows.map((row, i) => row.map((x, j) => parseEntry(x, `${field}[${i}][${j}]`)));
}

/** A vector from pasted text (any separators, one row or one column). */
export function parseVectorText(text, field) {
  const entries = splitRows(text).flat();
  if (!entries.length) throw new Error(`${field}: no numbers found in the pasted text`);
  return entries.map((x, i) => parseEntry(x, `${field}[${i}]`));
}
