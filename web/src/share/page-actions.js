// The page's header actions: Share (a link to what is on screen), Embed (an iframe snippet for a course
// page) and Export (files of the scenario, its run and its impacts). Their dialogs are loaded on first use,
// so the first screen does not wait for them.
import { el } from '../ui/widgets/dom.js';
import './page-actions.css';

/** Runs `load()` once, then calls what it resolves to; a failed load is reported and may be retried. */
function lazy(parts, load, name) {
  let loading = null;
  return async (...args) => {
    loading ??= load().catch((error) => {
      loading = null;
      throw error;
    });
    try {
      const open = await loading;
      await open(...args);
    } catch (error) {
      parts.messages.show(`${name}: ${error.message}`, name);
    }
  };
}

/**
 * The three header buttons.
 * @param {import('./page-state.js').PageParts & {messages: any}} parts
 */
export function pageActions(parts) {
  const share = lazy(parts, () => import('./share-dialog.js').then((m) => m.openShareDialog), 'Share');
  const embed = lazy(parts, () => import('../embed/embed-dialog.js').then((m) => m.openEmbedDialog), 'Embed');
  const exportMenu = lazy(parts, () => import('../export/export-menu.js').then((m) => m.openExportMenu), 'Export');
  const button = (testid, text, title, action) => {
    const node = el('button', { type: 'button', class: 'button small page-action', 'data-testid': testid, title, text,
      'aria-haspopup': 'dialog' });
    node.addEventListener('click', () => action(parts, node));
    return node;
  };
  return el('div', { class: 'page-actions', role: 'group', 'aria-label': 'Share and export' },
    button('share', 'Share', 'A link to exactly what is on screen', share),
    button('embed', 'Embed', 'An iframe snippet for a course page', embed),
    button('export', 'Export', 'The scenario file, the trajectory, the impacts, images', exportMenu));
}
