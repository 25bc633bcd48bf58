// `npm run bench` (add `-- --quick` for a run of a few minutes): the same kernels (bench/kernels) natively
// through Google Benchmark and as WebAssembly in Node, the scene families (bench/scenes) simulated by
// today's Simulator in both builds, Box2D on the same scenes when it is installed, the whole runs of #31
// through the JS engine API with the browser peers (Rapier 2D, planck, matter-js) on the same scenes
// (whole-report.js), all measured in one run and written to bench/results/latest.json. bench/README.md
// explains every figure. Timings are reported, never asserted.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import { describePageLoad, measurePageLoad } from './page-load.js';
import { describeTargets, targetsOf, wholeRunTargetsOf } from './targets.js';
import { describeWholeRuns, measureWholeRuns } from './whole-report.js';
import { describeWorstCalls, measureWorstCalls, worstCallKeys } from './worst-calls.js';

const root = new URL('..', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
// Quick: short batches and a short window of each family; the full run: longer ones.
const settings = {
  minSeconds: Number(process.env.OBLIQUE_BENCH_SECONDS ?? (quick ? 0.05 : 0.3)),
  familySeconds: quick ? 0.02 : 0.1,
  box2dSeconds: quick ? 0.25 : 1,
  sizes: [8, 16, 32, 64],
  // Windows later in each scene (from, until in s of simulated time), at the larger sizes, in increasing start
  // (they share the untimed run to their starts): landing, the links and disks landing on the floor, when
  // most impacts come; settled, where every scene of 32 and 64 bodies stays (at rest; the row sliding apart).
  windowSizes: [32, 64],
  windows: { landing: quick ? [0.2, 0.3] : [0.1, 0.4], settled: [1.0, 1.2] },
};
const windowFlag = Object.entries(settings.windows).map(([label, [from, until]]) => `${label}:${from}:${until}`).join(',');
const families = ['row', 'chain', 'column', 'channel'];
// The built-in scenarios simulated for one second each (the same list as bench/native/benchmarks.cpp).
const scenarios = ['bouncing-ball', 'newtons-cradle-gaps', 'billiards-break', 'double-pendulum', 'four-bar',
  'slider-crank', 'rimless-wheel'];
// Every built-in scenario of the page (its list), for the worst advance over each one's whole run.
const builtIns = JSON.parse(readFileSync(`${root}web/scenarios/index.json`, 'utf8')).scenarios;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Natively (Google Benchmark, JSON): CPU seconds per iteration of every kernel; for the sim_ kernels the
 *  median of three runs and the median of their longest advance(1/60 s). */
function nativeTimes() {
  const text = execFileSync(`${root}build/native/oblique_bench`, [
    `--family-seconds=${settings.familySeconds}`, `--family-sizes=${settings.sizes.join(',')}`,
    `--family-windows=${windowFlag}`, `--window-sizes=${settings.windowSizes.join(',')}`,
    '--benchmark_format=json', `--benchmark_min_time=${settings.minSeconds}`,
  ], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const times = {};
  const runs = {};
  // Aggregates of a counter that is 0 in every repetition (the impacts of a scene at rest) have a
  // coefficient of variation 0/0, which Google Benchmark writes as NaN: not JSON.
  for (const b of JSON.parse(text.replace(/(?<=": )-?(nan|NaN|inf|Infinity)\b/g, 'null')).benchmarks) {
    if (b.run_type !== 'iteration') continue;
    const unit = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 }[b.time_unit];
    // Broad-phase runs keep their size (broad_phase_grid/256); the others are named by their kernel.
    const name = b.run_name.startsWith('broad_phase') ? b.run_name : b.run_name.split('/')[0];
    if (name.startsWith('sim_')) {
      (runs[name] ??= []).push({ cpu: b.cpu_time * unit, worst: b.worst_advance_ms, impacts: b.impacts });
    } else {
      times[name] = b.cpu_time * unit;
    }
  }
  const sims = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, {
    cpu: median(list.map((r) => r.cpu)), worst: median(list.map((r) => r.worst)), impacts: list[0].impacts,
  }]));
  return { times, sims };
}

/** Process CPU seconds of `action`. */
function cpuSeconds(action) {
  const before = process.cpuUsage();
  action();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1e6;
}

/** The same in the wasm build, in Node: kernels timed like Google Benchmark (the batch grows until it takes
 *  minSeconds of CPU time), sims as the median of three runs. */
async function wasmTimes() {
  const { default: create } = await import(`${root}build/wasm/bench/oblique_bench.mjs`);
  // Emscripten 3.1.6's ES6 glue would `fetch` a path in Node: hand it the bytes.
  const module = await create({ wasmBinary: readFileSync(`${root}build/wasm/bench/oblique_bench.wasm`) });
  for (const name of scenarios) {
    module.addScenarioKernel(name, readFileSync(`${root}web/scenarios/${name}.json`, 'utf8'));
  }
  const sizeList = new module.IntList();
  for (const n of settings.sizes) sizeList.push_back(n);
  module.addFamilyKernels(sizeList, settings.familySeconds);
  const fingerprint = module.sparseFingerprint(sizeList);
  sizeList.delete();
  const windowSizeList = new module.IntList();
  for (const n of settings.windowSizes) windowSizeList.push_back(n);
  for (const [label, [from, until]] of Object.entries(settings.windows)) {
    module.addFamilyWindowKernels(label, windowSizeList, from, until);
  }
  windowSizeList.delete();
  // Warm-up: V8 compiles wasm with its baseline compiler first and optimises hot functions later; half a
  // second of work lets it finish, so that the first kernels are not timed on baseline code.
  for (const start = process.cpuUsage(); process.cpuUsage(start).user < 5e5;) module.runKernel('projection_impact_n24', 10);
  const names = module.kernelNames();
  const times = {};
  const sims = {};
  for (let i = 0; i < names.size(); i++) {
    const name = names.get(i);
    if (name.startsWith('sim_')) {
      const runs = [0, 1, 2].map(() => ({
        cpu: cpuSeconds(() => module.runKernel(name, 1)), worst: module.lastWorstAdvanceMs(),
        impacts: module.lastImpactCount(),
      }));
      sims[name] = {
        cpu: median(runs.map((r) => r.cpu)), worst: median(runs.map((r) => r.worst)), impacts: runs[0].impacts,
      };
      continue;
    }
    module.runKernel(name, 1);  // warm-up
    for (let iterations = 1; ;) {
      const seconds = cpuSeconds(() => module.runKernel(name, iterations));
      if (seconds >= settings.minSeconds || iterations > 1e7) {
        times[name] = seconds / iterations;
        // A built-in scenario's run in 1/60 s advances: the longest of its last run.
        if (name.startsWith('simulate_')) sims[name] = { worst: module.lastWorstAdvanceMs() };
        break;
      }
      iterations *= Math.max(2, Math.min(10, Math.ceil((1.4 * settings.minSeconds) / Math.max(seconds, 1e-6))));
    }
  }
  names.delete();
  // Every built-in over its whole run (its `duration`; 2 s in a quick run): the longest advance(1/60 s), in
  // wall-clock time, so the median of three runs (a single one also measures what else the machine did).
  // First one run untimed, as the warm-up above: code that no earlier scenario ran (friction's, first run by
  // incline-block) is still being compiled and optimised by V8, which timed incline-block's worst frame at
  // 4-17 ms where the same module, warm, takes 0.55-0.7 ms: the JIT, not the simulation.
  const worstAdvance = {};
  for (const { id, file } of builtIns) {
    const text = readFileSync(`${root}web/scenarios/${file}`, 'utf8');
    module.worstAdvanceMsOverRun(text, quick ? 2 : 0);
    worstAdvance[id] = median([0, 1, 2].map(() => module.worstAdvanceMsOverRun(text, quick ? 2 : 0)));
  }
  return { times, sims, fingerprint, heapBytes: module.HEAP8.length, worstAdvance };
}

/** Box2D on the same scenes (bench/box2d), or why not. */
function box2dTimes() {
  const program = `${root}build/native/oblique_box2d_bench`;
  if (!existsSync(program)) {
    return { note: 'Box2D not measured: libbox2d-dev is not installed (scripts/setup.sh bench installs it as root), ' +
      'so build/native/oblique_box2d_bench was not built' };
  }
  const text = execFileSync(program, ['--seconds', String(settings.box2dSeconds), '--sizes', settings.sizes.join(',')],
    { encoding: 'utf8' });
  return JSON.parse(text);
}

/** Least-squares slope of log(cost) against log(N): the cost exponent. */
function exponent(points) {
  const xs = points.map((p) => Math.log(p.n));
  const ys = points.map((p) => Math.log(p.cost));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0);
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return sxx > 0 ? sxy / sxx : null;
}

