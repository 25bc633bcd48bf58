// Copying text for the reader: the Clipboard API, or (where a frame or a browser denies it) the selection of
// the field that shows the text and the copy command; the reader is told which happened.

/**
 * Copies `text` to the clipboard; where that is denied, selects it in `field` (when given) and tries the copy
 * command. Resolves with whether it was copied and what to tell the reader.
 * @param {string} text
 * @param {HTMLInputElement|HTMLTextAreaElement} [field]
 * @returns {Promise<{copied: boolean, message: string}>}
 */
export async function copyText(text, field) {
  const copied = { copied: true, message: 'Copied.' };
  try {
    await navigator.clipboard.writeText(text);
    return copied;
  } catch {
    field?.focus();
    field?.select();
    try {
      if (document.execCommand('copy')) return copied;
    } catch { /* below */ }
    return { copied: false, message: field ? 'Selected: press Ctrl+C (⌘C on a Mac) to copy.' : 'The browser did not allow copying here.' };
  }
}
