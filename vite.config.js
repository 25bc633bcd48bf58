// Vite builds the playground (web/) into static files (dist/) that work from any static host, at any path,
// and inside an iframe: relative asset URLs (base './'), the simulation in an ES-module Web Worker, the
// WebAssembly core emitted as an asset next to the worker that fetches it.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  base: './',
  // web/scenarios/ is served as-is (fetched at run time, not bundled), so the scenario files stay the one
  // source the C++ tests, the CLI and the page share.
  publicDir: false,
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    // The page, and a plain course page with two embeds of it (web/embed-example.html).
    rollupOptions: {
      input: {
        main: 'web/index.html',
        'embed-example': 'web/embed-example.html',
      },
    },
  },
  worker: {
    format: 'es',
  },
  server: {
    strictPort: false,
  },
});
