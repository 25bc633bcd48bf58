// The Share dialog: a link to exactly what is on screen (the scenario, its settings and their changes during
// the run, the time, the impact shown, the tab, the speed), copied with one click. A built-in scenario gets
// a short link a person can read and edit; any other, a run changed on the way (or on request) a full #v3
// link carrying the scenario itself. A link too long
// for mail programs comes with the offer to download the scenario file instead.
import { el, uniqueId } from '../ui/widgets/dom.js';
import { prettyJson } from '../editor/pretty-json.js';
import { LONG_LINK_CHARS, encodeFragment } from './link-codec.js';
import { applyOverrides } from '../scenario/overrides.js';
import { captureState } from './page-state.js';
import { copyText } from '../ui/widgets/clipboard.js';
import { download, fileStem } from '../ui/widgets/files.js';
import { openDialog } from './dialog.js';

/** The page's address without query or fragment: where links point. */
export function pageBase() {
  return `${location.origin}${location.pathname}`;
}

/** One line saying what the link shows. */
function summary(state, title) {
  const parts = [`“${title || 'Untitled scenario'}”${state.builtin ? '' : ' (yours)'}`];
  if (state.e !== undefined) parts.push(`e = ${state.e}`);
  for (const [k, v] of Object.entries(state.e_i ?? {})) parts.push(`e${Number(k) + 1} = ${v}`);
  if (state.mu !== undefined) parts.push(`μ = ${state.mu}`);
  for (const [k, v] of Object.entries(state.mu_i ?? {})) parts.push(`μ${Number(k) + 1} = ${v}`);
  if (state.nu !== undefined) parts.push(`ν = ${state.nu}`);
  const changes = state.changes?.length ?? 0;
  if (changes) parts.push(`${changes} change${changes === 1 ? '' : 's'} of e, μ or ν during the run`);
  parts.push(state.t ? `paused at t = ${state.t.toFixed(3)} s` : 'at the start');
  if (state.horizon !== undefined) parts.push(`the run gone on to t = ${state.horizon.toFixed(3)} s`);
  if (state.impact !== undefined) parts.push(`impact ${state.impact + 1} shown`);
  if (state.speed !== undefined) parts.push(`speed ${state.speed}×`);
  if (state.tab && state.tab !== 'playground') parts.push(`the ${state.tab === 'lab' ? 'matrix lab' : 'editor'} open`);
  return parts.join(' · ');
}

/**
 * Opens the Share dialog for what is on screen.
 * @param {import('./page-state.js').PageParts & {messages: any}} parts
 */
export function openShareDialog(parts) {
  // The link is of this moment: playback stops so that the screen stays what the link shows.
  parts.playground.pause();
  const { state, notes, title } = captureState(parts);
  const linkId = uniqueId('share-link');
  const link = el('input', { id: linkId, type: 'text', readonly: true, class: 'share-link', 'data-testid': 'share-link',
    spellcheck: 'false', autocomplete: 'off' });
  const status = el('p', { class: 'small muted copy-status', role: 'status' });
  const copy = el('button', { type: 'button', class: 'button primary', text: 'Copy link' });
  const length = el('p', { class: 'small muted' });
  const long = el('div', { class: 'notice notice-warning', hidden: true });
  const fullBox = el('input', { type: 'checkbox' });
  const full = el('label', { class: 'check', hidden: !state.builtin }, fullBox,
    ' Carry the whole scenario in the link (exact even if the built-in scenario changes later)');
  const open = el('a', { href: '#', target: '_blank', rel: 'noopener', text: 'Open it in a new tab' });

  const scenarioFile = () => {
    const { doc } = applyOverrides(parts.playground.viewState().document, {
      e: state.e, e_i: state.e_i, mu: state.mu, mu_i: state.mu_i, nu: state.nu });
    download(`${fileStem(title)}.json`, new Blob([prettyJson(doc)], { type: 'application/json' }));
  };
  const refresh = () => {
    let url;
    try {
      // "The whole scenario": the built-in's document itself instead of its name.
      const { builtin, ...rest } = state;
      const carried = fullBox.checked && builtin ? { scenario: parts.playground.viewState().document, ...rest } : state;
      url = `${pageBase()}#${encodeFragment(carried, { full: fullBox.checked })}`;
    } catch (error) {
      link.value = '';
      long.hidden = false;
      long.replaceChildren(el('p', { text: error.message }),
        el('button', { type: 'button', class: 'button small', text: 'Download the scenario file', on: { click: scenarioFile } }));
      return;
    }
    link.value = url;
    open.href = url;
    length.textContent = `${url.length.toLocaleString('en')} characters. Everything is in the part after #, which browsers never send to a server.`;
    long.hidden = url.length <= LONG_LINK_CHARS;
    long.replaceChildren(
      el('p', { text: `This link is ${url.length.toLocaleString('en')} characters long. Some mail programs, chats and ` +
        `course-page editors cut links longer than about ${LONG_LINK_CHARS.toLocaleString('en')} characters. If it ` +
        'arrives broken, share the scenario file instead (the Editor tab imports it; oblique simulate runs it).' }),
      el('button', { type: 'button', class: 'button small', text: 'Download the scenario file', on: { click: scenarioFile } }));
    status.textContent = '';
  };
  fullBox.addEventListener('change', refresh);
  copy.addEventListener('click', async () => { status.textContent = (await copyText(link.value, link)).message; });
  // On phones and tablets: the system's share sheet (messages, mail, a class chat).
  const send = el('button', { type: 'button', class: 'button', text: 'Send…', hidden: typeof navigator.share !== 'function' });
  send.addEventListener('click', async () => {
    try {
      await navigator.share({ title: `Oblique: ${title || 'scenario'}`, url: link.value });
    } catch (error) {
      if (error?.name !== 'AbortError') status.textContent = `Could not open the share sheet (${error.message}); copy the link instead.`;
    }
  });
  link.addEventListener('focus', () => link.select());

  const dialog = openDialog({
    title: 'Share this view',
    className: 'share-dialog',
    content: [
      el('p', { class: 'share-summary', text: summary(state, title) }),
      el('label', { for: linkId, class: 'field-label', text: 'Link' }),
      el('div', { class: 'copy-row' }, link, copy, send),
      status,
      length,
      full,
      long,
      notes.map((note) => el('p', { class: 'notice notice-note', text: note })),
      el('p', { class: 'small' }, open, ' · Anyone who opens it sees this scenario, paused at this moment, with these settings.'),
    ],
  });
  refresh();
  link.focus();
  return dialog;
}
