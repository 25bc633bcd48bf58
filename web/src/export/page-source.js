// What the export reads of the page, in one place: the scene drawn at a pixel ratio of its own, and the
// plots as data. Everything else it takes from the playground's viewState() and shownImpact().
//
// The scene is drawn again by its own renderer at the ratio asked for (the canvas's CSS size does not
// change, so the page's layout does not move) and put back at the screen's ratio at once. The plots are read
// from their uPlot instances (`data`, `series`, `axes`: what is drawn) and their impact and time markers.

/**
 * The scene drawn now at `pixelRatio` image pixels per CSS pixel (lowered to what the GPU can draw), as a
 * 2D canvas; and the ratio used.
 * @param {any} playground
 * @param {number} pixelRatio
 * @returns {{canvas: HTMLCanvasElement, scale: number}}
 */
export function sceneCanvas(playground, pixelRatio) {
  const scene = playground.scene;
  const renderer = scene?.renderer;
  if (!renderer) {
    const canvas = playground.snapshotScene();
    return { canvas, scale: canvas.width / Math.max(1, canvas.getBoundingClientRect?.().width || canvas.width) };
  }
  const screenRatio = renderer.getPixelRatio();
  const [width, height] = scene.size;
  const gl = renderer.getContext();
  const largest = Math.min(...gl.getParameter(gl.MAX_VIEWPORT_DIMS), gl.getParameter(gl.MAX_RENDERBUFFER_SIZE));
  let ratio = Math.min(pixelRatio, largest / Math.max(width, height));
  try {
    renderer.setPixelRatio(ratio);
    // The browser may give the drawing buffer fewer pixels than asked (its own memory limit): draw at that.
    if (gl.drawingBufferWidth < renderer.domElement.width) {
      ratio *= gl.drawingBufferWidth / renderer.domElement.width;
      renderer.setPixelRatio(ratio);
    }
    return { canvas: playground.snapshotScene(), scale: ratio };
  } finally {
    renderer.setPixelRatio(screenRatio);
    // Drawn again at once: a resized WebGL canvas is blank until its next draw.
    playground.snapshotScene();
  }
}

/** A uPlot series' colour (uPlot keeps `stroke` as a function of the plot and the series' index). */
const strokeOf = (u, series, i) => (typeof series.stroke === 'function' ? series.stroke(u, i) : series.stroke) ?? '#1d2127';

/**
 * A uPlot plot and its markers as PlotData (plot-svg.js), with `width` and `height` its CSS size.
 * @param {any} u a uPlot instance
 * @param {{impacts: {t: number, index: number}[], selected: number|null, now: number|null}} markers
 * @param {{title: string, subtitle: string}} names
 */
function plotData(u, markers, { title, subtitle }) {
  const [x, ...columns] = u.data;
  return {
    title, subtitle,
    xLabel: u.axes[0]?.label ?? '',
    yLabel: u.axes[1]?.label ?? '',
    x: Array.from(x ?? []),
    series: columns.map((values, k) => {
      const series = u.series[k + 1];
      return { label: series.label, color: strokeOf(u, series, k + 1), width: series.width, points: series.points?.show === true,
        values: Array.from(values ?? []) };
    }),
    impacts: markers.impacts.map(({ t, index }) => ({ t, index })),
    selected: markers.selected,
    now: markers.now,
    width: u.width,
    height: u.height,
  };
}

/**
 * The energy plot as PlotData with its CSS size (uPlot is loaded first if the plot was never in view); null
 * while it has no width.
 * @param {any} playground
 * @param {string} subtitle the scenario's title
 */
export async function energyPlotData(playground, subtitle) {
  if (!(await playground.energyCanvas())) return null;
  const u = playground.energy.plot();
  return u ? plotData(u, playground.energy, { title: 'Energy', subtitle }) : null;
}

/**
 * The chosen quantity's plot (the Plot panel) as PlotData with its CSS size; null while it is not drawn
 * (never scrolled into view, or nothing to plot yet).
 * @param {any} playground
 * @param {string} subtitle the scenario's title
 */
export function chosenPlotData(playground, subtitle) {
  const chosen = playground.plot;
  const u = chosen?.uplot;
  if (!u || !u.data?.[0]?.length) return null;
  return plotData(u, chosen, { title: chosen.quantity?.label ?? 'Plot', subtitle });
}
