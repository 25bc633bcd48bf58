// PNG images for slides and lecture notes: the scene as drawn, with a caption line (title and time), and the
// energy plot with its title and legend (uPlot draws the curves and axes on its canvas; the legend is HTML,
// so it is drawn again here). Text from a scenario is drawn on the canvas as text, never parsed.
import { ENERGY_COLORS } from '../ui/widgets/colors.js';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

/** A canvas `source` with a white band of text lines above or below it. */
function withCaption(source, { above = [], below = [], scale = 1 }) {
  const line = Math.round(22 * scale);
  const out = document.createElement('canvas');
  out.width = source.width;
  out.height = source.height + line * (above.length + below.length) + Math.round(8 * scale);
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(source, 0, line * above.length);
  ctx.textBaseline = 'middle';
  const write = (items, top) => items.forEach((parts, k) => {
    let x = Math.round(10 * scale);
    for (const { text, color = '#1d2127', bold = false, swatch } of [parts].flat()) {
      if (swatch) {
        ctx.fillStyle = swatch;
        ctx.fillRect(x, top + line * k + line / 2 - 2 * scale, 18 * scale, 4 * scale);
        x += 24 * scale;
      }
      ctx.font = `${bold ? '600 ' : ''}${Math.round(14 * scale)}px ${FONT}`;
      ctx.fillStyle = color;
      ctx.fillText(text, x, top + line * k + line / 2);
      x += ctx.measureText(text).width + 16 * scale;
    }
  });
  write(above, 0);
  write(below, line * above.length + source.height + Math.round(4 * scale));
  return out;
}

/** The canvas as a PNG Blob. */
export function pngBlob(canvas) {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the image could not be made'))), 'image/png'));
}

/** The scene with a caption: "Oblique · title · t = … s". */
export function sceneImage(sceneCanvas, { title, time }) {
  const scale = window.devicePixelRatio || 1;
  return withCaption(sceneCanvas, { scale,
    below: [[{ text: 'Oblique', bold: true }, { text: title || 'Untitled scenario' }, { text: `t = ${time.toFixed(3)} s`, color: '#565e69' }]] });
}

/** The energy plot with a title line and its legend. */
export function energyImage(plotCanvas, { title }) {
  const scale = plotCanvas.width / Math.max(1, plotCanvas.getBoundingClientRect().width || plotCanvas.width);
  return withCaption(plotCanvas, { scale,
    above: [[{ text: 'Energy', bold: true }, { text: title || 'Untitled scenario', color: '#565e69' }]],
    below: [[{ text: 'kinetic', swatch: ENERGY_COLORS.kinetic }, { text: 'potential', swatch: ENERGY_COLORS.potential },
      { text: 'total', swatch: ENERGY_COLORS.total }, { text: 'impacts', swatch: ENERGY_COLORS.impact }]] });
}
