// The timeline: scrubbing replays the run to bit-identical states (positions compared with a straight run
// of the same scenario in Node), stepping back one impact, picking an impact from the energy plot, the
// scenario's duration (stop and loop), and a change of e made in the past, which cuts the run there.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { loadScenario } from '../js/scenarios.js';
import { SCREENSHOTS, chooseScenario, launch, openApp, openPage } from './browser.js';
import { runTo } from '../js/simulation-runs.js';

const number = (text) => Number(String(text).replace(/\u2212/g, '-'));
let browser;
let page;
let oblique;

const logRows = () => page.locator('[data-testid="impact-log"] tbody tr');
/** The time the status line shows, once it shows one (a step slower than 250 ms says "Looking for the next impact…" first). */
async function shownTime() {
  let match = null;
  await expect.poll(async () => (match = (await page.locator('.scene-status').textContent()).match(/t = ([\d.]+)/)) !== null).toBe(true);
  return number(match[1]);
}
const positions = async () => JSON.parse(await page.locator('.scene').getAttribute('data-positions'));

async function pause() {
  if ((await page.getByTestId('play').getAttribute('data-state')) === 'playing') await page.getByTestId('play').click();
  await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
}

async function openFresh(id) {
  await chooseScenario(page, id);
  await pause();
  await page.getByTestId('reset').click();
  await expect.poll(() => logRows().count()).toBe(0);
  await expect.poll(shownTime).toBe(0);
}

/** Scrubs the timeline to `t` (a multiple of its 1 ms step) and waits until the scene shows it. */
async function scrub(t) {
  await page.getByTestId('timeline').fill(String(t));
  await expect.poll(async () => Number(await page.getByTestId('timeline').inputValue())).toBe(t);
  await expect.poll(async () => (await page.locator('.scene-status').textContent()).startsWith(`t = ${t.toFixed(2)} s`)).toBe(true);
  // The draw of that frame (the status is written before the next animation frame draws it).
  await expect.poll(async () => Number(await page.locator('.scene').getAttribute('data-time'))).toBe(t);
}

/** q of a straight run of scenario `id` to time t, or after `impacts` impacts. */
function straightRun(id, { t, impacts }) {
  const sim = oblique.createSimulation(loadScenario(id));
  if (impacts !== undefined) while (sim.impactCount < impacts) sim.advanceToNextImpact(10);
  else runTo(sim, t);
  const q = Array.from(sim.positions);
  const time = sim.time;
  sim.dispose();
  return { q, time };
}

beforeAll(async () => {
  oblique = await loadOblique();
  browser = await launch();
  page = await openPage(browser);
  await openApp(page, inject('baseUrl'));
});

afterAll(async () => {
  await browser?.close();
});

