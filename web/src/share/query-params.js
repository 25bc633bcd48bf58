// The page's parameters: typed, each with a default, read from the query string (`?embed=1&panels=gamma,S`)
// or from a short share link in the fragment (`#scenario=four-bar&e=0.3&t=1.2`). A value that does not
// parse falls back to its default and yields a notice that says what was wrong and what is used instead;
// a parameter the page does not know yields a notice too. Pure (no DOM): the link worker and Vitest use it.

/** Playback speeds the page offers (the playground's speed slider has the same notches). */
export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 16];
/** The page's tabs. */
export const TABS = ['playground', 'lab', 'editor'];
/** The third matrix of the playground's matrix panel. */
export const MATRICES = ['P', 'Mc', 'E_tilde', 'Q'];
/** Panels an embed can show, in the order they are laid out. */
export const PANELS = ['gamma', 'S', 'R', 'velocity', 'impulses', 'log', 'energy', 'restitution'];
/** The panels of an embed when `panels` is not given. */
export const DEFAULT_PANELS = ['gamma', 'S', 'R'];
/** Languages the page's own text exists in (`lang`). */
export const LANGUAGES = ['en'];
/** Contacts a short link can set one e of (`e1` … `e256`, the format's limit). */
export const MAX_CONTACTS = 256;
/** Longest query string or short fragment read, in characters. */
export const MAX_PARAMS_LENGTH = 4000;

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Every parameter: `kind` (how it is read), its default, and where it belongs: `state` (what is on screen,
 * also carried by full links) or `display` (how the page is laid out; query string or short link only).
 */
export const PARAMETERS = {
  embed: { kind: 'flag', default: false, group: 'display', help: '0 or 1' },
  scenario: { kind: 'id', default: null, group: 'state', help: 'a built-in scenario id' },
  e: { kind: 'number', min: 0, max: 1, default: null, group: 'state', help: 'a number in [0, 1]' },
  mu: { kind: 'friction', min: 0, max: 1000, default: null, group: 'state', help: 'a number in [0, 1000] or stick' },
  nu: { kind: 'number', min: 0, exclusiveMin: true, default: null, group: 'state', help: 'a number > 0' },
  t: { kind: 'number', min: 0, max: 3600, default: 0, group: 'state', help: 'a time in [0, 3600] s' },
  impacts: { kind: 'integer', min: 0, default: null, group: 'state', help: 'a count of impacts' },
  horizon: { kind: 'number', min: 0, max: 3600, default: null, group: 'state', help: 'a time in [0, 3600] s' },
  horizon_impacts: { kind: 'integer', min: 0, default: null, group: 'state', help: 'a count of impacts' },
  impact: { kind: 'integer', min: 1, default: null, group: 'state', help: 'an impact number (1 is the first)' },
  speed: { kind: 'choice', values: SPEEDS, default: 1, group: 'state', help: SPEEDS.join(', ') },
  tab: { kind: 'choice', values: TABS, default: 'playground', group: 'state', help: TABS.join(', ') },
  trails: { kind: 'flag', default: null, group: 'state', help: '0 or 1' },
  matrix: { kind: 'choice', values: MATRICES, default: 'P', group: 'state', help: MATRICES.join(', ') },
  autoplay: { kind: 'flag', default: null, group: 'display', help: '0 or 1' },
  controls: { kind: 'flag', default: true, group: 'display', help: '0 or 1' },
  panels: { kind: 'list', values: PANELS, default: DEFAULT_PANELS, group: 'display', help: `a comma list of ${PANELS.join(', ')}` },
  lang: { kind: 'choice', values: LANGUAGES, default: 'en', group: 'display', help: LANGUAGES.join(', ') },
};

/** The per-contact restitution parameter `e<k>` (k from 1): its contact index (0-based), or null. */
export function contactParam(name) {
  const match = /^e([1-9]\d{0,2})$/.exec(name);
  if (!match) return null;
  const k = Number(match[1]);
  return k <= MAX_CONTACTS ? k - 1 : null;
}

/** The per-contact friction parameter `mu<k>` (k from 1): its contact index (0-based), or null. */
export function frictionParam(name) {
  const match = /^mu([1-9]\d{0,2})$/.exec(name);
  if (!match) return null;
  const k = Number(match[1]);
  return k <= MAX_CONTACTS ? k - 1 : null;
}

/** A value's text in a notice: quoted, shortened, control characters shown as escapes. */
function shown(text) {
  const short = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(short);
}

/** Reads one value of a spec; returns {value} or {problem}. */
function readValue(spec, text) {
  switch (spec.kind) {
    case 'id':
      return ID.test(text) ? { value: text } : { problem: 'is not a scenario id' };
    case 'friction':
      if (text === 'stick') return { value: 'stick' };
    // falls through: otherwise a number
    case 'number':
    case 'integer': {
      if (!NUMBER.test(text)) return { problem: `is not ${spec.help}` };
      const value = Number(text);
      const low = spec.exclusiveMin ? value <= spec.min : value < spec.min;
      if (!Number.isFinite(value) || low || (spec.max !== undefined && value > spec.max) ||
          (spec.kind === 'integer' && !Number.isInteger(value))) {
        return { problem: `is not ${spec.help}` };
      }
      return { value };
    }
    case 'choice': {
      const value = spec.values.find((v) => String(v) === text || (typeof v === 'number' && NUMBER.test(text) && Number(text) === v));
      return value === undefined ? { problem: `is not one of ${spec.help}` } : { value };
    }
    case 'flag':
      if (text === '1' || text === 'true' || text === '') return { value: true };
      if (text === '0' || text === 'false') return { value: false };
      return { problem: 'is not 0 or 1' };
    case 'list': {
      const items = text.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = items.filter((item) => !spec.values.includes(item));
      if (unknown.length || !items.length) return { problem: unknown.length ? `names no panel ${shown(unknown.join(','))} (panels: ${spec.help})` : 'is empty' };
      return { value: [...new Set(items)] };
    }
    default:
      return { problem: 'is not understood' };
  }
}

