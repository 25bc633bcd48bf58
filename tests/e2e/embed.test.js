// Embedding in the browser: the course page web/embed-example.html loads two frames, gets `ready` from both,
// drives one by postMessage and gets `impact` back (γ = 1 at e = 1); bad messages are answered with an
// error naming the field; 400×300 and 640×480 embeds show the scene and γ without scrolling; a bad
// parameter falls back with a notice; an embed plays only while it is in view, and the wheel scrolls the
// course page until the scene is clicked.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOTS, formulasTypeset, launch, openPage } from './browser.js';

const pages = [];
let browser;
let url;

async function newPage(options) {
  const page = await openPage(browser, options);
  pages.push(page);
  return page;
}

/** A course page with one iframe of `query` and a spacer `above` it; collects the frame's messages. */
async function coursePage(query, { width, height, above = 20, below = 40, viewport } = {}) {
  const page = await newPage({ viewport: viewport ?? { width: (Number(width) || 700) + 60, height: height + 80 } });
  await page.setContent(`<!doctype html><body style="margin:0;font:16px serif">
    <div style="height:${above}px">Course text above.</div>
    <iframe id="frame" src="${url}?${query}" width="${width}" height="${height}" style="border:1px solid #999;margin-left:20px" title="Oblique"></iframe>
    <div style="height:${below}px">Course text below.</div>
    <script>
      window.received = [];
      window.addEventListener('message', (event) => { if (event.source === document.getElementById('frame').contentWindow) window.received.push(event.data); });
    </script></body>`);
  const frame = page.frames().find((f) => f.url().startsWith(url));
  await frame.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  return { page, frame };
}

const received = (page, type) => page.evaluate((t) => window.received.filter((m) => m.type === t), type);
const send = (page, message) => page.evaluate((m) => document.getElementById('frame').contentWindow.postMessage(m, '*'), message);

/** The bottom of an element of the frame relative to the frame's viewport height (≤ 1: fully in view). */
async function inView(frame, selector) {
  return frame.evaluate((s) => {
    const box = document.querySelector(s).getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, height: window.innerHeight, width: box.width, scrolled: window.scrollY };
  }, selector);
}