const round = (x, digits = 3) => (x == null || !Number.isFinite(x) ? null : Number(x.toPrecision(digits)));

// How long each part of the run took: wall clock and CPU of this process and its children (the native
// programs), in seconds.
const partTimes = {};
async function part(label, action) {
  const wall = performance.now();
  const usage = () => {
    const self = process.resourceUsage();
    return (self.userCPUTime + self.systemCPUTime) / 1e6 + readChildrenCpu();
  };
  const cpu = usage();
  const result = await action();
  partTimes[label] = { wall_s: round((performance.now() - wall) / 1000), cpu_s: round(usage() - cpu) };
  return result;
}
/** CPU seconds of this process's finished children (/proc/self/stat: cutime + cstime), 0 where unreadable. */
function readChildrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

// --- begin: page load (fast page) ---
// The page's first load in headless Chromium (bench/page-load.js): first frame, first-load and wasm bytes.
let page;
try {
  page = await part('page load', () => measurePageLoad({ runs: quick ? 2 : 3 }));
} catch (error) {
  page = { note: `the page load was not measured: ${error.message}` };
}
// --- end: page load (fast page) ---
const native = await part('native kernels and families', () => {
  const measured = nativeTimes();
  measured.fingerprint = execFileSync(`${root}build/native/oblique_bench`,
    ['--fingerprint', `--family-sizes=${settings.sizes.join(',')}`], { encoding: 'utf8' }).trim();
  return measured;
});
const wasm = await part('wasm kernels, families and built-ins', wasmTimes);
const box2d = await part('Box2D', box2dTimes);
// #31: the whole runs in wasm (the page's module, through the JS API) and natively, and the peers.
const whole = await part('whole runs and peers (#31)', () => measureWholeRuns({ quick }));
// #30: the longest single call of the JS API on the heaviest scenes, natively and in wasm.
const worstCalls = await part('worst single call (#30)', () => measureWorstCalls({ root, quick }));

