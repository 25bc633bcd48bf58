// Two views behind a tab list (the WAI-ARIA tabs pattern: arrow keys move between tabs, Tab enters the view).
import { el } from './dom.js';

/**
 * @param {{label: string, tabs: {id: string, label: string, panel: HTMLElement}[],
 *          onChange?: (id: string) => void}} options
 */
export function createTabs({ label, tabs, onChange = () => {} }) {
  const buttons = tabs.map((tab, i) => el('button', {
    type: 'button', role: 'tab', id: `tab-${tab.id}`, 'aria-controls': `view-${tab.id}`,
    'aria-selected': i === 0 ? 'true' : 'false', tabindex: i === 0 ? '0' : '-1', class: 'tab', text: tab.label,
  }));
  tabs.forEach((tab, i) => {
    Object.assign(tab.panel, { id: `view-${tab.id}`, hidden: i !== 0 });
    tab.panel.setAttribute('role', 'tabpanel');
    tab.panel.setAttribute('aria-labelledby', `tab-${tab.id}`);
  });
  let current = tabs[0].id;
  const choose = (index, focus) => {
    buttons.forEach((button, i) => {
      const on = i === index;
      button.setAttribute('aria-selected', on ? 'true' : 'false');
      button.tabIndex = on ? 0 : -1;
      tabs[i].panel.hidden = !on;
    });
    if (focus) buttons[index].focus();
    if (tabs[index].id !== current) {
      current = tabs[index].id;
      onChange(current);
    }
  };
  const list = el('div', { role: 'tablist', 'aria-label': label, class: 'tabs' }, buttons);
  buttons.forEach((button, i) => {
    button.addEventListener('click', () => choose(i, false));
    button.addEventListener('keydown', (event) => {
      const moves = { ArrowRight: 1, ArrowLeft: -1 };
      if (event.key in moves) {
        event.preventDefault();
        event.stopPropagation();
        choose((i + moves[event.key] + tabs.length) % tabs.length, true);
      } else if (event.key === 'Home' || event.key === 'End') {
        event.preventDefault();
        choose(event.key === 'Home' ? 0 : tabs.length - 1, true);
      }
    });
  });
  return { element: list, get current() { return current; }, select: (id) => choose(tabs.findIndex((t) => t.id === id), false) };
}
