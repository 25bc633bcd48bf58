// Where a new body can go: a point of the region shown where a body of a given size overlaps no other body
// and lies on the free side of every plane (so that the scenario starts without an overlap the engine would
// refuse), the one nearest to the middle of the view. Bodies are taken by their bounding circles, a
// little larger than some shapes: the spot found is free for the shapes themselves too. Pure.

/**
 * @param {{rect: {left: number, right: number, bottom: number, top: number}, radius: number,
 *   bodies: {position: number[], radius: number}[], planes: {point: number[], normal: number[]}[],
 *   margin: number, round?: (x: number) => number}} space  `radius` the new body's bounding radius, `margin`
 *   the clearance kept to the others, `round` what a coordinate is written as (the grid of the editor)
 * @returns {[number, number]|null} the spot, or null when the region shown has none
 */
export function freeSpot({ rect, radius, bodies, planes, margin, round = (x) => x }) {
  const inset = radius + margin;
  const width = rect.right - rect.left - 2 * inset;
  const height = rect.top - rect.bottom - 2 * inset;
  if (!(width >= 0 && height >= 0)) return null;
  const centre = [(rect.left + rect.right) / 2, (rect.bottom + rect.top) / 2];
  // A grid over the region, finer than the body: a gap a little wider than it is found.
  const step = Math.max(radius / 2, Math.max(width, height) / 200, 1e-9);
  const columns = Math.floor(width / step) + 1;
  const rows = Math.floor(height / step) + 1;
  const candidates = [];
  for (let i = 0; i < columns; i++) {
    for (let j = 0; j < rows; j++) {
      const x = round(rect.left + inset + i * step);
      const y = round(rect.bottom + inset + j * step);
      candidates.push([x, y, (x - centre[0]) ** 2 + (y - centre[1]) ** 2]);
    }
  }
  candidates.sort((a, b) => a[2] - b[2]);
  const unitPlanes = planes.map(({ point, normal }) => {
    const length = Math.hypot(normal[0], normal[1]) || 1;
    return { point, normal: [normal[0] / length, normal[1] / length] };
  });
  const clear = ([x, y]) => x - inset >= rect.left - 1e-12 && x + inset <= rect.right + 1e-12 &&
    y - inset >= rect.bottom - 1e-12 && y + inset <= rect.top + 1e-12 &&
    bodies.every((b) => Math.hypot(b.position[0] - x, b.position[1] - y) >= b.radius + inset) &&
    unitPlanes.every(({ point, normal }) => normal[0] * (x - point[0]) + normal[1] * (y - point[1]) >= inset);
  const found = candidates.find(clear);
  return found ? [found[0], found[1]] : null;
}
