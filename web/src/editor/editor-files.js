// The editor's ways in and out for files: the scenario file exported as written, a file read from the
// picker or dropped anywhere on the tab (after the size check; the engine's checks then mark its problems).
import { download, fileStem } from '../ui/widgets/files.js';
import { MAX_TEXT_CHARS } from './scenario-lint.js';
import { problems } from './editor-status.js';

/**
 * Reads `file` and gives its text to `replace(text, what)` with a few words on what the checks found, or
 * says why it could not be read (`say(text, 'bad')`).
 * @param {File} file
 * @param {{check: (text: string) => Promise<object[]>, replace: (text: string, what: string) => void,
 *   say: (text: string, kind: string) => void}} editor
 */
export async function importFile(file, { check, replace, say }) {
  if (!file) return;
  if (file.size > MAX_TEXT_CHARS) {
    say(`“${file.name}” is ${file.size.toLocaleString('en')} bytes; a scenario file is at most ${MAX_TEXT_CHARS.toLocaleString('en')} ` +
      'here. Your text is unchanged.', 'bad');
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch (error) {
    say(`Could not read “${file.name}”: ${error.message}. Your text is unchanged.`, 'bad');
    return;
  }
  const issues = await check(text).catch(() => []);
  replace(text, issues.length
    ? `Imported “${file.name}”: ${problems(issues.length)} (marked). Not applied.`
    : `Imported “${file.name}”: no problems. Apply to run it.`);
}

/** Downloads `text` as a scenario file named after its title. */
export function exportText(text) {
  let title = '';
  try { title = JSON.parse(text).title; } catch { /* the stem falls back */ }
  download(`${fileStem(title)}.json`, new Blob([text], { type: 'application/json' }));
}

/** Imports a file dropped anywhere on `container` with `onFile(file)`; the tab is outlined while one is held over it. */
export function acceptDrops(container, onFile) {
  container.addEventListener('dragover', (event) => {
    if (![...(event.dataTransfer?.types ?? [])].includes('Files')) return;
    event.preventDefault();
    container.classList.add('drop-target');
  });
  container.addEventListener('dragleave', (event) => { if (event.target === container) container.classList.remove('drop-target'); });
  container.addEventListener('drop', (event) => {
    container.classList.remove('drop-target');
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    onFile(file);
  });
}
