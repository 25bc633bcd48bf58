// Formulas typeset with KaTeX (HTML for the eye, MathML for screen readers). Only our own constant TeX
// strings are rendered; nothing a user or a scenario wrote goes through here. KaTeX (its code, styles and
// fonts) is loaded when a formula first comes into view: until then a formula is a grey placeholder, and if
// KaTeX cannot be loaded it shows its TeX source (the page's message area says why).
import { el } from './dom.js';
import { lazyModule } from './lazy-module.js';
import './lazy-content.css';

const loadKatex = lazyModule('The formula typesetter (KaTeX)', () =>
  Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([module]) => module.default));

/** The paper's formulas, by quantity, in one place so every panel writes them the same way. */
export const FORMULAS = {
  P: String.raw`P = I - A^{+}A`,
  Mc: String.raw`M_c = PMP + \nu\,(I - P)`,
  S: String.raw`S = I - M_c^{-1} P M`,
  R: String.raw`R = I - 2S`,
  E_tilde: String.raw`\tilde E = A^{+} E A`,
  Q: String.raw`Q = G^{\mathsf T} M G,\; G = S A^{+}`,
  qd_plus: String.raw`\dot q^{+} = \big(eR + (1-e)(I - S)\big)\,\dot q^{-}`,
  qd_plus_local: String.raw`\dot q^{+} = \big(R\tilde E + (I - S)(I - \tilde E)\big)\,\dot q^{-}`,
  // Coulomb friction (docs/friction.md): sticking points are plastic on their tangential rows; a slipping
  // point's impulse acts along n − μ s t (the rows B), and only the rows A_v keep a velocity law.
  qd_plus_stick: String.raw`\dot q^{+} = \big(I - S(I + \tilde E)\big)\,\dot q^{-}`,
  qd_plus_slip: String.raw`\dot q^{+} = \big(I - S_{\text{slip}}(I + \tilde E)\big)\,\dot q^{-}`,
  i_f_slip: String.raw`i_f = -M S_{\text{slip}} (I + \tilde E)\, \dot q^{-}`,
  S_slip: String.raw`S_{\text{slip}} = M^{-1}B^{\mathsf T}\,(A_v M^{-1} B^{\mathsf T})^{+} A_v`,
  gamma: String.raw`\gamma = K^{+}/K^{-}`,
  W_loss: String.raw`W_{\text{loss}} = K^{+} - K^{-} = -\tfrac12 (1-e^2)\,\dot q^{-\mathsf T} S^{\mathsf T} M S\, \dot q^{-}`,
  K: String.raw`K^{\pm} = \tfrac12\, \dot q^{\pm\mathsf T} M \dot q^{\pm}`,
  i_lambda: String.raw`i_\lambda = A^{+\mathsf T} i_f,\quad i_f = -M S (I + \tilde E)\, \dot q^{-}`,
  qmi: String.raw`\lambda_{\max}(EQE - Q) \le 0`,
  cond: String.raw`\operatorname{cond}(M_c),\ \nu \in [\lambda_{\min \ne 0}(M_o),\, \lambda_{\max}(M_o)]`,
  split: String.raw`\dot q^{-} = (I - S)\dot q^{-} + S\dot q^{-}`,
};

/** Formulas made before KaTeX was loaded, with their source, and the observer that loads it at the first in view. */
const waiting = new Map();
let observer = null;

/** Typesets `source` into `node` (which may be a placeholder). */
function typeset(katex, node, source, display) {
  node.classList.remove('formula-pending', 'formula-source');
  for (const name of ['role', 'aria-label', 'title', 'style']) node.removeAttribute(name);
  katex.render(source, node, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
}

/** Loads KaTeX and typesets every waiting formula; on failure, each shows its TeX source. */
function loadWaiting() {
  observer?.disconnect();
  observer = null;
  loadKatex().then((katex) => {
    for (const [node, { source, display }] of waiting) typeset(katex, node, source, display);
    waiting.clear();
  }, () => {
    for (const [node, { source }] of waiting) {
      node.classList.replace('formula-pending', 'formula-source');
      for (const name of ['role', 'aria-label', 'style']) node.removeAttribute(name);
      node.title = 'KaTeX could not be loaded: this is the formula\'s TeX source';
      node.textContent = source;
    }
    waiting.clear();
  });
}

/** An inline (or display) formula element. */
export function tex(source, { display = false, className = 'formula' } = {}) {
  const node = el(display ? 'div' : 'span', { class: className });
  const katex = loadKatex.loaded();
  if (katex) {
    typeset(katex, node, source, display);
    return node;
  }
  // A placeholder about as wide as the formula, typeset once KaTeX is there.
  node.classList.add('formula-pending');
  node.setAttribute('role', 'img');
  node.setAttribute('aria-label', 'formula, loading');
  node.style.setProperty('--formula-em', String(Math.min(18, Math.max(2, Math.round(source.length / 3)))));
  waiting.set(node, { source, display });
  if (typeof IntersectionObserver !== 'function') {
    loadWaiting();
  } else {
    observer ??= new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadWaiting();
    }, { rootMargin: '300px' });
    observer.observe(node);
  }
  return node;
}
