// The paper's identities, checked on this very impact: each relative residual next to its formula.
import { el, replaceChildren } from '../widgets/dom.js';
import { formatScientific } from '../widgets/format.js';
import { tex } from '../widgets/formula.js';

/** Residuals under this are round-off. */
export const IDENTITY_TOLERANCE = 1e-9;

/** Engine key → the identity it measures (TeX). Unknown keys are shown by name. */
const IDENTITIES = {
  R2_minus_I: String.raw`R^2 = I`,
  S2_minus_S: String.raw`S^2 = S`,
  SP: String.raw`SP = 0`,
  I_minus_P_S: String.raw`(I - P)S = I - P`,
  MS_minus_StM: String.raw`MS = S^{\mathsf T}M`,
  StMS_minus_MS: String.raw`S^{\mathsf T}MS = MS`,
  I_minus_S_Minv_minus_Mo_pinv: String.raw`(I - S)M^{-1} = M_o^{+}`,
  momentum_balance: String.raw`M(\dot q^{+} - \dot q^{-}) = i_f + i_u`,
  energy_closed_form: String.raw`K^{+} - K^{-} = -\tfrac12 \dot q^{-\mathsf T}(I - \tilde E^{\mathsf T})S^{\mathsf T}MS(I + \tilde E)\dot q^{-}`,
  momentum_form: String.raw`p^{+} = \big(eR^{\mathsf T} + (1 - e)(I - S^{\mathsf T})\big)p^{-}`,
};

export class IdentityPanel {
  constructor() {
    this.body = el('tbody');
    this.element = el('section', { class: 'panel identities', 'aria-label': 'Identity residuals' },
      el('h3', { text: 'The identities, on this impact' }),
      el('p', { class: 'muted small', text: 'Relative residuals ‖left − right‖ / ‖·‖; round-off is about 10⁻¹⁶.' }),
      el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Identity residuals, scrollable' },
        el('table', { class: 'data-table identity-table' },
          el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'identity' }),
            el('th', { scope: 'col', text: 'residual' }))),
          this.body)));
  }

  update(identities = {}) {
    const keys = [...Object.keys(IDENTITIES).filter((k) => k in identities),
      ...Object.keys(identities).filter((k) => !(k in IDENTITIES))];
    replaceChildren(this.body, keys.map((key) => {
      // null (a NaN the core could not write) or infinite is no success.
      const value = identities[key];
      const ok = typeof value === 'number' && Number.isFinite(value) && value < IDENTITY_TOLERANCE;
      return el('tr', { 'data-identity': key },
        el('th', { scope: 'row' }, IDENTITIES[key] ? tex(IDENTITIES[key]) : key),
        el('td', { class: ok ? 'ok' : 'bad', 'data-value': String(value),
          'data-testid': key === 'R2_minus_I' ? 'residual-R2' : null },
        el('span', { 'aria-hidden': 'true', text: ok ? '✓ ' : '⚠ ' }),
        ok ? null : el('span', { class: 'visually-hidden', text: 'large: ' }),
        typeof value === 'number' ? formatScientific(value) : 'not a number'));
    }));
  }
}
