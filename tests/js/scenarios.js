// The built-in scenarios (web/scenarios), shared by the tests, the benchmarks and the playground.
import { readFileSync } from 'node:fs';

export const scenarioDir = new URL('../../web/scenarios/', import.meta.url);
export const cliPath = new URL('../../build/native/oblique', import.meta.url).pathname;

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
