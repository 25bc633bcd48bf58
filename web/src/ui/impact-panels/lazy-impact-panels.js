// The playground's panels of an impact, with their code loaded at the first impact they show: until then
// the first screen draws only the note "No impact yet". It has the interface of ImpactPanels that the
// playground uses; what is set before the code is there (ν, the third matrix, the note) is kept and handed
// over. If the code cannot be loaded, the note says so (and the message area, through lazy-module.js), and
// the next impact tries again.
import { el } from '../widgets/dom.js';
import { lazyModule } from '../widgets/lazy-module.js';

const loadPanels = lazyModule('The panels of an impact', () => import('./impact-panels.js'));

export class LazyImpactPanels {
  /** @param {ConstructorParameters<typeof import('./impact-panels.js').ImpactPanels>[0]} options */
  constructor(options) {
    this.options = options;
    this.real = null;
    this.nu = null;
    this.choice = 'P';
    this.emptyText = options.empty;
    this.note = el('p', { class: 'empty-note', text: options.empty });
    this.element = el('div', { class: 'impact-panels-slot' }, this.note);
    const owner = this;
    // The matrix panel's choice (P, Mc, Ẽ or Q), which a share link reads and sets.
    this.matrices = {
      get choice() { return owner.real ? owner.real.matrices.choice : owner.choice; },
      setChoice(key) {
        owner.choice = key;
        owner.real?.matrices.setChoice(key);
      },
    };
  }

  /** The panels, loaded and built once. */
  async #panels() {
    if (this.real) return this.real;
    const { ImpactPanels } = await loadPanels();
    if (!this.real) {
      this.real = new ImpactPanels({ ...this.options, empty: this.emptyText });
      this.real.resetNu(this.nu);
      this.real.matrices.setChoice(this.choice);
      this.element.replaceChildren(this.real.element);
    }
    return this.real;
  }

  /** Shows an impact (ImpactPanels.show), loading the panels first. */
  async show(base, options) {
    let panels;
    try {
      panels = await this.#panels();
    } catch (error) {
      this.note.textContent = `The panels of this impact could not be loaded (${error.message}); the next impact tries again.`;
      return;
    }
    await panels.show(base, options);
  }

  setEmptyNote(text) {
    this.emptyText = text;
    this.note.textContent = text;
    this.real?.setEmptyNote(text);
  }

  clear() {
    if (this.real) this.real.clear();
    else this.note.textContent = this.emptyText;
  }

  /** No panels, and `text` in their place (ImpactPanels.showUnavailable). */
  showUnavailable(text) {
    if (this.real) this.real.showUnavailable(text);
    else this.note.textContent = text;
  }

  resetNu(nu = null) {
    this.nu = nu;
    this.real?.resetNu(nu);
  }

  showNu(nu = null) {
    if (this.real) return this.real.showNu(nu);
    this.nu = nu;
    return undefined;
  }
}
