// Headless Chromium for the browser tests: Debian's /usr/bin/chromium (never a downloaded browser), WebGL
// through SwiftShader via ANGLE. Every page records its console errors and warnings and uncaught errors.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

/**
 * The page is composited in software (as Chrome does where the GPU is blocklisted): compositing the whole
 * page at every frame through SwiftShader costs the CPU far more. The scene itself is still drawn by WebGL
 * on SwiftShader.
 */
export const CHROMIUM_ARGS = [
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu-compositing', '--no-sandbox',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];

export const SCREENSHOTS = new URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SCREENSHOTS, { recursive: true });

/**
 * The browser of a test file: a connection to the Chromium that global-setup.js starts for the worker
 * running the file (VITEST_POOL_ID counts the workers from 1; faster than a browser per file, and each
 * connection's contexts are its own and close with it), or, when there is none, a Chromium of its own.
 */
export function launch() {
  const endpoints = inject('browserEndpoints') ?? [];
  const endpoint = endpoints[(Number(process.env.VITEST_POOL_ID) - 1) % endpoints.length];
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/**
 * Console messages that are the browser's, not the page's: the GPU driver chatter of software WebGL.
 * Anything else logged as an error or a warning fails the tests.
 */
const BROWSER_NOISE = [/GL Driver Message/i, /GPU stall due to ReadPixels/i, /Automatic fallback to software WebGL/i];

/**
 * A new page (in its own context) that collects problems in `page.problems`. The first-visit tour is marked
 * as seen unless `tour` is true (the tests of the tour itself).
 */
export async function openPage(browser, { viewport = { width: 1280, height: 720 }, reducedMotion = 'no-preference', tour = false } = {}) {
  const context = await browser.newContext({ viewport, reducedMotion, deviceScaleFactor: 1 });
  if (!tour) {
    await context.addInitScript(() => {
      try {
        localStorage.setItem('oblique.tour', 'done');
      } catch {
        // An opaque document (about:blank of setContent) has no storage; the app's frame has.
      }
    });
  }
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);  // a stuck click fails with its reason, well before the test's timeout
  page.problems = [];
  page.on('console', (message) => {
    const type = message.type();
    if ((type === 'error' || type === 'warning') && !BROWSER_NOISE.some((re) => re.test(message.text()))) {
      page.problems.push(`${type}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => page.problems.push(`pageerror: ${error.message}`));
  return page;
}

/** Opens the app at `url` and waits until the engine, the first scenario and the lab are ready. */
export async function openApp(page, url) {
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
}

/**
 * Waits until no formula in view of `target` (a page or a frame) is still a placeholder: KaTeX is loaded
 * when a formula first comes into view and then typesets every one, so a screenshot taken after this shows
 * the formulas, not grey bars (formula.js). A formula that KaTeX could not typeset shows its source instead,
 * which ends the wait too.
 */
export async function formulasTypeset(target) {
  await target.waitForFunction(() => ![...document.querySelectorAll('.formula-pending')].some((node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
  }));
}

/**
 * Picks built-in scenario `id` in the playground and waits until its load has ended. Choosing the scenario
 * already shown loads it again: its id is on the page from the start, so the wait is for the page to stop
 * being busy (aria-busy), not for the id; otherwise a test could pause the old run and then meet the new one
 * playing.
 */
export async function chooseScenario(page, id) {
  await page.getByTestId('scenario-select').selectOption(id);
  await page.waitForSelector(`.playground[data-scenario="${id}"]:not([aria-busy="true"])`);
}

/**
 * The browser of a test file: launched before its tests and closed after them (call at the file's top
 * level). `session.url` is the page served, `session.newPage(options)` opens a page (openPage's options) and
 * keeps it in `session.pages`, so that a last test can check every page's problems; `onPage(page)` sets up
 * each new page.
 */
export function browserSession({ onPage } = {}) {
  const session = {
    browser: null,
    url: null,
    pages: [],
    async newPage(options) {
      const page = await openPage(session.browser, options);
      session.pages.push(page);
      onPage?.(page);
      return page;
    },
  };
  beforeAll(async () => {
    session.url = inject('baseUrl');
    session.browser = await launch();
  });
  afterAll(async () => {
    await session.browser?.close();
  });
  return session;
}
