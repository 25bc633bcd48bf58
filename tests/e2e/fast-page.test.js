// The first screen loads only what it draws (docs/architecture.md, "The page and its worker"): KaTeX,
// uPlot, the panels of an impact and the matrix lab are fetched when first needed — a formula or a plot in
// view, the first impact, the lab's tab — each with a visible loading state, and a part that cannot be
// loaded says so in the message area and is tried again at the next use. The first load stays within a
// generous byte budget (gzip bytes of the built files it fetches, the same measure as bench/page-load.js,
// which reports the time of the first frame), and the first frame has compiled the programs the first
// impact draws with. Screenshots at 1280×800 and in a 400×300 embed.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS, browserSession, formulasTypeset, openApp } from './browser.js';

/** gzip bytes the first screen may fetch: twice today's (about 0.5 MB), a guard against a library slipping
 *  back into the first load, not a measurement (bench/page-load.js measures). */
const FIRST_LOAD_BUDGET = 1_000_000;
const dist = new URL('../../dist/', import.meta.url).pathname;
const LAZY = { katex: /\/assets\/katex-[^/]*\.js$/, uplot: /\/assets\/uPlot[^/]*\.js$/, lab: /\/assets\/matrix-lab-[^/]*\.js$/,
  panels: /\/assets\/impact-panels-[^/]*\.js$/ };

// Every page keeps the addresses it fetched.
const session = browserSession({ onPage: (page) => {
  page.fetched = [];
  page.on('request', (request) => page.fetched.push(request.url()));
} });
const { pages } = session;
const newPage = (options) => session.newPage(options);

describe('a first screen that loads only what it draws', () => {
  let page;
  let programsAtFirstFrame;

  it('fetches neither KaTeX, uPlot, the impact panels nor the lab before the first frame, within the byte budget', async () => {
    page = await newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    await openApp(page, session.url);
    await page.waitForFunction(() => performance.getEntriesByName('oblique:first-frame').length > 0);
    programsAtFirstFrame = await page.locator('.scene').getAttribute('data-programs');
    for (const [name, pattern] of Object.entries(LAZY)) expect(page.fetched.filter((u) => pattern.test(u)), name).toEqual([]);
    // The wasm is fetched by the worker, which the page's request log may not list: it is counted from dist/
    // (its first file: the second is fetched after the first frame).
    const files = new Set(page.fetched.filter((u) => u.startsWith(session.url)).map((u) => new URL(u).pathname.slice(1) || 'index.html'));
    for (const name of readdirSync(`${dist}assets`)) if (/^oblique-[^/]*\.wasm$/.test(name)) files.add(`assets/${name}`);
    const bytes = [...files].reduce((sum, file) => sum + gzipSync(readFileSync(`${dist}${file}`), { level: 9 }).length, 0);
    expect(bytes).toBeGreaterThan(100_000);
    expect(bytes).toBeLessThan(FIRST_LOAD_BUDGET);
  });

  it('typesets the formulas once the first impact’s panels come into view', async () => {
    // Paused (reduced motion) with no impact yet: no formula in view, no KaTeX.
    expect(await page.locator('#view-playground .katex').count()).toBe(0);
    await page.getByTestId('step').click();
    await expect.poll(async () => Number(await page.locator('#view-playground [data-testid="gamma"]').getAttribute('data-value'))).toBeCloseTo(0.64, 12);
    await expect.poll(() => page.locator('#view-playground .formula-pending').count()).toBe(0);
    expect(await page.locator('#view-playground .katex').count()).toBeGreaterThan(5);
    expect(page.fetched.some((u) => LAZY.katex.test(u))).toBe(true);
    expect(page.fetched.some((u) => LAZY.panels.test(u))).toBe(true);
    // The impulse arrow is drawn with a program compiled before the first frame (scene.js, compileAhead).
    await expect.poll(async () => Number(await page.locator('.scene').getAttribute('data-arrows'))).toBeGreaterThan(0);
    expect(await page.locator('.scene').getAttribute('data-programs')).toBe(programsAtFirstFrame);
    await page.screenshot({ path: `${SCREENSHOTS}fast-page-first-impact.png` });
  });

  it('loads uPlot when a plot is scrolled into view, with a note until then', async () => {
    expect(await page.getByTestId('energy-plot').locator('.plot-loading').textContent()).toBe('Loading the plot…');
    expect(page.fetched.some((u) => LAZY.uplot.test(u))).toBe(false);
    await page.getByTestId('energy-plot').scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByTestId('energy-plot').locator('canvas').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('energy-plot').locator('.plot-loading').count()).toBe(0);
    await page.getByTestId('quantity-plot').scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByTestId('quantity-plot').locator('canvas').count()).toBeGreaterThan(0);
    await page.getByTestId('energy-plot').screenshot({ path: `${SCREENSHOTS}fast-page-energy-plot.png` });
  });

  it('loads the matrix lab when its tab is chosen', async () => {
    expect(page.fetched.some((u) => LAZY.lab.test(u))).toBe(false);
    await page.getByRole('tab', { name: 'Matrix lab' }).click();
    await expect.poll(async () => Number(await page.locator('[data-testid="matrix-lab"] [data-testid="gamma"]')
      .getAttribute('data-value'))).toBeCloseTo(0.650909, 6);
    expect(page.fetched.some((u) => LAZY.lab.test(u))).toBe(true);
  });
});

