// Vitest on the WebAssembly module through the JS engine API, in Node.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/js/**/*.test.js'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
