// The Editor tab: the running scenario as JSON (CodeMirror, checked by the engine as you type, field names
// completed from the schema) beside its scene (drag, draw velocities, add and delete bodies, an inspector).
// "Apply" loads it into the playground only when the engine finds no problem: an invalid edit never
// replaces the running scenario. The text is saved in localStorage as you type (a reload or a crash of the
// worker loses nothing); "New from built-in", import (a file picker, or a file dropped on the tab) and
// export of the scenario file; one undo history (Ctrl+Z, Ctrl+Shift+Z) for typing and scene edits. It
// reaches the playground through its small interface (playground-api.js).
import { el } from '../ui/widgets/dom.js';
import { scenarioDocument } from '../scenario/builtins.js';
import { runningDocument } from '../scenario/overrides.js';
import { createCodeEditor } from './code-editor.js';
import { DraftStore } from './draft-store.js';
import { EditorStatus, problems } from './editor-status.js';
import { acceptDrops, exportText, importFile } from './editor-files.js';
import { applyPatchToText } from './json-text-edit.js';
import { prettyJson } from './pretty-json.js';
import { scenarioIssues } from './scenario-lint.js';
import { SceneEditor } from './scene-editor.js';
import './editor.css';

const SOURCE = 'Editor';
const PREVIEW_DELAY_MS = 200;
const EMPTY_TEXT = '{\n  "bodies": []\n}\n';

/** "12:03" for a time stamp. */
const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * Builds the editor in its tab panel.
 * @param {HTMLElement} container the tab panel (data-testid "editor")
 * @param {import('../share/page-state.js').PageParts & {messages: any}} parts
 */
export async function mountEditor(container, parts) {
  const tab = new EditorTab(container, parts);
  await tab.start();
  return tab;
}

class EditorTab {
  constructor(container, { playground, client, messages, entries, tabs }) {
    Object.assign(this, { container, playground, client, messages, entries, tabs });
    this.store = new DraftStore();
    // Text last taken from or given to the playground: while the editor holds it, nothing is lost by
    // following the playground to another scenario.
    this.synced = this.#runningText();
    this.saved = this.store.load();
    this.restoring = Boolean(this.saved && !this.saved.synced && this.saved.text !== this.synced);
    this.applying = false;
    // The text whose "Applied" message is showing: a check of that text finishing late (it was scheduled by
    // the last edit before Apply) leaves the message and its button in place.
    this.appliedShown = null;
    this.previewTicket = 0;
    this.previewTimer = null;
    this.status = new EditorStatus({ goTo: (offset) => this.editor.goTo(offset) });
    this.notice = el('div', { class: 'editor-notice', hidden: true });
    this.sceneEditor = new SceneEditor({
      onEdit: (operations, what) => this.#sceneEdit(operations, what),
      onError: (message) => this.say(message, 'bad'),
    });
    const host = el('div', { class: 'json-host' });
    this.editor = createCodeEditor({ parent: host, text: this.restoring ? this.saved.text : this.synced, label: 'Scenario JSON',
      lint: (text) => this.#lint(text), onChange: (text, fromScene) => this.#changed(text, fromScene) });
    this.toolbar = this.#toolbar();
    container.replaceChildren(el('section', { class: 'editor-tab', 'aria-labelledby': 'editor-title' },
      el('div', { class: 'editor-head' }, el('h2', { id: 'editor-title', text: 'Scenario editor' }), this.toolbar),
      this.notice, this.status.line,
      el('div', { class: 'editor-columns' },
        this.sceneEditor.element,
        el('div', { class: 'json-pane' }, host, this.status.list,
          el('p', { class: 'small muted', text: 'Ctrl+Space completes a field name; the format, field by field, is in docs/scenarios.md. ' +
            'Files drop here too. Dragging in the scene writes into this text.' })))));
  }

  /** The scene, the draft notice, the keys and the following of the playground; resolves once the scene shows. */
  async start() {
    this.#draftNotice();
    if (!this.store.available) this.say('This browser keeps nothing for this page (storage is blocked): export your scenario to keep it.', 'bad');
    // The playground moved on (a built-in picked, a link, the embed API): follow it while nothing is lost.
    this.playground.on('loaded', ({ entry }) => {
      if (entry) this.builtin.value = entry.id;
      if (this.applying || this.editor.text !== this.synced) return;
      this.synced = this.#runningText();
      this.editor.replace(this.synced);
    });
    this.#keys();
    acceptDrops(this.container, (file) => this.#import(file));
    // The scene starts on the text; when that cannot be shown (a restored draft with a problem), on the
    // running scenario, marked as not the text's.
    await this.#preview(this.editor.text);
    if (!this.sceneEditor.normalized) {
      await this.#preview(this.synced);
      if (this.editor.text !== this.synced) this.sceneEditor.showStale();
    }
    this.editor.view.requestMeasure();
    if (this.restoring) this.editor.view.dispatch({});  // lint the restored text at once
    this.messages.clear(SOURCE);
  }

  say(text, kind = 'note', action = null) {
    this.status.say(text, kind, action);
  }

  /** The document running in the playground, settings written in, as text. */
  #runningText() {
    const view = this.playground.viewState();
    return view.document ? prettyJson(runningDocument(view)) : EMPTY_TEXT;
  }

  #check(text) {
    return this.client.request('call', { method: 'checkScenario', args: [text] });
  }

  /** The engine's problems of `text` as CodeMirror diagnostics; the status line and the list follow. */
  async #lint(text) {
    let issues;
    try {
      issues = await scenarioIssues(text, (t) => this.#check(t));
    } catch (error) {
      this.say(`The checks are not available (${error.message}). Your text is kept in this browser; reload the page to restart them.`, 'bad');
      return [];
    }
    this.status.showIssues(issues);
    if (!this.applying && !(text === this.synced && text === this.appliedShown)) {
      if (issues.length) this.say(`${problems(issues.length)}: see the marks in the text and the list under it.`, 'bad');
      else this.say(text === this.synced ? 'This is the scenario running in the Playground.' : 'No problems. Apply to run it in the Playground.', 'ok');
    }
    return issues.map((issue) => ({ from: issue.from, to: Math.max(issue.to, issue.from), severity: 'error', source: 'oblique check',
      message: `${issue.pointer || '(document)'}: ${issue.message}` }));
  }

  /** The scene follows the text (after a short pause in typing), through the engine's normalised form. */
  async #preview(text) {
    const ticket = ++this.previewTicket;
    try {
      const doc = JSON.parse(text);
      const normalized = await this.client.request('call', { method: 'normalizeScenario', args: [text] });
      if (ticket === this.previewTicket) this.sceneEditor.show(doc, normalized);
    } catch {
      if (ticket === this.previewTicket) this.sceneEditor.showStale();
    }
  }

