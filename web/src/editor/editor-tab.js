// The Editor tab: the running scenario as JSON (CodeMirror, checked by the engine as you type, field names
// completed from the schema) beside its scene (drag, draw velocities, add and delete bodies, an inspector).
// "Apply" loads it into the playground only when the engine finds no problem: an invalid edit never
// replaces the running scenario. The text is saved in localStorage as you type (a reload or a crash of the
// worker loses nothing); "New from built-in", import (a file picker, or a file dropped on the tab) and
// export of the scenario file; one undo history (Ctrl+Z, Ctrl+Shift+Z) for typing and scene edits.
import { el } from '../ui/widgets/dom.js';
import { scenarioDocument } from '../scenarios.js';
import { download, fileStem } from '../share/dialog.js';
import { runningDocument } from '../share/overrides.js';
import { createCodeEditor } from './code-editor.js';
import { DraftStore } from './draft-store.js';
import { applyPatchToText } from './json-text-edit.js';
import { prettyJson } from './pretty-json.js';
import { MAX_TEXT_CHARS, scenarioIssues } from './scenario-lint.js';
import { SceneEditor } from './scene-editor.js';
import './editor.css';

const SOURCE = 'Editor';
const PREVIEW_DELAY_MS = 200;

/** "12:03" for a time stamp. */
const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * Builds the editor in its tab panel.
 * @param {HTMLElement} container the tab panel (data-testid "editor")
 * @param {import('../share/page-state.js').PageParts & {messages: any}} parts
 */
