// The page's side of link decoding: the fragment goes to a short-lived worker (link.worker.js) that is
// ended after a deadline, so that no link can freeze or exhaust the page. A fragment longer than the
// codec reads is refused before any worker starts.
import { LINK_ERRORS, LinkError } from './link-error.js';

/** Longest fragment sent to the worker (link-codec.js's MAX_LINK_CHARS, kept here so the codec stays lazy). */
const MAX_LINK_CHARS = 32_000;
/** How long a link may take to decode, in milliseconds. */
const DEADLINE_MS = 4000;

/**
 * Decodes a fragment in a worker.
 * @param {string} fragment with or without '#'
 * @returns {Promise<{kind: 'full'|'short'|'none', version?: number, state?: object, display?: object, notices?: string[]}>}
 * @throws {LinkError}
 */
export function decodeLink(fragment, { deadline = DEADLINE_MS } = {}) {
  const text = String(fragment ?? '');
  if (text.length > MAX_LINK_CHARS + 1) {
    return Promise.reject(new LinkError('oversized', `It is ${text.length} characters long (at most ${MAX_LINK_CHARS}): share the scenario file instead`));
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./link.worker.js', import.meta.url), { type: 'module', name: 'oblique-link' });
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
    };
    const timer = setTimeout(() => {
      done();
      reject(new LinkError('oversized', `Reading it took longer than ${deadline / 1000} s and was stopped`));
    }, deadline);
    worker.addEventListener('message', (event) => {
      done();
      const reply = event.data ?? {};
      if (reply.ok) resolve(reply.result);
      else {
        const error = new LinkError(LINK_ERRORS.includes(reply.code) ? reply.code : 'invalid');
        error.message = String(reply.message ?? error.message);
        reject(error);
      }
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      done();
      reject(new LinkError('oversized', `Reading it failed (${event.message || 'the reader stopped'})`));
    });
    worker.postMessage({ fragment: text });
  });
}
