// A square map of coloured cells on a canvas (the (e₁, e₂) square of an impact, the (μ, e) plane of a
// frictional one): the canvas sized for the device's pixel ratio, cell (row, col) at index row·n + col,
// row 0 at the bottom.

/**
 * Sizes `canvas` to `size` CSS pixels and fills its resolution × resolution cells with `colourOf(index)`
 * (an [r, g, b] triple). Returns the 2D context, in CSS pixels, for what is drawn over the cells.
 * @param {HTMLCanvasElement} canvas
 * @param {number} size
 * @param {number} resolution
 * @param {(index: number) => number[]} colourOf
 * @returns {CanvasRenderingContext2D}
 */
export function drawCellGrid(canvas, size, resolution, colourOf) {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(size * dpr);
  canvas.height = Math.round(size * dpr);
  canvas.style.width = `${size}px`;
  canvas.style.height = `${size}px`;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const cell = size / resolution;
  for (let row = 0; row < resolution; row++) {
    for (let col = 0; col < resolution; col++) {
      ctx.fillStyle = `rgb(${colourOf(row * resolution + col).join(' ')})`;
      ctx.fillRect(col * cell, size - (row + 1) * cell, cell + 0.5, cell + 0.5);
    }
  }
  return ctx;
}