/** How a default is written in a notice. */
function defaultText(name, spec) {
  if (spec.default === null) return 'ignored';
  if (Array.isArray(spec.default)) return `using ${spec.default.join(',')}`;
  if (name === 'speed') return `using ${spec.default}×`;
  if (typeof spec.default === 'boolean') return `using ${spec.default ? 1 : 0}`;
  return `using ${spec.default}`;
}

/**
 * Reads parameters from `key=value&…` text (a query string without `?`, or a short fragment without `#`).
 * @param {string} text
 * @returns {{values: Object<string, any>, contacts: Object<number, number>, frictions: Object<number, number|'stick'>,
 *   notices: string[], given: Set<string>}}
 *   `values`: every parameter, given or default; `contacts`: e of contact index (0-based) from `e<k>`;
 *   `frictions`: μ of contact index from `mu<k>`; `given`: the names that were given with a good value.
 */
export function readParameters(text) {
  const values = Object.fromEntries(Object.entries(PARAMETERS).map(([name, spec]) => [name, spec.default]));
  const contacts = {};
  const frictions = {};
  const notices = [];
  const given = new Set();
  if (!text) return { values, contacts, frictions, notices, given };
  if (text.length > MAX_PARAMS_LENGTH) {
    notices.push(`the parameters are ${text.length} characters long (at most ${MAX_PARAMS_LENGTH}): ignored`);
    return { values, contacts, frictions, notices, given };
  }
  let params;
  try {
    params = new URLSearchParams(text);
  } catch {
    notices.push('the parameters could not be read: ignored');
    return { values, contacts, frictions, notices, given };
  }
  const seen = new Set();
  for (const [name, raw] of params) {
    const value = raw.trim();
    if (seen.has(name)) {
      notices.push(`${name} is given twice: the first value is used`);
      continue;
    }
    seen.add(name);
    const contact = contactParam(name);
    if (contact !== null) {
      const read = readValue(PARAMETERS.e, value);
      if (read.problem) notices.push(`${name}=${shown(value)} ${read.problem} (ignored)`);
      else contacts[contact] = read.value;
      continue;
    }
    const friction = frictionParam(name);
    if (friction !== null) {
      const read = readValue(PARAMETERS.mu, value);
      if (read.problem) notices.push(`${name}=${shown(value)} ${read.problem} (ignored)`);
      else frictions[friction] = read.value;
      continue;
    }
    const spec = Object.hasOwn(PARAMETERS, name) ? PARAMETERS[name] : null;
    if (!spec) {
      notices.push(`unknown parameter ${shown(name)} (ignored)`);
      continue;
    }
    const read = readValue(spec, value);
    if (read.problem) {
      notices.push(`${name}=${shown(value)} ${read.problem}; ${defaultText(name, spec)}`);
      continue;
    }
    values[name] = read.value;
    given.add(name);
  }
  return { values, contacts, frictions, notices, given };
}

/**
 * Writes parameters as `key=value&…` in the order of PARAMETERS (e1, e2, … right after e), leaving out
 * those not given and the display options at their default (a state's values are written as given). Numbers are written in the shortest form that reads back to the same double.
 * @param {Object<string, any>} values
 * @param {Object<number, number>} [contacts]  e of contact index (0-based)
 * @param {Object<number, number|'stick'>} [frictions]  μ of contact index (0-based), right after mu
 */
export function writeParameters(values, contacts = {}, frictions = {}) {
  const parts = [];
  const put = (name, text) => parts.push(`${name}=${encodeURIComponent(text).replace(/%2C/g, ',')}`);
  for (const [name, spec] of Object.entries(PARAMETERS)) {
    const value = values[name];
    const atDefault = Array.isArray(value) ? JSON.stringify(value) === JSON.stringify(spec.default) : value === spec.default;
    if (value !== undefined && value !== null && !(spec.group === 'display' && atDefault)) {
      if (typeof value === 'boolean') put(name, value ? '1' : '0');
      else if (Array.isArray(value)) put(name, value.join(','));
      else put(name, String(value));
    }
    // The contacts' e right after the global one (which they override), in contact order.
    if (name === 'e') {
      for (const index of Object.keys(contacts).map(Number).sort((a, b) => a - b)) put(`e${index + 1}`, String(contacts[index]));
    }
    if (name === 'mu') {
      for (const index of Object.keys(frictions).map(Number).sort((a, b) => a - b)) put(`mu${index + 1}`, String(frictions[index]));
    }
  }
  return parts.join('&');
}
