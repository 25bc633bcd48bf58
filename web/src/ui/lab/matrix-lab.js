// The matrix lab: type M, A, q̇⁻ and e (or one eᵢ per row), see every output of analyzeImpact in the same
// panels as the playground. Computed as you type; an engine error is quoted in the message area, the
// offending field is marked, and nothing typed is lost.
import { el, uniqueId } from '../widgets/dom.js';
import { ImpactPanels } from '../impact-panels/impact-panels.js';
import { MatrixInput } from './matrix-input.js';
import { parseEntry } from './number-text.js';
import { tex } from '../widgets/formula.js';

const SOURCE = 'Matrix lab';
const MAX_SIZE = 12;
const DEBOUNCE_MS = 200;
const COS30 = Math.cos(Math.PI / 6);

/** The textbook cases. */
export const PRESETS = [
  { id: 'two-particles', title: 'Two particles',
    text: 'Masses 1 and 2 on a line, closing at 4 m/s, e = 0.8: expect q̇⁺ = (−1.8, 1.4), γ = 0.650909.',
    M: [[1, 0], [0, 2]], A: [[-1, 1]], qd: [3, -1], e: 0.8, coords: ['x₁', 'x₂'], rows: ['contact'] },
  { id: 'three-balls', title: 'Three-ball chain',
    text: 'Three equal balls touching in a row; the first arrives at 1 m/s. Two simultaneous contacts, e = 0.9.',
    M: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], A: [[-1, 1, 0], [0, -1, 1]], qd: [1, 0, 0], e: 0.9,
    coords: ['x₁', 'x₂', 'x₃'], rows: ['1–2', '2–3'] },
  { id: 'tilted-rod', title: 'Tilted rod',
    text: 'A unit rod at 30° falls at 1 m/s and hits the ground with one end, e = 0.5.',
    M: [[1, 0, 0], [0, 1, 0], [0, 0, 1 / 12]], A: [[0, 1, -0.5 * COS30]], qd: [0, -1, 0], e: 0.5,
    coords: ['x', 'y', 'θ'], rows: ['end'] },
  { id: 'flat-rod', title: 'Flat rod on three contacts',
    text: 'A flat rod lands on three contacts at once: three rows but rank 2, which the pseudo-inverse handles. e = 0.5.',
    M: [[1, 0, 0], [0, 1, 0], [0, 0, 1 / 12]], A: [[0, 1, -0.5], [0, 1, 0], [0, 1, 0.5]], qd: [0.2, -1, 0.5], e: 0.5,
    coords: ['x', 'y', 'θ'], rows: ['left', 'middle', 'right'] },
];

