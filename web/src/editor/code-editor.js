// The JSON editing surface: CodeMirror 6 with JSON highlighting and folding, the engine's checks as you type
// (a marker in the gutter and a wavy underline at each problem), completion of field names from the
// scenario schema, and one undo history for typing and for changes made in the scene.
import { basicSetup } from 'codemirror';
import { json, jsonLanguage } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { isolateHistory, redo, redoDepth, undo, undoDepth } from '@codemirror/commands';
import { minimalChange } from './json-text-edit.js';
import { scenarioCompletions } from './schema-completion.js';

const theme = EditorView.theme({
  '&': { fontSize: '13px', backgroundColor: '#fff', border: '1px solid var(--line)', borderRadius: '6px' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: '#f6f5f2', borderRight: '1px solid var(--line)', color: '#6b717a' },
  '.cm-activeLine': { backgroundColor: '#f3f7fb' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: 'inherit' },
});

/**
 * @param {{parent: HTMLElement, text: string, label: string, lint: (text: string) => Promise<object[]>,
 *          onChange: (text: string, fromScene: boolean) => void}} options
 *   lint resolves to CodeMirror diagnostics for a text
 */
export function createCodeEditor({ parent, text, label, lint, onChange }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        json(),
        jsonLanguage.data.of({ autocomplete: scenarioCompletions }),
        linter((v) => lint(v.state.doc.toString()), { delay: 300 }),
        lintGutter(),
        EditorView.lineWrapping,
        theme,
        // tabindex: the text is what the scrolling region holds, focusable (as a contenteditable it is, but
        // the accessibility checks look for the attribute when the text is long enough to scroll).
        EditorView.contentAttributes.of({ 'data-testid': 'editor-text', 'aria-label': label, tabindex: '0' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) {
            const fromScene = update.transactions.some((tr) => tr.isUserEvent('scene'));
            onChange(update.state.doc.toString(), fromScene);
          }
        }),
      ],
    }),
  });
  return {
    view,
    get text() { return view.state.doc.toString(); },
    /** Replaces the text as one undoable step (`userEvent`: 'scene.…' for the scene, 'input.replace' else). */
    replace(next, { userEvent = 'input.replace' } = {}) {
      const change = minimalChange(view.state.doc.toString(), next);
      if (change.from === change.to && !change.insert) return;
      view.dispatch({ changes: change, annotations: isolateHistory.of('full'), userEvent, scrollIntoView: false });
    },
    undo: () => undo(view),
    redo: () => redo(view),
    get canUndo() { return undoDepth(view.state) > 0; },
    get canRedo() { return redoDepth(view.state) > 0; },
    /** Puts the cursor at `offset` and shows it. */
    goTo(offset) {
      view.dispatch({ selection: { anchor: Math.min(offset, view.state.doc.length) }, scrollIntoView: true });
      view.focus();
    },
  };
}
