// Formulas typeset with KaTeX (HTML for the eye, MathML for screen readers). Only our own constant TeX
// strings are rendered; nothing a user or a scenario wrote goes through here.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { el } from './dom.js';

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

/** An inline (or display) formula element. */
export function tex(source, { display = false, className = 'formula' } = {}) {
  const node = el(display ? 'div' : 'span', { class: className });
  katex.render(source, node, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
  return node;
}
