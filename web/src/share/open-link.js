// Opening a link on the page: a full #v3 (or older) link decoded in a worker (link-decoder.js), then the
// state shown (page-state.js). Never throws: what cannot be opened is explained in the message area, and what was on
// screen stays (on the first load, the first built-in scenario runs instead).
import { decodeLink } from './link-decoder.js';
import { openState } from './page-state.js';

const SOURCE = 'Link';

/**
 * The address's state, on the first load.
 * @param {import('./page-state.js').PageParts & {messages: any}} parts
 * @param {ReturnType<typeof import('./page-links.js').readAddress>} address
 * @param {{play: boolean}} options
 */
export async function openFromAddress(parts, address, { play }) {
  const notices = [...address.notices];
  let state = address.state;
  if (address.fullFragment !== null) {
    try {
      const decoded = await decodeLink(address.fullFragment);
      if (decoded.kind === 'full') state = decoded.state;
    } catch (error) {
      parts.messages.show(`${error.message}. The page opened “${parts.entries[0]?.title}” instead.`, SOURCE, 'error');
      await parts.playground.load({ builtin: parts.entries[0]?.id }, { play });
      return;
    }
  }
  try {
    notices.push(...await openState(parts, state, { play }));
  } catch (error) {
    const running = parts.playground.viewState().scenario;
    parts.messages.show(`${error.message}. ${running ? 'What was on screen stays.' : `The page opened “${parts.entries[0]?.title}” instead.`}`,
      SOURCE, 'error');
    if (!running) await parts.playground.load({ builtin: parts.entries[0]?.id }, { play });
    return;
  }
  if (notices.length) parts.messages.show(`${notices.join('; ')}. The rest of the link is shown as it was made.`, SOURCE, 'warning');
}

/** A fragment that changed while the page is open: its state, or a message and nothing changed. */
export async function openFragment(parts, address) {
  try {
    let state = address.state;
    if (address.fullFragment !== null) state = (await decodeLink(address.fullFragment)).state;
    const notices = [...address.notices, ...await openState(parts, state)];
    if (notices.length) parts.messages.show(`${notices.join('; ')}. The rest of the link is shown as it was made.`, SOURCE, 'warning');
  } catch (error) {
    parts.messages.show(`${error.message}. What was on screen stays.`, SOURCE, 'error');
  }
}
