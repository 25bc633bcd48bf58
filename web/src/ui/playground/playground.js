// The playground view: a scenario running in the worker, drawn in the scene, with playback, live
// restitution, the impact log, the energy plot and the panels of the selected impact (the latest unless a
// row of the log is chosen). It owns the state; the components only show it.
import { el } from '../widgets/dom.js';
import { EnergyPlot } from './energy-plot.js';
import { formatNumber } from '../widgets/format.js';
import { ImpactLog } from './impact-log.js';
import { ImpactPanels } from '../impact-panels/impact-panels.js';
import { PlaybackControls } from './playback.js';
import { contactLabel } from './names.js';
import { RestitutionControls } from './restitution-controls.js';
import { Scene } from './scene.js';
import { scenarioDocument } from '../../scenarios.js';
import { applyOverrides } from '../../share/overrides.js';

const SOURCE = 'Playground';
/** Longest wall-clock step one animation frame may ask for (a stalled tab does not jump ahead). */
const MAX_FRAME = 0.05;
/** How far "Next impact" looks ahead, in simulated seconds. */
const STEP_HORIZON = 10;
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
/** The scenario picker's value for a scenario that is not a built-in one. */
const CUSTOM = 'custom';
/** Simulated seconds per request when a run is advanced to a shared time (seek). */
const SEEK_STEP = 1 / 30;

