// A matrix too large to print its numbers in cells (15 × 15 for Newton's cradle, 192 × 192 for 64 bodies),
// made readable: a heatmap that fits the width of its panel, cut into blocks — the coordinates of one body,
// the rows of one contact or joint — with their names along the edges; the entry under the pointer or the
// keyboard cursor named and printed; and that entry's block (one body against another: a 3 × 3 table with
// its numbers) below the heatmap. The arrow keys move the cursor by an entry, Page Up/Down by a block (with
// Shift across), Home/End to the ends of its row, Ctrl+Home/End to the first and last entry; a click puts the
// cursor where it is.
import { divergingRgb } from './colors.js';
import { el } from './dom.js';
import { formatNumber } from './format.js';
import { matrixTable } from './matrix-table.js';

/** Smallest and largest cell of the heatmap (CSS px): 600 coordinates still fit a panel. */
const MIN_CELL = 1;
const MAX_CELL = 26;
/** Blocks narrower than this (px) are not outlined: the lines would cover the entries. */
const MIN_OUTLINED = 5;
/** Room for the block names: above the columns, left of the rows (CSS px at most). */
const TOP = 18;
const MAX_LEFT = 96;
const FONT = '11px system-ui, sans-serif';

/**
 * @typedef {{name: string, start: number, size: number}} Block  consecutive rows (or columns) of one body,
 *   contact or joint
 */

export class LargeMatrix {
  /**
   * @param {{name: string, readout: HTMLElement}} options  `name` the matrix's plain name ("S"), `readout`
   *   where the entry under the cursor is written (a live region)
   */
  constructor({ name, readout }) {
    this.name = name;
    this.readout = readout;
    this.canvas = el('canvas', { class: 'heatmap-canvas large-matrix-canvas', tabindex: '0', role: 'img',
      'aria-keyshortcuts': 'ArrowUp ArrowDown ArrowLeft ArrowRight PageUp PageDown Home End Control+Home Control+End' });
    this.block = el('div', { class: 'large-matrix-block', 'data-testid': `block-${name}` });
    this.element = el('div', { class: 'large-matrix' }, this.canvas, this.block);
    this.cursor = [0, 0];
    this.width = 0;
    this.#interaction();
    new ResizeObserver(() => {
      const width = Math.floor(this.element.getBoundingClientRect().width);
      if (width > 0 && width !== this.width) {
        this.width = width;
        this.#draw();
      }
    }).observe(this.element);
  }

  /**
   * Shows `matrix` (rows of numbers); `labels`: `rowNames`/`colNames` (a name per row and column, "y of
   * ball 3"), `rowShort`/`colShort` (the short names a block's table uses, "y"), `rowBlocks`/`colBlocks`;
   * `scale` the largest |entry|, `zero` the size printed as 0.
   */
  update(matrix, { rowNames, colNames, rowShort, colShort, rowBlocks, colBlocks, scale, zero }) {
    this.matrix = matrix;
    this.rows = matrix.length;
    this.cols = matrix[0].length;
    this.rowNames = rowNames;
    this.colNames = colNames;
    this.rowShort = rowShort;
    this.colShort = colShort;
    this.rowBlocks = rowBlocks ?? evenBlocks(this.rows);
    this.colBlocks = colBlocks ?? evenBlocks(this.cols);
    this.scale = scale;
    this.zero = zero;
    // The entries as pixels, once per matrix: one pixel per entry, enlarged without smoothing when drawn.
    const pixels = new ImageData(this.cols, this.rows);
    for (let i = 0; i < this.rows; i++) {
      for (let j = 0; j < this.cols; j++) {
        pixels.data.set(divergingRgb(scale > 0 ? matrix[i][j] / scale : 0), 4 * (i * this.cols + j));
        pixels.data[4 * (i * this.cols + j) + 3] = 255;
      }
    }
    this.entries = new OffscreenCanvas(this.cols, this.rows);
    this.entries.getContext('2d').putImageData(pixels, 0, 0);
    this.canvas.setAttribute('aria-label', `${this.name}, ${this.rows} by ${this.cols}, in blocks of ` +
      `${this.colBlocks.length > 1 ? `${this.colBlocks.length} bodies` : 'its rows'}: the arrow keys read its entries, ` +
      'Page Up and Page Down go a block at a time; the block of the entry read is printed below');
    // The cursor starts on the largest entry: its block is the one the impact is about.
    this.cursor = largest(matrix);
    this.shownBlock = null;
    this.block.replaceChildren();
    this.width = Math.floor(this.element.getBoundingClientRect().width) || this.width;
    this.#draw();
    this.#show(this.cursor, { announce: false });
  }

