// Every link format Oblique has written, oldest first. A full link is `v<N>.<body>`: the prefix names the
// format, and the format's entry reads its body into a state of that version, checks its shape, and
// upgrades it one version (a pure function vN → vN+1); the chain of upgrades brings a link of any version
// to the current one. To add v3: give v2 an `upgrade` (v2 state → v3 state), append the v3 entry (with its
// own read, write and check), add v3 links to tests/js/fixtures/share-links.json, and never change the
// read or check of an older version again. Pure; the link worker and Vitest use it.
import LZString from 'lz-string';
import { LinkError } from './link-error.js';
import { checkStateV1, checkStateV2, checkStateV3 } from './link-state.js';

/** Longest decompressed state, in characters (a scenario within the format's limits is far smaller). */
export const MAX_STATE_CHARS = 1_000_000;
/** Length of the check at the end of a v1 link (a base-36 FNV-1a hash, zero-padded). */
const CHECK_LENGTH = 7;
const PAYLOAD = /^[A-Za-z0-9+\-$]*$/;

/** FNV-1a (32 bits) of a string's UTF-16 code units, in base 36, 7 digits. */
export function linkChecksum(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(CHECK_LENGTH, '0');
}

/**
 * v1: `v1.<payload>.<check>`, where payload = lz-string's compressToEncodedURIComponent(JSON of the state)
 * (the characters A–Z a–z 0–9 + - $) and check = linkChecksum("v1." + payload). A link cut short loses its
 * check (→ truncated); a changed character breaks the check (→ garbled).
 */
const V1 = {
  version: 1,
  check: checkStateV1,
  write(state) {
    const payload = LZString.compressToEncodedURIComponent(JSON.stringify(state));
    return `${payload}.${linkChecksum(`v1.${payload}`)}`;
  },
  read(body) {
    const dot = body.lastIndexOf('.');
    if (dot < 0) throw new LinkError('truncated', 'the check at its end is missing');
    const payload = body.slice(0, dot);
    const check = body.slice(dot + 1);
    if (!PAYLOAD.test(payload) || !/^[0-9a-z]*$/.test(check) || check.length > CHECK_LENGTH) {
      throw new LinkError('garbled', 'it holds characters a link never has');
    }
    if (check.length < CHECK_LENGTH) throw new LinkError('truncated', 'the check at its end is cut short');
    if (linkChecksum(`v1.${payload}`) !== check) throw new LinkError('garbled');
    const text = LZString.decompressFromEncodedURIComponent(payload);
    if (typeof text !== 'string' || text === '') throw new LinkError('garbled', 'it does not decompress');
    if (text.length > MAX_STATE_CHARS) {
      throw new LinkError('oversized', `It holds ${text.length} characters of state (at most ${MAX_STATE_CHARS}): share the scenario file instead`);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new LinkError('garbled', 'it does not hold JSON');
    }
  },
  // A v1 state is a v2 state of a run without changes, shown at its horizon: its e, eᵢ and ν held from
  // the start of the run, as v1 meant them.
  upgrade: (state) => state,
};

/**
 * v2: `v2.<payload>.<check>` as v1 (lz-string, check = linkChecksum("v2." + payload)), of a v2 state
 * (link-state.js: the run's horizon and its changes, speeds up to 16×).
 */
const V2 = {
  version: 2,
  check: checkStateV2,
  write(state) {
    const payload = LZString.compressToEncodedURIComponent(JSON.stringify(state));
    return `${payload}.${linkChecksum(`v2.${payload}`)}`;
  },
  read: (body) => readCompressed(body, 'v2.'),
  // A v2 state is a v3 state whose run keeps the scenario's μ.
  upgrade: (state) => state,
};

/**
 * v3: `v3.<payload>.<check>` as v2, of a v3 state (link-state.js: v2's, with μ — `mu`, `mu_i` and changes
 * of μ).
 */
const V3 = {
  version: 3,
  check: checkStateV3,
  write(state) {
    const payload = LZString.compressToEncodedURIComponent(JSON.stringify(state));
    return `${payload}.${linkChecksum(`v3.${payload}`)}`;
  },
  read: (body) => readCompressed(body, 'v3.'),
  upgrade: null,  // the current version
};

/** The state of `<payload>.<check>` after `prefix` (v2 on: lz-string and an FNV-1a check, as v1). */
function readCompressed(body, prefix) {
  const dot = body.lastIndexOf('.');
  if (dot < 0) throw new LinkError('truncated', 'the check at its end is missing');
  const payload = body.slice(0, dot);
  const check = body.slice(dot + 1);
  if (!PAYLOAD.test(payload) || !/^[0-9a-z]*$/.test(check) || check.length > CHECK_LENGTH) {
    throw new LinkError('garbled', 'it holds characters a link never has');
  }
  if (check.length < CHECK_LENGTH) throw new LinkError('truncated', 'the check at its end is cut short');
  if (linkChecksum(`${prefix}${payload}`) !== check) throw new LinkError('garbled');
  const text = LZString.decompressFromEncodedURIComponent(payload);
  if (typeof text !== 'string' || text === '') throw new LinkError('garbled', 'it does not decompress');
  if (text.length > MAX_STATE_CHARS) {
    throw new LinkError('oversized', `It holds ${text.length} characters of state (at most ${MAX_STATE_CHARS}): share the scenario file instead`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LinkError('garbled', 'it does not hold JSON');
  }
}

/** The formats, oldest first; the last is the one links are written in. */
export const LINK_VERSIONS = [V1, V2, V3];
