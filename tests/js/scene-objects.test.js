// The scene's impulse arrows come and go with the impacts (dozens a second at 16×). A material of their own,
// freed with them, let the renderer free its WebGL program once no arrow was left, and the next impact
// compiled it again: the page's main thread spent most of its time compiling. Their materials are shared and
// never freed; here without WebGL, on the objects themselves.
import { describe, expect, it } from 'vitest';
import { arrowObject, disposeObject, setArrowFade } from '../../web/src/ui/playground/scene-objects.js';

const parts = (arrow) => [arrow.userData.fill.material, arrow.userData.edge.material];

describe('impulse arrows', () => {
  it('share their materials: arrows of different impacts at the same fade draw with the same ones', () => {
    const first = arrowObject([0, 0], [0, 1], 0.2, 0.01);
    const second = arrowObject([1, 2], [1, 0], 0.05, 0.002);
    parts(second).forEach((material, k) => expect(material).toBe(parts(first)[k]));
    setArrowFade(first, 0.5);
    setArrowFade(second, 0.5);
    parts(second).forEach((material, k) => expect(material).toBe(parts(first)[k]));
    // Fading changes the opacity (from the fresh arrow's down to none), through the shared materials.
    const fresh = arrowObject([0, 0], [0, 1], 0.2, 0.01);
    expect(first.userData.fill.material.opacity).toBeLessThan(fresh.userData.fill.material.opacity);
    expect(first.userData.fill.material.opacity).toBeGreaterThan(0);
    setArrowFade(first, 0);
    expect(parts(first).map((m) => m.opacity)).toEqual([0, 0]);
  });

  it('are freed without their materials, which the next arrows still use', () => {
    const arrow = arrowObject([0, 0], [0, 1], 0.2, 0.01);
    const disposed = [];
    for (const material of parts(arrow)) material.addEventListener('dispose', () => disposed.push(material));
    let geometries = 0;
    arrow.traverse((node) => node.geometry?.addEventListener('dispose', () => { geometries += 1; }));
    disposeObject(arrow);
    expect(geometries).toBe(2);
    expect(disposed).toEqual([]);
    parts(arrowObject([0, 0], [1, 0], 0.1, 0.01)).forEach((material, k) => expect(material).toBe(parts(arrow)[k]));
  });
});
