// The Export menu: the scenario file (what runs, settings included: `oblique simulate` runs it unchanged),
// the trajectory as the CSV of `oblique simulate --format csv` (written by the core, in the worker), the
// impact log with its matrices (JSON), the scene (PNG) and the plots (SVG, and PNG drawn from it) at twice
// the screen's resolution, and S and R of the impact shown (CSV, or LaTeX with the panel's zeros). What it
// reads of the page comes through the playground's small interface (playground-api.js): the state shown,
// the impact shown, the scene drawn at a resolution of its own, the plots as data.
import { el } from '../ui/widgets/dom.js';
import { copyText } from '../ui/widgets/clipboard.js';
import { download, fileStem } from '../ui/widgets/files.js';
import { prettyJson } from '../editor/pretty-json.js';
import { runningDocument } from '../scenario/overrides.js';
import { exportPixelRatio, pngBlob, rasterizeSvg, sceneImage } from './images.js';
import { impactMatricesCsv, impactMatricesLatex } from './matrix-text.js';
import { plotSvg } from './plot-svg.js';
import './export.css';

const SOURCE = 'Export';
let open = null;  // the menu on screen: {menu, button, close}

/**
 * The actions of the menu for what is on screen: each `run` resolves with what to tell the reader (a file
 * saved, a text copied), or throws.
 * @param {{playground: import('../ui/playground/playground-api.js').PlaygroundApi, client: any, messages: any}} parts
 */
function actions({ playground, client, messages }) {
  const view = playground.viewState();
  const stem = fileStem(view.title);
  const shown = playground.shownImpact();
  const which = shown ? `impact ${shown.index + 1}` : 'an impact (none shown yet)';
  const ratio = exportPixelRatio();
  const chosen = playground.chosenPlotData();
  const chosenLabel = chosen ? `Plot of ${chosen.title}` : 'Plot (not drawn yet)';
  const scenarioFile = () => runningDocument(playground.viewState());
  /** Offers `blob` as the file `name`; says so. */
  const save = (name, blob) => {
    download(name, blob);
    return { kind: 'success', text: `Saved ${name}.` };
  };
  /** The SVG and PNG items of a plot whose data `read()` returns (null: nothing drawn). */
  const plotActions = (label, file, hint, read, disabled = false) => {
    const drawn = () => {
      const data = read();
      if (!data) throw new Error(`the ${label.toLowerCase()} has nothing to draw yet`);
      return plotSvg({ ...data, subtitle: view.title }, data);
    };
    return [
      { label: `${label} (.svg)`, hint, disabled, run: () =>
        save(`${stem}-${file}.svg`, new Blob([drawn()], { type: 'image/svg+xml' })) },
      { label: `${label} (.png)`, hint: 'twice the screen’s resolution', disabled, run: async () =>
        save(`${stem}-${file}.png`, await pngBlob(await rasterizeSvg(drawn(), ratio))) },
    ];
  };
  const latex = () => impactMatricesLatex(shown.record, { index: shown.index, title: view.title });
  return [
    { label: 'Scenario file (.json)', hint: 'with the settings in force now; oblique simulate runs it', run: () =>
      save(`${stem}.json`, new Blob([prettyJson(scenarioFile())], { type: 'application/json' })) },
    { label: 'Trajectory (.csv)', hint: 'every 0.01 s of the scenario’s duration: the columns of oblique simulate --format csv',
      run: async () => {
        const { csv, samples, impacts } = await client.request('trajectory', { scenario: scenarioFile() });
        const saved = save(`${stem}-trajectory.csv`, new Blob([csv], { type: 'text/csv' }));
        return { ...saved, text: `${saved.text.slice(0, -1)} (${samples} samples, ${impacts} impact${impacts === 1 ? '' : 's'}).` };
      } },
    { label: 'Impact log with matrices (.json)', hint: `the ${view.horizonImpacts} impact${view.horizonImpacts === 1 ? '' : 's'} of this run so far`, disabled: !view.horizonImpacts,
      run: async () => {
        const { first, records } = await client.request('records', { from: 0 });
        const doc = { oblique_impact_log: 1, title: view.title, time: view.time, first, impacts: records, scenario: scenarioFile() };
        return save(`${stem}-impacts.json`, new Blob([prettyJson(doc)], { type: 'application/json' }));
      } },
    { label: 'Scene (.png)', hint: 'as drawn now, at twice the screen’s resolution', run: async () => {
      const { canvas, pixelRatio } = playground.snapshotScene({ pixelRatio: ratio });
      return save(`${stem}-scene.png`, await pngBlob(sceneImage(canvas, view, pixelRatio)));
    } },
    ...plotActions('Energy plot', 'energy', 'kinetic, potential, total; impacts marked', () => playground.energyPlotData()),
    ...plotActions(chosenLabel, 'plot', 'the quantity chosen in the Plot panel', () => playground.chosenPlotData(), !chosen),
    { label: `S and R of ${which} (.csv)`, hint: 'full precision', disabled: !shown, run: () =>
      save(`${stem}-impact-${shown.index + 1}-S-R.csv`, new Blob([impactMatricesCsv(shown.record, { index: shown.index })], { type: 'text/csv' })) },
    { label: `S and R of ${which} (LaTeX)`, hint: 'bmatrix, 4 significant digits (.tex)', disabled: !shown, run: () =>
      save(`${stem}-impact-${shown.index + 1}-S-R.tex`, new Blob([latex()], { type: 'application/x-tex' })) },
    { label: `Copy S and R of ${which} as LaTeX`, hint: 'to paste into a lecture note', disabled: !shown, run: async () => {
      const { copied, message } = await copyText(latex());
      return { kind: copied ? 'success' : 'warning', text: message };
    } },
  ].map((action) => ({ ...action,
    done: ({ kind, text }) => messages.show(text, SOURCE, kind),
    fail: (error) => messages.show(`${error.message}. Nothing was saved; the playground is as it was.`, SOURCE, 'error') }));
}