// The kernels of today's table (random systems, built-in scenarios) and the wasm/native ratios.
const kernelNames = Object.keys(native.times).filter((name) => name in wasm.times);
const kernels = kernelNames.map((name) => ({
  kernel: name, native_us: native.times[name] * 1e6, wasm_us: wasm.times[name] * 1e6,
  wasm_over_native: wasm.times[name] / native.times[name],
}));
const ratio = (times, a, b) => (times[a] && times[b] ? times[a] / times[b] : null);

// The families with today's Simulator: × real time (simulated seconds per CPU second) and the worst advance.
const familyRows = [];
const familyTable = {};
for (const family of families) {
  familyTable[family] = {};
  for (const n of settings.sizes) {
    const name = `sim_${family}_n${n}`;
    const box = box2d.results?.filter((r) => r.family === family && r.bodies === n) ?? [];
    const entry = {
      impacts: wasm.sims[name].impacts,
      same_impacts_native: native.sims[name].impacts === wasm.sims[name].impacts,
      native_realtime: round(settings.familySeconds / native.sims[name].cpu),
      wasm_realtime: round(settings.familySeconds / wasm.sims[name].cpu),
      worst_advance_ms_wasm: round(wasm.sims[name].worst),
      box2d_realtime_60hz: round(box.find((r) => r.dt > 0.01)?.realtime),
      box2d_realtime_1ms: round(box.find((r) => r.dt < 0.01)?.realtime),
    };
    familyTable[family][n] = entry;
    familyRows.push({ family, n, ...entry });
  }
}
// The same over the windows later in each scene (settings.windows), at the larger sizes.
const windowTable = {};
const windowKeys = {};
for (const [label, [from, until]] of Object.entries(settings.windows)) {
  windowTable[label] = { from, until };
  for (const family of families) {
    windowTable[label][family] = {};
    for (const n of settings.windowSizes) {
      const name = `sim_${family}_n${n}_${label}`;
      const entry = {
        impacts: wasm.sims[name].impacts,
        same_impacts_native: native.sims[name].impacts === wasm.sims[name].impacts,
        native_realtime: round((until - from) / native.sims[name].cpu),
        wasm_realtime: round((until - from) / wasm.sims[name].cpu),
        worst_advance_ms_wasm: round(wasm.sims[name].worst),
      };
      windowTable[label][family][n] = entry;
      windowKeys[`${family}${n}_${label}_realtime_wasm`] = entry.wasm_realtime;
      windowKeys[`${family}${n}_${label}_realtime_native`] = entry.native_realtime;
      windowKeys[`${family}${n}_${label}_impacts`] = entry.impacts;
    }
  }
}
const exponents = {};
for (const family of families) {
  for (const [build, sims] of [['native', native.sims], ['wasm', wasm.sims]]) {
    exponents[`${family}_${build}`] = round(exponent(settings.sizes.map((n) => ({
      n, cost: sims[`sim_${family}_n${n}`].cpu / settings.familySeconds,
    }))));
  }
}