export class Playground {
  /**
   * @param {{client, messages, announcer, entries: {id, file, title}[], reducedMotion: boolean}} options
   */
  constructor({ client, messages, announcer, entries, reducedMotion }) {
    this.client = client;
    this.messages = messages;
    this.announcer = announcer;
    this.entries = entries;
    this.autoplay = !reducedMotion;
    this.playing = false;
    this.speed = 1;
    this.generation = 0;
    this.impacts = [];
    this.selected = null;  // null: follow the latest
    this.shown = null;
    this.fetching = false;
    this.lastDescribed = 0;
    this.document = null;           // the scenario document as loaded (before the overrides)
    this.overrides = { e_i: {} };   // live settings of e, eᵢ, ν since the document was loaded
    this.changedDuringRun = false;  // a setting changed after t = 0: a replay from t = 0 differs before it
    this.listeners = new Map();
    this.shownRecord = null;

    this.scene = new Scene();
    this.status = el('p', { class: 'scene-status', 'aria-hidden': 'true' });
    this.trails = el('input', { type: 'checkbox', 'data-testid': 'trails',
      on: { change: () => this.scene.setTrails(this.trails.checked) } });
    this.controls = new PlaybackControls({
      entries,
      onScenario: (id) => (id === CUSTOM ? this.loadDocument(this.customDocument) : this.load(id)),
      onPlay: () => this.toggle(),
      onStep: () => this.step(),
      onReset: () => this.reset(),
      onSpeed: (speed) => { this.speed = speed; },
    });
    this.restitution = new RestitutionControls({
      onGlobal: (e) => this.#set({ restitution: e }, () => { this.overrides = { ...this.overrides, e, e_i: {} }; }),
      onContact: (contact, e) => this.#set({ contact, restitution: e }, () => { this.overrides.e_i[contact] = e; }),
    });
    this.log = new ImpactLog({ onSelect: (index) => this.select(index) });
    this.energy = new EnergyPlot();
    this.panelTitle = el('h2', { text: 'The impact' });
    this.panelMeta = el('p', { class: 'impact-meta' });
    this.panels = new ImpactPanels({
      client,
      empty: 'No impact yet. Press Play or “Next impact”: S, R and γ of each impact appear here.',
      onNu: (nu) => this.#set({ nu }, () => {
        if (nu === null) delete this.overrides.nu;
        else this.overrides.nu = nu;
      }),
      onError: (error) => this.messages.show(error, SOURCE),
    });

    this.element = el('div', { class: 'playground' },
      el('div', { class: 'stage' },
        this.controls.element,
        el('figure', { class: 'scene-figure' }, this.scene.element,
          el('figcaption', { class: 'scene-caption' }, this.status,
            el('label', { class: 'check' }, this.trails, ' Trails'))),
        this.restitution.element,
        this.energy.element,
        this.log.element),
      el('section', { class: 'impact-view', 'aria-labelledby': 'impact-title' },
        el('div', { class: 'panel-head' }, this.panelTitle, this.panelMeta),
        this.panels.element));
    this.panelTitle.id = 'impact-title';
  }

  /** Loads the scenario of index entry `id`; resolves true when it runs. */
  async load(id, options = {}) {
    const entry = this.entries.find((e) => e.id === id) ?? this.entries[0];
    if (!entry) return false;
    let doc;
    try {
      doc = await scenarioDocument(entry);
    } catch (error) {
      this.messages.show(`could not load “${entry.title}”: ${error.message}`, SOURCE);
      return false;
    }
    return this.loadDocument(doc, { ...options, entry });
  }

  /**
   * Loads a scenario document: a built-in one (`entry`), or one from the editor, a file, a link or the embed
   * API. `overrides` ({e, e_i, nu}) are written into it for the whole run; `play` starts it (default: the
   * page's autoplay). Resolves true when it runs; otherwise the previous scenario keeps running and the
   * message area says why.
   */
  async loadDocument(doc, { entry = null, overrides = {}, play = this.autoplay } = {}) {
    if (!doc) return false;
    this.pause();
    const generation = ++this.generation;
    this.controls.setEnabled(false);
    // e and eᵢ are written into the document; ν is set on the run, as the ν panel sets it (the two differ
    // in round-off, and a link must replay the run it was made on bit for bit).
    const { nu, ...written } = overrides;
    const { doc: running, notices } = applyOverrides(doc, written);
    let loaded;
    try {
      loaded = await this.client.request('load', { scenario: running });
      if (nu !== undefined) await this.client.request('set', { nu });
    } catch (error) {
      if (generation === this.generation) {
        const name = entry?.title ?? (typeof doc.title === 'string' && doc.title ? doc.title : 'the scenario');
        this.messages.show(`could not load “${name}”: ${error.message}`, SOURCE);
        // The previous scenario (if any) is still the one running: show it again.
        if (this.scenario) this.#showChoice();
        this.controls.setEnabled(Boolean(this.scenario));
      }
      return false;
    }
    if (generation !== this.generation) return false;
    this.messages.clear(SOURCE);
    if (notices.length) this.messages.show(notices.join('; '), SOURCE);
    const { scenario } = loaded;
    this.scenario = scenario;
    this.entry = entry;
    this.document = structuredClone(doc);
    if (!entry) this.customDocument = this.document;
    this.overrides = { e_i: {}, ...structuredClone(overrides) };
    this.#showChoice();
    this.controls.setEnabled(true);
    this.restitution.setScenario(scenario);
    this.log.setContactNames((scenario.contacts ?? []).map((_, i) => contactLabel(scenario, i)));
    this.scene.setScenario(scenario);
    this.trails.checked = Boolean(scenario.view?.trails);
    this.#clearRun();
    this.panels.resetNu(nu ?? scenario.nu ?? null);
    this.#apply(loaded.frame);
    this.#describe(true);
    this.#emit('loaded', { scenario, entry });
    if (play) this.play();
    return true;
  }

  /** The scenario picker shows the scenario running. */
  #showChoice() {
    if (this.entry) this.controls.setScenario(this.entry.id, this.scenario.description);
    else this.controls.showCustom(CUSTOM, this.scenario.title, this.scenario.description);
  }

  // ---- playback ----

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  play() {
    if (this.playing || !this.scenario) return;
    this.playing = true;
    this.controls.setPlaying(true);
    this.#emit('playing', true);
    this.lastNow = null;
    const generation = this.generation;
    // One loop at a time: a pause and a play while a tick is in flight must not leave two loops running.
    const token = (this.loopToken = (this.loopToken ?? 0) + 1);
    const loop = (now) => {
      if (!this.playing || generation !== this.generation || token !== this.loopToken) return;
      const elapsed = this.lastNow === null ? 1 / 60 : Math.min(MAX_FRAME, (now - this.lastNow) / 1000);
      this.lastNow = now;
      this.client.request('tick', { dt: elapsed * this.speed }).then((frame) => {
        if (generation !== this.generation) return;
        this.#apply(frame, elapsed);
        if (this.playing) requestAnimationFrame(loop);
      }, (error) => this.#failed(error));
    };
    requestAnimationFrame(loop);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.controls.setPlaying(false);
    this.#emit('playing', false);
    this.energy.flush();
    this.#describe(true);
  }

  async step() {
    if (!this.scenario) return;
    this.pause();
    const generation = this.generation;
    const slow = setTimeout(() => { this.status.textContent = 'Looking for the next impact…'; }, 250);
    try {
      const frame = await this.client.request('step', { horizon: STEP_HORIZON });
      clearTimeout(slow);
      if (generation !== this.generation) return;
      this.selected = null;
      this.#apply(frame, 0, { announceNow: true });
      if (!frame.found) this.announcer.say(`No impact within ${STEP_HORIZON} s of simulated time.`);
      this.energy.flush();
      this.#describe(true);
    } catch (error) {
      clearTimeout(slow);
      this.#failed(error);
    }
  }

  async reset() {
    if (!this.scenario) return;
    const generation = this.generation;
    try {
      const frame = await this.client.request('reset');
      if (generation !== this.generation) return;
      this.#clearRun();
      this.#apply(frame);
      this.announcer.say('Reset to the start.');
      this.#describe(true);
    } catch (error) {
      this.#failed(error);
    }
  }

  /** Changes speed a notch (the [ and ] keys). */
  nudgeSpeed(direction) {
    this.speed = this.controls.nudgeSpeed(direction);
    this.announcer.say(`Speed ${this.speed}×`);
  }

  async #set(change, record = () => {}) {
    if (!this.scenario) return false;
    try {
      await this.client.request('set', change);
      this.messages.clear(SOURCE);
      record();
      if ((this.frame?.time ?? 0) > 0) this.changedDuringRun = true;
      return true;
    } catch (error) {
      this.messages.show(error, SOURCE);
      return false;
    }
  }

  #failed(error) {
    this.pause();
    this.messages.show(error, SOURCE);
  }

  #clearRun() {
    this.run = (this.run ?? 0) + 1;  // records of an earlier run that are still on their way are dropped
    this.impacts = [];
    this.selected = null;
    this.shown = null;
    this.shownRecord = null;
    this.changedDuringRun = false;
    this.log.clear();
    this.log.select(null, true);
    this.energy.clear();
    this.scene.clearImpulses();
    this.announcer.cancel();
    this.panels.clear();
    this.#showMeta();
  }

  /** Applies a frame from the worker to the scene, the log, the plot and the panels. */
  #apply(frame, elapsed = 0, { announceNow = false, seeking = false } = {}) {
    this.frame = frame;
    this.scene.update(frame, { playing: this.playing || seeking, elapsed });
    const fresh = frame.impacts ?? [];
    if (fresh.length) {
      this.impacts.push(...fresh);
      this.log.add(fresh);
      const latest = fresh[fresh.length - 1];
      if (announceNow) this.announcer.say(`Impact ${latest.index + 1}: ${this.#impactText(latest)}`);
      else this.announcer.impacts(fresh.length, this.#impactText(latest));
      if (this.selected === null && !seeking) this.#fetch();
      this.#emit('impacts', fresh);
    }
    this.energy.add(frame.state, fresh, frame.samples);
    this.status.textContent = `t = ${frame.time.toFixed(2)} s · ${this.impacts.length} impact${this.impacts.length === 1 ? '' : 's'}` +
      ` · energy ${formatNumber(frame.state.total, 4)} J`;
    const now = performance.now();
    if (now - this.lastDescribed > 1000) this.#describe();
  }

  // ---- the selected impact ----

  /** Shows impact `index` in the panels (null: follow the latest). */
  select(index) {
    this.selected = index;
    this.#fetch();
  }

  /** Fetches the full record of the impact to show; one request at a time, the newest wish wins. */
  async #fetch() {
    const index = this.selected ?? this.impacts.length - 1;
    this.log.select(index >= 0 ? index : null, this.selected === null);
    this.energy.select(index >= 0 ? index : null);
    if (index < 0 || this.fetching || index === this.shown) return;
    this.fetching = true;
    const run = this.run;
    try {
      const record = await this.client.request('impact', { index });
      if (run !== this.run) return;
      this.shown = index;
      this.shownRecord = record;
      this.#showMeta(record, index);
      await this.panels.show(record, { labels: this.#labels(record) });
      this.#emit('shown', { record, index });
    } catch (error) {
      if (run === this.run) {
        this.shown = index;  // not asked for again: the message says why it is missing
        this.messages.show(error, SOURCE);
      }
    } finally {
      this.fetching = false;
    }
    // Meanwhile a newer impact, another row or another run may have been asked for.
    const wanted = this.selected ?? this.impacts.length - 1;
    if (wanted >= 0 && wanted !== this.shown) this.#fetch();
  }

  #showMeta(record, index) {
    if (!record) {
      this.panelTitle.textContent = 'The impact';
      this.panelMeta.textContent = '';
      return;
    }
    this.panelTitle.textContent = `Impact ${index + 1}`;
    const names = this.#contactNames(record);
    this.panelMeta.textContent = `t = ${record.t.toFixed(4)} s · ${names.length ? names.join(', ') : 'no contact'}` +
      ` · n = ${record.n}, m = ${record.m}, rank ${record.rank}` + (this.selected === null ? ' · following the latest' : '');
  }

  #contactNames(record) {
    return [...new Set((record.contacts ?? []).map((c) => (typeof c === 'number' ? contactLabel(this.scenario, c) : String(c))))];
  }

  /** Names for the heatmap rows and columns: coordinates x, y, θ per body; constraint rows by contact. */
  #labels(record) {
    const bodies = this.scenario?.bodies ?? [];
    const sub = (k) => String(k).split('').map((d) => SUBSCRIPTS[Number(d)]).join('');
    const coords = bodies.length === 1 ? ['x', 'y', 'θ']
      : bodies.flatMap((_, i) => ['x', 'y', 'θ'].map((c) => `${c}${sub(i + 1)}`));
    const rows = this.#rowLabels(record);
    const legend = bodies.length > 1 ? bodies.map((b, i) => `${i + 1} = ${b.name || `body ${i + 1}`}`).join(', ') : null;
    return { coords: coords.length === record.n ? coords : undefined, rows, legend };
  }

  /**
   * Names of the rows of A. The joints' rows come first, in order (model.hpp: pin x, y; distance 1; slider
   * across and angle; weld x, y, angle); then each impact point's unilateral row (normal_rows) is named
   * after its contact, numbered when a contact has several points; anything else is a stick (tangential) row.
   */
  #rowLabels(record) {
    const parts = { pin: ['x', 'y'], distance: [''], slider: ['⊥', 'θ'], weld: ['x', 'y', 'θ'] };
    const jointRows = (this.scenario?.joints ?? []).flatMap((joint, j) =>
      (parts[joint.type ?? 'pin'] ?? ['']).map((part) => `${joint.name || `joint ${j + 1}`}${part ? ` ${part}` : ''}`));
    const normalRows = record.normal_rows ?? [];
    const jointsFirst = jointRows.length <= record.m && normalRows.every((row) => row >= jointRows.length);
    const rows = Array.from({ length: record.m }, (_, r) => (jointsFirst && r < jointRows.length ? jointRows[r] : 'stick (tangential)'));
    const names = normalRows.map((_, k) => contactLabel(this.scenario, record.contacts?.[k]));
    normalRows.forEach((row, k) => {
      const same = names.filter((name) => name === names[k]).length;
      const ordinal = names.slice(0, k + 1).filter((name) => name === names[k]).length;
      if (row >= 0 && row < rows.length) rows[row] = same > 1 ? `${names[k]} ·${ordinal}` : names[k];
    });
    return rows;
  }

  #impactText(summary) {
    const flags = [];
    if (summary.flags?.tensile_impulse?.length) flags.push('a pulling impulse');
    if (summary.flags?.energy_gain) flags.push('energy gained');
    const names = this.#contactNames(summary);
    return `t = ${summary.t.toFixed(2)} s${names.length ? `, ${names.join(' and ')}` : ''}, γ = ${formatNumber(summary.gamma, 3)}` +
      (flags.length ? `, warning: ${flags.join(', ')}` : '');
  }

  // ---- hooks for share links, embeds, the editor and export (web/src/share, embed, editor, export) ----

  /**
   * Calls `listener` on `type`: 'loaded' ({scenario, entry}) after every load, 'impacts' (the new impact
   * summaries of a frame), 'shown' ({record, index}) when the panels show an impact, 'playing' (true or
   * false) when playback starts or stops. Returns a remover.
   */
  on(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(listener);
    return () => this.listeners.get(type).delete(listener);
  }

  #emit(type, detail) {
    for (const listener of this.listeners.get(type) ?? []) {
      try {
        listener(detail);
      } catch (error) {
        this.messages.show(error, SOURCE);
      }
    }
  }

  /**
   * What the playground shows, to be put in a link: the document (before the overrides) and the built-in
   * it is (or null), the overrides {e, e_i, nu}, the time and the impacts logged by then, the impact shown
   * (null: following the latest), the speed, the trails, and whether a setting changed during the run.
   */
  viewState() {
    return {
      builtin: this.entry?.id ?? null,
      document: this.document,
      overrides: structuredClone(this.overrides),
      time: this.frame?.time ?? 0,
      impactCount: this.impacts.length ? this.impacts[this.impacts.length - 1].index + 1 : 0,
      impact: this.selected,
      speed: this.speed,
      trails: this.trails.checked,
      trailsDefault: Boolean(this.scenario?.view?.trails),
      changedDuringRun: this.changedDuringRun,
      title: this.scenario?.title ?? '',
    };
  }

  /**
   * Runs the scenario from its start to simulated time `t`, paused, in requests of SEEK_STEP seconds (the
   * page stays responsive; `onProgress(fraction)` after each). The trajectory does not depend on how time is
   * cut, so this is the state a run reached at `t`; `impactCount` impacts logged by then are topped up with
   * those that happen at `t` itself (an impact at exactly the stop time is resolved only by a step to it).
   * Resolves with the time reached.
   */
  async seek(t, { impactCount = 0, onProgress = () => {} } = {}) {
    if (!this.scenario) return 0;
    this.pause();
    const generation = this.generation;
    const frame = await this.client.request('reset');
    if (generation !== this.generation) return this.frame?.time ?? 0;
    this.#clearRun();
    this.#apply(frame);
    let stalls = 0;
    while (this.frame.time < t && stalls < 3) {
      const before = this.frame.time;
      const dt = Math.min(SEEK_STEP, t - before);
      const next = await this.client.request('tick', { dt });
      if (generation !== this.generation) return next.time;
      this.#apply(next, dt, { seeking: true });
      stalls = next.time === before ? stalls + 1 : 0;
      onProgress(Math.min(1, this.frame.time / t));
    }
    while (this.impacts.length < impactCount) {
      const before = this.impacts.length;
      const next = await this.client.request('step', { horizon: 1e-9 });
      if (generation !== this.generation) return next.time;
      this.#apply(next, 0, { seeking: true });
      if (this.impacts.length === before) break;
    }
    this.energy.flush();
    this.#fetch();
    this.#describe(true);
    return this.frame.time;
  }

  /** Sets the playback speed (one of the speed slider's notches). */
  setSpeed(speed) {
    this.speed = this.controls.setSpeed(speed);
    return this.speed;
  }

  /** Shows or hides the trails (the checkbox follows). */
  setTrails(on) {
    this.trails.checked = on;
    this.scene.setTrails(on);
  }

  /**
   * Changes settings of the run as the controls do: `e` (every contact), `e_i` ({contact index: e}), `nu`
   * (null: optimal). The controls show the new values. Resolves false (the message area says why) when the
   * engine refuses one; those before it are kept.
   */
  async setOverrides({ e, e_i: contacts, nu } = {}) {
    if (!this.scenario) return false;
    let ok = true;
    if (e !== undefined) ok = await this.#set({ restitution: e }, () => { this.overrides = { ...this.overrides, e, e_i: {} }; });
    for (const [key, value] of Object.entries(contacts ?? {})) {
      if (!ok) break;
      const contact = Number(key);
      ok = await this.#set({ contact, restitution: value }, () => { this.overrides.e_i[contact] = value; });
    }
    if (ok && nu !== undefined) await this.panels.setNu(nu);
    this.restitution.setScenario(applyOverrides(this.scenario, this.overrides).doc);
    return ok;
  }

  /** The third matrix of the matrix panel: 'P', 'Mc', 'E_tilde' or 'Q'. */
  get matrixChoice() {
    return this.panels.matrices.choice;
  }

  set matrixChoice(key) {
    this.panels.matrices.setChoice(key);
  }

  /** The impact the panels show: {index, record} (matrices included), or null. */
  shownImpact() {
    return this.shownRecord ? { index: this.shown, record: this.shownRecord } : null;
  }

  /** The playground's panels, for a layout of its own (the embed): restitution, energy, log, and the impact. */
  panelElements() {
    return { restitution: this.restitution.element, energy: this.energy.element, log: this.log.element,
      impact: this.panels.element.closest('.impact-view') };
  }

  /** Puts `node` right under the scene (the embed bar). */
  placeUnderScene(node) {
    this.scene.element.closest('figure').after(node);
  }

  /** The scene as a 2D canvas (a copy of what is drawn now). */
  snapshotScene() {
    return this.scene.snapshot();
  }

  /** The energy plot's canvas (axes and curves; the legend is HTML), or null before it is drawn. */
  energyCanvas() {
    this.energy.flush();
    return this.energy.element.querySelector('canvas');
  }

  /** The canvas's text alternative: what is on it, and what is happening. */
  #describe(force = false) {
    if (!this.scenario || !this.frame) return;
    const now = performance.now();
    if (!force && now - this.lastDescribed < 1000) return;
    this.lastDescribed = now;
    const s = this.scenario;
    const bodies = (s.bodies ?? []).map((b, i) => `${b.name || `body ${i + 1}`} (${b.shape?.type ?? 'disk'})`);
    const points = this.frame.contacts ?? [];
    const touching = points.filter((p) => p.state !== 'inactive').length;
    const last = this.impacts[this.impacts.length - 1];
    const text = `${s.title || 'Scenario'}: ${bodies.join(', ')}` +
      `${s.planes?.length ? `, ${s.planes.length} ground plane${s.planes.length > 1 ? 's' : ''}` : ''}` +
      `${s.joints?.length ? `, ${s.joints.length} joint${s.joints.length > 1 ? 's' : ''}` : ''}. ` +
      `${this.playing ? 'Playing' : 'Paused'} at t = ${this.frame.time.toFixed(2)} s; ` +
      `${touching} of ${points.length} contact points touching; ${this.impacts.length} impacts so far` +
      (last ? `, the last at t = ${last.t.toFixed(2)} s with γ = ${formatNumber(last.gamma, 3)}.` : '.');
    this.scene.describe(text);
  }
}
