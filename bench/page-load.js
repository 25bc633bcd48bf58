// The page's first load, measured in headless Chromium (Debian's /usr/bin/chromium through playwright-core):
// the production build (vite build → build/page/) served by a small static server that logs every request —
// the page's and its workers' alike —, opened cold (a fresh browser context, so an empty cache) at 1280×800 as
// a first visit. The browser is started and warmed before the first measured load — one untimed load of an
// unrelated page (an inline document: a line of text, a triangle drawn with WebGL) in its own context, so the browser process,
// its GPU process and a first renderer exist, as in a user's browser that is already running, and no HTTP
// cache is shared with the measured loads —; every measured load stays cold: a fresh context, an empty cache,
// the page's files never fetched before in it. Reported:
//   first_frame_ms         the page's mark `oblique:first-frame` (the scene's first draw of bodies), in ms
//                          from the start of navigation; the median of the runs. The mark is set when the
//                          bodies are drawn, before the browser presents that frame; `first_frame_presented_ms`
//                          is the start of the next animation frame, by when it has been presented
//   first_load_gzip_bytes  gzip -9 bytes of every file requested before that mark (HTML, scripts, styles,
//                          fonts, the worker, the scenario, the wasm module): what the first screen costs on
//                          a server that compresses
//   wasm_gzip_bytes        the wasm module the page loads, gzip -9
// and, as details, the files of the first load and those fetched in the seconds after it (KaTeX at the first
// impact, the plots when they are scrolled to…). Run alone: `node bench/page-load.js [--runs 3] [--no-build]
// [--dir DIR]` (DIR: another built page, e.g. an older dist/ to compare with); bench/run.js calls
// measurePageLoad(). Times are reported, never asserted.
import { createReadStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';

const root = new URL('..', import.meta.url).pathname;
const FIRST_FRAME_MARK = 'oblique:first-frame';
/**
 * Chromium's flags for the browser tests (tests/e2e/browser.js): WebGL through SwiftShader, no extras, but
 * the page composited as a browser with a GPU does (the tests composite in software, to spare the CPU).
 */
const CHROMIUM_ARGS = [
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];
const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.woff': 'font/woff',
  '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.png': 'image/png',
};
/**
 * The warm-up page: a line of text (the browser's fonts looked up once) and one triangle drawn with WebGL (the
 * GPU process started, SwiftShader's shader compiler run once), then two frames; nothing of Oblique's.
 */
const WARM_UP_HTML = `<!doctype html><p style="font-family: sans-serif">A warm-up line of text.</p>
<canvas width="64" height="64"></canvas><script>
  const gl = document.querySelector('canvas').getContext('webgl2');
  const shader = (type, source) => { const s = gl.createShader(type); gl.shaderSource(s, source); gl.compileShader(s); return s; };
  const program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER, '#version 300 es\\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }'));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, '#version 300 es\\nprecision mediump float; out vec4 c; void main() { c = vec4(1.0, 0.5, 0.0, 1.0); }'));
  gl.linkProgram(program);
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, 0, 1]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  requestAnimationFrame(() => requestAnimationFrame(() => { document.title = 'warm'; }));
</script>`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** gzip -9 bytes of a file of the build, cached by path. */
function gzipBytes(dir, cache, path) {
  if (!cache.has(path)) cache.set(path, gzipSync(readFileSync(join(dir, path)), { level: 9 }).length);
  return cache.get(path);
}

