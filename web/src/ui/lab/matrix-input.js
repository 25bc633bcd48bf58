// An editable matrix or vector: a grid of text fields (what was typed stays, even when it is not a number
// yet) and a "paste from text" box. Fields are named like the engine names them: M[0][1], qd[2].
import { el, uniqueId } from '../widgets/dom.js';
import { parseEntry, parseMatrixText, parseVectorText } from './number-text.js';

export class MatrixInput {
  #cols;

  /**
   * @param {{field: string, label: Node|string, vector?: boolean, rows: number, cols: number,
   *          fillValue?: (i: number, j: number) => number, onInput: () => void,
   *          onPaste: (values: number[][]|number[]) => string|null}} options
   *   `onPaste` is given the parsed numbers and returns an error message to show, or null once applied.
   */
  constructor({ field, label, vector = false, rows, cols, fillValue = () => 0, onInput, onPaste }) {
    this.field = field;
    this.vector = vector;
    this.fillValue = fillValue;
    this.onInput = onInput;
    this.texts = [];  // typed strings, rows × cols
    this.#cols = 0;
    this.grid = el('div', { class: 'input-grid', role: 'group' });
    const pasteId = uniqueId(`paste-${field}`);
    this.paste = el('textarea', { id: pasteId, rows: vector ? 2 : 3, spellcheck: 'false',
      placeholder: vector ? '3, -1' : '1 0; 0 2' });
    this.pasteNote = el('p', { class: 'small paste-note', role: 'status' });
    const apply = el('button', { type: 'button', class: 'button small', text: 'Use these numbers' });
    apply.addEventListener('click', () => {
      let values;
      try {
        values = vector ? parseVectorText(this.paste.value, field) : parseMatrixText(this.paste.value, field);
      } catch (error) {
        this.pasteNote.textContent = error.message;
        this.pasteNote.classList.add('bad');
        return;
      }
      const problem = onPaste(values);
      this.pasteNote.textContent = problem ?? 'Applied.';
      this.pasteNote.classList.toggle('bad', Boolean(problem));
    });
    this.labelId = uniqueId(`label-${field}`);
    this.grid.setAttribute('aria-labelledby', this.labelId);
    this.element = el('div', { class: `matrix-input ${vector ? 'vector' : ''}`, 'data-field': field },
      el('div', { class: 'matrix-input-label', id: this.labelId }, label),
      this.grid,
      el('details', { class: 'paste' },
        el('summary', { text: 'Paste from text' }),
        el('label', { for: pasteId, class: 'small',
          text: vector ? 'Numbers separated by spaces, commas or newlines:' : 'Rows separated by newlines or semicolons, entries by spaces or commas:' }),
        this.paste, apply, this.pasteNote));
    this.resize(rows, cols);
  }

  get rows() {
    return this.texts.length;
  }

  get cols() {
    return this.#cols;
  }

  /** Changes the size, keeping what was typed where it still fits and filling new entries. */
  resize(rows, cols) {
    if (this.vector) rows = 1;
    this.#cols = cols;
    const old = this.texts;
    this.texts = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) =>
      old[i]?.[j] ?? String(this.fillValue(this.vector ? j : i, j))));
    this.#build();
  }

  /** Replaces every entry (a matrix, or a vector for a vector input). */
  setValues(values) {
    const matrix = this.vector ? [values] : values;
    this.texts = matrix.map((row) => row.map(String));
    this.#cols = matrix[0]?.length ?? 0;
    this.#build();
  }

  #fieldName(i, j) {
    return this.vector ? `${this.field}[${j}]` : `${this.field}[${i}][${j}]`;
  }

  #build() {
    const rows = this.texts.length;
    const cols = this.#cols;
    this.grid.style.setProperty('--cols', String(Math.max(cols, 1)));
    this.grid.replaceChildren(...this.texts.flatMap((row, i) => row.map((text, j) => {
      const input = el('input', {
        type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', value: text,
        'data-field': this.#fieldName(i, j),
        'aria-label': this.vector ? `${this.field} entry ${j + 1}` : `${this.field} row ${i + 1}, column ${j + 1}`,
      });
      input.addEventListener('input', () => {
        this.texts[i][j] = input.value;
        this.onInput();
      });
      return input;
    })));
    if (rows === 0 || cols === 0) {
      this.grid.append(el('p', { class: 'muted small', text: rows === 0 ? 'No rows.' : 'No columns.' }));
    }
  }

  /** The numbers, or the first entry that is not one (as an Error naming its field). */
  read() {
    const values = this.texts.map((row, i) => row.map((text, j) => parseEntry(text, this.#fieldName(i, j))));
    return this.vector ? values[0] ?? [] : values;
  }

  /** Marks entries that are not numbers (aria-invalid), and returns whether all are. */
  validate() {
    let ok = true;
    for (const input of this.grid.querySelectorAll('input')) {
      let bad = false;
      try { parseEntry(input.value, input.dataset.field); } catch { bad = true; }
      setInvalid(input, bad);
      ok &&= !bad;
    }
    return ok;
  }

  /** Marks the entry named `field` ("M[1][0]") or, for the bare field name, the whole grid. */
  mark(field) {
    if (field === this.field) this.element.classList.add('invalid');
    const input = this.grid.querySelector(`input[data-field="${CSS.escape(field)}"]`);
    if (input) setInvalid(input, true);
  }

  clearMarks() {
    this.element.classList.remove('invalid');
    for (const input of this.grid.querySelectorAll('input')) setInvalid(input, false);
  }
}

function setInvalid(input, bad) {
  if (bad) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}
