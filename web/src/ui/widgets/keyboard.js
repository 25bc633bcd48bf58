// The playground's keyboard shortcuts: Space play/pause, N or → next impact, B or ← previous impact, R reset,
// [ and ] speed.
// They stay out of the way of typing and of the keys a focused control already uses.

const TEXT_ENTRY = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
const ACTIVATES_ON_SPACE = 'button, summary, a[href], [role="button"], [role="tab"], input, select, textarea';

/**
 * @param {{isActive: () => boolean, toggle: () => void, step: () => void, stepBack: () => void,
 *          reset: () => void, slower: () => void, faster: () => void}} actions
 */
export function installShortcuts(actions) {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || !actions.isActive()) return;
    const target = event.target instanceof Element ? event.target : null;
    const typing = target?.closest(TEXT_ENTRY);
    let action = null;
    if (event.key === ' ' && !target?.closest(ACTIVATES_ON_SPACE)) action = actions.toggle;
    else if (typing) return;
    else if (event.key === 'n' || event.key === 'N' || event.key === 'ArrowRight') action = actions.step;
    else if (event.key === 'b' || event.key === 'B' || event.key === 'ArrowLeft') action = actions.stepBack;
    else if (event.key === 'r' || event.key === 'R') action = actions.reset;
    else if (event.key === '[') action = actions.slower;
    else if (event.key === ']') action = actions.faster;
    if (!action) return;
    event.preventDefault();
    action();
  });
}
