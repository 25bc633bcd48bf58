// Builds the page (vite build → dist/) and serves it with `vite preview` on a free port for the browser
// tests, one server for all of them, and starts one headless Chromium per worker (the config's
// maxWorkers), to which the test files that worker runs connect (browser.js): each browser's renderer and
// GPU process (SwiftShader) serve one file at a time. The address and the browsers' endpoints
// reach the tests through `inject('baseUrl')` and `inject('browserEndpoints')`.
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const root = new URL('../..', import.meta.url).pathname;
const configFile = `${root}vite.config.js`;

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

export default async function setup(project) {
  await build({ root: `${root}web`, configFile, logLevel: 'warn' });
  const port = await freePort();
  const server = await preview({ configFile, logLevel: 'warn', preview: { host: '127.0.0.1', port, strictPort: true, open: false } });
  project.provide('baseUrl', `http://127.0.0.1:${port}/`);
  const { CHROMIUM_ARGS } = await import('./browser.js');
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const browsers = await Promise.all(Array.from({ length: workers },
    () => chromium.launchServer({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true })));
  project.provide('browserEndpoints', browsers.map((browser) => browser.wsEndpoint()));
  return async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
    await new Promise((resolve) => server.httpServer.close(resolve));
  };
}
