// `npm run bench`: the same kernels (bench/kernels) natively through Google Benchmark and as WebAssembly in
// Node, measured in one run, reported as ratios (wasm/native; projection/classical impact solve) and
// written to bench/results/latest.json. Timings are reported, never asserted.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import os from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const minSeconds = Number(process.env.OBLIQUE_BENCH_SECONDS ?? 0.3);
// The built-in scenarios simulated for one second each (the same list as bench/native/benchmarks.cpp).
const scenarios = ['bouncing-ball', 'newtons-cradle-gaps', 'billiards-break', 'double-pendulum', 'four-bar',
  'slider-crank', 'rimless-wheel'];

/** Seconds per iteration of every kernel, natively (Google Benchmark, JSON output). */
function nativeTimes() {
  const text = execFileSync(`${root}build/native/oblique_bench`,
    ['--benchmark_format=json', `--benchmark_min_time=${minSeconds}`], { encoding: 'utf8' });
  const times = {};
  for (const b of JSON.parse(text).benchmarks) {
    if (b.run_type === 'aggregate') continue;  // complexity fits (BigO, RMS) carry no time
    const unit = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 }[b.time_unit];
    times[b.name] = b.real_time * unit;
  }
  return times;
}

/** Seconds per iteration of every kernel in the wasm build, timed like Google Benchmark: grow the batch
 *  until it takes at least `minSeconds`. */
async function wasmTimes() {
  const { default: create } = await import(`${root}build/wasm/bench/oblique_bench.mjs`);
  // Emscripten 3.1.6's ES6 glue would `fetch` a path in Node: hand it the bytes.
  const module = await create({ wasmBinary: readFileSync(`${root}build/wasm/bench/oblique_bench.wasm`) });
  for (const name of scenarios) {
    module.addScenarioKernel(name, readFileSync(`${root}web/scenarios/${name}.json`, 'utf8'));
  }
  const names = module.kernelNames();
  const times = {};
  for (let i = 0; i < names.size(); i++) {
    const name = names.get(i);
    module.runKernel(name, 1);  // warm-up
    let iterations = 1;
    for (;;) {
      const start = performance.now();
      module.runKernel(name, iterations);
      const seconds = (performance.now() - start) / 1000;
      if (seconds >= minSeconds || iterations > 1e7) {
        times[name] = seconds / iterations;
        break;
      }
      iterations *= Math.max(2, Math.min(10, Math.ceil((1.4 * minSeconds) / Math.max(seconds, 1e-6))));
    }
  }
  names.delete();
  return { times, heapBytes: module.HEAP8.length };
}

const native = nativeTimes();
const { times: wasm, heapBytes } = await wasmTimes();
const kernels = Object.keys(native).filter((name) => name in wasm);
const rows = kernels.map((name) => ({
  kernel: name,
  native_us: native[name] * 1e6,
  wasm_us: wasm[name] * 1e6,
  wasm_over_native: wasm[name] / native[name],
}));
const sizes = [...new Set(kernels.map((k) => k.match(/_n(\d+)$/)?.[1]).filter(Boolean))];
const projectionOverClassical = sizes
  .filter((n) => native[`projection_impact_n${n}`] && native[`classical_impact_n${n}`])
  .map((n) => ({
    n: Number(n),
    native: native[`projection_impact_n${n}`] / native[`classical_impact_n${n}`],
    wasm: wasm[`projection_impact_n${n}`] / wasm[`classical_impact_n${n}`],
  }));

const report = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
  kernels: rows,
  projection_over_classical: projectionOverClassical,
  wasm_heap_bytes: heapBytes,
};
// --- begin: broad phase growth (contact geometry) ---
// Native only: seconds per body of one step's broad phase at each n, and how that cost grows from the
// smallest to the largest scene (1 = linear), for the grid and for testing every pair.
report.broad_phase = {};
for (const kind of ['broad_phase_grid', 'broad_phase_all_pairs']) {
  const points = Object.entries(native).filter(([name]) => name.startsWith(`${kind}/`))
    .map(([name, seconds]) => ({ n: Number(name.split('/')[1]), us_per_body: (seconds * 1e6) / Number(name.split('/')[1]) }));
  if (points.length > 1) {
    const growth = points.at(-1).us_per_body / points[0].us_per_body;
    report.broad_phase[kind] = { points, per_body_growth: growth };
  }
}
// --- end: broad phase growth (contact geometry) ---
mkdirSync(`${root}bench/results`, { recursive: true });
writeFileSync(`${root}bench/results/latest.json`, `${JSON.stringify(report, null, 2)}\n`);

console.log('kernel'.padEnd(30), 'native µs'.padStart(12), 'wasm µs'.padStart(12), 'wasm/native'.padStart(12));
for (const r of rows) {
  console.log(r.kernel.padEnd(30), r.native_us.toFixed(2).padStart(12), r.wasm_us.toFixed(2).padStart(12),
    r.wasm_over_native.toFixed(2).padStart(12));
}
for (const r of projectionOverClassical) {
  console.log(`projection/classical impact, n = ${r.n}: ${r.native.toFixed(2)} native, ${r.wasm.toFixed(2)} wasm`);
}
for (const r of rows.filter((row) => row.kernel.startsWith('simulate_'))) {
  const frameMs = r.wasm_us / 1000 / 60;
  console.log(`${r.kernel.slice(9)}: one simulated second costs ${(r.wasm_us / 1000).toFixed(1)} ms in wasm ` +
    `(${frameMs.toFixed(2)} ms per 60 fps frame, ${(100 * frameMs / 16.7).toFixed(1)}% of the frame budget)`);
}
// --- begin: broad phase growth (contact geometry) ---
for (const [kind, { points, per_body_growth: growth }] of Object.entries(report.broad_phase)) {
  console.log(`${kind}: ${points.map((p) => `n = ${p.n}: ${p.us_per_body.toFixed(3)} µs/body`).join(', ')}; ` +
    `cost per body ×${growth.toFixed(1)} from n = ${points[0].n} to ${points.at(-1).n}`);
}
// --- end: broad phase growth (contact geometry) ---
console.log(`wasm heap after the run: ${(heapBytes / 1048576).toFixed(1)} MiB; written bench/results/latest.json`);
