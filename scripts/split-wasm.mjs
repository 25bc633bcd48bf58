// Splits the page's WebAssembly module in two (run by CMake after linking oblique_wasm with -sSPLIT_MODULE):
// the code the page's first frame runs stays in oblique.wasm, loaded before it; the rest of the core goes to
// oblique.deferred.wasm, fetched after the first frame (web/src/engine/deferred-code.js). Which functions the
// first frame runs is measured, not listed: Emscripten writes an instrumented module (oblique.wasm) next to
// the plain one (oblique.wasm.orig); this script runs the instrumented one in Node as the page starts — the
// first built-in scenario loaded and played for PROFILE_SECONDS through the worker's own simulation service,
// stepped to its next impact, that impact's record read and the run reset —, writes the profile of the
// functions called, and hands it to Binaryen's wasm-split.
//   node scripts/split-wasm.mjs GENERATED_DIR PROFILE_FILE [WASM_SPLIT]
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** Simulated seconds of the first scenario in the profile: its first impacts, as the page plays it. */
const PROFILE_SECONDS = 3;
/** WebAssembly features of the module (Emscripten 3.1.6's defaults, -fwasm-exceptions and -mbulk-memory). */
const FEATURES = ['--enable-exception-handling', '--enable-mutable-globals', '--enable-sign-ext', '--enable-bulk-memory'];

const [generated, profileFile, wasmSplit = 'wasm-split'] = process.argv.slice(2);
if (!generated || !profileFile) throw new Error('usage: node scripts/split-wasm.mjs GENERATED_DIR PROFILE_FILE [WASM_SPLIT]');
const root = new URL('..', import.meta.url);
const { default: createObliqueModule } = await import(`${generated}/oblique.js`);
const { ObliqueEngine } = await import(new URL('web/src/engine/index.js', root));
const { createSimulationService } = await import(new URL('web/src/worker/simulation-service.js', root));

// The instrumented module, driven through the worker's protocol as the page drives it before its first frame.
const module = await createObliqueModule({ wasmBinary: readFileSync(`${generated}/oblique.wasm`) });
const engine = new ObliqueEngine(module);
const replies = new Map();
const service = createSimulationService({ loadEngine: async () => engine,
  post: (message) => { if (message.type === 'reply') replies.set(message.id, message); } });
let nextId = 1;
async function request(type, payload = {}) {
  const id = nextId++;
  await service.receive({ id, type, ...payload });
  const reply = replies.get(id);
  if (!reply || reply.error !== undefined) throw new Error(`profile run: ${type} failed: ${reply?.error}`);
  return reply.value;
}
const index = JSON.parse(readFileSync(new URL('web/scenarios/index.json', root), 'utf8'));
const first = index.scenarios[0];
const scenario = JSON.parse(readFileSync(new URL(`web/scenarios/${first.file}`, root), 'utf8'));
await request('load', { scenario });
for (let tick = 0; tick < PROFILE_SECONDS * 60; tick++) await request('tick', { dt: 1 / 60, until: Infinity });
// The first screen's other controls and the panels of an impact: step to the next impact, its full record, reset.
await request('step', { horizon: 10, until: Infinity });
await request('impact', { index: 0 });
await request('reset');

// The profile (one byte per function), read from the module's memory.
const writeProfile = module.asm.__write_profile;
const size = writeProfile(0, 0);
const address = module._malloc(size);
writeProfile(address, size);
writeFileSync(profileFile, module.HEAPU8.slice(address, address + size));

execFileSync(wasmSplit, [`${generated}/oblique.wasm.orig`, `--profile=${profileFile}`, ...FEATURES,
  '-o1', `${generated}/oblique.split.wasm`, '-o2', `${generated}/oblique.deferred.wasm`], { stdio: 'inherit' });
renameSync(`${generated}/oblique.split.wasm`, `${generated}/oblique.wasm`);
rmSync(`${generated}/oblique.wasm.orig`);
console.log(`split-wasm: ${first.id} played ${PROFILE_SECONDS} s: oblique.wasm keeps the functions it ran`);
