// What the editor says about its text: one status line (a note, a success, or a problem, with an optional
// button after it) and the list of the engine's problems under the text — line, JSON pointer and message,
// each a link to its place.
import { el } from '../ui/widgets/dom.js';

export class EditorStatus {
  /** @param {{goTo: (offset: number) => void}} options  moves the cursor to a problem */
  constructor({ goTo }) {
    this.goTo = goTo;
    this.line = el('p', { class: 'editor-status', role: 'status', 'data-testid': 'editor-status' });
    this.list = el('ol', { class: 'editor-issues', 'data-testid': 'editor-issues', 'aria-label': 'Problems', hidden: true });
    this.issues = [];
  }

  /** Says `text` as `kind` ('note', 'ok' or 'bad'), with `action` ({label, run}) as a button after it. */
  say(text, kind = 'note', action = null) {
    this.line.textContent = text;
    this.line.dataset.kind = kind;
    if (action) {
      this.line.append(' ', el('button', { type: 'button', class: 'button small', text: action.label, on: { click: action.run } }));
    }
  }

  /** The problems under the text (scenario-lint.js issues). */
  showIssues(issues) {
    this.issues = issues;
    this.list.replaceChildren(...issues.map((issue) => {
      const item = el('li', {},
        el('button', { type: 'button', class: 'issue-link', text: `Line ${issue.line}` }),
        el('code', { text: issue.pointer || '(document)' }), ' ', el('span', { text: issue.message }));
      item.firstChild.addEventListener('click', () => this.goTo(issue.from));
      return item;
    }));
    this.list.hidden = issues.length === 0;
  }
}

/** "1 problem", "3 problems". */
export const problems = (count) => `${count} problem${count === 1 ? '' : 's'}`;
