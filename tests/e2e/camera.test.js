// The camera keeps every body of every built-in scenario in view: each runs for 30 s of simulated time
// (going on past its duration, at 16×) with "Follow the bodies" on, and at every draw every body must lie
// wholly inside the camera's rectangle (the scene's data-outside counts the draws where one did not).
// A screenshot of each at 30 s; and the manual view: a drag stops following, ⤢ frames the bodies again.
// The built-ins run two at a time, each on a page of its own (PAGES; tests/e2e/vitest.config.js lets two
// concurrent tests run): a page waits on its worker or on its draws, and the other page uses that time. The
// largest scenarios (most bodies) start first, so that no long run is left alone at the end. A page that
// falls behind 16× only draws more often per simulated second: the check is never coarser.
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { scenarioIndex, loadScenario } from '../js/scenarios.js';
import { SCREENSHOTS, chooseScenario, launch, openApp, openPage } from './browser.js';

const RUN = 30;
/**
 * Wall-clock room for one run to reach RUN: a guard against a page that stops, not a speed target. The pile
 * of 30 plays at a fraction of real time while it settles (docs/limits.md), about 50 s for its 30 s alone on
 * a 2-core machine and twice that beside another page.
 */
const RUN_WALL_MS = 200_000;
const PAGES = 2;
let browser;
const pages = [];
const idle = [];
const waiting = [];

const shownTime = async (page) => Number((await page.locator('.scene-status').textContent()).match(/t = ([\d.]+)/)[1]);
const scene = (page) => page.locator('.scene');

/** A page of the pool for one test (the next free one), and its return. */
function acquire() {
  return idle.length ? Promise.resolve(idle.pop()) : new Promise((resolve) => waiting.push(resolve));
}
function release(page) {
  const next = waiting.shift();
  if (next) next(page);
  else idle.push(page);
}

async function pause(page, expect) {
  if ((await page.getByTestId('play').getAttribute('data-state')) === 'playing') await page.getByTestId('play').click();
  await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
}

beforeAll(async () => {
  browser = await launch();
  for (let i = 0; i < PAGES; i++) {
    const page = await openPage(browser, { reducedMotion: 'reduce' });
    await openApp(page, inject('baseUrl'));
    await page.getByTestId('end-mode').selectOption('continue');
    await page.getByTestId('speed').fill('7');  // 16×
    pages.push(page);
    idle.push(page);
  }
});

afterAll(async () => {
  await browser?.close();
});

// The built-ins, most bodies first (the longest runs), in index order among equals.
const builtIns = scenarioIndex().map(({ id }, index) => ({ id, index, bodies: loadScenario(id).bodies.length }))
  .sort((a, b) => b.bodies - a.bodies || a.index - b.index);

describe.concurrent('camera', () => {
  for (const { id } of builtIns) {
    it(`keeps every body of ${id} in view for ${RUN} s`, async ({ expect }) => {
      const page = await acquire();
      try {
        await chooseScenario(page, id);
        await pause(page, expect);
        await page.getByTestId('reset').click();
        await expect.poll(() => shownTime(page)).toBe(0);
        expect(await page.getByTestId('follow').isChecked()).toBe(true);
        const framesBefore = Number(await scene(page).getAttribute('data-frames') ?? 0);
        const outsideBefore = Number(await scene(page).getAttribute('data-outside') ?? 0);
        await page.getByTestId('play').click();
        await expect.poll(() => shownTime(page), { timeout: RUN_WALL_MS, interval: 250 }).toBeGreaterThanOrEqual(RUN);
        await pause(page, expect);
        await page.waitForTimeout(100);
        const frames = Number(await scene(page).getAttribute('data-frames')) - framesBefore;
        const outside = Number(await scene(page).getAttribute('data-outside')) - outsideBefore;
        expect(frames).toBeGreaterThan(10);
        expect(outside, `${outside} of ${frames} draws had a body out of view`).toBe(0);
        // The last draw: every body inside the camera's rectangle. Its view and positions are read together:
        // a draw can still come after the pause (the tick in flight), and two reads could straddle it.
        const [view, positions] = await scene(page).evaluate((node) => [node.dataset.view, node.dataset.positions]);
        const [left, bottom, right, top] = view.split(' ').map(Number);
        const q = JSON.parse(positions);
        for (let i = 0; i < q.length / 3; i++) {
          expect(q[3 * i]).toBeGreaterThan(left);
          expect(q[3 * i]).toBeLessThan(right);
          expect(q[3 * i + 1]).toBeGreaterThan(bottom);
          expect(q[3 * i + 1]).toBeLessThan(top);
        }
        await page.locator('.scene-figure').screenshot({ path: `${SCREENSHOTS}camera-${id}-30s.png` });
      } finally {
        release(page);
      }
    }, RUN_WALL_MS + 60_000);
  }
});

describe('camera, by hand', () => {
  it('stops following on a drag, and frames the bodies again with ⤢', async ({ expect }) => {
    const page = pages[0];
    const canvas = page.getByTestId('scene');
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await page.getByTestId('follow').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Frame the bodies' }).click();
    await page.waitForTimeout(100);
    const [left, bottom, right, top] = (await scene(page).getAttribute('data-view')).split(' ').map(Number);
    const q = JSON.parse(await scene(page).getAttribute('data-positions'));
    for (let i = 0; i < q.length / 3; i++) {
      expect(q[3 * i]).toBeGreaterThan(left);
      expect(q[3 * i]).toBeLessThan(right);
      expect(q[3 * i + 1]).toBeGreaterThan(bottom);
      expect(q[3 * i + 1]).toBeLessThan(top);
    }
    await page.getByTestId('follow').check();
    for (const each of pages) expect(each.problems).toEqual([]);
  });
});
