// Oblique's page: the playground (a scenario running in the worker, with the panels of its impacts) and the
// matrix lab, behind two tabs, with one message area and one live region for screen readers.
import './styles/main.css';
import './styles/teaching.css';
import { scenarioIndex } from './scenarios.js';
import { Announcer } from './ui/widgets/announcer.js';
import { el } from './ui/widgets/dom.js';
import { installShortcuts } from './ui/widgets/keyboard.js';
import { MatrixLab, PRESETS } from './ui/lab/matrix-lab.js';
import { MessageArea } from './ui/widgets/message-area.js';
import { Playground } from './ui/playground/playground.js';
import { createTabs } from './ui/widgets/tabs.js';
import { Tour } from './ui/playground/tour.js';
import { SimulationClient } from './worker/client.js';

async function start() {
  const app = document.getElementById('app');
  const client = new SimulationClient();
  const messages = new MessageArea();
  const announcer = new Announcer();
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  const entries = await scenarioIndex();
  const playground = new Playground({ client, messages, announcer, entries, reducedMotion });
  const lab = new MatrixLab({ client, messages });
  const playView = el('div', { class: 'view' }, playground.element);
  const labView = el('div', { class: 'view' }, lab.element);
  const tabs = createTabs({
    label: 'Views',
    tabs: [
      { id: 'playground', label: 'Playground', panel: playView },
      { id: 'lab', label: 'Matrix lab', panel: labView },
    ],
    onChange: (id) => {
      if (id !== 'playground') playground.pause();
    },
  });

  const tour = new Tour();
  app.replaceChildren(
    el('header', { class: 'site-header' },
      el('div', { class: 'brand' },
        el('h1', { text: 'Oblique' }),
        el('p', { class: 'tagline', text: 'Impacts as projections: q̇⁺ = (eR + (1 − e)(I − S)) q̇⁻' })),
      el('div', { class: 'header-tools' }, tabs.element, tour.button)),
    messages.element,
    el('main', { id: 'main', tabindex: '-1' }, playView, labView),
    tour.element,
    announcer.element);

  installShortcuts({
    isActive: () => tabs.current === 'playground',
    toggle: () => playground.toggle(),
    step: () => playground.step(),
    stepBack: () => playground.stepBack(),
    reset: () => playground.reset(),
    slower: () => playground.nudgeSpeed(-1),
    faster: () => playground.nudgeSpeed(1),
  });

  try {
    await client.ready;
  } catch (error) {
    messages.show(error, 'Engine');
    return;
  }
  if (!entries.length) messages.show('no built-in scenarios were found (web/scenarios/index.json)', 'Playground');
  else await playground.load(entries[0].id);
  await lab.load(PRESETS[0]);
  document.documentElement.dataset.ready = 'true';
  tour.openOnFirstVisit();
}

start().catch((error) => {
  const app = document.getElementById('app');
  app.replaceChildren(el('p', { class: 'fatal', role: 'alert', text: `Oblique could not start: ${error.message}` }));
});
