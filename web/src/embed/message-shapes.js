// The messages a page embedding Oblique may send it (window.postMessage), checked for shape before anything
// is done: a message that does not fit is answered with an `oblique:error` naming what is wrong, never
// acted on in part and never dropped in silence. Messages whose `type` does not start with "oblique:" are
// not for Oblique (course pages and their plugins talk to frames too) and are left alone. Pure.
import { SPEEDS } from '../share/query-params.js';

/** Types the page accepts from its parent. */
export const REQUESTS = ['oblique:load-scenario', 'oblique:set', 'oblique:play', 'oblique:pause', 'oblique:reset'];
/** Longest scenario a message may carry, as JSON text (a scenario within the format's limits is far smaller). */
export const MAX_SCENARIO_CHARS = 1_000_000;

const KEYS = {
  'oblique:load-scenario': ['scenario'],
  'oblique:set': ['e', 'e_i', 'mu', 'nu', 'speed'],
  'oblique:play': [],
  'oblique:pause': [],
  'oblique:reset': [],
};

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const show = (v) => {
  if (typeof v === 'string') return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : String(v);
};

/** True when `data` is addressed to Oblique (an object whose type starts with "oblique:"). */
export function isForOblique(data) {
  return isObject(data) && typeof data.type === 'string' && data.type.startsWith('oblique:');
}

/**
 * Checks a message for Oblique. Returns the request: {type, id?, scenario?, e?, e_i?, nu?, speed?} (e_i as
 * {contact index: e}); throws an Error whose message names the field.
 * @param {object} data a message for which isForOblique is true
 */
export function checkMessage(data) {
  const { type } = data;
  if (!REQUESTS.includes(type)) throw new Error(`${type}: unknown message (Oblique accepts ${REQUESTS.join(', ')})`);
  const request = { type };
  if (data.id !== undefined) {
    if (!(typeof data.id === 'string' && data.id.length <= 64) && !Number.isInteger(data.id)) throw new Error(`${type}: id must be a short string or an integer`);
    request.id = data.id;
  }
  for (const key of Object.keys(data)) {
    if (key !== 'type' && key !== 'id' && !KEYS[type].includes(key)) {
      throw new Error(`${type}: unknown field ${show(key)}${KEYS[type].length ? ` (it takes ${KEYS[type].join(', ')})` : ' (it takes none)'}`);
    }
  }
  if (type === 'oblique:load-scenario') {
    let { scenario } = data;
    if (typeof scenario === 'string') {
      if (scenario.length > MAX_SCENARIO_CHARS) throw new Error(`${type}: scenario is ${scenario.length} characters of JSON (at most ${MAX_SCENARIO_CHARS})`);
      try { scenario = JSON.parse(scenario); } catch (error) { throw new Error(`${type}: scenario is not JSON (${error.message})`); }
    }
    if (!isObject(scenario)) throw new Error(`${type}: scenario must be a scenario object (or its JSON text), got ${show(scenario)}`);
    let size;
    try { size = JSON.stringify(scenario).length; } catch { throw new Error(`${type}: scenario cannot be written as JSON`); }
    if (size > MAX_SCENARIO_CHARS) throw new Error(`${type}: scenario is ${size} characters of JSON (at most ${MAX_SCENARIO_CHARS})`);
    request.scenario = scenario;
  }
  if (type === 'oblique:set') {
    if (!['e', 'e_i', 'mu', 'nu', 'speed'].some((key) => data[key] !== undefined)) throw new Error(`${type}: give at least one of e, e_i, mu, nu, speed`);
    if (data.e !== undefined) {
      if (!isNumber(data.e) || data.e < 0 || data.e > 1) throw new Error(`${type}: e must be a number in [0, 1], got ${show(data.e)}`);
      request.e = data.e;
    }
    if (data.e_i !== undefined) {
      // An array (null: leave that contact) or an object {contact index: e}.
      const entries = Array.isArray(data.e_i) ? data.e_i.map((v, i) => [String(i), v]).filter(([, v]) => v !== null)
        : isObject(data.e_i) ? Object.entries(data.e_i) : null;
      if (!entries) throw new Error(`${type}: e_i must be an array of e per contact (null to leave one) or an object {contact index: e}, got ${show(data.e_i)}`);
      request.e_i = {};
      for (const [key, value] of entries) {
        if (!/^(0|[1-9]\d{0,2})$/.test(key)) throw new Error(`${type}: e_i has a key that is not a contact index: ${show(key)}`);
        if (!isNumber(value) || value < 0 || value > 1) throw new Error(`${type}: e_i[${key}] must be a number in [0, 1], got ${show(value)}`);
        request.e_i[key] = value;
      }
    }
    if (data.nu !== undefined) {
      if (data.nu !== null && (!isNumber(data.nu) || data.nu <= 0)) throw new Error(`${type}: nu must be a number > 0, or null for the optimal one, got ${show(data.nu)}`);
      request.nu = data.nu;
    }
    if (data.mu !== undefined) {
      const ok = data.mu === 'stick' || (isNumber(data.mu) && data.mu >= 0 && data.mu <= 1000);
      if (!ok) throw new Error(`${type}: mu must be a number in [0, 1000] or "stick", got ${show(data.mu)}`);
      request.mu = data.mu;
    }
    if (data.speed !== undefined) {
      if (!SPEEDS.includes(data.speed)) throw new Error(`${type}: speed must be one of ${SPEEDS.join(', ')}, got ${show(data.speed)}`);
      request.speed = data.speed;
    }
  }
  return request;
}
