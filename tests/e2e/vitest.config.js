// Browser tests: the production build served by `vite preview`, driven in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core). Three files at a time on two cores, each worker with a
// browser of its own (global-setup.js): a test mostly waits on its page (the worker's answers, the next
// frames, a run playing in real time; the suite keeps the cores about a third busy), and the other files'
// pages use that time. The files whose checks depend on how much the page gets done in a
// given time run afterwards, one at a time, as they would alone (ALONE).
import { defineConfig } from 'vitest/config';

const root = new URL('../..', import.meta.url).pathname;

/**
 * camera.test.js runs every built-in for 30 s of simulated time within its time-out, on two pages of its
 * own that use both cores; ui-fuzz.test.js must get through more than one burst of actions in its seconds.
 */
const ALONE = ['tests/e2e/camera.test.js', 'tests/e2e/ui-fuzz.test.js'];

/** What both groups share (not the global set-up, which the root runs once for both). */
const shared = {
  root,
  environment: 'node',
  // Tests marked concurrent run two at a time (camera.test.js: two pages).
  maxConcurrency: 2,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // A poll waits for what the page shows next as long as an action may take (browser.js), not the 1 s
  // default: the worker's answers come later on a loaded machine, and a poll ends as soon as it holds.
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  test: {
    root,
    globalSetup: ['tests/e2e/global-setup.js'],
    maxWorkers: 3,
    projects: [
      { test: { ...shared, name: 'e2e', include: ['tests/e2e/**/*.test.js'], exclude: ALONE, sequence: { groupOrder: 0 } } },
      { test: { ...shared, name: 'e2e-alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