beforeAll(async () => {
  url = inject('baseUrl');
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('the course page example', () => {
  let page;
  const log = () => page.evaluate(() => [...document.querySelectorAll('#log li')].map((li) => li.textContent));

  it('loads two embeds, which both say ready and what they loaded', async () => {
    page = await newPage({ viewport: { width: 900, height: 1100 } });
    await page.goto(`${url}embed-example.html`);
    await expect.poll(async () => (await log()).filter((line) => line.includes('"oblique:ready"')).length, { timeout: 30_000 }).toBe(2);
    const lines = await log();
    expect(lines).toContain('ball: {"type":"oblique:loaded","title":"Bouncing ball"}');
    expect(lines).toContain('balls: {"type":"oblique:loaded","title":"Two balls colliding"}');
  });

  it('drives the second by postMessage and gets its impacts back: e = 1 keeps all the energy', async () => {
    const frame = page.frames().find((f) => f.url().includes('scenario=two-balls'));
    expect(await frame.getByTestId('play').isVisible()).toBe(false);  // controls=0: the page drives it
    await page.locator('#e').fill('1');
    await page.click('#reset');
    await page.click('#play');
    await expect.poll(() => page.locator('#readout').textContent(), { timeout: 15_000 }).toMatch(/^Impact at t = [\d.]+ s: γ = 1\.0000/);
    const impact = (await log()).find((line) => line.startsWith('balls: {"type":"oblique:impact"'));
    const message = JSON.parse(impact.slice('balls: '.length));
    expect(message.gamma).toBeCloseTo(1, 12);
    expect(Math.abs(message.W_loss)).toBeLessThan(1e-12);
    await page.click('#pause');
    await expect.poll(() => frame.getByTestId('play').getAttribute('data-state')).toBe('paused');
    await page.screenshot({ path: `${SCREENSHOTS}embed-example.png`, fullPage: true });
  });

  it('loads a scenario written in the course page', async () => {
    await page.locator('#e').fill('0.5');
    await page.click('#head-on');
    await expect.poll(async () => (await log()).includes('balls: {"type":"oblique:loaded","title":"Head-on collision"}')).toBe(true);
    await page.click('#play');
    // Head on, equal masses, e = 0.5: γ = e² (the relative motion is all there is to lose).
    await expect.poll(() => page.locator('#readout').textContent(), { timeout: 15_000 }).toMatch(/γ = 0\.2500/);
    await page.click('#pause');
  });
});

describe('messages from the parent', () => {
  it('answers every bad message with an error that names the field, and leaves others alone', async () => {
    const { page, frame } = await coursePage('embed=1&scenario=two-balls&autoplay=0', { width: 640, height: 480 });
    await expect.poll(() => received(page, 'oblique:ready')).toHaveLength(1);
    await send(page, { type: 'oblique:set', e: 2, id: 7 });
    await send(page, { type: 'oblique:set', e_i: { 5: 0.5 } });
    await send(page, { type: 'oblique:jump' });
    await send(page, { type: 'oblique:play', now: true });
    await send(page, { type: 'oblique:load-scenario', scenario: { bodies: [{ name: 'a', mass: -1, colour: 'red' }] } });
    await send(page, { type: 'oblique:load-scenario', scenario: '{"bodies": [' });
    await send(page, { type: 'not-for-oblique', e: 2 });
    await send(page, 'a string');
    await expect.poll(async () => (await received(page, 'oblique:error')).length).toBe(6);
    const errors = (await received(page, 'oblique:error')).map((m) => m.message);
    expect(errors).toEqual([
      'oblique:set: e must be a number in [0, 1], got 2',
      'oblique:set: e_i[5]: the scenario has 1 contact (indices 0 … 0)',
      'oblique:jump: unknown message (Oblique accepts oblique:load-scenario, oblique:set, oblique:play, oblique:pause, oblique:reset)',
      'oblique:play: unknown field "now" (it takes none)',
      expect.stringMatching(/^oblique:load-scenario: the scenario is not valid: \/bodies\/0\/colour: unknown field "colour"; did you mean "color"\?; \/bodies\/0\/mass: must be positive, got -1$/),
      expect.stringMatching(/^oblique:load-scenario: scenario is not JSON/),
    ]);
    expect((await received(page, 'oblique:error'))[0].id).toBe(7);
    // Nothing was changed, nothing started.
    expect(await frame.getByTestId('play').getAttribute('data-state')).toBe('paused');
    expect(await frame.getByTestId('restitution').inputValue()).toBe('0.9');
    // A good one is obeyed.
    await send(page, { type: 'oblique:set', e: 0.25, speed: 2 });
    await expect.poll(() => frame.getByTestId('restitution').inputValue()).toBe('0.25');
    expect(await frame.locator('.speed-value').textContent()).toBe('2×');
  });
});

describe('embed layout', () => {
  for (const [width, height] of [[400, 300], [640, 480]]) {
    it(`shows the scene and γ without scrolling in a ${width}×${height} frame`, async () => {
      const { page, frame } = await coursePage('embed=1&scenario=bouncing-ball&panels=gamma,S,R,log', { width, height });
      await expect.poll(async () => Number(await frame.getByTestId('embed-gamma').getAttribute('data-value')), { timeout: 15_000 }).toBeCloseTo(0.64, 12);
      for (const selector of ['[data-testid="scene"]', '[data-testid="embed-gamma"]', '[data-testid="play"]', '.embed-open']) {
        const box = await inView(frame, selector);
        expect(box.top, selector).toBeGreaterThanOrEqual(0);
        expect(box.bottom, selector).toBeLessThanOrEqual(box.height);
        expect(box.scrolled).toBe(0);
      }
      expect((await inView(frame, '[data-testid="scene"]')).width).toBeGreaterThan(width * 0.5);
      expect(await frame.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await formulasTypeset(frame);
      await page.screenshot({ path: `${SCREENSHOTS}embed-${width}x${height}.png` });
    });
  }

  it('falls back on a bad parameter with a notice, never a blank frame', async () => {
    const { page, frame } = await coursePage('embed=1&scenario=nope&speed=3&panels=gamma,Z', { width: 640, height: 480 });
    await expect.poll(() => frame.getByTestId('error').textContent()).toMatch(/scenario="nope".*speed="3".*panels="gamma,Z"|speed="3"/);
    const text = await frame.getByTestId('error').textContent();
    expect(text).toMatch(/speed="3" is not one of 0\.1, 0\.25, 0\.5, 1, 2, 4, 8, 16; using 1×/);
    expect(text).toMatch(/panels="gamma,Z" names no panel "Z"/);
    expect(text).toMatch(/there is no built-in scenario “nope”; showing “Bouncing ball”/);
    expect(await frame.getByTestId('scenario-select').inputValue()).toBe('bouncing-ball');
    expect((await received(page, 'oblique:error')).length).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}embed-notice.png` });
  });

  it('opens the full page with the same state from "Open in Oblique"', async () => {
    const { frame } = await coursePage('embed=1&scenario=four-bar&e=0.2&autoplay=0', { width: 640, height: 480 });
    await frame.getByTestId('step').click();
    // γ comes with the panels' code and KaTeX, loaded at the first impact shown: seconds on a loaded machine.
    await expect.poll(() => frame.getByTestId('embed-gamma').getAttribute('data-value'), { timeout: 8000 }).not.toBeNull();
    await frame.locator('.embed-open').hover();
    await expect.poll(() => frame.locator('.embed-open').getAttribute('href')).toMatch(/#scenario=four-bar&e=0\.2&t=[\d.]+&impacts=1$/);
    expect(await frame.locator('.embed-open').getAttribute('href')).not.toMatch(/embed=1/);
    expect(await frame.locator('.embed-open').getAttribute('target')).toBe('_blank');
  }, 30000);
});

describe('in a course page', () => {
  it('plays only while in view, and resumes when scrolled back', async () => {
    const { page, frame } = await coursePage('embed=1&scenario=bouncing-ball', { width: 640, height: 480, above: 1500, below: 1500,
      viewport: { width: 800, height: 600 } });
    const state = () => frame.getByTestId('play').getAttribute('data-state');
    await page.waitForTimeout(500);
    expect(await state()).toBe('paused');
    expect(await frame.locator('.scene-status').textContent()).toMatch(/^t = 0\.00 s/);
    await page.evaluate(() => document.getElementById('frame').scrollIntoView({ block: 'center' }));
    await expect.poll(state).toBe('playing');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(state).toBe('paused');
    await page.evaluate(() => document.getElementById('frame').scrollIntoView({ block: 'center' }));
    await expect.poll(state).toBe('playing');
    // Paused by the reader: it stays paused when scrolled away and back.
    await frame.getByTestId('play').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => document.getElementById('frame').scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(400);
    expect(await state()).toBe('paused');
  });

  it('lets the wheel scroll the course page unless the scene has focus', async () => {
    const { page, frame } = await coursePage('embed=1&scenario=bouncing-ball&autoplay=0', { width: 640, height: 480, above: 100, below: 2000,
      viewport: { width: 800, height: 600 } });
    const scene = await page.locator('#frame').boundingBox();
    await page.mouse.move(scene.x + 300, scene.y + 200);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await expect.poll(() => frame.locator('.embed-wheel-hint').isVisible()).toBe(true);
    // Focused (a click), the wheel zooms the scene and the page stays.
    await page.evaluate(() => window.scrollTo(0, 0));
    await frame.getByTestId('scene').click();
    const before = await page.evaluate(() => window.scrollY);
    const image = await frame.getByTestId('scene').screenshot();
    await page.mouse.move(scene.x + 300, scene.y + 200);
    await page.mouse.wheel(0, -400);
    // Once the scene has zoomed, the wheel has been handled: the page has not scrolled.
    await expect.poll(async () => image.equals(await frame.getByTestId('scene').screenshot())).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
  });
});

describe('the page as a whole', () => {
  it('raised no console error or warning on any page', () => {
    expect(pages.flatMap((p) => p.problems)).toEqual([]);
  });
});
