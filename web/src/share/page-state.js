// The page's state as a share link carries it (link-state.js), taken from the playground (through its small
// interface, playground-api.js), the tabs and the matrix lab, and put back: load the scenario with the
// settings its run started with (checked by the engine first), reproduce the run (its changes of e, μ and ν
// at their moments, as far as it had got, then the shared moment: the timeline's seek), select the shared
// impact, open the shared tab. A link that cannot be opened leaves what was on screen as it was; the message
// area says why.
import { linkChange, runChange } from './overrides.js';

/**
 * The page parts a state is read from and written to.
 * @typedef {Object} PageParts
 * @property {import('../ui/playground/playground-api.js').PlaygroundApi} playground
 * @property {import('../ui/lab/matrix-lab.js').MatrixLab|null} lab  null until the lab tab is first opened
 * @property {() => Promise<import('../ui/lab/matrix-lab.js').MatrixLab>} [openLab]  loads the lab
 * @property {{current: string, select: (id: string) => void}} tabs
 * @property {import('../worker/client.js').SimulationClient} client
 * @property {{id: string, title: string}[]} entries  the built-in scenarios
 */

/**
 * The state of the page now, and notes for the person sharing it (what the link cannot reproduce).
 * @param {PageParts} parts
 * @returns {{state: object, notes: string[], title: string}}
 */
export function captureState({ playground, lab, tabs }) {
  const view = playground.viewState();
  const state = {};
  const notes = [];
  if (view.builtin) state.builtin = view.builtin;
  else state.scenario = view.document;
  // The settings the run started with, and the changes made since, each at its moment.
  if (view.start.e !== undefined) state.e = view.start.e;
  const contacts = Object.entries(view.start.e_i ?? {});
  if (contacts.length) state.e_i = Object.fromEntries(contacts.map(([k, v]) => [String(k), v]));
  if (view.start.nu !== undefined && view.start.nu !== null) state.nu = view.start.nu;
  if (view.start.mu !== undefined) state.mu = view.start.mu;
  const frictions = Object.entries(view.start.mu_i ?? {});
  if (frictions.length) state.mu_i = Object.fromEntries(frictions.map(([k, v]) => [String(k), v]));
  const changes = compactChanges(view.changes.map(linkChange));
  if (changes.length) state.changes = changes;
  // The moment shown, and how far the run had got when that is later (the timeline shows the past).
  if (view.time > 0) state.t = view.time;
  if (view.impactCount > 0) state.impacts = view.impactCount;
  if (view.horizon > view.time) state.horizon = view.horizon;
  if (view.horizonImpacts > view.impactCount) state.horizon_impacts = view.horizonImpacts;
  if (view.impact !== null && view.impact !== undefined) state.impact = view.impact;
  if (view.speed !== 1) state.speed = view.speed;
  if (tabs.current !== 'playground') state.tab = tabs.current;
  if (view.trails !== view.trailsDefault) state.trails = view.trails;
  if (view.matrix !== 'P') state.matrix = view.matrix;
  if (tabs.current === 'lab' && !lab) {
    notes.push('The matrix lab is still loading, so the link leaves its input out.');
  } else if (tabs.current === 'lab') {
    try {
      state.lab = lab.input();
    } catch (error) {
      notes.push(`The matrix lab’s input is not complete (${error.message}), so the link leaves it out.`);
    }
  }
  if (changes.length) {
    notes.push(`e, μ or ν changed during this run (${changes.length === 1 ? 'once' : `${changes.length} times`}): the link ` +
      'replays each change at its moment, so it is a full link. A scenario file holds only the settings the run started with.');
  }
  return { state, notes, title: view.title };
}

/** What a change sets: 'e', 'e<contact>', 'mu', 'mu<contact>' or 'nu' (a later change of the same at the same
 * moment replaces it). */
const changeKey = (change) => {
  if (change.nu !== undefined) return 'nu';
  const name = change.mu !== undefined ? 'mu' : 'e';
  return change.contact !== undefined ? `${name}${change.contact}` : name;
};

/**
 * The run's changes without those replaced at the same moment by the next one of the same setting (a
 * slider dragged while paused sends many): the run they give is the same, bit for bit.
 */
export function compactChanges(changes = []) {
  return changes.filter((change, k) => {
    const next = changes[k + 1];
    return !(next && next.t === change.t && next.impacts === change.impacts && changeKey(next) === changeKey(change));
  });
}

/** The message for a scenario the engine refuses: its first problems, each with its JSON pointer. */
function issuesText(issues) {
  const listed = issues.slice(0, 3).map((issue) => `${issue.pointer || '(document)'}: ${issue.message}`).join('; ');
  return issues.length > 3 ? `${listed}; and ${issues.length - 3} more` : listed;
}

/**
 * Shows a link's state. Resolves with notices (settings that could not be used, each saying what was used
 * instead); rejects, leaving the page as it was, when the scenario cannot be loaded.
 * @param {PageParts} parts
 * @param {object} state a link state (link-state.js; a short link's may lack `builtin`: the first built-in)
 * @param {{play?: boolean, onProgress?: (fraction: number) => void}} [options]
 * @returns {Promise<string[]>}
 */
export async function openState({ playground, openLab, tabs, client, entries }, state, { play = false, onProgress } = {}) {
  const notices = [];
  const overrides = { e: state.e, e_i: state.e_i ?? {}, mu: state.mu, mu_i: state.mu_i ?? {}, nu: state.nu };
  for (const key of ['e', 'mu', 'nu']) if (overrides[key] === undefined) delete overrides[key];

  // The scenario: a carried document is checked by the engine before anything is replaced.
  let loaded;
  if (state.scenario !== undefined) {
    const issues = await client.request('call', { method: 'checkScenario', args: [state.scenario] });
    if (issues.length) throw new Error(`the link’s scenario is not valid: ${issuesText(issues)}`);
    loaded = await playground.load({ document: state.scenario }, { overrides, play: false });
  } else {
    let id = state.builtin ?? entries[0]?.id;
    if (!entries.some((entry) => entry.id === id)) {
      notices.push(`there is no built-in scenario “${id}”; showing “${entries[0]?.title}”`);
      id = entries[0]?.id;
    }
    loaded = await playground.load({ builtin: id }, { overrides, play: false });
  }
  if (!loaded) throw new Error('the link’s scenario could not be loaded (see above); what was running is still running');

  // How it is shown, then the run to the shared time and the shared impact.
  await playground.applySettings({ speed: state.speed, trails: state.trails, matrix: state.matrix });
  if (state.tab !== undefined) tabs.select(state.tab);
  const t = state.t ?? 0;
  const impacts = state.impacts ?? 0;
  const changes = (state.changes ?? []).map((change) => ({ time: change.t, impactCount: change.impacts, change: runChange(change) }));
  const run = { changes, t, impacts, horizon: Math.max(t, state.horizon ?? t),
    horizonImpacts: Math.max(impacts, state.horizon_impacts ?? impacts) };
  if (run.changes.length || run.horizon > 0 || run.horizonImpacts > 0) notices.push(...await playground.reproduce(run, { onProgress }));
  if (state.impact !== undefined) {
    const count = playground.viewState().horizonImpacts;
    if (state.impact < count) playground.select(state.impact);
    else notices.push(`the link shows impact ${state.impact + 1}, but the run has ${count} by t = ${run.horizon} s; showing the latest`);
  }
  if (state.lab !== undefined) await (await openLab()).load({ ...state.lab, text: 'From the link.' });
  if (play) playground.play();
  return notices;
}
