// The iframe snippet a teacher pastes into a course page, and the address it points to. The address is
// the page with `?embed=1` and the display options; a built-in scenario and its settings go in the query
// too (readable: ?embed=1&scenario=four-bar&e=0.3), any other scenario (or a run changed on the way) in a
// #v3 fragment. The snippet is HTML for someone else's page, so every value in it is escaped. Pure.
import { linkCodec } from '../share/link-codec.js';
import { writeParameters } from '../share/query-params.js';
import { writeShortLink } from '../share/short-link.js';

/** Text made safe inside a double-quoted HTML attribute. */
export function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
    .replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The address of an embed of `state` (a link state; its tab and lab input are left out: an embed shows
 * the playground).
 * @param {string} base the page's address, without query or fragment
 * @param {object} state
 * @param {{panels?: string[], autoplay?: boolean, controls?: boolean}} display
 */
export function embedUrl(base, state, display = {}) {
  const { tab, lab, ...shown } = state;
  const options = { embed: true, ...display };
  const short = writeShortLink(shown, options);
  if (short !== null) return `${base}?${short}`;
  return `${base}?${writeParameters(options)}#${linkCodec.encode(shown)}`;
}

/**
 * The iframe element as HTML text.
 * @param {{url: string, title: string, width: number|string, height: number}} options  width: pixels or '100%'
 */
export function embedSnippet({ url, title, width, height }) {
  const name = `Oblique: ${String(title || 'scenario').replace(/\s+/g, ' ').trim()}`;
  return `<iframe src="${escapeAttribute(url)}" width="${escapeAttribute(width)}" height="${escapeAttribute(height)}" ` +
    `title="${escapeAttribute(name)}" loading="lazy" style="border: 1px solid #ccc; border-radius: 6px; max-width: 100%;" ` +
    'allow="fullscreen; clipboard-write"></iframe>';
}
