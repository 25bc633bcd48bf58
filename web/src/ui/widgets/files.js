// Files the page gives to the reader: a download of a Blob, and file names made from titles.
import { el } from './dom.js';

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
