// Oblique's page: the playground (a scenario running in the worker, with the panels of its impacts), the
// matrix lab and the scenario editor, behind three tabs, with one message area and one live region for
// screen readers. The address opens a share link or sets the embed layout (web/src/share, web/src/embed).
// main.js has started the worker and read the address before this module (Three.js and the page's views)
// arrives. The first screen loads only what it draws: the matrix lab, the editor, the share and export
// dialogs and the embed API are loaded when they are used, KaTeX and uPlot when a formula or a plot first
// comes into view (widgets/lazy-module.js); a part that cannot be loaded says so in the message area.
import { Announcer } from './ui/widgets/announcer.js';
import { el } from './ui/widgets/dom.js';
import { installShortcuts } from './ui/widgets/keyboard.js';
import { MODULE_FAILED, moduleFailedMessage } from './ui/widgets/lazy-module.js';
import { MessageArea } from './ui/widgets/message-area.js';
import { Playground } from './ui/playground/playground.js';
import { playgroundApi } from './ui/playground/playground-api.js';
import { RunHold } from './ui/playground/run-hold.js';
import { FIRST_FRAME_MARK } from './ui/playground/scene.js';
import { createTabs } from './ui/widgets/tabs.js';
import { Tour } from './ui/playground/tour.js';
import { followFragment, openAddress } from './share/page-links.js';
import { pageActions } from './page-actions.js';

/**
 * How long the page, once built, waits at most for the engine and the first scenario's reply before it
 * appears without them, in ms. Both usually come first: they load in the worker while page.js arrives.
 */
export const ENGINE_WAIT_MS = 1000;

/**
 * Builds the page and opens what the address asks for.
 * @param {{client: import('./worker/client.js').SimulationClient, address: object, entries: object[]}} started
 *   the worker's client, the address read (share/page-links.js, readAddress) and the built-in scenarios' index
 */