export class MatrixLab {
  /** @param {{client: import('../../worker/client.js').SimulationClient, messages: import('../widgets/message-area.js').MessageArea}} options */
  constructor({ client, messages }) {
    this.client = client;
    this.messages = messages;
    this.labels = {};
    this.sequence = 0;
    this.timer = null;
    const changed = () => this.#changed();

    const nId = uniqueId('lab-n');
    const mId = uniqueId('lab-m');
    this.n = el('input', { id: nId, type: 'number', min: 1, max: MAX_SIZE, step: 1, value: 2, class: 'number-input' });
    this.m = el('input', { id: mId, type: 'number', min: 0, max: MAX_SIZE, step: 1, value: 1, class: 'number-input' });
    this.n.addEventListener('change', () => this.#resize());
    this.m.addEventListener('change', () => this.#resize());

    this.M = new MatrixInput({ field: 'M', label: ['Inertia ', tex('M'), ' (n × n, symmetric positive definite)'],
      rows: 2, cols: 2, fillValue: (i, j) => (i === j ? 1 : 0), onInput: changed,
      onPaste: (values) => {
        if (values.length !== values[0].length) return `M: must be square, got ${values.length} × ${values[0].length}`;
        if (values.length > MAX_SIZE) return `M: at most ${MAX_SIZE} × ${MAX_SIZE} here`;
        this.n.value = String(values.length);
        this.#resize();
        this.M.setValues(values);
        this.#changed();
        return null;
      } });
    this.A = new MatrixInput({ field: 'A', label: ['Constraint Jacobian ', tex('A'), ' (m × n, any rank)'],
      rows: 1, cols: 2, onInput: changed,
      onPaste: (values) => {
        if (values[0].length !== this.size.n) {
          return `A: every row must have ${this.size.n} entries (the size of M), got ${values[0].length}`;
        }
        if (values.length > MAX_SIZE) return `A: at most ${MAX_SIZE} rows here`;
        this.m.value = String(values.length);
        this.#resize();
        this.A.setValues(values);
        this.#changed();
        return null;
      } });
    this.qd = new MatrixInput({ field: 'qd', label: ['Pre-impact velocity ', tex(String.raw`\dot q^{-}`)], vector: true,
      rows: 1, cols: 2, onInput: changed,
      onPaste: (values) => {
        if (values.length !== this.size.n) return `qd: must have ${this.size.n} entries (the size of M), got ${values.length}`;
        this.qd.setValues(values);
        this.#changed();
        return null;
      } });
    this.E = new MatrixInput({ field: 'E', label: ['One coefficient per row, ', tex('E = \\operatorname{diag}(e_i)')],
      vector: true, rows: 1, cols: 1, fillValue: () => 0.5, onInput: changed,
      onPaste: (values) => {
        if (values.length !== this.size.m) return `E: must have one coefficient per row of A (${this.size.m}), got ${values.length}`;
        this.E.setValues(values);
        this.#changed();
        return null;
      } });

    const eId = uniqueId('lab-e');
    this.e = el('input', { id: eId, type: 'text', inputmode: 'decimal', value: '0.8', class: 'number-input',
      'data-field': 'e', autocomplete: 'off' });
    this.e.addEventListener('input', changed);
    const modeName = uniqueId('lab-mode');
    this.global = el('input', { type: 'radio', name: modeName, value: 'e', checked: true });
    this.local = el('input', { type: 'radio', name: modeName, value: 'E' });
    for (const radio of [this.global, this.local]) radio.addEventListener('change', () => { this.#mode(); this.#changed(); });
    this.eRow = el('div', { class: 'control-row' }, el('label', { for: eId }, 'Restitution ', tex('e')), this.e);

    this.presetNote = el('p', { class: 'small muted preset-note' });
    const presets = el('div', { class: 'presets', role: 'group', 'aria-label': 'Textbook cases' },
      PRESETS.map((p) => el('button', { type: 'button', class: 'button small', 'data-preset': p.id, text: p.title,
        on: { click: () => this.load(p) } })));

    this.panels = new ImpactPanels({ client, empty: 'Type M, A and q̇⁻, or pick a textbook case.',
      onError: (error) => this.#fail(error) });
    this.stale = el('p', { class: 'notice notice-note', hidden: true,
      text: 'The inputs have a problem (see the message above): these results are from the last inputs that worked.' });

    this.element = el('section', { class: 'matrix-lab', 'data-testid': 'matrix-lab', 'aria-labelledby': 'lab-title' },
      el('div', { class: 'lab-inputs panel' },
        el('h2', { id: 'lab-title', text: 'Matrix lab' }),
        el('p', { class: 'small', text: 'Any impact: type the inertia M, the Jacobian A of the constraints that ' +
          'are hit, and the velocity before. Everything is recomputed as you type.' }),
        el('h3', { text: 'Textbook cases' }), presets, this.presetNote,
        el('div', { class: 'sizes' },
          el('span', {}, el('label', { for: nId, text: 'n (coordinates) ' }), this.n),
          el('span', {}, el('label', { for: mId, text: 'm (constraint rows) ' }), this.m)),
        this.M.element, this.A.element, this.qd.element,
        el('fieldset', { class: 'restitution-mode' },
          el('legend', { text: 'Restitution' }),
          el('label', { class: 'check' }, this.global, ' one e for every row'),
          el('label', { class: 'check' }, this.local, ' one eᵢ per row')),
        this.eRow, this.E.element),
      el('div', { class: 'lab-results' }, this.stale, this.panels.element));
    this.#mode();
  }

  get size() {
    return { n: Number(this.n.value), m: Number(this.m.value) };
  }

  /** Loads a textbook case (every field replaced) and computes it. */
  load(preset) {
    this.n.value = String(preset.M.length);
    this.m.value = String(preset.A.length);
    this.M.setValues(preset.M);
    this.A.setValues(preset.A);
    this.qd.setValues(preset.qd);
    this.E.resize(1, preset.A.length);
    // One e for every row, or (a shared link's input) one eᵢ per row.
    if (preset.E) this.E.setValues(preset.E);
    this.e.value = String(preset.e ?? this.e.value);
    this.global.checked = !preset.E;
    this.local.checked = Boolean(preset.E);
    this.#mode();
    this.labels = { coords: preset.coords, rows: preset.rows };
    this.presetNote.textContent = preset.text;
    return this.compute();
  }

  #mode() {
    const local = this.local.checked;
    this.eRow.hidden = local;
    this.E.element.hidden = !local;
  }

  #resize() {
    const clamp = (input, lo) => {
      const v = Math.round(Number(input.value));
      const ok = Number.isFinite(v) ? Math.min(MAX_SIZE, Math.max(lo, v)) : lo;
      input.value = String(ok);
      return ok;
    };
    const n = clamp(this.n, 1);
    const m = clamp(this.m, 0);
    this.M.resize(n, n);
    this.A.resize(m, n);
    this.qd.resize(1, n);
    this.E.resize(1, m);
    this.labels = {};  // the preset's names no longer fit
    this.presetNote.textContent = '';
    this.#changed();
  }

  #changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.compute(), DEBOUNCE_MS);
  }

  /** The analyzeImpact input from the fields; throws (naming the field) when an entry is not a number. */
  input() {
    const input = { M: this.M.read(), A: this.A.read(), qd: this.qd.read() };
    if (this.local.checked) input.E = this.E.read();
    else input.e = parseEntry(this.e.value, 'e');
    return input;
  }

  /** Reads the fields and shows the engine's answer (or its error). */
  async compute() {
    clearTimeout(this.timer);
    const ticket = ++this.sequence;
    for (const grid of [this.M, this.A, this.qd, this.E]) grid.clearMarks();
    this.e.removeAttribute('aria-invalid');
    let input;
    let result;
    try {
      // Mark every entry that is not a number; then the first one is reported.
      for (const grid of [this.M, this.A, this.qd, this.local.checked ? this.E : null]) grid?.validate();
      input = this.input();
      result = await this.client.analyzeImpact(input);
    } catch (error) {
      if (ticket === this.sequence) this.#fail(error);
      return;
    }
    if (ticket !== this.sequence) return;
    this.messages.clear(SOURCE);
    this.stale.hidden = true;
    this.panels.element.classList.remove('stale');
    const fits = this.labels.coords?.length === result.n && (this.labels.rows?.length ?? 0) === result.m;
    await this.panels.show(result, { input, labels: fits ? this.labels : {} });
  }

  #fail(error) {
    this.messages.show(error, SOURCE);
    const field = /^([A-Za-z_]+(?:\[\d+\])*)\s*:/.exec(error.message)?.[1];
    if (field) {
      const name = field.replace(/\[.*$/, '');
      const grid = { M: this.M, A: this.A, qd: this.qd, E: this.E }[name];
      if (grid) grid.mark(field);
      if (name === 'e') this.e.setAttribute('aria-invalid', 'true');
    }
    if (this.panels.base) {
      this.stale.hidden = false;
      this.panels.element.classList.add('stale');
    }
  }
}
