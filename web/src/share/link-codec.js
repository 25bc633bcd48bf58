// Share links: the state of the page (link-state.js) in the URL fragment, never sent to a server.
//
//   full   #v3.<lz-string payload>.<check>   any state, any scenario (built-in or edited), versioned (v1 and v2 links open too)
//   short  #scenario=four-bar&e=0.3&t=1.2     a built-in scenario with a few settings, readable and editable
//
// decodeFragment reads either and throws a LinkError (truncated, garbled, oversized, future, invalid) for a
// link it cannot open; a fragment that is neither (an in-page anchor such as #main) is not a link. The
// page runs it in a worker (link.worker.js), so that a hostile link cannot freeze the page. Pure.
import { LinkError } from './link-error.js';
import { LINK_VERSIONS } from './link-versions.js';
import { readShortLink, writeShortLink } from './short-link.js';

export { readShortLink, writeShortLink };

/** Longest fragment read or written, in characters. */
export const MAX_LINK_CHARS = 32_000;
/** Links longer than this get a notice (some mail programs and course-page editors cut them). */
export const LONG_LINK_CHARS = 2000;

const FULL = /^v(\d{1,9})(\.|$)/;

/**
 * A codec over a list of link formats (LINK_VERSIONS by default; tests pass a longer list to check that a
 * new version slots in).
 * @param {{version: number, read: (body: string) => unknown, write: (state: object) => string,
 *          check: (state: unknown) => object, upgrade: ((state: object) => object)|null}[]} versions
 */
export function createLinkCodec(versions) {
  const current = versions[versions.length - 1];
  return {
    /** The version links are written in. */
    version: current.version,

    /** `v<N>.<body>` for a state of the current version; throws a LinkError when it is not one, or too long. */
    encode(state) {
      const text = `v${current.version}.${current.write(current.check(state))}`;
      if (text.length > MAX_LINK_CHARS) {
        throw new LinkError('oversized', `It would be ${text.length} characters long (at most ${MAX_LINK_CHARS}): share the scenario file instead`);
      }
      return text;
    },

    /**
     * The state of a full link (without '#'), upgraded to the current version.
     * @returns {{version: number, state: object}} `version`: the one the link was written in
     */
    decode(text) {
      if (text.length > MAX_LINK_CHARS) {
        throw new LinkError('oversized', `It is ${text.length} characters long (at most ${MAX_LINK_CHARS}): share the scenario file instead`);
      }
      const match = FULL.exec(text);
      if (!match) throw new LinkError('invalid', 'it does not start with a link format such as v1.');
      const version = Number(match[1]);
      if (version > current.version) {
        const reads = current.version === 1 ? 'format v1' : `formats v1 to v${current.version}`;
        throw new LinkError('future', `It is written in link format v${version}; this page reads ${reads}. ` +
          'Open it in an up-to-date Oblique, or ask for the scenario file');
      }
      const index = versions.findIndex((v) => v.version === version);
      if (index < 0) throw new LinkError('invalid', `there is no link format v${version}`);
      if (!match[2]) throw new LinkError('truncated', 'only its format is left');
      let state = versions[index].check(versions[index].read(text.slice(match[0].length)));
      for (let k = index; k < versions.length - 1; k++) state = versions[k + 1].check(versions[k].upgrade(state));
      return { version, state };
    },
  };
}

/** The codec of this build. */
export const linkCodec = createLinkCodec(LINK_VERSIONS);

/**
 * Reads a fragment (with or without '#'): a full link, a short link, or nothing of ours.
 * @returns {{kind: 'full'|'short'|'none', version?: number, state?: object, display?: object, notices?: string[]}}
 * @throws {LinkError} for a full or short link that cannot be opened
 */
export function decodeFragment(fragment, codec = linkCodec) {
  let text = String(fragment ?? '');
  if (text.startsWith('#')) text = text.slice(1);
  if (text.length > MAX_LINK_CHARS) {
    throw new LinkError('oversized', `It is ${text.length} characters long (at most ${MAX_LINK_CHARS}): share the scenario file instead`);
  }
  text = text.trim();
  if (/^v\d/.test(text)) {
    // Mail programs may percent-encode the $ and + of the payload, or glue punctuation to the end.
    if (text.includes('%')) {
      try { text = decodeURIComponent(text); } catch { throw new LinkError('garbled', 'it holds a broken %-escape'); }
    }
    text = text.replace(/[\s.,;:!?)\]}>'"]+$/, '');
    const { version, state } = codec.decode(text);
    return { kind: 'full', version, state, display: {}, notices: [] };
  }
  if (text.includes('=')) return { kind: 'short', ...readShortLink(text) };
  return { kind: 'none' };
}

/** The fragment (without '#') for a state: short when it can be, full otherwise (or when `full` is set). */
export function encodeFragment(state, { full = false, display = {} } = {}) {
  const short = full ? null : writeShortLink(state, display);
  return short ?? linkCodec.encode(state);
}
