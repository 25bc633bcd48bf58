// The Export menu: the scenario file (what runs, settings included: `oblique simulate` runs it unchanged),
// the trajectory as the CSV of `oblique simulate --format csv` (written by the core, in the worker), the
// impact log with its matrices (JSON), the scene (PNG) and the plots (SVG, and PNG drawn from it) at twice
// the screen's resolution, and S and R of the impact shown (CSV, or LaTeX with the panel's zeros).
import { el } from '../ui/widgets/dom.js';
import { prettyJson } from '../editor/pretty-json.js';
import { copyText, download, fileStem } from '../share/dialog.js';
import { runningDocument as written } from '../share/overrides.js';
import { exportPixelRatio, pngBlob, rasterizeSvg, sceneImage } from './images.js';
import { impactMatricesCsv, impactMatricesLatex } from './matrix-text.js';
import { chosenPlotData, energyPlotData, sceneCanvas } from './page-source.js';
import { plotSvg } from './plot-svg.js';
import '../share/share.css';

let open = null;  // the menu on screen: {menu, button, close}

/** The document that runs now: the loaded one with the live settings written in. */
const runningDocument = (playground) => written(playground.viewState());

/** The actions of the menu for what is on screen. */
function actions({ playground, client, messages }) {
  const view = playground.viewState();
  const stem = fileStem(view.title);
  const shown = playground.shownImpact();
  const which = shown ? `impact ${shown.index + 1}` : 'an impact (none shown yet)';
  const fail = (error) => messages.show(error, 'Export');
  const ratio = exportPixelRatio();
  const chosen = chosenPlotData(playground, view.title);
  const chosenLabel = chosen ? `Plot of ${chosen.title}` : 'Plot (not drawn yet)';
  /** The SVG and PNG items of a plot whose data `read` resolves to (null: not drawn). */
  const plotActions = (label, file, hint, read, disabled = false) => {
    const drawn = async () => {
      const data = await read();
      if (!data) throw new Error(`the ${label.toLowerCase()} is not drawn yet`);
      return plotSvg(data, data);
    };
    return [
      { label: `${label} (.svg)`, hint, disabled, run: async () =>
        download(`${stem}-${file}.svg`, new Blob([await drawn()], { type: 'image/svg+xml' })) },
      { label: `${label} (.png)`, hint: 'twice the screen’s resolution', disabled, run: async () =>
        download(`${stem}-${file}.png`, await pngBlob(await rasterizeSvg(await drawn(), ratio))) },
    ];
  };
  return [
    { label: 'Scenario file (.json)', hint: 'with the settings in force now; oblique simulate runs it', run: () =>
      download(`${stem}.json`, new Blob([prettyJson(runningDocument(playground))], { type: 'application/json' })) },
    { label: 'Trajectory (.csv)', hint: 'every 0.01 s of the scenario’s duration: the columns of oblique simulate --format csv',
      run: async () => {
        const { csv } = await client.request('trajectory', { scenario: runningDocument(playground) });
        download(`${stem}-trajectory.csv`, new Blob([csv], { type: 'text/csv' }));
      } },
    { label: 'Impact log with matrices (.json)', hint: `the ${view.horizonImpacts} impact${view.horizonImpacts === 1 ? '' : 's'} of this run so far`, disabled: !view.horizonImpacts,
      run: async () => {
        const { first, records } = await client.request('records', { from: 0 });
        const doc = { oblique_impact_log: 1, title: view.title, time: view.time, first, impacts: records,
          scenario: runningDocument(playground) };
        download(`${stem}-impacts.json`, new Blob([prettyJson(doc)], { type: 'application/json' }));
      } },
    { label: 'Scene (.png)', hint: 'as drawn now, at twice the screen’s resolution', run: async () => {
      const { canvas, scale } = sceneCanvas(playground, ratio);
      download(`${stem}-scene.png`, await pngBlob(sceneImage(canvas, view, scale)));
    } },
    ...plotActions('Energy plot', 'energy', 'kinetic, potential, total; impacts marked', () => energyPlotData(playground, view.title)),
    ...plotActions(chosenLabel, 'plot', 'the quantity chosen in the Plot panel', async () => chosenPlotData(playground, view.title),
      !chosen),
    { label: `S and R of ${which} (.csv)`, hint: 'full precision', disabled: !shown, run: () =>
      download(`${stem}-impact-${shown.index + 1}-S-R.csv`, new Blob([impactMatricesCsv(shown.record, { index: shown.index })], { type: 'text/csv' })) },
    { label: `S and R of ${which} (LaTeX)`, hint: 'bmatrix, 4 significant digits (.tex)', disabled: !shown, run: () =>
      download(`${stem}-impact-${shown.index + 1}-S-R.tex`, new Blob([impactMatricesLatex(shown.record, { index: shown.index, title: view.title })], { type: 'application/x-tex' })) },
    { label: `Copy S and R of ${which} as LaTeX`, hint: 'to paste into a lecture note', disabled: !shown, run: async () => {
      messages.show(await copyText(impactMatricesLatex(shown.record, { index: shown.index, title: view.title })), 'Export');
    } },
  ].map((action) => ({ ...action, fail }));
}

/**
 * Opens (or closes) the Export menu under `button`.
 * @param {import('../share/page-state.js').PageParts & {messages: any}} parts
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
        await action.run();
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
