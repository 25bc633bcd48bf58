// The built-in scenarios (web/scenarios), shared by the tests, the benchmarks and the playground.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const scenarioDir = new URL('../../web/scenarios/', import.meta.url);
/**
 * The folder of the native programs the tests run (`oblique`, `oblique_scenes`): OBLIQUE_NATIVE_BUILD when
 * set — `npm test` sets build/sanitize, whose CLI runs under the sanitizers —, otherwise the Release build
 * build/native (`bash scripts/build.sh native`), for a run of the JS tests alone. A relative folder is the
 * repository's.
 */
export const nativeBuild = resolve(new URL('../..', import.meta.url).pathname,
  process.env.OBLIQUE_NATIVE_BUILD || 'build/native');
export const cliPath = join(nativeBuild, 'oblique');
/** The scene writer of bench/scenes (bench/scenes/write_scenes.cpp). */
export const scenesPath = join(nativeBuild, 'oblique_scenes');

/** The index of built-in scenarios, in teaching order. */
export function scenarioIndex() {
  return JSON.parse(readFileSync(new URL('index.json', scenarioDir), 'utf8')).scenarios;
}

/** A built-in scenario document by id. */
export function loadScenario(id) {
  const entry = scenarioIndex().find((s) => s.id === id);
  if (!entry) throw new Error(`no built-in scenario ${id}`);
  return JSON.parse(readFileSync(new URL(entry.file, scenarioDir), 'utf8'));
}

/** Path of a built-in scenario file by id. */
export function scenarioPath(id) {
  return new URL(scenarioIndex().find((s) => s.id === id).file, scenarioDir).pathname;
}
