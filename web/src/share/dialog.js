// A modal dialog on the native <dialog> (focus kept inside, Escape closes, focus goes back to what opened
// it), with a title, a Close button and content built from nodes only: nothing in it is ever HTML; copying a
// dialog's text to the clipboard; and the file helpers its buttons use (ui/widgets/files.js).
import { el, uniqueId } from '../ui/widgets/dom.js';
import './share.css';

export { download, fileStem } from '../ui/widgets/files.js';

/**
 * Opens a dialog; it removes itself when closed.
 * @param {{title: string, content: (Node|string)[], className?: string, onClose?: () => void}} options
 * @returns {HTMLDialogElement}
 */
export function openDialog({ title, content, className = '', onClose }) {
  const opener = document.activeElement;
  const heading = el('h2', { id: uniqueId('dialog-title'), text: title });
  const close = el('button', { type: 'button', class: 'button small', text: 'Close' });
  const dialog = el('dialog', { class: `dialog ${className}`, 'aria-labelledby': heading.id },
    el('div', { class: 'dialog-body' }, el('div', { class: 'dialog-head' }, heading, close), ...content));
  close.addEventListener('click', () => dialog.close());
  // A click on the backdrop (outside the body) closes it too.
  dialog.addEventListener('click', (event) => { if (event.target === dialog) dialog.close(); });
  dialog.addEventListener('close', () => {
    dialog.remove();
    onClose?.();
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/**
 * Copies text to the clipboard: the Clipboard API, or (where a frame or a browser denies it) the selection
 * of `field` and the copy command. Resolves with what to tell the user.
 */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return 'Copied.';
  } catch {
    field?.focus();
    field?.select();
    try {
      if (document.execCommand('copy')) return 'Copied.';
    } catch { /* below */ }
    return 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
  }
}
