// Why a share link could not be opened. Every error has a `code` (documented in docs/share-links.md)
// and a message written for the person who clicked the link: what is wrong, and what to do instead.

/** Codes of a LinkError. */
export const LINK_ERRORS = ['truncated', 'garbled', 'oversized', 'future', 'invalid'];

const ADVICE = {
  truncated: 'This link is incomplete: its end is missing (it was probably cut when it was copied or wrapped). ' +
    'Ask for the whole link, or for the scenario file.',
  garbled: 'This link is damaged: its check does not match what it carries (a character was changed, added or lost). ' +
    'Ask for the link again, or for the scenario file.',
  oversized: 'This link is too large to open.',
  future: 'This link was made by a newer version of Oblique.',
  invalid: 'This link does not describe an Oblique view.',
};

export class LinkError extends Error {
  /**
   * @param {'truncated'|'garbled'|'oversized'|'future'|'invalid'} code
   * @param {string} [detail] what exactly (appended to the advice)
   */
  constructor(code, detail = '') {
    super(detail ? `${ADVICE[code]} ${detail.charAt(0).toUpperCase()}${detail.slice(1)}.` : ADVICE[code]);
    this.name = 'LinkError';
    this.code = code;
  }
}