export async function mountEditor(container, { playground, client, messages, entries, tabs }) {
  const store = new DraftStore();
  const runningText = () => (playground.document ? prettyJson(runningDocument(playground.viewState())) : '{\n  "bodies": []\n}\n');
  // Text last taken from or given to the playground: while the editor holds it, nothing is lost by
  // following the playground to another scenario.
  let synced = runningText();
  const saved = store.load();
  const restoring = saved && !saved.synced && saved.text !== synced;
  let applying = false;
  // The text whose "Applied" message is showing: a check of that text finishing late (it was scheduled by
  // the last edit before Apply) leaves the message and its button in place.
  let appliedShown = null;

  const status = el('p', { class: 'editor-status', role: 'status', 'data-testid': 'editor-status' });
  const say = (text, kind = 'note') => {
    status.textContent = text;
    status.dataset.kind = kind;
  };
  const notice = el('div', { class: 'editor-notice', hidden: true });
  const issuesList = el('ol', { class: 'editor-issues', 'data-testid': 'editor-issues', 'aria-label': 'Problems' });
  const check = (text) => client.request('call', { method: 'checkScenario', args: [text] });

  // The problems under the text: line, pointer and the engine's message; a click goes there.
  let lastIssues = [];
  const showIssues = (issues) => {
    lastIssues = issues;
    issuesList.replaceChildren(...issues.map((issue) => {
      const item = el('li', {},
        el('button', { type: 'button', class: 'issue-link', text: `Line ${issue.line}` }),
        el('code', { text: issue.pointer || '(document)' }), ' ', el('span', { text: issue.message }));
      item.firstChild.addEventListener('click', () => editor.goTo(issue.from));
      return item;
    }));
    issuesList.hidden = issues.length === 0;
  };

  const lint = async (text) => {
    let issues;
    try {
      issues = await scenarioIssues(text, check);
    } catch (error) {
      say(`The checks are not available (${error.message}). Your text is kept in this browser; reload the page to restart them.`, 'bad');
      return [];
    }
    showIssues(issues);
    if (!applying && !(text === synced && text === appliedShown)) say(issues.length ? `${issues.length} problem${issues.length === 1 ? '' : 's'}: see the marks in the text and the list under it.`
      : text === synced ? 'This is the scenario running in the Playground.' : 'No problems. Apply to run it in the Playground.', issues.length ? 'bad' : 'ok');
    return issues.map((issue) => ({ from: issue.from, to: Math.max(issue.to, issue.from), severity: 'error', source: 'oblique check',
      message: `${issue.pointer || '(document)'}: ${issue.message}` }));
  };

  // The scene follows the text (after a short pause in typing), through the engine's normalised form.
  const sceneEditor = new SceneEditor({
    onEdit: (operations, what) => {
      let next;
      try {
        next = applyPatchToText(editor.text, operations);
      } catch (error) {
        say(`The scene cannot change this text: ${error.message}`, 'bad');
        return;
      }
      editor.replace(next, { userEvent: 'scene.edit' });
      say(`In the scene: ${what}. Ctrl+Z undoes it.`);
    },
    onError: (message) => say(message, 'bad'),
  });
  let previewTimer = null;
  let previewTicket = 0;
  const preview = async (text) => {
    const ticket = ++previewTicket;
    let doc;
    try {
      doc = JSON.parse(text);
      const normalized = await client.request('call', { method: 'normalizeScenario', args: [text] });
      if (ticket === previewTicket) sceneEditor.show(doc, normalized);
    } catch {
      if (ticket === previewTicket) sceneEditor.showStale();
    }
  };

  const onChange = (text, fromScene) => {
    appliedShown = null;
    if (!store.save(text, { synced: text === synced }) && store.available) say('This browser did not save the text (its storage is full).', 'bad');
    clearTimeout(previewTimer);
    if (fromScene) preview(text);
    else previewTimer = setTimeout(() => preview(text), PREVIEW_DELAY_MS);
    undoButton.disabled = !editor.canUndo;
    redoButton.disabled = !editor.canRedo;
  };

  // ---- toolbar ----
  const builtin = el('select', { class: 'editor-builtin', 'aria-label': 'Built-in scenario' },
    entries.map((entry) => el('option', { value: entry.id, text: entry.title || entry.id })));
  if (playground.entry) builtin.value = playground.entry.id;
  const loadBuiltin = el('button', { type: 'button', class: 'button small', text: 'New from built-in' });
  const fileInput = el('input', { type: 'file', accept: '.json,application/json', hidden: true });
  const importButton = el('button', { type: 'button', class: 'button small', text: 'Import file…' });
  const exportButton = el('button', { type: 'button', class: 'button small', text: 'Export file' });
  const undoButton = el('button', { type: 'button', class: 'button small', text: 'Undo', title: 'Ctrl+Z', disabled: true });
  const redoButton = el('button', { type: 'button', class: 'button small', text: 'Redo', title: 'Ctrl+Shift+Z', disabled: true });
  const apply = el('button', { type: 'button', class: 'button primary', 'data-testid': 'editor-apply', text: 'Apply',
    title: 'Run this scenario in the Playground (Ctrl+Enter)' });

  /** Gives the editor other text, as one undoable step; the draft it replaces is kept as the previous one. */
  const replaceText = (text, what) => {
    store.keepPrevious();
    editor.replace(text);
    say(what);
  };

  loadBuiltin.addEventListener('click', async () => {
    const entry = entries.find((e) => e.id === builtin.value);
    try {
      replaceText(prettyJson(await scenarioDocument(entry)), `“${entry.title}” is in the editor (not applied; Ctrl+Z brings your text back).`);
    } catch (error) {
      say(`Could not load “${entry.title}”: ${error.message}`, 'bad');
    }
  });

  /** Reads a file into the editor (after the size check); the engine's checks then mark its problems. */
  const importFile = async (file) => {
    if (!file) return;
    if (file.size > MAX_TEXT_CHARS) {
      say(`“${file.name}” is ${file.size.toLocaleString('en')} bytes; a scenario file is at most ${MAX_TEXT_CHARS.toLocaleString('en')} here.`, 'bad');
      return;
    }
    let text;
    try {
      text = await file.text();
    } catch (error) {
      say(`Could not read “${file.name}”: ${error.message}`, 'bad');
      return;
    }
    const issues = await check(text).catch(() => []);
    replaceText(text, issues.length
      ? `Imported “${file.name}”: ${issues.length} problem${issues.length === 1 ? '' : 's'} (marked). Not applied.`
      : `Imported “${file.name}”: no problems. Apply to run it.`);
  };
  importButton.addEventListener('click', () => fileInput.click());
  fileInput.addEventListener('change', () => {
    importFile(fileInput.files?.[0]);
    fileInput.value = '';
  });
  exportButton.addEventListener('click', () => {
    let title = '';
    try { title = JSON.parse(editor.text).title; } catch { /* the stem falls back */ }
    download(`${fileStem(title)}.json`, new Blob([editor.text], { type: 'application/json' }));
    if (lastIssues.length) say(`Exported with ${lastIssues.length} problem${lastIssues.length === 1 ? '' : 's'}: oblique check will list them.`, 'bad');
  });
  undoButton.addEventListener('click', () => editor.undo());
  redoButton.addEventListener('click', () => editor.redo());

  /** Loads the text into the playground when the engine finds no problem in it. */
  const applyText = async () => {
    const text = editor.text;
    let issues;
    try {
      issues = await scenarioIssues(text, check);
    } catch (error) {
      say(`Not applied: the checks are not available (${error.message}).`, 'bad');
      return false;
    }
    showIssues(issues);
    const current = playground.scenario?.title ? `“${playground.scenario.title}”` : 'the previous scenario';
    if (issues.length) {
      say(`Not applied: ${issues.length} problem${issues.length === 1 ? '' : 's'} (the first on line ${issues[0].line}). ` +
        `The Playground keeps running ${current}.`, 'bad');
      editor.goTo(issues[0].from);
      return false;
    }
    applying = true;
    const ok = await playground.loadDocument(JSON.parse(text), { play: false });
    applying = false;
    if (!ok) {
      say(`Not applied: the engine could not start it (see the message above). The Playground keeps running ${current}.`, 'bad');
      return false;
    }
    synced = text;
    store.save(text, { synced: true });
    say(`Applied: “${playground.scenario.title || 'your scenario'}” is running in the Playground.`, 'ok');
    appliedShown = text;
    status.append(' ', el('button', { type: 'button', class: 'button small', text: 'Go to the Playground',
      on: { click: () => tabs.select('playground') } }));
    return true;
  };
  apply.addEventListener('click', applyText);

  const host = el('div', { class: 'json-host' });
  const editor = createCodeEditor({ parent: host, text: restoring ? saved.text : synced, label: 'Scenario JSON', lint, onChange });

  // A draft from before (a reload, a crash): restored, with the way back to the running scenario.
  if (restoring) {
    notice.hidden = false;
    notice.append(el('span', { text: `Restored your draft from ${clock(saved.savedAt)} (not applied).` }),
      el('button', { type: 'button', class: 'button small', text: 'Edit the running scenario instead',
        on: { click: () => { replaceText(runningText(), 'The running scenario is in the editor; Ctrl+Z brings your draft back.'); notice.hidden = true; } } }));
  } else if (store.previous()) {
    const previous = store.previous();
    notice.hidden = false;
    notice.append(el('span', { text: `An earlier draft (${clock(previous.savedAt)}) is kept.` }),
      el('button', { type: 'button', class: 'button small', text: 'Bring it back',
        on: { click: () => { replaceText(previous.text, 'Your earlier draft is back (not applied).'); notice.hidden = true; } } }));
  }
  if (!store.available) say('This browser keeps nothing for this page (storage is blocked): export your scenario to keep it.', 'bad');

  // The playground moved on (a built-in picked, a link, the embed API): follow it while nothing is lost.
  playground.on('loaded', ({ entry }) => {
    if (entry) builtin.value = entry.id;
    if (applying || editor.text !== synced) return;
    synced = runningText();
    editor.replace(synced);
  });

  // Undo and redo from anywhere in the tab (CodeMirror has its own keys inside the text).
  container.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const inText = event.target.closest?.('.cm-editor');
    if (event.key === 'Enter') {
      event.preventDefault();
      applyText();
      return;
    }
    if (inText || event.target.closest?.('input, textarea, select')) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) editor.undo();
    else if ((key === 'z' && event.shiftKey) || key === 'y') editor.redo();
    else return;
    event.preventDefault();
  });

  // A file dropped anywhere on the tab is imported.
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
    importFile(file);
  });

  container.replaceChildren(el('section', { class: 'editor-tab', 'aria-labelledby': 'editor-title' },
    el('div', { class: 'editor-head' },
      el('h2', { id: 'editor-title', text: 'Scenario editor' }),
      el('div', { class: 'editor-toolbar', role: 'toolbar', 'aria-label': 'Editor' },
        builtin, loadBuiltin, importButton, fileInput, exportButton,
        el('span', { class: 'palette-sep', 'aria-hidden': 'true' }), undoButton, redoButton, apply)),
    notice, status,
    el('div', { class: 'editor-columns' },
      sceneEditor.element,
      el('div', { class: 'json-pane' }, host, issuesList,
        el('p', { class: 'small muted', text: 'Ctrl+Space completes a field name; the format is in the README (“Scenario format”). ' +
          'Files drop here too. Dragging in the scene writes into this text.' })))));
  // The scene starts on the text; when that cannot be shown (a restored draft with a problem), on the
  // running scenario, marked as not the text's.
  await preview(editor.text);
  if (!sceneEditor.normalized) {
    await preview(synced);
    if (editor.text !== synced) sceneEditor.showStale();
  }
  editor.view.requestMeasure();
  if (restoring) editor.view.dispatch({});  // lint the restored text at once
  messages.clear(SOURCE);
  return { editor, sceneEditor, applyText };
}
