// The camera keeps every body of every built-in scenario in view: each runs for 30 s of simulated time
// (going on past its duration, at 16×) with "Follow the bodies" on, and at every draw every body must lie
// wholly inside the camera's rectangle (the scene's data-outside counts the draws where one did not).
// A screenshot of each at 30 s; and the manual view: a drag stops following, ⤢ frames the bodies again.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scenarioIndex } from '../js/scenarios.js';
import { SCREENSHOTS, launch, openApp, openPage } from './browser.js';

const RUN = 30;
let browser;
let page;

const shownTime = async () => Number((await page.locator('.scene-status').textContent()).match(/t = ([\d.]+)/)[1]);
const scene = () => page.locator('.scene');

async function pause() {
  if ((await page.getByTestId('play').getAttribute('data-state')) === 'playing') await page.getByTestId('play').click();
  await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
}

beforeAll(async () => {
  browser = await launch();
  page = await openPage(browser, { reducedMotion: 'reduce' });
  await openApp(page, inject('baseUrl'));
  await page.getByTestId('end-mode').selectOption('continue');
  await page.getByTestId('speed').fill('7');  // 16×
});

afterAll(async () => {
  await browser?.close();
});

describe('camera', () => {
  for (const { id } of scenarioIndex()) {
    it(`keeps every body of ${id} in view for ${RUN} s`, async () => {
      await page.getByTestId('scenario-select').selectOption(id);
      await page.waitForSelector(`.playground[data-scenario="${id}"]`);
      await pause();
      await page.getByTestId('reset').click();
      await expect.poll(shownTime).toBe(0);
      expect(await page.getByTestId('follow').isChecked()).toBe(true);
      const framesBefore = Number(await scene().getAttribute('data-frames') ?? 0);
      const outsideBefore = Number(await scene().getAttribute('data-outside') ?? 0);
      await page.getByTestId('play').click();
      await expect.poll(shownTime, { timeout: 50_000, interval: 250 }).toBeGreaterThanOrEqual(RUN);
      await pause();
      await page.waitForTimeout(100);
      const frames = Number(await scene().getAttribute('data-frames')) - framesBefore;
      const outside = Number(await scene().getAttribute('data-outside')) - outsideBefore;
      expect(frames).toBeGreaterThan(10);
      expect(outside, `${outside} of ${frames} draws had a body out of view`).toBe(0);
      // The last draw: every body inside the camera's rectangle.
      const [left, bottom, right, top] = (await scene().getAttribute('data-view')).split(' ').map(Number);
      const q = JSON.parse(await scene().getAttribute('data-positions'));
      for (let i = 0; i < q.length / 3; i++) {
        expect(q[3 * i]).toBeGreaterThan(left);
        expect(q[3 * i]).toBeLessThan(right);
        expect(q[3 * i + 1]).toBeGreaterThan(bottom);
        expect(q[3 * i + 1]).toBeLessThan(top);
      }
      await page.locator('.scene-figure').screenshot({ path: `${SCREENSHOTS}camera-${id}-30s.png` });
    });
  }

  it('stops following on a drag, and frames the bodies again with ⤢', async () => {
    const canvas = page.getByTestId('scene');
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await page.getByTestId('follow').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Frame the bodies' }).click();
    await page.waitForTimeout(100);
    const [left, bottom, right, top] = (await scene().getAttribute('data-view')).split(' ').map(Number);
    const q = JSON.parse(await scene().getAttribute('data-positions'));
    for (let i = 0; i < q.length / 3; i++) {
      expect(q[3 * i]).toBeGreaterThan(left);
      expect(q[3 * i]).toBeLessThan(right);
      expect(q[3 * i + 1]).toBeGreaterThan(bottom);
      expect(q[3 * i + 1]).toBeLessThan(top);
    }
    await page.getByTestId('follow').check();
    expect(page.problems).toEqual([]);
  });
});