describe('a part that cannot be loaded', () => {
  it('says so, shows each formula’s TeX source, and loads the lab at the next try', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    let block = true;
    await page.route((u) => LAZY.katex.test(u.href) || LAZY.lab.test(u.href), (route) => (block ? route.abort() : route.continue()));
    await openApp(page, session.url);
    await page.getByTestId('step').click();
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/^Page: The formula typesetter \(KaTeX\) could not be loaded/);
    await expect.poll(() => page.locator('#view-playground .formula-source').count()).toBeGreaterThan(3);
    expect(await page.locator('#view-playground .formula-source').first().getAttribute('title')).toMatch(/TeX source/);
    await page.screenshot({ path: `${SCREENSHOTS}fast-page-katex-failed.png` });
    // The lab: a message in its tab and in the message area; chosen again once the network is back, it loads.
    await page.getByRole('tab', { name: 'Matrix lab' }).click();
    await expect.poll(() => page.locator('#view-lab [role="alert"]').textContent()).toMatch(/The matrix lab could not be loaded.*Choose the tab again/);
    expect(await page.getByTestId('error').textContent()).toMatch(/^Matrix lab: The matrix lab could not be loaded/);
    block = false;
    await page.getByRole('tab', { name: 'Playground' }).click();
    await page.getByRole('tab', { name: 'Matrix lab' }).click();
    await expect.poll(async () => Number(await page.locator('[data-testid="matrix-lab"] [data-testid="gamma"]')
      .getAttribute('data-value'))).toBeCloseTo(0.650909, 6);
    // The blocked requests are the only console errors.
    expect(page.problems.filter((p) => !/net::ERR_FAILED|Failed to fetch dynamically imported module|Failed to load resource/.test(p))).toEqual([]);
    page.problems.length = 0;
  });
});

describe('the page appears once, with its scene', () => {
  it('draws the first scenario in the frame the page first appears in, the loading note shown until then', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    // page.js held back 1.5 s, so that the engine and the first scenario are in before the page is built
    // (as on a quick machine); at the page's first animation frame the scene has drawn the bodies.
    await page.route(/\/assets\/page-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.addInitScript(() => {
      window.firstShown = null;
      new MutationObserver((changes, observer) => {
        if (!document.querySelector('.site-header')) return;
        observer.disconnect();
        // Queued after the draws already asked for: this frame's callbacks run before its layout and paint.
        requestAnimationFrame(() => {
          window.firstShown = { drawn: performance.getEntriesByName('oblique:first-frame').length > 0 };
        });
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(session.url);
    expect(await page.locator('#loading').textContent()).toBe('Loading the physics engine…');
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
    await expect.poll(() => page.evaluate(() => window.firstShown)).toEqual({ drawn: true });
    expect(await page.locator('#loading').count()).toBe(0);
  });

  it('appears with the engine’s message when the engine cannot start', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    await page.route(/\/assets\/simulation\.worker-[^/]*\.js$/, (route) => route.abort());
    await page.goto(session.url);
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/^Engine: The simulation worker failed/);
    expect(await page.getByRole('tab', { name: 'Playground' }).isVisible()).toBe(true);
    expect(await page.getByTestId('scene').isVisible()).toBe(true);
    expect(await page.locator('#loading').count()).toBe(0);
    // The blocked worker is the only console error.
    expect(page.problems.filter((p) => !/net::ERR_FAILED|Failed to load resource/.test(p))).toEqual([]);
    page.problems.length = 0;
  });
});

describe('after the lazy loading', () => {
  it('a 400×300 embed shows the scene, its γ and the formulas', async () => {
    const page = await newPage({ viewport: { width: 400, height: 300 } });
    await openApp(page, `${session.url}?embed=1&scenario=bouncing-ball&panels=gamma,S,R`);
    await expect.poll(async () => Number(await page.getByTestId('embed-gamma').getAttribute('data-value')), { timeout: 15_000 }).toBeCloseTo(0.64, 12);
    await formulasTypeset(page);
    await page.screenshot({ path: `${SCREENSHOTS}fast-page-embed-400x300.png` });
  });

  it('logs no console error or warning', () => {
    for (const page of pages) expect(page.problems).toEqual([]);
  });
});
