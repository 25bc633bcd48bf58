// Images for slides and lecture notes, at twice the screen's resolution at least: the scene as drawn, with
// a caption line (title and time), and the plots, drawn as SVG (plot-svg.js) and rasterised from it, so
// that the PNG and the SVG are one drawing. Text from a scenario is drawn on the canvas as text, never parsed.

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

/** How many image pixels an exported image gives each CSS pixel: twice the screen's own, at least 2. */
export function exportPixelRatio() {
  return 2 * Math.max(1, window.devicePixelRatio || 1);
}

/** A canvas `source` with a white band of text lines above or below it, drawn at `scale` pixels per CSS px. */
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
    for (const { text, color = '#1d2127', bold = false } of [parts].flat()) {
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

/**
 * The scene with a caption: "Oblique · title · t = … s". `sceneCanvas` is the scene drawn at `scale`
 * image pixels per CSS pixel; the caption is drawn at the same scale.
 */
export function sceneImage(sceneCanvas, { title, time }, scale) {
  return withCaption(sceneCanvas, { scale,
    below: [[{ text: 'Oblique', bold: true }, { text: title || 'Untitled scenario' }, { text: `t = ${time.toFixed(3)} s`, color: '#565e69' }]] });
}

/**
 * An SVG document drawn on a canvas at `scale` image pixels per CSS pixel of its width and height.
 * @param {string} svgText
 * @param {number} scale
 * @returns {Promise<HTMLCanvasElement>}
 */
export async function rasterizeSvg(svgText, scale) {
  const size = /<svg[^>]*\swidth="(\d+(?:\.\d+)?)"[^>]*\sheight="(\d+(?:\.\d+)?)"/.exec(svgText);
  if (!size) throw new Error('the plot could not be drawn (an SVG without a size)');
  const [width, height] = [Number(size[1]), Number(size[2])];
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const out = document.createElement('canvas');
    out.width = Math.round(width * scale);
    out.height = Math.round(height * scale);
    const ctx = out.getContext('2d');
    ctx.drawImage(image, 0, 0, out.width, out.height);
    return out;
  } finally {
    URL.revokeObjectURL(url);
  }
}
