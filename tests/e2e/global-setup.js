// Builds the page (vite build → dist/) and serves it with `vite preview` on a free port for the browser
// tests, and starts the one headless Chromium they all connect to (browser.js); the address and the
// browser's endpoint reach the tests through `inject('baseUrl')` and `inject('browserEndpoint')`.
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
  const browser = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  project.provide('browserEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await new Promise((resolve) => server.httpServer.close(resolve));
  };
}