// The sparse kernels against the dense ones on each family's system with every row active.
const solvers = {};
const solverRows = [];
for (const family of families) {
  solvers[family] = {};
  for (const n of settings.sizes) {
    const entry = {};
    for (const [build, times] of [['native', native.times], ['wasm', wasm.times]]) {
      const t = (kind) => times[`${kind}_${family}_n${n}`];
      entry[build] = {
        assemble_dense_us: round(t('assemble_dense') * 1e6),
        smooth_dense_us: round(t('smooth_dense') * 1e6), smooth_sparse_us: round(t('smooth_sparse') * 1e6),
        smooth_speedup: round(t('smooth_dense') / t('smooth_sparse')),
        impact_dense_us: round(t('impact_dense') * 1e6), impact_sparse_us: round(t('impact_sparse') * 1e6),
        impact_classical_us: round(t('impact_classical') * 1e6),
        impact_speedup: round(t('impact_dense') / t('impact_sparse')),
        sparse_over_classical: round(t('impact_sparse') / t('impact_classical')),
      };
    }
    solvers[family][n] = entry;
    solverRows.push({ family, n, ...entry });
  }
}

// Sizes of the page's module (the page's whole first load: page-load.js).
const wasmPath = `${root}web/src/engine/generated/oblique.wasm`;
const wasmGzip = existsSync(wasmPath) ? gzipSync(readFileSync(wasmPath), { level: 9 }).length : null;
const cpus = os.cpus();
const machine = `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}`;

const report = {
  date: new Date().toISOString(),
  machine,
  settings: { quick, ...settings },
  // The keys of issue #14.
  projection_over_classical_n60: round(ratio(native.times, 'projection_impact_n60', 'classical_impact_n60')),
  projection_over_classical_n60_wasm: round(ratio(wasm.times, 'projection_impact_n60', 'classical_impact_n60')),
  wasm_over_native_impact_n60: round(wasm.times.projection_impact_n60 / native.times.projection_impact_n60),
  row64_realtime_wasm: familyTable.row[64]?.wasm_realtime ?? null,
  chain32_realtime_wasm: familyTable.chain[32]?.wasm_realtime ?? null,
  column64_realtime_wasm: familyTable.column[64]?.wasm_realtime ?? null,
  channel64_realtime_wasm: familyTable.channel[64]?.wasm_realtime ?? null,
  row_exponent_wasm: exponents.row_wasm,
  // The families later in their run (windows: their times): <family><N>_<window>_realtime_wasm and _native
  // (× real time), _impacts (logged in the window, the same in both builds).
  ...windowKeys,
  box2d_row64_realtime: familyTable.row[64]?.box2d_realtime_60hz ?? null,
  box2d_row64_realtime_1ms: familyTable.row[64]?.box2d_realtime_1ms ?? null,
  ...(box2d.note ? { box2d_note: box2d.note } : { box2d_version: box2d.version }),
  // The longest advance(1/60 s) in wasm of any built-in over its whole run, which scenario, and each one's.
  worst_advance_ms: round(Math.max(...Object.values(wasm.worstAdvance))),
  worst_advance_scenario: Object.entries(wasm.worstAdvance).reduce((a, b) => (b[1] > a[1] ? b : a))[0],
  worst_advance_ms_by_scenario: Object.fromEntries(Object.entries(wasm.worstAdvance).map(([id, ms]) => [id, round(ms)])),
  worst_advance_seconds_simulated: quick ? 'the first 2 s of each' : 'each scenario\'s duration',
  worst_advance_ms_families_wasm: Object.fromEntries(families.map((f) => [f, Object.fromEntries(settings.sizes.map(
    (n) => [n, familyTable[f][n].worst_advance_ms_wasm]))])),
  // The longest call of createSimulation, advance or restoreState on 256 touching disks and 112 disks 1 mm
  // apart, each with μ = 0.3 and without: worst_call_ms_<scene>_<native|wasm>, worst_call_target_ms.
  ...worstCallKeys(worstCalls, round),
  // --- begin: page load (fast page) ---
  first_frame_ms: page.first_frame_ms ?? null,
  first_frame_presented_ms: page.first_frame_presented_ms ?? null,
  first_load_gzip_bytes: page.first_load_gzip_bytes ?? null,
  ...(page.note ? { first_frame_ms_note: page.note, first_load_gzip_bytes_note: page.note } : {}),
  page_load: page,
  // --- end: page load (fast page) ---
  wasm_gzip_bytes: wasmGzip,
  // Every number of the sparse path on the families' systems, hashed in each build: equal hashes mean
  // bit-identical results (scalar Eigen, no fused multiply-add).
  sparse_bit_identical: native.fingerprint === wasm.fingerprint,
  sparse_fingerprint: { native: native.fingerprint, wasm: wasm.fingerprint },
  ...(wasmGzip == null ? { wasm_gzip_bytes_note: 'web/src/engine/generated/oblique.wasm was not built' } : {}),
  // The details.
  families: familyTable,
  windows: windowTable,
  exponents,
  solvers,
  kernels,
  wasm_heap_bytes: wasm.heapBytes,
  // Wall clock and CPU (s) of each part of this run, the native programs' included.
  run_seconds: partTimes,
};
// --- begin: broad phase growth (contact geometry) ---
// Native only: seconds per body of one step's broad phase at each n, and how that cost grows from the
// smallest to the largest scene (1 = linear), for the grid and for testing every pair.
report.broad_phase = {};
for (const kind of ['broad_phase_grid', 'broad_phase_all_pairs']) {
  const points = Object.entries(native.times).filter(([name]) => name.startsWith(`${kind}/`))
    .map(([name, seconds]) => ({ n: Number(name.split('/')[1]), us_per_body: (seconds * 1e6) / Number(name.split('/')[1]) }));
  if (points.length > 1) {
    const growth = points.at(-1).us_per_body / points[0].us_per_body;
    report.broad_phase[kind] = { points, per_body_growth: growth };
  }
}
// --- end: broad phase growth (contact geometry) ---
// The keys of #31 (whole-report.js).
Object.assign(report, whole);
// The targets of #14 and #31, each met or missed by how much (bench/targets.js).
report.targets = targetsOf(report);
report.targets_31 = wholeRunTargetsOf(report);
mkdirSync(`${root}bench/results`, { recursive: true });
writeFileSync(`${root}bench/results/latest.json`, `${JSON.stringify(report, null, 2)}\n`);