  /** The geometry of the drawing at the current width: margins and cell size (CSS px). */
  #layout() {
    const ctx = this.canvas.getContext('2d');
    ctx.font = FONT;
    const named = this.rowBlocks.length > 1;
    const longest = named ? Math.max(...this.rowBlocks.map((b) => ctx.measureText(b.name).width)) : 0;
    const available = Math.max(120, this.width || 288);
    const left = named ? Math.min(MAX_LEFT, Math.ceil(longest) + 6, Math.floor(available * 0.3)) : 0;
    const top = this.colBlocks.length > 1 ? TOP : 0;
    const fit = (available - left - 2) / this.cols;
    // Whole pixels while they fit (crisp cells), fractions below.
    const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, fit >= 3 ? Math.floor(fit) : fit));
    return { left, top, cell };
  }

  #draw() {
    if (!this.matrix) return;
    const { left, top, cell } = this.geometry = this.#layout();
    const dpr = window.devicePixelRatio || 1;
    const width = left + this.cols * cell + 1;
    const height = top + this.rows * cell + 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(0, 0, width, height);
    ctx.drawImage(this.entries, left, top, this.cols * cell, this.rows * cell);
    // The blocks: lines between them, names along the edges where they fit (else their number).
    ctx.strokeStyle = 'rgb(29 33 39 / 0.55)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    const outlined = (blocks) => blocks.every((b) => b.size * cell >= MIN_OUTLINED) ? blocks.slice(1) : [];
    for (const b of outlined(this.colBlocks)) {
      ctx.moveTo(left + b.start * cell + 0.5, top);
      ctx.lineTo(left + b.start * cell + 0.5, top + this.rows * cell);
    }
    for (const b of outlined(this.rowBlocks)) {
      ctx.moveTo(left, top + b.start * cell + 0.5);
      ctx.lineTo(left + this.cols * cell, top + b.start * cell + 0.5);
    }
    ctx.stroke();
    ctx.strokeRect(left + 0.5, top + 0.5, this.cols * cell, this.rows * cell);
    ctx.font = FONT;
    ctx.fillStyle = '#3d434c';
    ctx.textBaseline = 'middle';
    if (top) {
      ctx.textAlign = 'center';
      this.colBlocks.forEach((b, k) => {
        const span = b.size * cell;
        const text = fitText(ctx, b.name, span - 2, { shorten: false }) ?? fitText(ctx, abbreviation(b.name), span - 1, { shorten: false }) ??
          fitText(ctx, String(k + 1), span);
        if (text) ctx.fillText(text, left + (b.start + b.size / 2) * cell, top / 2);
      });
    }
    if (left) {
      ctx.textAlign = 'right';
      this.rowBlocks.forEach((b, k) => {
        if (b.size * cell < 9) return;
        const text = fitText(ctx, b.name, left - 4) ?? String(k + 1);
        ctx.fillText(text, left - 4, top + (b.start + b.size / 2) * cell);
      });
    }
    this.#drawCursor(ctx);
  }

  /** The cursor's entry outlined, and its block. */
  #drawCursor(ctx) {
    const { left, top, cell } = this.geometry;
    const [i, j] = this.cursor;
    const rb = blockOf(this.rowBlocks, i);
    const cb = blockOf(this.colBlocks, j);
    ctx.save();
    ctx.strokeStyle = '#1a73e8';
    ctx.lineWidth = 1.5;
    ctx.strokeRect(left + cb.start * cell + 0.75, top + rb.start * cell + 0.75, cb.size * cell - 1, rb.size * cell - 1);
    ctx.strokeStyle = '#111';
    ctx.lineWidth = 2;
    ctx.strokeRect(left + j * cell - 0.5, top + i * cell - 0.5, cell + 1, cell + 1);
    ctx.restore();
  }

  /** Reads entry [i, j]: the readout names it and prints it, the block below is its block. */
  #show([i, j], { announce = true } = {}) {
    const moved = this.cursor[0] !== i || this.cursor[1] !== j;
    this.cursor = [i, j];
    const name = `${this.name}(${this.rowNames?.[i] ?? i + 1}, ${this.colNames?.[j] ?? j + 1})`;
    const text = `${name} = ${formatNumber(this.matrix[i][j], 6, this.zero)}`;
    if (announce || !this.readout.textContent) this.readout.textContent = text;
    this.readout.dataset.entry = `${i},${j}`;
    if (moved || !this.block.firstChild) this.#drawBlock();
    if (moved) this.#draw();
  }

  /** The table of the cursor's block, with its numbers. */
  #drawBlock() {
    const rb = blockOf(this.rowBlocks, this.cursor[0]);
    const cb = blockOf(this.colBlocks, this.cursor[1]);
    if (this.shownBlock === `${rb.start},${cb.start}` && this.block.firstChild) return;
    this.shownBlock = `${rb.start},${cb.start}`;
    const values = this.matrix.slice(rb.start, rb.start + rb.size).map((row) => row.slice(cb.start, cb.start + cb.size));
    const range = (b, names) => Array.from({ length: b.size }, (_, k) => names?.[b.start + k] ?? String(b.start + k + 1));
    const title = rb.name === cb.name ? rb.name : `${rb.name} × ${cb.name}`;
    this.block.replaceChildren(
      el('p', { class: 'large-matrix-block-title', text: `${this.name}, block ${title}` }),
      matrixTable(values, {
        name: this.name,
        rowLabels: range(rb, this.rowShort),
        colLabels: range(cb, this.colShort),
        entryName: (r, c) => `${this.name}(${this.rowNames?.[rb.start + r] ?? rb.start + r + 1}, ${this.colNames?.[cb.start + c] ?? cb.start + c + 1})`,
        scale: this.scale,
        zero: this.zero,
      }));
  }

  #interaction() {
    const at = (event) => {
      const { left, top, cell } = this.geometry ?? this.#layout();
      const box = this.canvas.getBoundingClientRect();
      const j = Math.floor((event.clientX - box.left - left) / cell);
      const i = Math.floor((event.clientY - box.top - top) / cell);
      return i >= 0 && i < this.rows && j >= 0 && j < this.cols ? [i, j] : null;
    };
    this.canvas.addEventListener('pointermove', (event) => {
      const entry = at(event);
      if (entry) this.#show(entry);
    });
    this.canvas.addEventListener('click', (event) => {
      const entry = at(event);
      if (entry) this.#show(entry);
    });
    this.canvas.addEventListener('keydown', (event) => {
      if (!this.matrix || event.altKey) return;
      // Ctrl+Home and Ctrl+End: the first and the last entry (as in a grid); other Ctrl keys are the page's.
      if (event.ctrlKey || event.metaKey) {
        const corner = { Home: [0, 0], End: [this.rows - 1, this.cols - 1] }[event.key];
        if (!corner) return;
        event.preventDefault();
        this.#show(corner);
        return;
      }
      const [i, j] = this.cursor;
      const rb = blockOf(this.rowBlocks, i);
      const cb = blockOf(this.colBlocks, j);
      const clampRow = (r) => Math.min(this.rows - 1, Math.max(0, r));
      const clampCol = (c) => Math.min(this.cols - 1, Math.max(0, c));
      const moves = {
        ArrowUp: [clampRow(i - 1), j], ArrowDown: [clampRow(i + 1), j],
        ArrowLeft: [i, clampCol(j - 1)], ArrowRight: [i, clampCol(j + 1)],
        // A block at a time: down (and up) the rows, or across the columns with Shift.
        PageDown: event.shiftKey ? [i, clampCol(cb.start + cb.size + (j - cb.start))] : [clampRow(rb.start + rb.size + (i - rb.start)), j],
        PageUp: event.shiftKey ? [i, clampCol(j - cb.size)] : [clampRow(i - rb.size), j],
        Home: [i, 0], End: [i, this.cols - 1],
      };
      const next = moves[event.key];
      if (!next) return;
      event.preventDefault();
      event.stopPropagation();  // the keys read entries here, not the page's shortcuts
      this.#show(next);
    });
    this.canvas.addEventListener('focus', () => this.#show(this.cursor));
  }
}

