// Friction in a run, as a student sees it (docs/friction.md): Kane's double pendulum logs its first impact
// as sticking, with its μ and critical μ, and flags the energy it gains (Kane's paradox); the disk thrown
// spinning backwards shows its contact point sliding (its own colour and a friction arrow; the scene's
// description counts the sliding points) until the slip stops and it rolls back. Screenshots of both.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOTS, launch, openApp, openPage } from './browser.js';

let browser;
let page;

const logRows = () => page.locator('[data-testid="impact-log"] tbody tr');
const canvasLabel = () => page.locator('#view-playground canvas').first().getAttribute('aria-label');

async function pause() {
  if ((await page.getByTestId('play').getAttribute('data-state')) === 'playing') await page.getByTestId('play').click();
  await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
}

/** Picks scenario `id`, paused at t = 0. */
async function open(id) {
  await page.getByTestId('scenario-select').selectOption(id);
  await page.waitForSelector(`.playground[data-scenario="${id}"]`);
  await pause();
  await page.getByTestId('reset').click();
  await expect.poll(() => page.locator('.scene-status').textContent()).toMatch(/^t = 0\.00 s/);
}

beforeAll(async () => {
  browser = await launch();
  page = await openPage(browser);
  await openApp(page, inject('baseUrl'));
});

afterAll(async () => {
  await browser?.close();
});

describe('friction in the playground', () => {
  it('logs the mode of Kane’s pendulum’s first impact and flags its energy gain', async () => {
    await open('kane-pendulum');
    // The first impact happens at t = 0 (the end starts on the floor, approaching).
    await expect.poll(() => logRows().count()).toBeGreaterThan(0);
    const first = logRows().last();
    const notes = await first.getByTestId('log-notes').textContent();
    expect(notes).toMatch(/energy gained \(Kane’s paradox\)/);
    expect(notes).toMatch(/stick \(μ = 0\.5, μ_crit = 0\.218\)/);
    expect(await first.getAttribute('class')).toMatch(/flagged/);
    await page.screenshot({ path: `${SCREENSHOTS}friction-kane-log.png`, fullPage: true });
  });

  it('shows the backspinning disk’s contact sliding, then rolling', async () => {
    await open('backspin-disk');
    await page.getByTestId('play').click();
    // While it skids (t < 1.25 s) its one contact point slides.
    await expect.poll(canvasLabel).toMatch(/1 of 1 contact points touching \(1 sliding\)/);
    await page.locator('#view-playground canvas').first().screenshot({ path: `${SCREENSHOTS}friction-backspin-sliding.png` });
    // After the slip stops it rolls back: touching, no longer sliding.
    await expect.poll(canvasLabel, { timeout: 20_000 }).toMatch(/at t = (1\.[3-9]|[2-9])\d* s; 1 of 1 contact points touching;/);
    await pause();
    await page.locator('#view-playground canvas').first().screenshot({ path: `${SCREENSHOTS}friction-backspin-rolling.png` });
  });
});