/** A static server of `dir` on a free port that logs each request as {path, at: epoch ms}. */
async function serve(dir) {
  const log = [];
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(dir, path));
    log.push({ path: path.replace(/^\//, ''), at: Date.now() });
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { log, url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * The page's mark, in ms from navigation start and as an epoch time comparable with the server's log. Read
 * through the DevTools protocol with one expression that waits for it (a PerformanceObserver), so that the
 * page runs nothing else meanwhile: Playwright's waitForFunction first injects its own script (some 100 ms
 * of parsing on the page's thread, in the middle of its load) and then polls.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{ms: number, at: number}>}
 */
async function firstFrameMark(page) {
  const session = await page.context().newCDPSession(page);
  const expression = `new Promise((resolve, reject) => {
    const found = () => {
      const entry = performance.getEntriesByName(${JSON.stringify(FIRST_FRAME_MARK)})[0];
      // The next animation frame starts once the frame holding the first bodies has been presented.
      if (entry) {
        requestAnimationFrame(() => resolve({ ms: entry.startTime, at: performance.timeOrigin + entry.startTime,
          presentedMs: performance.now() }));
      }
      return Boolean(entry);
    };
    if (found()) return;
    const observer = new PerformanceObserver(() => { if (found()) observer.disconnect(); });
    observer.observe({ type: 'mark' });
    setTimeout(() => reject(new Error('no first frame within 60 s')), 60000);
  })`;
  try {
    const { result, exceptionDetails } = await session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  } finally {
    await session.detach();
  }
}

/**
 * Warms a freshly started browser with one untimed load of WARM_UP_HTML in a context of its own (closed
 * after), so that the first measured load does not pay for starting the browser's GPU process and first
 * renderer, which a user's running browser has already paid.
 * @param {import('playwright-core').Browser} browser
 */
async function warmUp(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.setContent(WARM_UP_HTML);
    await page.waitForFunction(() => document.title === 'warm');
  } finally {
    await context.close();
  }
}

/**
 * Builds the page into build/page (unless `rebuild` is false and it is there, or `dir` names another built
 * page) and loads it `runs` times cold.
 * @returns {Promise<object>} the figures above with their details
 */
export async function measurePageLoad({ runs = 3, rebuild = true, settleMs = 3000, dir: other = null } = {}) {
  const dir = other ? `${other.replace(/\/$/, '')}/` : `${root}build/page/`;
  if (!other && (rebuild || !existsSync(`${dir}index.html`))) {
    await build({ root: `${root}web`, configFile: `${root}vite.config.js`, logLevel: 'error',
      build: { outDir: dir, emptyOutDir: true } });
  }
  const sizes = new Map();
  const wasmFile = readdirSync(`${dir}assets`).find((name) => name.endsWith('.wasm'));
  const server = await serve(dir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  const loads = [];
  try {
    await warmUp(browser);
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const problems = [];
      page.on('pageerror', (error) => problems.push(error.message));
      const from = server.log.length;
      await page.goto(server.url, { waitUntil: 'commit' });
      const mark = await firstFrameMark(page);
      await page.waitForTimeout(settleMs);
      const requests = server.log.slice(from);
      const files = (list) => [...new Set(list.map((r) => r.path))].filter((p) => existsSync(join(dir, p)))
        .map((path) => ({ path, gzip: gzipBytes(dir, sizes, path) }));
      const first = files(requests.filter((r) => r.at <= mark.at));
      const firstPaths = new Set(first.map((f) => f.path));
      const later = files(requests.filter((r) => r.at > mark.at)).filter((f) => !firstPaths.has(f.path));
      loads.push({ first_frame_ms: mark.ms, presented_ms: mark.presentedMs, first, later, problems });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const sum = (list) => list.reduce((total, f) => total + f.gzip, 0);
  const typical = loads[0];
  return {
    first_frame_ms: Math.round(median(loads.map((l) => l.first_frame_ms))),
    first_frame_ms_runs: loads.map((l) => Math.round(l.first_frame_ms)),
    first_frame_presented_ms: Math.round(median(loads.map((l) => l.presented_ms))),
    first_load_gzip_bytes: sum(typical.first),
    wasm_gzip_bytes: wasmFile ? gzipBytes(dir, sizes, `assets/${wasmFile}`) : null,
    first_load_files: typical.first.sort((a, b) => b.gzip - a.gzip),
    after_first_frame_gzip_bytes: sum(typical.later),
    after_first_frame_files: typical.later.sort((a, b) => b.gzip - a.gzip),
    after_first_frame_window_ms: settleMs,
    page_errors: loads.flatMap((l) => l.problems),
  };
}

/** The figures as lines of text. */
export function describePageLoad(result) {
  const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  return [
    `page first frame: ${result.first_frame_ms} ms (runs: ${result.first_frame_ms_runs.join(', ')} ms), headless Chromium, 1280×800, cold`,
    `  presented by ${result.first_frame_presented_ms} ms (the next animation frame after the mark)`,
    `page first load: ${kb(result.first_load_gzip_bytes)} gzipped in ${result.first_load_files.length} files ` +
      `(wasm ${result.wasm_gzip_bytes == null ? '—' : kb(result.wasm_gzip_bytes)}):`,
    ...result.first_load_files.map((f) => `  ${f.path.padEnd(56)} ${kb(f.gzip).padStart(10)}`),
    `fetched in the ${result.after_first_frame_window_ms / 1000} s after it: ${kb(result.after_first_frame_gzip_bytes)}` +
      (result.after_first_frame_files.length ? ` (${result.after_first_frame_files.map((f) => f.path.replace(/^assets\//, '')).join(', ')})` : ''),
    ...(result.page_errors.length ? [`page errors: ${result.page_errors.join('; ')}`] : []),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argument = (name) => process.argv[process.argv.indexOf(name) + 1];
  const result = await measurePageLoad({
    runs: process.argv.includes('--runs') ? Number(argument('--runs')) : 3,
    rebuild: !process.argv.includes('--no-build'),
    dir: process.argv.includes('--dir') ? argument('--dir') : null,
  });
  console.log(describePageLoad(result).join('\n'));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
}
