// The state a share link carries: what is on screen, as plain JSON (link formats v1, v2 and v3). Exactly one of
// `builtin` (a built-in scenario, by id) or `scenario` (a whole scenario document) names the scenario;
// everything else is optional:
//
//   e       e of every contact, in [0, 1] (the restitution slider "all contacts"), from the start of the run
//   e_i     {contact index (0-based, as a string): e} — per-contact e, applied after `e`
//   nu      virtual mass ν > 0 (absent: the condition-optimal one)
//   t       simulated time the run is advanced to, in [0, 3600] s
//   impacts impacts the run had logged by t (an impact at exactly t is resolved only by a step to it, so
//           the page that opens the link steps to those at t that a plain advance leaves pending)
//   impact  index (0-based) in the impact log of the impact shown (absent: the latest)
//   speed   playback speed, tab 'playground' | 'lab' | 'editor', trails (boolean),
//   matrix  the third matrix shown: 'P' | 'Mc' | 'E_tilde' | 'Q'
//   lab     the matrix lab's input: {M, A, qd, e} or {M, A, qd, E} (the analyzeImpact input)
//
// v2 (the timeline: a run can be watched back, and changed in the past) adds:
//
//   horizon         how far the run had been simulated, in [t, 3600] s, when it shows an earlier moment t
//                   (absent: t); horizon_impacts the impacts logged by then (absent: impacts)
//   changes         the changes of e and ν made during the run, in the order made, each at its moment:
//                   {t, impacts, e} (every contact), {t, impacts, contact, e} (one contact, 0-based) or
//                   {t, impacts, nu} (ν > 0, or null: the optimal one); e, e_i and nu above are then the
//                   settings the run started with
//
// v3 (μ in the restitution panel) adds:
//
//   mu      Coulomb's μ of every contact, in [0, 1000], or "stick" (μ = +∞), from the start of the run
//   mu_i    {contact index (0-based, as a string): μ} — per-contact μ, applied after `mu`
//   changes may also be {t, impacts, mu} (every contact) or {t, impacts, contact, mu} (one contact)
//
// Each check below is the contract of its version and never changes: a new field means a new link version
// (with an upgrade from the last one, see link-versions.js). Pure; the link worker and Vitest use it.
import { MATRICES, SPEEDS, TABS } from './query-params.js';
import { LinkError } from './link-error.js';

