// Every panel of one impact, used by the playground (the selected impact of the run) and by the matrix lab
// (the typed-in impact): energy and impulses, the velocity picture, S and R (P, Mc, Ẽ, Q a click away),
// ν and cond(Mc), the identity residuals and, for two rows, the energetic-consistency square.
import { ConsistencyMap, MAP_RESOLUTION } from './consistency-map.js';
import { el } from '../widgets/dom.js';
import { formatNumber } from '../widgets/format.js';
import { IdentityPanel } from './identities.js';
import { ImpactSummary } from './impact-summary.js';
import { ImpulseTable } from './impulse-table.js';
import { MatrixPanel } from './matrix-panel.js';
import { CURVE_NUS, NuPanel } from './nu-panel.js';
import { VelocityPicture } from './velocity-picture.js';

export class ImpactPanels {
  /**
   * @param {{client: import('../../worker/client.js').SimulationClient, onNu?: (nu: number|null) => void,
   *          onError?: (error: Error) => void, empty: string}} options
   */
  constructor({ client, onNu, onError, empty }) {
    this.client = client;
    this.onNu = onNu ?? (() => {});
    this.onError = onError ?? ((error) => console.warn(error));
    this.nu = null;
    this.base = null;
    this.sequence = 0;
    this.mapCache = { key: null, value: null };
    this.summary = new ImpactSummary();
    this.impulses = new ImpulseTable();
    this.picture = new VelocityPicture();
    this.matrices = new MatrixPanel();
    this.nuPanel = new NuPanel({ onChange: (nu) => this.setNu(nu) });
    this.identities = new IdentityPanel();
    this.consistency = new ConsistencyMap();
    this.emptyText = empty;
    this.emptyNote = el('p', { class: 'empty-note', text: empty });
    this.content = el('div', { class: 'impact-panels-grid' },
      this.summary.element, this.matrices.element, this.picture.element, this.impulses.element,
      this.consistency.element, this.nuPanel.element, this.identities.element);
    this.element = el('div', { class: 'impact-panels' }, this.emptyNote, this.content);
    this.content.hidden = true;
  }

  /**
   * Shows an impact. `base` is a record (which carries its own analyzeImpact input: M, A, q̇⁻, E, i_u and
   * the unilateral rows) or an analyzeImpact output with its `input`. Other values of ν, and the curve
   * cond(Mc) against ν, are computed by the engine. `context` {restSpeed}, the scenario's rest speed,
   * explains the plastic rows of a record that does not carry its points' own `rest_speeds`.
   */
  show(base, { labels = {}, input = null, context = {} } = {}) {
    this.base = base;
    this.labels = labels;
    this.context = context;
    this.input = input ?? { M: base.M, A: base.A, qd: base.qd_minus, E: base.restitution,
      ...(base.iu ? { iu: base.iu } : {}), ...(base.unilateral ? { unilateral: base.unilateral } : {}) };
    this.curve = null;
    this.emptyNote.hidden = true;
    this.content.hidden = false;
    this.#consistency(base);
    return this.#refresh();
  }

  /** The text shown while there is no impact. */
  setEmptyNote(text) {
    this.emptyText = text;
    this.emptyNote.textContent = text;
  }

  /** Back to the empty note. */
  clear() {
    this.showUnavailable(this.emptyText);
  }

  /** No panels, and `text` in their place (why an impact's panels cannot be shown). */
  showUnavailable(text) {
    this.base = null;
    this.sequence += 1;
    this.emptyNote.textContent = text;
    this.emptyNote.hidden = false;
    this.content.hidden = true;
  }

  /** Sets the ν shown without telling the owner: a new run starts with its scenario's (null = optimal). */
  resetNu(nu = null) {
    this.nu = nu;
  }

  /** Sets the ν shown (null = optimal) without telling the owner, and shows the impact at it. */
  showNu(nu = null) {
    if (nu === this.nu) return undefined;
    this.nu = nu;
    return this.#refresh();
  }

  /** Sets the virtual mass shown (null = optimal) and tells the owner. */
  setNu(nu) {
    this.nu = nu;
    this.onNu(nu);
    return this.#refresh();
  }

  async #refresh() {
    const base = this.base;
    if (!base) return;
    const ticket = ++this.sequence;
    let display = base;
    try {
      display = await this.#atNu(base);
    } catch (error) {
      // The record as computed is still shown: only the other ν is missing.
      this.onError(Object.assign(new Error(`the impact cannot be solved again at ν = ${formatNumber(this.nu ?? base.nu_optimal, 4)}: ` +
        `${error.message}. The panels show it at its own ν = ${formatNumber(base.nu, 4)}.`), { kind: 'warning' }));
    }
    // The curve cond(Mc)(ν) of this M and A, once per impact; the rest of the panels do without it.
    let unavailable = '';
    if (!this.curve && base.rank > 0 && base.rank < base.n) {
      try {
        this.curve = await this.client.conditionCurve(this.input, CURVE_NUS);
      } catch (error) {
        unavailable = error.message;
      }
    }
    if (ticket !== this.sequence) return;  // a newer impact or ν arrived meanwhile
    this.summary.update(display, this.labels, this.context);
    this.impulses.update(display, this.labels);
    this.picture.update(display);
    this.matrices.update(display, this.labels, { A: this.input.A });
    this.nuPanel.update(display, base, this.nu, this.curve, unavailable);
    this.identities.update(display.identities);
  }

  /** The impact at the chosen ν (null: the optimal one), solved by the engine; `base` when that is its own ν. */
  async #atNu(base) {
    const target = this.nu ?? base.nu_optimal;
    if (Math.abs(target - base.nu) <= 1e-9 * base.nu) return base;
    const display = await this.client.analyzeImpact({ ...this.input, nu: target });
    // What the record adds to the analysis (the time, the contacts, what was set for them) stays.
    return { ...base, ...display };
  }

  async #consistency(base) {
    const Q = base.Q;
    // The two coefficients a student can set: a simulated impact's two contact (normal) rows, whatever
    // joint or stick rows Q also has (their e stays 0); in the lab, the two rows of a 2×2 Q.
    const rows = base.normal_rows ?? (Q?.length === 2 ? [0, 1] : null);
    if (!Q || !rows || rows.length !== 2 || !base.restitution) {
      this.consistency.hide();
      return;
    }
    const key = JSON.stringify([Q, rows, base.restitution]);
    try {
      if (this.mapCache.key !== key) {
        this.mapCache = {
          key, value: await this.client.energyConsistencyMap(Q, MAP_RESOLUTION, { rows, restitution: base.restitution }),
        };
      }
      if (this.base !== base) return;
      const names = this.labels.rows ?? [];
      this.consistency.show(this.mapCache.value, rows.map((r) => base.restitution[r]), base.energy_consistent,
        rows.map((r) => names[r]));
    } catch (error) {
      this.consistency.hide();
      this.onError(error);
    }
  }
}
