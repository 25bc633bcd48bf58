// Decodes one share link off the page's thread: a hostile link (a payload that inflates to hundreds of
// megabytes, a deeply nested state) can cost this worker its time or its memory, never the page, which
// ends it after a deadline (link-decoder.js). Request: {fragment}; reply: {ok: true, result} (decodeFragment's
// answer) or {ok: false, code, message} (a LinkError's).
import { decodeFragment } from './link-codec.js';

self.addEventListener('message', (event) => {
  try {
    self.postMessage({ ok: true, result: decodeFragment(String(event.data?.fragment ?? '')) });
  } catch (error) {
    self.postMessage({ ok: false, code: error?.code ?? 'invalid', message: error?.message ?? String(error) });
  }
});