/** Keys of a v1 state. */
export const STATE_KEYS_V1 = ['builtin', 'scenario', 'e', 'e_i', 'nu', 't', 'impacts', 'impact', 'speed', 'tab', 'trails', 'matrix', 'lab'];
/** Keys of a v2 state. */
export const STATE_KEYS_V2 = [...STATE_KEYS_V1, 'horizon', 'horizon_impacts', 'changes'];
/** Keys of a v3 state. */
export const STATE_KEYS_V3 = [...STATE_KEYS_V2, 'mu', 'mu_i'];
/** The largest finite μ a scenario takes (kMaxFrictionCoefficient of the core). */
export const MAX_FRICTION = 1000;
/** The playback speeds of v1 (v2 has the page's, up to 16×). */
const SPEEDS_V1 = [0.1, 0.25, 0.5, 1, 2, 4];
/** Most changes a v2 link carries (a link is at most 32 000 characters anyway). */
export const MAX_CHANGES = 2000;
const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Contacts in a scenario (the format's limit): the highest e_i index + 1. */
const MAX_CONTACTS = 256;
/** Largest matrix side the lab takes. */
const MAX_LAB_SIZE = 12;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const invalid = (detail) => new LinkError('invalid', detail);

function checkRestitution(value, field) {
  if (!isNumber(value) || value < 0 || value > 1) throw invalid(`${field} must be a number in [0, 1]`);
}

/** μ in [0, MAX_FRICTION], or "stick". */
export const isFriction = (v) => v === 'stick' || (isNumber(v) && v >= 0 && v <= MAX_FRICTION);

function checkFriction(value, field) {
  if (!isFriction(value)) throw invalid(`${field} must be a number in [0, ${MAX_FRICTION}] or "stick"`);
}

function checkMatrix(value, field, { vector = false } = {}) {
  const rows = vector ? [value] : value;
  if (!Array.isArray(rows) || rows.length > MAX_LAB_SIZE) throw invalid(`${field} must be ${vector ? 'a list' : 'rows'} of numbers`);
  for (const row of rows) {
    if (!Array.isArray(row) || row.length > MAX_LAB_SIZE || !row.every(isNumber)) throw invalid(`${field} must hold finite numbers only`);
  }
}

/**
 * Throws a LinkError ('invalid', naming the field) unless `state` has the shape of a v1 state. Values are
 * checked for type and range only: the scenario document is the engine's to check (checkScenario).
 * @param {unknown} state
 * @returns {object} state
 */
export function checkStateV1(state) {
  return checkCommon(state, STATE_KEYS_V1, SPEEDS_V1);
}

/** The fields v1 and v2 share, with the keys and speeds of a version. */
function checkCommon(state, keys, speeds) {
  if (!isObject(state)) throw invalid('the state must be an object');
  for (const key of Object.keys(state)) {
    if (!keys.includes(key)) throw invalid(`unknown field ${JSON.stringify(key.slice(0, 40))}`);
  }
  const hasBuiltin = state.builtin !== undefined;
  const hasScenario = state.scenario !== undefined;
  if (hasBuiltin === hasScenario) throw invalid('the state must name a built-in scenario or carry one, not both');
  if (hasBuiltin && (typeof state.builtin !== 'string' || !ID.test(state.builtin))) throw invalid('builtin must be a scenario id');
  if (hasScenario && !isObject(state.scenario)) throw invalid('scenario must be an object');
  if (state.e !== undefined) checkRestitution(state.e, 'e');
  if (state.e_i !== undefined) {
    if (!isObject(state.e_i)) throw invalid('e_i must be an object');
    for (const [key, value] of Object.entries(state.e_i)) {
      if (!/^(0|[1-9]\d{0,2})$/.test(key) || Number(key) >= MAX_CONTACTS) throw invalid(`e_i has a key that is not a contact index: ${JSON.stringify(key.slice(0, 20))}`);
      checkRestitution(value, `e_i.${key}`);
    }
  }
  if (state.nu !== undefined && (!isNumber(state.nu) || state.nu <= 0)) throw invalid('nu must be a number > 0');
  if (state.t !== undefined && (!isNumber(state.t) || state.t < 0 || state.t > 3600)) throw invalid('t must be a time in [0, 3600] s');
  if (state.impacts !== undefined && (!Number.isInteger(state.impacts) || state.impacts < 0)) throw invalid('impacts must be a count ≥ 0');
  if (state.impact !== undefined && (!Number.isInteger(state.impact) || state.impact < 0)) throw invalid('impact must be an index ≥ 0');
  if (state.speed !== undefined && !speeds.includes(state.speed)) throw invalid(`speed must be one of ${speeds.join(', ')}`);
  if (state.tab !== undefined && !TABS.includes(state.tab)) throw invalid(`tab must be one of ${TABS.join(', ')}`);
  if (state.trails !== undefined && typeof state.trails !== 'boolean') throw invalid('trails must be true or false');
  if (state.matrix !== undefined && !MATRICES.includes(state.matrix)) throw invalid(`matrix must be one of ${MATRICES.join(', ')}`);
  if (state.lab !== undefined) {
    const lab = state.lab;
    if (!isObject(lab)) throw invalid('lab must be an object');
    for (const key of Object.keys(lab)) {
      if (!['M', 'A', 'qd', 'e', 'E'].includes(key)) throw invalid(`lab has an unknown field ${JSON.stringify(key.slice(0, 20))}`);
    }
    checkMatrix(lab.M, 'lab.M');
    checkMatrix(lab.A, 'lab.A');
    checkMatrix(lab.qd, 'lab.qd', { vector: true });
    if ((lab.e === undefined) === (lab.E === undefined)) throw invalid('lab must have e or E');
    if (lab.e !== undefined && !isNumber(lab.e)) throw invalid('lab.e must be a number');
    if (lab.E !== undefined) checkMatrix(lab.E, 'lab.E', { vector: true });
  }
  return state;
}

const isTime = (v) => isNumber(v) && v >= 0 && v <= 3600;
const isCount = (v) => Number.isInteger(v) && v >= 0;

/** Throws unless `change` is one change of a v2 state's `changes` (`field` names it in the message). */
function checkChange(change, field) {
  if (!isObject(change)) throw invalid(`${field} must be an object`);
  for (const key of Object.keys(change)) {
    if (!['t', 'impacts', 'e', 'contact', 'nu'].includes(key)) throw invalid(`${field} has an unknown field ${JSON.stringify(key.slice(0, 20))}`);
  }
  if (!isTime(change.t)) throw invalid(`${field}.t must be a time in [0, 3600] s`);
  if (!isCount(change.impacts)) throw invalid(`${field}.impacts must be a count ≥ 0`);
  const hasNu = change.nu !== undefined;
  if (hasNu === (change.e !== undefined)) throw invalid(`${field} must change e or nu, one of them`);
  if (hasNu) {
    if (change.contact !== undefined) throw invalid(`${field} changes nu, which has no contact`);
    if (change.nu !== null && (!isNumber(change.nu) || change.nu <= 0)) throw invalid(`${field}.nu must be a number > 0, or null (optimal)`);
  } else {
    checkRestitution(change.e, `${field}.e`);
    if (change.contact !== undefined && (!isCount(change.contact) || change.contact >= MAX_CONTACTS)) {
      throw invalid(`${field}.contact must be a contact index`);
    }
  }
}

/** Throws unless `change` is one change of a v3 state's `changes`: v2's, or {t, impacts, contact?, mu}. */
function checkChangeV3(change, field) {
  if (!isObject(change) || change.mu === undefined) return checkChange(change, field);
  for (const key of Object.keys(change)) {
    if (!['t', 'impacts', 'contact', 'mu'].includes(key)) throw invalid(`${field} has an unknown field ${JSON.stringify(key.slice(0, 20))}`);
  }
  if (!isTime(change.t)) throw invalid(`${field}.t must be a time in [0, 3600] s`);
  if (!isCount(change.impacts)) throw invalid(`${field}.impacts must be a count ≥ 0`);
  checkFriction(change.mu, `${field}.mu`);
  if (change.contact !== undefined && (!isCount(change.contact) || change.contact >= MAX_CONTACTS)) {
    throw invalid(`${field}.contact must be a contact index`);
  }
}

/**
 * Throws a LinkError ('invalid', naming the field) unless `state` has the shape of a v3 state: v2's, with
 * `mu`, `mu_i` and changes of μ.
 * @param {unknown} state
 * @returns {object} state
 */
export function checkStateV3(state) {
  checkRun(state, STATE_KEYS_V3, checkChangeV3);
  if (state.mu !== undefined) checkFriction(state.mu, 'mu');
  if (state.mu_i !== undefined) {
    if (!isObject(state.mu_i)) throw invalid('mu_i must be an object');
    for (const [key, value] of Object.entries(state.mu_i)) {
      if (!/^(0|[1-9]\d{0,2})$/.test(key) || Number(key) >= MAX_CONTACTS) throw invalid(`mu_i has a key that is not a contact index: ${JSON.stringify(key.slice(0, 20))}`);
      checkFriction(value, `mu_i.${key}`);
    }
  }
  return state;
}

/**
 * Throws a LinkError ('invalid', naming the field) unless `state` has the shape of a v2 state: v1's fields
 * (speeds up to 16×), the run's horizon, and its changes in the order made, none after the horizon.
 * @param {unknown} state
 * @returns {object} state
 */
export function checkStateV2(state) {
  return checkRun(state, STATE_KEYS_V2, checkChange);
}

/** v2's checks (and v3's, with its keys and changes): the common fields, the horizon and the changes. */
function checkRun(state, keys, checkOneChange) {
  checkCommon(state, keys, SPEEDS);
  const t = state.t ?? 0;
  const impacts = state.impacts ?? 0;
  if (state.horizon !== undefined && (!isTime(state.horizon) || state.horizon < t)) throw invalid('horizon must be a time in [t, 3600] s');
  if (state.horizon_impacts !== undefined && (!isCount(state.horizon_impacts) || state.horizon_impacts < impacts)) {
    throw invalid('horizon_impacts must be a count ≥ impacts');
  }
  if (state.changes !== undefined) {
    if (!Array.isArray(state.changes) || state.changes.length > MAX_CHANGES) throw invalid(`changes must be a list of at most ${MAX_CHANGES} changes`);
    const end = state.horizon ?? t;
    state.changes.forEach((change, k) => {
      checkOneChange(change, `changes[${k}]`);
      const before = state.changes[k - 1];
      if (before && (change.t < before.t || (change.t === before.t && change.impacts < before.impacts))) {
        throw invalid(`changes[${k}] comes before changes[${k - 1}]: they must be in the order made`);
      }
      if (change.t > end) throw invalid(`changes[${k}] is after the run's horizon`);
    });
  }
  return state;
}