// The tables.
const pad = (x, width) => String(x ?? '—').padStart(width);
console.log(`${machine}; ${quick ? 'quick run' : 'full run'}: family window ${settings.familySeconds} s ` +
  `(then ${windowFlag} at N = ${settings.windowSizes.join(', ')}), Box2D ${settings.box2dSeconds} s, ` +
  `kernel batches ${settings.minSeconds} s of CPU`);
console.log('\nkernel'.padEnd(31), 'native µs'.padStart(12), 'wasm µs'.padStart(12), 'wasm/native'.padStart(12));
for (const r of kernels.filter((k) => !/^(smooth|impact|assemble)_(dense|sparse|classical)_/.test(k.kernel))) {
  console.log(r.kernel.padEnd(30), r.native_us.toFixed(2).padStart(12), r.wasm_us.toFixed(2).padStart(12),
    r.wasm_over_native.toFixed(2).padStart(12));
}
console.log(`projection/classical impact, n = 60: ${report.projection_over_classical_n60} native, ` +
  `${report.projection_over_classical_n60_wasm} wasm; wasm/native ${report.wasm_over_native_impact_n60}`);
console.log(`\nworst advance(1/60 s) in wasm over ${report.worst_advance_seconds_simulated}: ` +
  `${report.worst_advance_ms} ms (${report.worst_advance_scenario}); target 4 ms`);
console.log(Object.entries(report.worst_advance_ms_by_scenario).map(([id, ms]) => `${id} ${ms}`).join(', '));
console.log('\nscene families, today\'s simulator (× real time = simulated s per CPU s; worst advance(1/60 s) in wasm)');
console.log('family'.padEnd(8), 'N'.padStart(3), 'impacts'.padStart(8), 'native ×'.padStart(10), 'wasm ×'.padStart(10),
  'worst ms'.padStart(10), 'Box2D 60 Hz ×'.padStart(14), 'Box2D 1 ms ×'.padStart(13));
for (const r of familyRows) {
  console.log(r.family.padEnd(8), pad(r.n, 3), pad(r.impacts, 8), pad(r.native_realtime, 10), pad(r.wasm_realtime, 10),
    pad(r.worst_advance_ms_wasm, 10), pad(r.box2d_realtime_60hz, 14), pad(r.box2d_realtime_1ms, 13));
}
console.log('cost exponents (CPU per simulated second ∝ N^p):',
  families.map((f) => `${f} ${exponents[`${f}_native`]} native / ${exponents[`${f}_wasm`]} wasm`).join('; '));
