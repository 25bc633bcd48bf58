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