describe('timeline', () => {
  it('replays the run to bit-identical states when scrubbed back and forth', async () => {
    await openFresh('double-pendulum');
    // Run to about 3 s impact by impact (a chaotic pendulum: any difference would grow).
    while ((await shownTime()) < 3) await page.getByTestId('step').click();
    const horizon = await shownTime();
    expect(Number(await page.getByTestId('timeline').getAttribute('max'))).toBeGreaterThanOrEqual(horizon);
    for (const t of [1.234, 0.4, 2.718, 2.9]) {
      await scrub(t);
      expect(await positions(), `t = ${t}`).toEqual(straightRun('double-pendulum', { t }).q);
    }
    expect(await page.locator('.scene-status').textContent()).toMatch(/replaying the run/);
    await page.screenshot({ path: `${SCREENSHOTS}timeline-scrubbed.png`, fullPage: true });
  });

  it('steps back one impact, to the state right after it', async () => {
    const count = await logRows().count();
    await page.getByRole('button', { name: 'Follow latest' }).click();
    await expect.poll(shownTime).toBeGreaterThan(2.9);
    await page.getByTestId('step-back').click();
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe(`Impact ${count - 1}`);
    const after = straightRun('double-pendulum', { impacts: count - 1 });
    await expect.poll(positions).toEqual(after.q);
    // The impact shown in the log, and the time bar at its time.
    expect(await page.locator('[data-testid="impact-log"] tr[aria-current="true"]').getAttribute('data-index')).toBe(String(count - 2));
    expect(Number(await page.getByTestId('timeline').inputValue())).toBeCloseTo(after.time, 3);
    // ← does the same.
    await page.locator('h1').click();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe(`Impact ${count - 2}`);
    await expect.poll(positions).toEqual(straightRun('double-pendulum', { impacts: count - 2 }).q);
  });

  it('goes to an impact picked from the energy plot', async () => {
    const plot = page.getByTestId('energy-plot');
    const impactTime = number(await logRows().last().locator('td').nth(1).textContent());  // impact 1 (3 decimals)
    const [min, max, left, width] = (await plot.getAttribute('data-x-scale')).split(' ').map(Number);
    await plot.scrollIntoViewIfNeeded();
    const over = await plot.locator('.u-over').boundingBox();
    const x = over.x + ((impactTime - min) / (max - min)) * width;
    expect(left).toBeGreaterThanOrEqual(0);
    await page.mouse.click(x, over.y + over.height / 2);
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 1');
    await expect.poll(positions).toEqual(straightRun('double-pendulum', { impacts: 1 }).q);
  });

  it('cuts the run where e is changed in the past, and goes on from there', async () => {
    await scrub(1.5);
    const before = await logRows().count();
    const kept = await page.locator('[data-testid="impact-log"] tbody tr').evaluateAll(
      (rows) => rows.filter((r) => Number(r.children[1].textContent) <= 1.5).length);
    await page.getByTestId('restitution-all').fill('0.9');
    await page.getByTestId('restitution-all').press('Enter');
    await expect.poll(() => page.getByTestId('run-notice').textContent()).toMatch(/^The run now goes on from t = 1\.500 s/);
    expect(await logRows().count()).toBe(kept);
    expect(kept).toBeLessThan(before);
    // Going on replays nothing: the new run from 1.5 s with e = 0.9, as a straight run with that change.
    await page.getByTestId('step').click();
    await expect.poll(() => logRows().count()).toBe(kept + 1);
    const sim = oblique.createSimulation(loadScenario('double-pendulum'));
    runTo(sim, 1.5);
    sim.setRestitution(0.9);
    while (sim.impactCount < kept + 1) sim.advanceToNextImpact(10);
    await expect.poll(positions).toEqual(Array.from(sim.positions));
    sim.dispose();
  });

  it('stops at the scenario’s duration, and loops when asked', async () => {
    await openFresh('bouncing-ball');
    await page.getByTestId('speed').fill('7');  // 16×
    await page.getByTestId('play').click();
    await expect.poll(() => page.getByTestId('play').getAttribute('data-state'), { timeout: 30_000 }).toBe('paused');
    expect(await shownTime()).toBe(6);
    expect(await page.getByTestId('run-notice').textContent()).toMatch(/^End of the run \(t = 6 s/);
    expect(Number(await page.getByTestId('timeline').inputValue())).toBe(6);
    expect(await page.locator('.timeline-time').textContent()).toBe('t = 6.00 s of 6 s');
    // Play again: from the start.
    await page.getByTestId('end-mode').selectOption('loop');
    await page.getByTestId('play').click();
    await expect.poll(shownTime).toBeLessThan(5);
    // Looping: past the end it comes back to the start and keeps playing.
    let wrapped = false;
    let last = await shownTime();
    for (let k = 0; k < 120 && !wrapped; k++) {
      await page.waitForTimeout(150);
      const now = await shownTime();
      wrapped = now < last - 1;
      last = now;
    }
    expect(wrapped).toBe(true);
    expect(await page.getByTestId('play').getAttribute('data-state')).toBe('playing');
    await pause();
    expect(await logRows().count()).toBeGreaterThan(30);  // the log keeps the run: replaying adds nothing
    await page.getByTestId('end-mode').selectOption('stop');
  });

  it('logs no console error or warning', () => {
    expect(page.problems).toEqual([]);
  });
});
