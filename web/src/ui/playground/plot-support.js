// What the run's plots (uPlot) share: the impact lines (the chosen one darker), a line at the time shown,
// picking an impact by clicking near its line, and a width that follows the panel.
import uPlot from 'uplot';
import { ENERGY_COLORS } from '../widgets/colors.js';

/** Pixels from an impact line within which a click picks that impact. */
const PICK_PX = 6;

/**
 * A uPlot draw hook: a vertical line at each impact time (`plot.impacts`: [{t, index}]), the impact
 * `plot.selected` bolder, and a dashed line at the time shown (`plot.now`).
 */
export function drawMarkers(plot) {
  return (u) => {
    const { ctx } = u;
    const { top, height, left, width } = u.bbox;
    const line = (t, style) => {
      const x = Math.round(u.valToPos(t, 'x', true)) + 0.5;
      if (!(x >= left && x <= left + width)) return;
      ctx.strokeStyle = style.color;
      ctx.globalAlpha = style.alpha;
      ctx.lineWidth = style.width * uPlot.pxRatio;
      ctx.setLineDash(style.dash ?? []);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    };
    ctx.save();
    for (const { t, index } of plot.impacts) {
      const chosen = index === plot.selected;
      line(t, { color: ENERGY_COLORS.impact, alpha: chosen ? 1 : 0.45, width: chosen ? 2.5 : 1 });
    }
    if (plot.now !== null && plot.now !== undefined) {
      line(plot.now, { color: '#1d2127', alpha: 0.8, width: 1.5, dash: [4 * uPlot.pxRatio, 3 * uPlot.pxRatio] });
    }
    ctx.restore();
  };
}

/** The impact whose line is nearest to the pointer at `clientX` on plot `u`, within PICK_PX; else null. */
export function impactAt(u, clientX, impacts) {
  const box = u.over.getBoundingClientRect();
  const x = clientX - box.left;
  let best = null;
  let gap = PICK_PX;
  for (const impact of impacts) {
    const d = Math.abs(u.valToPos(impact.t, 'x') - x);
    if (d <= gap) {
      gap = d;
      best = impact;
    }
  }
  return best;
}

/** Creates the plot once `holder` has a width, and resizes it with the panel. */
export function followWidth(holder, height, create) {
  let plot = null;
  const resize = () => {
    const width = Math.floor(holder.getBoundingClientRect().width);
    if (width < 50) return;
    if (!plot) plot = create(width);
    else plot.setSize({ width, height });
  };
  new ResizeObserver(resize).observe(holder);
  return () => plot;
}

/** Axis style shared by the plots: ≥ 12 px labels, light grid. */
export function axis(label, size) {
  return { label, size, labelSize: 20, font: '12px system-ui, sans-serif', labelFont: '12px system-ui, sans-serif',
    stroke: '#444', grid: { stroke: '#eee' } };
}
