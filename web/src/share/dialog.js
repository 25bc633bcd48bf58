// A modal dialog on the native <dialog> (focus kept inside, Escape closes, focus goes back to what opened
// it), with a title, a Close button and content built from nodes only: nothing in it is ever HTML.
import { el, uniqueId } from '../ui/widgets/dom.js';
import './share.css';

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

/** Offers `blob` as a file download named `name`. */
export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a title: lower case, letters, digits and dashes ("Four-bar linkage" → "four-bar-linkage"). */
export function fileStem(title, fallback = 'oblique-scenario') {
  const stem = String(title ?? '').normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return stem || fallback;
}
