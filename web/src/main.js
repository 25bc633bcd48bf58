// Oblique's page starts here, in a small first script: it starts the simulation worker (which fetches and
// compiles the WebAssembly core), reads the address and, when the address asks for nothing, sends the first
// built-in scenario to the worker (which runs it once the engine is there) — all while the page's own code
// (page.js: Three.js and the views) is still being fetched and compiled. The first screen's styles load with
// this script, as one stylesheet linked from the HTML.
import './styles/main.css';
import './styles/teaching.css';
import './ui/widgets/lazy-content.css';
import './styles/page-actions.css';
import { scenarioDocument, scenarioIndex } from './scenario/builtins.js';
import { readAddress } from './share/page-links.js';
import { loadRequest } from './ui/playground/load-request.js';
import { el } from './ui/widgets/dom.js';
import { SimulationClient } from './worker/client.js';

/**
 * Resolves once the document is parsed and its stylesheets are loaded. This script is async (index.html): it
 * runs as soon as it has arrived, without waiting for the stylesheet as a deferred module script would, so
 * that the worker and page.js's fetch start sooner; the page is built (and measured) only after both.
 */
async function documentReady() {
  if (document.readyState === 'loading') {
    await new Promise((parsed) => document.addEventListener('DOMContentLoaded', parsed, { once: true }));
  }
  const pending = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((link) => !link.sheet);
  await Promise.all(pending.map((link) => new Promise((loaded) => {
    link.addEventListener('load', loaded, { once: true });
    link.addEventListener('error', loaded, { once: true });
  })));
}

async function start() {
  const client = new SimulationClient();
  const page = import('./page.js');
  page.catch(() => {});  // awaited below (a failure shows there); not reported as unhandled meanwhile
  // The address: its layout options and the state it carries (page.js opens it once the engine is ready).
  const address = await readAddress(location);
  const entries = scenarioIndex();
  // An address that asks for nothing opens the first built-in scenario, with the request the playground
  // makes (it takes this one's reply, client.preload).
  if (!address.hasState && !address.notices.length && entries.length) {
    scenarioDocument(entries[0]).then((doc) => client.preload('load', loadRequest(doc).request), () => {});
  }
  const { startPage } = await page;
  await documentReady();
  await startPage({ client, address, entries });
}

start().catch(async (error) => {
  await documentReady();
  const app = document.getElementById('app');
  app.replaceChildren(el('p', { class: 'fatal', role: 'alert', text: `Oblique could not start: ${error.message}` }));
});
