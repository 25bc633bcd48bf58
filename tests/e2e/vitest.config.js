// Browser tests: the production build served by `vite preview`, driven in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core). One file at a time: the machine is small and WebGL is
// software-rendered.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/e2e/**/*.test.js'],
    environment: 'node',
    globalSetup: ['tests/e2e/global-setup.js'],
    fileParallelism: false,
    // Tests marked concurrent run two at a time (camera.test.js: two pages on the two cores).
    maxConcurrency: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
