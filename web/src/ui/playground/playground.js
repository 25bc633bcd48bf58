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

const SOURCE = 'Playground';
/** Longest wall-clock step one animation frame may ask for (a stalled tab does not jump ahead). */
const MAX_FRAME = 0.05;
/** How far "Next impact" looks ahead, in simulated seconds. */
const STEP_HORIZON = 10;
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

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

    this.scene = new Scene();
    this.status = el('p', { class: 'scene-status', 'aria-hidden': 'true' });
    this.trails = el('input', { type: 'checkbox', 'data-testid': 'trails',
      on: { change: () => this.scene.setTrails(this.trails.checked) } });
    this.controls = new PlaybackControls({
      entries,
      onScenario: (id) => this.load(id),
      onPlay: () => this.toggle(),
      onStep: () => this.step(),
      onReset: () => this.reset(),
      onSpeed: (speed) => { this.speed = speed; },
    });
    this.restitution = new RestitutionControls({
      onGlobal: (e) => this.#set({ restitution: e }),
      onContact: (contact, e) => this.#set({ contact, restitution: e }),
    });
    this.log = new ImpactLog({ onSelect: (index) => this.select(index) });
    this.energy = new EnergyPlot();
    this.panelTitle = el('h2', { text: 'The impact' });
    this.panelMeta = el('p', { class: 'impact-meta' });
    this.panels = new ImpactPanels({
      client,
      empty: 'No impact yet. Press Play or “Next impact”: S, R and γ of each impact appear here.',
      onNu: (nu) => this.#set({ nu }),
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

  /** Loads the scenario of index entry `id`. */
  async load(id) {
    const entry = this.entries.find((e) => e.id === id) ?? this.entries[0];
    if (!entry) return;
    this.pause();
    const generation = ++this.generation;
    this.controls.setEnabled(false);
    let loaded;
    try {
      const doc = await scenarioDocument(entry);
      loaded = await this.client.request('load', { scenario: doc });
    } catch (error) {
      if (generation === this.generation) {
        this.messages.show(`could not load “${entry.title}”: ${error.message}`, SOURCE);
        // The previous scenario (if any) is still the one running: show it again.
        if (this.entry) this.controls.setScenario(this.entry.id, this.scenario.description);
        this.controls.setEnabled(Boolean(this.scenario));
      }
      return;
    }
    if (generation !== this.generation) return;
    this.messages.clear(SOURCE);
    const { scenario } = loaded;
    this.scenario = scenario;
    this.entry = entry;
    this.controls.setScenario(entry.id, scenario.description);
    this.controls.setEnabled(true);
    this.restitution.setScenario(scenario);
    this.log.setContactNames((scenario.contacts ?? []).map((_, i) => contactLabel(scenario, i)));
    this.scene.setScenario(scenario);
    this.trails.checked = Boolean(scenario.view?.trails);
    this.#clearRun();
    this.panels.resetNu(scenario.nu ?? null);
    this.#apply(loaded.frame);
    this.#describe(true);
    if (this.autoplay) this.play();
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

  async #set(change) {
    if (!this.scenario) return;
    try {
      await this.client.request('set', change);
      this.messages.clear(SOURCE);
    } catch (error) {
      this.messages.show(error, SOURCE);
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
    this.log.clear();
    this.log.select(null, true);
    this.energy.clear();
    this.scene.clearImpulses();
    this.announcer.cancel();
    this.panels.clear();
    this.#showMeta();
  }

  /** Applies a frame from the worker to the scene, the log, the plot and the panels. */
  #apply(frame, elapsed = 0, { announceNow = false } = {}) {
    this.frame = frame;
    this.scene.update(frame, { playing: this.playing, elapsed });
    const fresh = frame.impacts ?? [];
    if (fresh.length) {
      this.impacts.push(...fresh);
      this.log.add(fresh);
      const latest = fresh[fresh.length - 1];
      if (announceNow) this.announcer.say(`Impact ${latest.index + 1}: ${this.#impactText(latest)}`);
      else this.announcer.impacts(fresh.length, this.#impactText(latest));
      if (this.selected === null) this.#fetch();
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
      this.#showMeta(record, index);
      await this.panels.show(record, { labels: this.#labels(record) });
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