  #changed(text, fromScene) {
    this.appliedShown = null;
    if (!this.store.save(text, { synced: text === this.synced }) && this.store.available) {
      this.say('This browser did not save the text (its storage is full): export it to keep it.', 'bad');
    }
    clearTimeout(this.previewTimer);
    if (fromScene) this.#preview(text);
    else this.previewTimer = setTimeout(() => this.#preview(text), PREVIEW_DELAY_MS);
    this.undoButton.disabled = !this.editor.canUndo;
    this.redoButton.disabled = !this.editor.canRedo;
  }

  #sceneEdit(operations, what) {
    let next;
    try {
      next = applyPatchToText(this.editor.text, operations);
    } catch (error) {
      this.say(`The scene cannot change this text: ${error.message}. The text is as it was.`, 'bad');
      return;
    }
    this.editor.replace(next, { userEvent: 'scene.edit' });
    this.say(`In the scene: ${what}. Ctrl+Z undoes it.`);
  }

  /** Gives the editor other text, as one undoable step; the draft it replaces is kept as the previous one. */
  #replaceText(text, what) {
    this.store.keepPrevious();
    this.editor.replace(text);
    this.say(what);
  }

  #import(file) {
    return importFile(file, { check: (text) => this.#check(text), replace: (text, what) => this.#replaceText(text, what),
      say: (text, kind) => this.say(text, kind) });
  }

  #toolbar() {
    const button = (text, click, options = {}) => el('button', { type: 'button', class: 'button small', text, on: { click }, ...options });
    this.builtin = el('select', { class: 'editor-builtin', 'aria-label': 'Built-in scenario' },
      this.entries.map((entry) => el('option', { value: entry.id, text: entry.title || entry.id })));
    const running = this.playground.viewState().builtin;
    if (running) this.builtin.value = running;
    const fileInput = el('input', { type: 'file', accept: '.json,application/json', hidden: true });
    fileInput.addEventListener('change', () => {
      this.#import(fileInput.files?.[0]);
      fileInput.value = '';
    });
    this.undoButton = button('Undo', () => this.editor.undo(), { title: 'Ctrl+Z', disabled: true });
    this.redoButton = button('Redo', () => this.editor.redo(), { title: 'Ctrl+Shift+Z', disabled: true });
    const apply = el('button', { type: 'button', class: 'button primary', 'data-testid': 'editor-apply', text: 'Apply',
      title: 'Run this scenario in the Playground (Ctrl+Enter)', on: { click: () => this.applyText() } });
    return el('div', { class: 'editor-toolbar', role: 'toolbar', 'aria-label': 'Editor' },
      this.builtin, button('New from built-in', () => this.#newFromBuiltin()), button('Import file…', () => fileInput.click()),
      fileInput, button('Export file', () => this.#export()),
      el('span', { class: 'palette-sep', 'aria-hidden': 'true' }), this.undoButton, this.redoButton, apply);
  }

  async #newFromBuiltin() {
    const entry = this.entries.find((e) => e.id === this.builtin.value);
    try {
      this.#replaceText(prettyJson(await scenarioDocument(entry)), `“${entry.title}” is in the editor (not applied; Ctrl+Z brings your text back).`);
    } catch (error) {
      this.say(`Could not load “${entry.title}”: ${error.message}. Your text is unchanged.`, 'bad');
    }
  }

  #export() {
    exportText(this.editor.text);
    const count = this.status.issues.length;
    if (count) this.say(`Exported with ${problems(count)}: oblique check will list them.`, 'bad');
  }

  /** Loads the text into the playground when the engine finds no problem in it; resolves true when it runs. */
  async applyText() {
    const text = this.editor.text;
    let issues;
    try {
      issues = await scenarioIssues(text, (t) => this.#check(t));
    } catch (error) {
      this.say(`Not applied: the checks are not available (${error.message}).`, 'bad');
      return false;
    }
    this.status.showIssues(issues);
    const title = this.playground.viewState().title;
    const current = title ? `“${title}”` : 'the previous scenario';
    if (issues.length) {
      this.say(`Not applied: ${problems(issues.length)} (the first on line ${issues[0].line}). ` +
        `The Playground keeps running ${current}.`, 'bad');
      this.editor.goTo(issues[0].from);
      return false;
    }
    this.applying = true;
    const ok = await this.playground.load({ document: JSON.parse(text) }, { play: false });
    this.applying = false;
    if (!ok) {
      this.say(`Not applied: the engine could not start it (see the message above). The Playground keeps running ${current}.`, 'bad');
      return false;
    }
    this.synced = text;
    this.store.save(text, { synced: true });
    this.say(`Applied: “${this.playground.viewState().title || 'your scenario'}” is running in the Playground.`, 'ok',
      { label: 'Go to the Playground', run: () => this.tabs.select('playground') });
    this.appliedShown = text;
    return true;
  }

  /** A draft from before (a reload, a crash): restored, with the way back to the running scenario. */
  #draftNotice() {
    const offer = (text, label, run) => {
      this.notice.hidden = false;
      this.notice.append(el('span', { text }), el('button', { type: 'button', class: 'button small', text: label,
        on: { click: () => { run(); this.notice.hidden = true; } } }));
    };
    if (this.restoring) {
      offer(`Restored your draft from ${clock(this.saved.savedAt)} (not applied).`, 'Edit the running scenario instead',
        () => this.#replaceText(this.#runningText(), 'The running scenario is in the editor; Ctrl+Z brings your draft back.'));
    } else if (this.store.previous()) {
      const previous = this.store.previous();
      offer(`An earlier draft (${clock(previous.savedAt)}) is kept.`, 'Bring it back',
        () => this.#replaceText(previous.text, 'Your earlier draft is back (not applied).'));
    }
  }

  /** Ctrl+Enter applies; undo and redo from anywhere in the tab (CodeMirror has its own keys in the text). */
  #keys() {
    this.container.addEventListener('keydown', (event) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const inText = event.target.closest?.('.cm-editor');
      if (event.key === 'Enter') {
        event.preventDefault();
        this.applyText();
        return;
      }
      if (inText || event.target.closest?.('input, textarea, select')) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) this.editor.undo();
      else if ((key === 'z' && event.shiftKey) || key === 'y') this.editor.redo();
      else return;
      event.preventDefault();
    });
  }
}