export async function startPage({ client, address, entries }) {
  const app = document.getElementById('app');
  const messages = new MessageArea();
  const announcer = new Announcer();
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  // The address's layout options (embed, panels, …) now; the state it carries once the engine is ready.
  const embedded = address.display.embed === true;
  const embed = embedded || window.parent !== window ? await import('./embed/embed-mode.js') : null;
  embed?.layout(address.display, { embedded });

  const playground = new Playground({ client, messages, announcer, entries, reducedMotion });
  window.addEventListener(MODULE_FAILED, ({ detail }) => messages.show(moduleFailedMessage(detail.what, detail.error), 'Page', 'error'));
  const playView = el('div', { class: 'view' }, playground.element);
  const labView = el('div', { class: 'view' }, el('p', { class: 'loading', text: 'Loading the matrix lab…' }));
  const editorView = el('div', { class: 'view', 'data-testid': 'editor' },
    el('p', { class: 'loading', text: 'Loading the editor…' }));
  let editor = null;
  let lab = null;
  // What share links, the embed, the editor and the export are handed: the playground's small interface
  // (playground-api.js), never the Playground; parts.lab is the lab once it is loaded (null before: a link
  // made meanwhile leaves the lab out).
  const parts = { playground: playgroundApi(playground), lab: null, client, entries, messages };
  const openLab = () => {
    lab ??= import('./ui/lab/matrix-lab.js').then(async ({ MatrixLab, PRESETS }) => {
      const made = new MatrixLab({ client, messages });
      await client.ready;
      await made.load(PRESETS[0]);
      labView.replaceChildren(made.element);
      parts.lab = made;
      return made;
    }).catch((error) => {
      lab = null;
      const text = moduleFailedMessage('The matrix lab', error);
      labView.replaceChildren(el('p', { class: 'loading failed', role: 'alert', text: `${text} Choose the tab again to retry.` }));
      messages.show(`${text} The playground and the editor still work.`, 'Matrix lab', 'error');
      throw error;
    });
    return lab;
  };
  const openEditor = () => {
    editor ??= import('./editor/editor-tab.js').then((module) => module.mountEditor(editorView, parts),
      (error) => {
        editor = null;
        messages.show(`the editor could not load: ${error.message}. The playground still runs; choose the Editor tab again to retry.`, 'Editor', 'error');
      });
    return editor;
  };
  const tabs = createTabs({
    label: 'Views',
    tabs: [
      { id: 'playground', label: 'Playground', panel: playView },
      { id: 'lab', label: 'Matrix lab', panel: labView },
      { id: 'editor', label: 'Editor', panel: editorView },
    ],
    onChange: (id) => {
      if (id !== 'playground') playground.pause();
      if (id === 'editor') openEditor();
      if (id === 'lab') openLab().catch(() => {});
    },
  });
  parts.tabs = tabs;
  parts.openEditor = openEditor;
  parts.openLab = openLab;

  // The tour holds the run on an impact that shows what its cards explain, and lets it go on after.
  const hold = new RunHold(playground);
  const tour = new Tour({ hold: () => hold.hold(), release: () => hold.release() });
  // The page is built off the document and attached once (`show`), with the first scenario applied and its
  // first draw asked for: that draw's animation frame is then the one of the page's first layout and paint,
  // instead of a frame of its own after a first paint without the scene. The loading note stays until then.
  const page = [
    el('header', { class: 'site-header' },
      el('div', { class: 'brand' },
        el('h1', { text: 'Oblique' }),
        el('p', { class: 'tagline', text: 'Impacts as projections: q̇⁺ = (eR + (1 − e)(I − S)) q̇⁻' })),
      el('div', { class: 'header-end' }, tabs.element, tour.button, pageActions(parts))),
    messages.element,
    el('main', { id: 'main', tabindex: '-1' }, playView, labView, editorView),
    tour.element,
    announcer.element,
  ];
  let shown = false;
  const show = () => {
    if (shown) return;
    shown = true;
    clearTimeout(capped);
    app.replaceChildren(...page);
  };
  // An engine slower than ENGINE_WAIT_MS does not keep the page away: it appears then, and the scenario after.
  const capped = setTimeout(show, ENGINE_WAIT_MS);

  installShortcuts({
    isActive: () => tabs.current === 'playground',
    toggle: () => playground.toggle(),
    step: () => playground.step(),
    stepBack: () => playground.stepBack(),
    reset: () => playground.reset(),
    slower: () => playground.nudgeSpeed(-1),
    faster: () => playground.nudgeSpeed(1),
  });

  // The rest of the core (the part of the wasm the first frame does not run) is fetched after that frame; a
  // failure here says nothing yet: the worker tries again at its first use, and a failure then is shown.
  afterFirstFrame(() => client.request('loadAll').catch(() => {}));
  try {
    await client.ready;
  } catch (error) {
    show();
    messages.show(`${error.message}. Nothing can run without the engine; reload the page to try again.`, 'Engine', 'error');
    embed?.failed(error);
    return;
  }
  if (!entries.length) messages.show('no built-in scenarios were found (web/scenarios/index.json); the matrix lab and the editor still work', 'Playground', 'error');
  else {
    // A shared state opens paused (unless autoplay=1); an embed plays when it is scrolled into view.
    const play = embedded ? false : address.hasState ? address.display.autoplay === true : playground.autoplay;
    // The page appears with the scenario applied, its first draw asked for (or with what failed).
    await openAddress(parts, address, { play }).finally(show);
    followFragment(parts);
  }
  show();
  embed?.start(parts, address.display, { embedded, reducedMotion });
  document.documentElement.dataset.ready = 'true';
  // A first visit gets the tour, once the frame the scenario's load asked for is drawn (the card, and the
  // layout it reads to place itself, are not what that frame needs); an embed does not (the course page
  // around it decides what comes first).
  if (!embedded) afterNextFrame(() => tour.openOnFirstVisit());
}

/**
 * Calls `then` in a task after the next animation frame: after the draws already asked for (their frame
 * callbacks were queued first) have been made and painted. Without WebGL too (no first-frame mark then).
 */
function afterNextFrame(then) {
  requestAnimationFrame(() => setTimeout(then, 0));
}

/** Calls `then` once the scene has drawn its first bodies (the performance mark FIRST_FRAME_MARK). */
function afterFirstFrame(then) {
  if (performance.getEntriesByName(FIRST_FRAME_MARK).length) {
    then();
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName(FIRST_FRAME_MARK).length) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: 'mark' });
}
