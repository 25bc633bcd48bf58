// Takes docs/screenshot.png, the README's picture of the page: the built page (vite build → dist/) served by
// `vite preview`, in Debian's headless Chromium (WebGL through SwiftShader, as the browser tests run it) at
// 1280 × 800 CSS pixels, with the tilted rod's first impact selected — its γ, S and R beside the scene —
// and the page's own buttons (the Editor tab, Share, Embed, Export) at the top.
//   node scripts/screenshot.mjs [--no-build] [--out FILE]
//     --no-build  serve dist/ as it is (after `npm run build`)
//     --out FILE  where to write the PNG (default docs/screenshot.png)
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const root = new URL('..', import.meta.url).pathname;
const configFile = `${root}vite.config.js`;
const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : `${root}docs/screenshot.png`;
/** The scenario and the size the README shows. */
const SCENARIO = 'falling-rod';
const VIEWPORT = { width: 1280, height: 800 };
/** Chromium as the browser tests start it (tests/e2e/browser.js): software WebGL, nothing downloaded. */
const CHROMIUM_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

if (!args.includes('--no-build')) await build({ root: `${root}web`, configFile, logLevel: 'warn' });
const port = await freePort();
const server = await preview({ configFile, logLevel: 'warn', preview: { host: '127.0.0.1', port, strictPort: true, open: false } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
try {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  // The first visit's tour would cover the panels: marked as seen.
  await context.addInitScript(() => localStorage.setItem('oblique.tour', 'done'));
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForSelector('html[data-ready="true"]', { timeout: 60_000 });
  await page.getByTestId('scenario-select').selectOption(SCENARIO);
  await page.waitForSelector(`.playground[data-scenario="${SCENARIO}"]:not([aria-busy="true"])`);
  // To the first impact, chosen in the log: the panels show it, the scene the moment right after it.
  await page.getByTestId('step').click();
  await page.waitForFunction(() => document.querySelectorAll('#view-playground [data-testid="matrix-S"] tbody td').length === 9,
    null, { timeout: 60_000 });
  await page.locator('[data-testid="impact-log"] tr[data-index="0"] .row-button').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  // Every formula in view typeset (KaTeX is loaded when one first comes into view), the scene drawn.
  await page.waitForFunction(() => ![...document.querySelectorAll('.formula-pending')].some((node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && box.bottom > 0 && box.top < innerHeight;
  }), null, { timeout: 30_000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.mouse.move(0, VIEWPORT.height - 1);  // no hover highlight in the picture
  await page.screenshot({ path: out });
  if (problems.length) throw new Error(`the page failed while the screenshot was taken: ${problems.join('; ')}`);
  console.log(`screenshot: ${out} (${VIEWPORT.width} × ${VIEWPORT.height}, ${SCENARIO}, impact 1 selected)`);
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(resolve));
}
