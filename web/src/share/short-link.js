// Short share links and page addresses: a built-in scenario and a few settings as readable parameters,
// `#scenario=four-bar&e=0.3&t=1.2` in a fragment or `?scenario=four-bar&embed=1` in a query string. Their
// parameters keep their meaning forever (new ones may be added), so they carry no version. Pure and
// small: the page reads its address with it before anything else loads.
import { PARAMETERS, readParameters, writeParameters } from './query-params.js';

/** Display options of a short link or query string (how the page is laid out, not what it shows). */
const DISPLAY = Object.keys(PARAMETERS).filter((name) => PARAMETERS[name].group === 'display');

/**
 * Reads a short link (`scenario=four-bar&e=0.3&t=1.2`, without '#'). Bad values fall back to their
 * defaults with a notice each. `state` has no `builtin` when `scenario` is not given (the page's default).
 * @returns {{state: object, display: object, notices: string[]}}
 */
export function readShortLink(text) {
  const { values, contacts, frictions, notices, given } = readParameters(text);
  const state = {};
  if (given.has('scenario')) state.builtin = values.scenario;
  if (given.has('e')) state.e = values.e;
  if (Object.keys(contacts).length) state.e_i = Object.fromEntries(Object.entries(contacts).map(([k, v]) => [String(k), v]));
  if (given.has('mu')) state.mu = values.mu;
  if (Object.keys(frictions).length) state.mu_i = Object.fromEntries(Object.entries(frictions).map(([k, v]) => [String(k), v]));
  for (const name of ['nu', 't', 'impacts', 'horizon', 'horizon_impacts', 'speed', 'tab', 'trails', 'matrix']) {
    if (given.has(name)) state[name] = values[name];
  }
  if (given.has('impact')) state.impact = values.impact - 1;
  const display = {};
  for (const name of DISPLAY) if (given.has(name)) display[name] = values[name];
  return { state, display, notices };
}

/**
 * Writes a short link for a state that names a built-in scenario (null for one that carries a scenario,
 * the lab's input or changes made during the run: those need a full link). `display` adds display
 * options (embed, panels, …).
 */
export function writeShortLink(state, display = {}) {
  if (state.builtin === undefined || state.scenario !== undefined || state.lab !== undefined || state.changes?.length) return null;
  const values = { scenario: state.builtin, e: state.e, mu: state.mu, nu: state.nu, t: state.t, impacts: state.impacts, horizon: state.horizon,
    horizon_impacts: state.horizon_impacts, speed: state.speed, tab: state.tab, trails: state.trails, matrix: state.matrix,
    impact: state.impact === undefined ? undefined : state.impact + 1, ...display };
  const contacts = Object.fromEntries(Object.entries(state.e_i ?? {}).map(([k, v]) => [Number(k), v]));
  const frictions = Object.fromEntries(Object.entries(state.mu_i ?? {}).map(([k, v]) => [Number(k), v]));
  return writeParameters(values, contacts, frictions);
}