/**
 * Opens (or closes) the Export menu under `button`.
 * @param {{playground: import('../ui/playground/playground-api.js').PlaygroundApi, client: any, messages: any}} parts
 * @param {HTMLElement} button
 */
export function openExportMenu(parts, button) {
  if (open) {
    open.close();
    return;
  }
  const items = actions(parts).map((action) => {
    const item = el('button', { type: 'button', role: 'menuitem', class: 'menu-item', disabled: action.disabled, tabindex: '-1' },
      el('span', { class: 'menu-label', text: action.label }), el('span', { class: 'menu-hint', text: action.hint }));
    item.addEventListener('click', async () => {
      item.setAttribute('aria-busy', 'true');
      item.firstChild.textContent = `${action.label} — working…`;
      try {
        action.done(await action.run());
      } catch (error) {
        action.fail(error);
      }
      close();
    });
    return item;
  });
  const menu = el('div', { class: 'export-menu', role: 'menu', 'aria-label': 'Export', 'data-testid': 'export-menu' }, items);
  const enabled = () => items.filter((item) => !item.disabled);
  const focus = (k) => { const list = enabled(); list[(k + list.length) % list.length]?.focus(); };
  menu.addEventListener('keydown', (event) => {
    const list = enabled();
    const at = list.indexOf(document.activeElement);
    if (event.key === 'ArrowDown') focus(at + 1);
    else if (event.key === 'ArrowUp') focus(at - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(list.length - 1);
    else if (event.key === 'Escape') { close(); button.focus(); } else if (event.key === 'Tab') close();
    else return;
    event.preventDefault();
  });
  const outside = (event) => { if (!menu.contains(event.target) && event.target !== button) close(); };
  function close() {
    menu.remove();
    button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', outside, true);
    window.removeEventListener('resize', close);
    open = null;
  }
  document.body.append(menu);
  const box = button.getBoundingClientRect();
  menu.style.top = `${Math.round(box.bottom + 4)}px`;
  menu.style.right = `${Math.max(8, Math.round(document.documentElement.clientWidth - box.right))}px`;
  button.setAttribute('aria-expanded', 'true');
  document.addEventListener('pointerdown', outside, true);
  window.addEventListener('resize', close);
  open = { close };
  focus(0);
}
