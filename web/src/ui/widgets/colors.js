// Colours shared by the scene, the heatmaps and the plots. The diverging scale is ColorBrewer's RdBu
// (blue negative, near-white zero, red positive), readable by most colour-vision deficiencies.

const RDBU = ['#2166ac', '#4393c3', '#92c5de', '#d1e5f0', '#f7f7f7', '#fddbc7', '#f4a582', '#d6604d', '#b2182b'];
const STOPS = RDBU.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

/** RGB triple (0–255) for t in [−1, 1] on the diverging scale (clamped). */
export function divergingRgb(t) {
  const x = (Math.max(-1, Math.min(1, Number.isFinite(t) ? t : 0)) + 1) / 2 * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  return STOPS[i].map((c, k) => Math.round(c + (STOPS[i + 1][k] - c) * f));
}

/** CSS colour for t in [−1, 1]. */
export function diverging(t) {
  const [r, g, b] = divergingRgb(t);
  return `rgb(${r} ${g} ${b})`;
}

/** Black or white, whichever reads better on the RGB background (WCAG relative luminance). */
export function textOn([r, g, b]) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return luminance > 0.22 ? '#111' : '#fff';
}

/** Contact-point states, as the engine names them. */
export const CONTACT_COLORS = {
  inactive: '#8a8f98',
  active: '#1a7f4b',
  impacting: '#d9480f',
  /** An active frictional point that slides (a sticking one is `active`); its friction arrow too. */
  sliding: '#b45309',
};

/** Body colours used when a scenario leaves `color` empty (Okabe–Ito, colour-blind safe). */
export const BODY_PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442'];

/** Energy plot series. */
export const ENERGY_COLORS = { kinetic: '#0072b2', potential: '#009e73', total: '#222831', impact: '#d9480f' };
