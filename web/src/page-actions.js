// The page's header actions: Share (a link to what is on screen), Embed (an iframe snippet for a course
// page) and Export (files of the scenario, its run and its impacts). Their dialogs are loaded on first use,
// so the first screen does not wait for them.
import { el } from './ui/widgets/dom.js';

/**
 * Runs `load()` once, then calls what it resolves to; a failed load is reported and may be retried. While
 * the first load is under way the button says so (aria-busy) and further clicks on it are ignored, so a
 * quick double click opens one dialog, not two.
 */
function lazy(parts, load, name) {
  let loading = null;
  return async (button, ...args) => {
    if (button.getAttribute('aria-busy') === 'true') return;
    loading ??= load().catch((error) => {
      loading = null;
      throw error;
    });
    button.setAttribute('aria-busy', 'true');
    try {
      const open = await loading;
      button.removeAttribute('aria-busy');
      await open(...args);
    } catch (error) {
      parts.messages.show(`${error.message}. The playground is as it was; try ${name} again.`, name, 'error');
    } finally {
      button.removeAttribute('aria-busy');
    }
  };
}

/**
 * The three header buttons.
 * @param {import('./share/page-state.js').PageParts & {messages: any}} parts
 */
export function pageActions(parts) {
  const share = lazy(parts, () => import('./share/share-dialog.js').then((m) => m.openShareDialog), 'Share');
  const embed = lazy(parts, () => import('./embed/embed-dialog.js').then((m) => m.openEmbedDialog), 'Embed');
  const exportMenu = lazy(parts, () => import('./export/export-menu.js').then((m) => m.openExportMenu), 'Export');
  const button = (testid, text, title, action) => {
    const node = el('button', { type: 'button', class: 'button small page-action', 'data-testid': testid, title, text,
      'aria-haspopup': 'dialog' });
    node.addEventListener('click', () => action(node, parts, node));
    return node;
  };
  return el('div', { class: 'page-actions', role: 'group', 'aria-label': 'Share and export' },
    button('share', 'Share', 'A link to exactly what is on screen', share),
    button('embed', 'Embed', 'An iframe snippet for a course page', embed),
    button('export', 'Export', 'The scenario file, the trajectory, the impacts, images', exportMenu));
}