/** Blocks of three (a body's x, y, θ) when the rows have no names of their own. */
function evenBlocks(count, size = 3) {
  return Array.from({ length: Math.ceil(count / size) }, (_, k) => ({ name: String(k + 1), start: k * size,
    size: Math.min(size, count - k * size) }));
}

/** The block that holds index `k`. */
function blockOf(blocks, k) {
  return blocks.find((b) => k >= b.start && k < b.start + b.size) ?? { name: '', start: k, size: 1 };
}

/** The entry of largest magnitude, [i, j] (the first of equals). */
function largest(matrix) {
  let best = [0, 0];
  let size = -1;
  matrix.forEach((row, i) => row.forEach((x, j) => {
    if (Math.abs(x) > size) {
      size = Math.abs(x);
      best = [i, j];
    }
  }));
  return best;
}

/** A name's initial and its number, "ball 3" → "b3"; the name itself when it has no number. */
function abbreviation(name) {
  const match = /^(\S)\D*?(\d+)$/.exec(name.trim());
  return match ? `${match[1]}${match[2]}` : name.slice(0, 2);
}

/**
 * `text` in at most `width` px, else its beginning with "…" (unless `shorten` is false); null when it does
 * not fit.
 */
function fitText(ctx, text, width, { shorten = true } = {}) {
  if (ctx.measureText(text).width <= width) return text;
  if (!shorten) return null;
  for (let n = text.length - 1; n >= 1; n--) {
    const short = `${text.slice(0, n)}…`;
    if (ctx.measureText(short).width <= width) return short;
  }
  return null;
}
