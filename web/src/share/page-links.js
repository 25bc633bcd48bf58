// Opening the page at an address: the query string (`?embed=1&panels=gamma,S&scenario=four-bar&e=0.3`)
// and the fragment (a share link). The query and a short fragment are a few key=value pairs, read before
// the page is built (the layout depends on them); a full `#v3.` link is decompressed in a worker. The
// fragment's state wins over the query's. A later change of the fragment (a link pasted into the address
// bar of the open page) opens that link, and keeps what was on screen when it cannot. Only the reading of
// the address is loaded with the page; opening a link (open-link.js, the codec, the worker) when there is one.

/** True when a fragment looks like one of ours (a full `#v3.` link or an older one, or a short `#key=value`). */
export function isLinkFragment(fragment) {
  const text = String(fragment ?? '').replace(/^#/, '');
  return /^\s*v\d/.test(text) || text.includes('=');
}

/**
 * What the address asks for, read without decompressing anything: display options, the state of the query
 * string and of a short fragment, the full fragment still to decode, and notices for values that fell
 * back. The parameter reader is loaded only for an address that has parameters.
 * @param {{search: string, hash: string}} location
 * @returns {Promise<{display: object, state: object, hasState: boolean, fullFragment: string|null, notices: string[]}>}
 */
export async function readAddress({ search, hash }) {
  const query = search.replace(/^\?/, '');
  const short = isLinkFragment(hash) && !/^#?\s*v\d/.test(hash);
  if (!query && !short) {
    const fullFragment = isLinkFragment(hash) ? hash.replace(/^#/, '') : null;
    return { display: {}, state: {}, hasState: fullFragment !== null, fullFragment, notices: [] };
  }
  const { readShortLink } = await import('./short-link.js');
  return readParameters(readShortLink, query, hash);
}

/** The address's parameters read (readShortLink: the reader, loaded by readAddress). */
function readParameters(readShortLink, search, hash) {
  const query = readShortLink(search);
  let state = query.state;
  let display = query.display;
  const notices = [...query.notices];
  let fullFragment = null;
  if (isLinkFragment(hash)) {
    const text = hash.replace(/^#/, '');
    if (/^\s*v\d/.test(text)) fullFragment = text;
    else {
      const short = readShortLink(text);
      state = { ...state, ...short.state };
      display = { ...display, ...short.display };
      notices.push(...short.notices);
    }
  }
  return { display, state, hasState: Object.keys(state).length > 0 || fullFragment !== null, fullFragment, notices };
}

/**
 * Opens what the address asks for once the engine is ready (open-link.js), or the first built-in scenario
 * when it asks for nothing.
 * @param {import('./page-state.js').PageParts & {messages: any}} parts
 * @param {Awaited<ReturnType<typeof readAddress>>} address
 * @param {{play: boolean}} options  `play`: start playing once it is shown
 */
export async function openAddress(parts, address, { play }) {
  if (!address.hasState && !address.notices.length) {
    await parts.playground.load({ builtin: parts.entries[0]?.id }, { play });
    return;
  }
  const { openFromAddress } = await import('./open-link.js');
  await openFromAddress(parts, address, { play });
}

/** Follows fragment changes of the open page (a link pasted into the address bar). */
export function followFragment(parts) {
  window.addEventListener('hashchange', async () => {
    if (!isLinkFragment(location.hash)) return;  // an in-page anchor such as #main
    const { openFragment } = await import('./open-link.js');
    await openFragment(parts, await readAddress({ search: '', hash: location.hash }));
  });
}
