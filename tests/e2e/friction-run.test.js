// Friction in a run, as a student sees it (docs/friction.md): Kane's double pendulum logs its first impact
// as sticking, with its μ and critical μ, and flags the energy it gains (Kane's paradox); the disk thrown
// spinning backwards shows its contact point sliding (its own colour and a friction arrow; the scene's
// description counts the sliding points) until the slip stops and it rolls back; the μ control of the
// restitution panel changes the incline block's run (μ = 0.7 > tan 25° holds it, μ = 0.1 lets it slide),
// names a bad value and keeps the engine's, and a share link reproduces a run with a change of μ on the way.
// Screenshots of each.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOTS, chooseScenario, launch, openApp, openPage } from './browser.js';

let browser;
let page;

const logRows = () => page.locator('[data-testid="impact-log"] tbody tr');
const canvasLabel = () => page.locator('#view-playground canvas').first().getAttribute('aria-label');
/** The block's drawn x, y, θ (the scene's data-positions). */
const drawnPositions = (p = page) => p.locator('.scene').first().getAttribute('data-positions').then((text) => JSON.parse(text));

/** Types `text` into the μ field of every contact and presses Enter. */
async function typeMu(text) {
  await page.getByTestId('friction-all').fill(text);
  await page.getByTestId('friction-all').press('Enter');
}

/** Plays for about `seconds` of simulated time from where the run stands, then pauses. */
async function playFor(seconds) {
  const start = Number((await page.locator('.scene-status').textContent()).match(/^t = ([\d.]+) s/)[1]);
  await page.getByTestId('play').click();
  await expect.poll(async () => Number((await page.locator('.scene-status').textContent()).match(/^t = ([\d.]+) s/)[1]),
    { timeout: 20_000 }).toBeGreaterThan(start + seconds);
  await pause();
}

async function pause() {
  if ((await page.getByTestId('play').getAttribute('data-state')) === 'playing') await page.getByTestId('play').click();
  await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
}

/** Picks scenario `id`, paused at t = 0. */
async function open(id) {
  await chooseScenario(page, id);
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
    await expect.poll(canvasLabel, { timeout: 20_000 }).toMatch(/at t = (1\.[3-9]\d*|[2-9](\.\d+)?) s; 1 of 1 contact points touching;/);
    await pause();
    await page.locator('#view-playground canvas').first().screenshot({ path: `${SCREENSHOTS}friction-backspin-rolling.png` });
  });

  it('changes the incline block’s run with the μ control, names a bad μ and reproduces the run from a link', async () => {
    await open('incline-block');
    const controls = page.getByTestId('friction-controls');
    expect(await controls.isVisible()).toBe(true);
    expect(await controls.textContent()).toMatch(/μ \(friction\)/);
    expect(await page.getByTestId('friction-all').inputValue()).toBe('0.3');
    // μ = 0.7 > tan 25° ≈ 0.47 at the start: the block is held, it does not move.
    await typeMu('0.7');
    const start = await drawnPositions();
    await playFor(0.5);
    const held = await drawnPositions();
    expect(Math.hypot(held[0] - start[0], held[1] - start[1])).toBeLessThan(1e-9);
    // (A face held by friction may count one corner as sliding at zero slip: docs/friction.md, "Limits".)
    expect(await canvasLabel()).toMatch(/2 of \d+ contact points touching/);
    expect(await canvasLabel()).not.toMatch(/\(2 sliding\)/);
    // A bad value is named, stays in the field marked invalid, and the engine keeps μ = 0.7.
    await typeMu('-1');
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/mu: must be in \[0, 1000\] or \+Infinity \(stick\), got -1/);
    expect(await page.getByTestId('friction-all').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('friction').inputValue()).toBe('0.7');
    await typeMu('slippery');
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/mu: must be a number, got “slippery”/);
    await page.screenshot({ path: `${SCREENSHOTS}friction-mu-invalid.png`, fullPage: true });
    // The slider at 0.1, paused mid-run: the block slides off (both corners sliding), downhill.
    await page.getByTestId('friction').fill('0.1');
    await expect.poll(() => page.getByTestId('friction-all').inputValue()).toBe('0.1');
    expect(await page.getByTestId('friction-all').getAttribute('aria-invalid')).toBeNull();
    // Read while it plays: a loaded machine may pause it only once it has reached the flat (t ≈ 1.9 s).
    await page.getByTestId('play').click();
    await expect.poll(canvasLabel, { timeout: 20_000 }).toMatch(/\(2 sliding\)/);
    await pause();
    const slid = await drawnPositions();
    expect(slid[0] - held[0]).toBeGreaterThan(0.01);
    await page.locator('#view-playground canvas').first().screenshot({ path: `${SCREENSHOTS}friction-mu-sliding.png` });
    // The share link carries the change of μ at its moment: a fresh page shows the same block, to the bit.
    await page.getByTestId('share').click();
    const link = page.getByTestId('share-link');
    await expect.poll(() => link.inputValue()).toMatch(/#v3\./);
    const value = await link.inputValue();
    await page.getByRole('button', { name: 'Close' }).click();
    const other = await openPage(browser);
    await openApp(other, value);
    await expect.poll(() => other.locator('.scene-status').textContent()).toBe(await page.locator('.scene-status').textContent());
    await expect.poll(() => drawnPositions(other)).toEqual(await drawnPositions());
    expect(await other.getByTestId('friction-all').inputValue()).toBe('0.1');
    await other.screenshot({ path: `${SCREENSHOTS}friction-mu-link.png`, fullPage: true });
    await other.close();
  });
});