if (box2d.note) console.log(box2d.note);
const windowLabels = Object.keys(settings.windows);
console.log(`\nthe same later in each scene: ${windowLabels.map((label) =>
  `${label} t = ${settings.windows[label][0]}–${settings.windows[label][1]} s`).join(', ')} (impacts, native ×, wasm ×, worst ms)`);
console.log('family'.padEnd(8), 'N'.padStart(3), ...windowLabels.map((label) => [`${label}: impacts`.padStart(18),
  'native ×'.padStart(10), 'wasm ×'.padStart(10), 'worst ms'.padStart(10)].join(' ')));
for (const family of families) {
  for (const n of settings.windowSizes) {
    console.log(family.padEnd(8), pad(n, 3), ...windowLabels.map((label) => {
      const r = windowTable[label][family][n];
      return [pad(r.impacts, 18), pad(r.native_realtime, 10), pad(r.wasm_realtime, 10), pad(r.worst_advance_ms_wasm, 10)].join(' ');
    }));
  }
}
const differing = Object.values(windowTable).flatMap(({ from, until, ...byFamily }) => Object.entries(byFamily)
  .flatMap(([family, bySize]) => Object.entries(bySize).filter(([, r]) => !r.same_impacts_native)
    .map(([n]) => `${family} ${n}, t = ${from}–${until} s`)));
if (differing.length) console.log(`impacts differ between native and wasm: ${differing.join('; ')}`);
console.log('\nsparse against dense, system with every row active (wasm µs per call; speedups; sparse impact / classical)');
console.log('family'.padEnd(8), 'N'.padStart(3), 'rows (dense)'.padStart(13), 'smooth dense'.padStart(13),
  'sparse'.padStart(9), '×'.padStart(7), 'impact dense'.padStart(13), 'sparse'.padStart(9), 'classical'.padStart(10),
  '×'.padStart(7), 'sp/cl'.padStart(7), 'native ×'.padStart(9));
for (const r of solverRows) {
  const w = r.wasm;
  console.log(r.family.padEnd(8), pad(r.n, 3), pad(w.assemble_dense_us, 13), pad(w.smooth_dense_us, 13),
    pad(w.smooth_sparse_us, 9), pad(w.smooth_speedup, 7), pad(w.impact_dense_us, 13), pad(w.impact_sparse_us, 9),
    pad(w.impact_classical_us, 10), pad(w.impact_speedup, 7), pad(w.sparse_over_classical, 7),
    pad(r.native.smooth_speedup, 9));
}
// --- begin: broad phase growth (contact geometry) ---
for (const [kind, { points, per_body_growth: growth }] of Object.entries(report.broad_phase)) {
  console.log(`${kind}: ${points.map((p) => `n = ${p.n}: ${p.us_per_body.toFixed(3)} µs/body`).join(', ')}; ` +
    `cost per body ×${growth.toFixed(1)} from n = ${points[0].n} to ${points.at(-1).n}`);
}
// --- end: broad phase growth (contact geometry) ---
console.log(`\nsparse path bit-identical in native and wasm: ${report.sparse_bit_identical} ` +
  `(${native.fingerprint} / ${wasm.fingerprint})`);
// --- begin: page load (fast page) ---
console.log(`\n${page.note ?? describePageLoad(page).join('\n')}`);
// --- end: page load (fast page) ---
console.log(`wasm module: ${wasmGzip ?? '—'} bytes gzipped; wasm heap after the run: ` +
  `${(wasm.heapBytes / 1048576).toFixed(1)} MiB; written bench/results/latest.json`);
console.log(`\n${describeWholeRuns(report).join('\n')}`);
console.log(`\n${describeWorstCalls(report).join('\n')}`);
console.log('\nthe targets of #14 (wasm; bench/README.md says why a missed one is missed)');
for (const line of describeTargets(report.targets)) console.log(line);
console.log(`\nthe targets of #31 (wasm, ${quick ? 'quick' : 'full'} run: figures of process CPU, compare ratios within one run)`);
for (const line of describeTargets(report.targets_31)) console.log(line);
console.log(`\nthis run's parts (wall clock / CPU, s): ${Object.entries(partTimes).map(([label, t]) =>
  `${label} ${t.wall_s} / ${t.cpu_s}`).join('; ')}`);
