// The playground view: a scenario running in the worker, drawn in the scene, with playback, the timeline,
// live restitution, the impact log, the energy plot and a plot of the user's choice, and the panels of the
// selected impact (the latest at the moment shown unless one is chosen). It owns the state; the components
// only show it.
import { el } from '../widgets/dom.js';
import { EnergyPlot } from './energy-plot.js';
import { formatNumber } from '../widgets/format.js';
import { ImpactLog } from './impact-log.js';
import { ImpactPanels } from '../impact-panels/impact-panels.js';
import { PlaybackControls } from './playback.js';
import { QuantityPlot } from './quantity-plot.js';
import { contactLabel, rowLabels } from './names.js';
import { RestitutionControls } from './restitution-controls.js';
import { RunHistory } from './run-history.js';
import { Scene } from './scene.js';
import { TimelineControls } from './timeline-controls.js';
import { ViewOptions } from './view-options.js';
import { scenarioDocument } from '../../scenarios.js';

const SOURCE = 'Playground';
/** Longest wall-clock step one animation frame may ask for (a stalled tab does not jump ahead). */
const MAX_FRAME = 0.05;
/** How far "Next impact" looks ahead, in simulated seconds. */
const STEP_HORIZON = 10;
/** The achieved speed is measured over this much wall-clock time (s). */
const SPEED_WINDOW = 1;
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

export class Playground {
  /**
   * @param {{client, messages, announcer, entries: {id, file, title, note?}[], reducedMotion: boolean}} options
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
    this.selected = null;  // null: the latest impact at the moment shown
    this.shown = null;
    this.fetching = false;
    this.lastDescribed = 0;
    this.seekWanted = null;  // the newest seek asked for while one is in flight
    this.history = new RunHistory();

    this.scene = new Scene({ onFollowChange: (on) => { if (!on) this.view.followStopped(); } });
    this.status = el('p', { class: 'scene-status', 'aria-hidden': 'true' });
    this.notice = el('p', { class: 'run-notice', role: 'status', 'data-testid': 'run-notice' });
    this.view = new ViewOptions({ scene: this.scene, onPresent: () => this.togglePresentation() });
    this.controls = new PlaybackControls({
      entries,
      onScenario: (id) => this.load(id),
      onPlay: () => this.toggle(),
      onStep: () => this.step(),
      onStepBack: () => this.stepBack(),
      onReset: () => this.reset(),
      onSpeed: (speed) => { this.speed = speed; },
    });
    this.timeline = new TimelineControls({
      onSeek: (t) => this.seek(t),
      onEndMode: () => this.#showTime(),
    });
    this.restitution = new RestitutionControls({
      onGlobal: (e) => this.#set({ restitution: e }),
      onContact: (contact, e) => this.#set({ contact, restitution: e }),
      onInvalid: (error) => this.messages.show(error, SOURCE),
    });
    this.log = new ImpactLog({ onSelect: (index) => this.showImpact(index), onFollow: () => this.followLatest() });
    this.energy = new EnergyPlot({ history: this.history, onPick: (index) => this.showImpact(index) });
    this.plot = new QuantityPlot({ history: this.history, onPick: (index) => this.showImpact(index) });
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
          el('figcaption', { class: 'scene-caption' }, this.status, this.view.element),
          this.timeline.element, this.notice),
        this.restitution.element,
        this.energy.element,
        this.plot.element,
        this.log.element),
      el('section', { class: 'impact-view', 'aria-labelledby': 'impact-title' },
        el('div', { class: 'panel-head' }, this.panelTitle, this.panelMeta),
        this.panels.element));
    this.panelTitle.id = 'impact-title';
    // Leaving full screen (Escape, the browser's own control) leaves the presentation mode too.
    document.addEventListener('fullscreenchange', () => {
      if (!document.fullscreenElement && this.presenting) this.#present(false);
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.presenting && !document.fullscreenElement) this.#present(false);
    });
  }

  /** The presentation mode: the page full screen (when the browser allows it) with larger type. */
  async togglePresentation() {
    const on = !this.presenting;
    this.#present(on);
    try {
      if (on) await document.documentElement.requestFullscreen?.();
      else if (document.fullscreenElement) await document.exitFullscreen();
    } catch {
      // Full screen refused (an iframe without allowfullscreen): the larger type fills the frame anyway.
    }
  }

  #present(on) {
    this.presenting = on;
    document.documentElement.classList.toggle('presenting', on);
    this.view.setPresenting(on);
    if (on) window.scrollTo(0, 0);
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
        if (this.entry) this.controls.setScenario(this.entry.id, this.scenario.description, this.entry.note);
        this.#enable(Boolean(this.scenario));
      }
      return;
    }
    if (generation !== this.generation) return;
    this.messages.clear(SOURCE);
    const { scenario } = loaded;
    this.scenario = scenario;
    this.entry = entry;
    // A scenario without contacts or impulses has no impact at all: say so instead of searching for one.
    this.impactless = !(scenario.contacts?.length) && !(scenario.impulses?.length);
    this.controls.setScenario(entry.id, scenario.description, entry.note);
    this.#enable(true);
    this.history.clear();
    this.restitution.setScenario(scenario);
    this.log.setContactNames((scenario.contacts ?? []).map((_, i) => contactLabel(scenario, i)),
      scenario.integrator?.rest_speed ?? 0);
    this.scene.setScenario(scenario);
    this.view.setScenario(scenario);
    this.plot.setScenario(scenario, loaded.frame.contacts, (k) => this.#pointLabel(loaded.frame.contacts, k));
    this.timeline.setDuration(scenario.duration);
    this.#clearRun();
    this.panels.resetNu(scenario.nu ?? null);
    this.panels.setEmptyNote(this.impactless
      ? 'This scenario has no contacts and no impulses, so it has no impacts: it shows the smooth motion of a ' +
        'constrained system, q̈ = (I − S)q̈* + Sq̈⊥, with S the oblique projector of its joints.'
      : 'No impact yet. Press Play or “Next impact”: S, R and γ of each impact appear here.');
    this.notice.textContent = this.impactless ? 'No contacts: this run has no impacts (“Next impact” is off).' : '';
    this.#apply(loaded.frame);
    this.scene.frameBodies();
    this.#describe(true);
    this.element.dataset.scenario = entry.id;  // loaded (a hook for tests and embedding pages)
    if (this.autoplay) this.play();
  }

  #enable(on) {
    this.controls.setEnabled(on);
    if (on && this.impactless) {
      this.controls.step.disabled = true;
      this.controls.stepBack.disabled = true;
    }
  }

  /** The run's end: the scenario's duration, unless the run goes on past it. */
  get #until() {
    return this.timeline.mode === 'continue' ? Infinity : this.scenario.duration;
  }

  /** The run stands at its end (a stopping or looping run at its duration). */
  get #atEnd() {
    return this.timeline.mode !== 'continue' && this.frame && !this.frame.replaying &&
      this.frame.time >= this.scenario.duration;
  }

  // ---- playback ----

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  async play() {
    if (this.playing || !this.scenario) return;
    // At the end of the run, Play watches it again from the start.
    if (this.#atEnd) await this.seek(0);
    this.playing = true;
    this.controls.setPlaying(true);
    this.lastNow = null;
    this.speedWindow = { wall: 0, simulated: 0 };
    const generation = this.generation;
    // One loop at a time: a pause and a play while a tick is in flight must not leave two loops running.
    const token = (this.loopToken = (this.loopToken ?? 0) + 1);
    const loop = (now) => {
      if (!this.playing || generation !== this.generation || token !== this.loopToken) return;
      const elapsed = this.lastNow === null ? 1 / 60 : (now - this.lastNow) / 1000;
      this.lastNow = now;
      const asked = Math.min(MAX_FRAME, elapsed) * this.speed;
      const before = this.frame?.time ?? 0;
      this.client.request('tick', { dt: asked, until: this.#until }).then((frame) => {
        if (generation !== this.generation || token !== this.loopToken) return;
        this.#apply(frame, elapsed);
        this.#measureSpeed(elapsed, frame.time - before, frame);
        if (frame.ended) this.#ended();
        else if (this.playing) requestAnimationFrame(loop);
      }, (error) => this.#failed(error));
    };
    requestAnimationFrame(loop);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.controls.setPlaying(false);
    this.timeline.showSpeed(null);
    this.energy.flush();
    this.#describe(true);
  }

  /** The live run reached the scenario's duration: stop there, or loop back to the start. */
  async #ended() {
    if (this.timeline.mode === 'loop') {
      this.playing = false;
      await this.seek(0);
      this.play();
      return;
    }
    this.pause();
    this.announcer.say(`End of the run at t = ${formatNumber(this.scenario.duration, 4)} s. Press Play to watch it again.`);
    this.notice.textContent = `End of the run (t = ${formatNumber(this.scenario.duration, 4)} s, the scenario’s duration). ` +
      'Play watches it again; “At the end of the run” can loop it or let it go on.';
  }

  /**
   * The speed achieved, over SPEED_WINDOW seconds of play: when it falls below the one asked for (the
   * machine cannot keep up, or a frame took longer than MAX_FRAME), the timeline says so.
   */
  #measureSpeed(elapsed, simulated, frame) {
    if (frame.ended || frame.replaying) return;
    const w = this.speedWindow;
    w.wall += elapsed;
    w.simulated += Math.max(0, simulated);
    if (w.wall < SPEED_WINDOW) return;
    const real = w.simulated / w.wall;
    this.timeline.showSpeed(real < 0.85 * this.speed ? real : null, this.speed);
    this.speedWindow = { wall: 0, simulated: 0 };
  }

  async step() {
    if (!this.scenario || this.impactless) return;
    this.pause();
    const generation = this.generation;
    const slow = setTimeout(() => { this.status.textContent = 'Looking for the next impact…'; }, 250);
    try {
      const frame = await this.client.request('step', { horizon: STEP_HORIZON, until: this.#until });
      clearTimeout(slow);
      if (generation !== this.generation) return;
      this.selected = null;
      this.#apply(frame, 0, { announceNow: true });
      if (!frame.found) {
        const text = frame.ended
          ? `No impact before the end of the run (t = ${formatNumber(this.scenario.duration, 4)} s).`
          : `No impact within ${STEP_HORIZON} s of simulated time.`;
        this.announcer.say(text);
        this.notice.textContent = text;
      }
      this.energy.flush();
      this.#describe(true);
    } catch (error) {
      clearTimeout(slow);
      this.#failed(error);
    }
  }

  /**
   * Back one impact: to the moment right after the previous impact instant (an impact and its plastic
   * follow-up share one), or to the start before the first.
   */
  async stepBack() {
    if (!this.scenario || !this.frame) return;
    this.pause();
    const count = this.frame.impactCount;
    const time = this.frame.time;
    // The impacts at the moment shown form one instant; the previous instant's last impact is the target.
    let k = count - 1;
    while (k >= 0 && this.impacts[k]?.t >= time) k -= 1;
    if (k < 0) {
      await this.seek(0);
      this.announcer.say('Back at the start: no earlier impact.');
      return;
    }
    await this.#jump('seekImpact', { index: k });
    this.selected = null;
    this.#fetch();
    this.announcer.say(`Impact ${k + 1}: ${this.#impactText(this.impacts[k])}`);
  }

  async reset() {
    if (!this.scenario) return;
    const generation = this.generation;
    try {
      const frame = await this.client.request('reset');
      if (generation !== this.generation) return;
      this.#clearRun();
      this.#apply(frame);
      this.scene.frameBodies();
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

  // ---- the timeline ----

  /**
   * Shows time `t` of the run (the timeline's scrub bar): the worker replays it from a snapshot. While a
   * seek is in flight only the newest wish is kept.
   */
  async seek(t, { keepPlaying = false } = {}) {
    if (!this.scenario) return;
    if (!keepPlaying) this.pause();
    if (this.seeking) {
      this.seekWanted = t;
      return;
    }
    this.seeking = true;
    try {
      let target = t;
      while (target !== null) {
        this.seekWanted = null;
        await this.#jump('seek', { time: target, until: this.#until });
        target = this.seekWanted;
      }
    } finally {
      this.seeking = false;
    }
  }

  /** Goes to impact `index` and shows it in the panels (a row of the log, a line of a plot). */
  async showImpact(index) {
    if (!this.scenario || index === null || index === undefined) return;
    this.pause();
    await this.#jump('seekImpact', { index });
    this.select(index);
  }

  /** Back to the live end of the run, following each new impact. */
  async followLatest() {
    this.selected = null;
    if (this.frame?.replaying) await this.#jump('seek', { time: this.frame.horizon });
    this.#fetch();
  }

  /** A seek or seekImpact request; its frame replaces the scene's state (trails and arrows restart). */
  async #jump(type, payload) {
    const generation = this.generation;
    try {
      const frame = await this.client.request(type, payload);
      if (generation !== this.generation) return;
      frame.jumped = true;
      this.#apply(frame);
    } catch (error) {
      this.#failed(error);
    }
  }

  // ---- changes of e and ν ----

  /** Sends a change; resolves true when the engine took it. A change in the past cuts the run there. */
  async #set(change) {
    if (!this.scenario) return false;
    try {
      const reply = await this.client.request('set', change);
      this.messages.clear(SOURCE);
      if (reply?.branched) this.#branched(reply.branched);
      return true;
    } catch (error) {
      this.messages.show(error, SOURCE);
      return false;
    }
  }

  /** The run was cut at `time` (a change made in the past): what came after is gone. */
  #branched({ time, impactCount }) {
    this.impacts.length = Math.min(this.impacts.length, impactCount);
    this.log.keep(impactCount);
    this.history.truncate(time);
    this.energy.keepImpacts(impactCount);
    this.plot.keepImpacts(impactCount);
    if (this.selected !== null && this.selected >= impactCount) this.selected = null;
    this.notice.textContent = `The run now goes on from t = ${time.toFixed(3)} s with the new value; what came after was dropped.`;
    this.announcer.say(this.notice.textContent);
    if (this.frame) {
      this.frame = { ...this.frame, horizon: time, replaying: false };
      this.#showTime();
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
    this.history.clear();
    this.log.clear();
    this.log.select(null, true);
    this.energy.clear();
    this.plot.clear();
    this.scene.clearImpulses();
    this.announcer.cancel();
    this.panels.clear();
    this.notice.textContent = this.impactless ? this.notice.textContent : '';
    this.#showMeta();
  }

  /** Applies a frame from the worker to the scene, the timeline, the log, the plots and the panels. */
  #apply(frame, elapsed = 0, { announceNow = false } = {}) {
    const previous = this.frame;
    this.frame = frame;
    const fresh = frame.impacts ?? [];
    if (fresh.length) {
      this.impacts.push(...fresh);
      this.log.add(fresh);
      this.energy.addImpacts(fresh);
      this.plot.addImpacts(fresh);
      const latest = fresh[fresh.length - 1];
      if (announceNow) this.announcer.say(`Impact ${latest.index + 1}: ${this.#impactText(latest)}`);
      else this.announcer.impacts(fresh.length, this.#impactText(latest));
    }
    // The impacts the scene passed to reach this frame (their arrows): those of the moment a jump lands on.
    const from = frame.jumped ? this.#firstAt(frame) : Math.min(previous?.impactCount ?? 0, frame.impactCount);
    const passed = this.impacts.slice(from, frame.impactCount);
    this.scene.update(frame, { playing: this.playing, elapsed, passed });
    // The run's history grows only at its live end.
    for (const sample of frame.samples ?? []) this.history.add(sample, sample.q, sample.qd, null);
    for (const impact of fresh) {
      if (impact.t === frame.time) this.history.add({ time: impact.t, kinetic: impact.K_minus, potential: frame.state.potential }, frame.positions, null, null);
    }
    if (!frame.replaying) this.history.add(frame.state, frame.positions, frame.velocities, frame.contacts);
    this.energy.setNow(frame.time);
    this.plot.setNow(frame.time);
    this.log.setNow(frame.impactCount);
    if (fresh.length || frame.jumped || (previous && previous.impactCount !== frame.impactCount)) {
      if (this.selected === null) this.#fetch();
    }
    if (frame.jumped || frame.reset) this.notice.textContent = this.impactless ? this.notice.textContent : '';
    this.#showTime();
    const now = performance.now();
    if (now - this.lastDescribed > 1000) this.#describe();
  }

  /** Index of the first impact at the frame's own time (the instant a jump lands on). */
  #firstAt(frame) {
    let k = frame.impactCount;
    while (k > 0 && this.impacts[k - 1]?.t === frame.time) k -= 1;
    return k;
  }

  #showTime() {
    const frame = this.frame;
    if (!frame) return;
    this.timeline.show(frame.time, frame.horizon ?? frame.time);
    this.status.textContent = `t = ${frame.time.toFixed(2)} s · ${frame.impactCount} impact${frame.impactCount === 1 ? '' : 's'}` +
      ` · energy ${formatNumber(frame.state.total, 4)} J` + (frame.replaying ? ' · replaying the run' : '');
  }

  // ---- the selected impact ----

  /** Shows impact `index` in the panels (null: the latest at the moment shown). */
  select(index) {
    this.selected = index;
    this.#fetch();
  }

  /** The impact the panels should show. */
  get #wanted() {
    return this.selected ?? (this.frame ? this.frame.impactCount - 1 : this.impacts.length - 1);
  }

  /** Fetches the full record of the impact to show; one request at a time, the newest wish wins. */
  async #fetch() {
    const index = this.#wanted;
    this.log.select(index >= 0 ? index : null, this.selected === null && !this.frame?.replaying);
    this.energy.select(index >= 0 ? index : null);
    this.plot.select(index >= 0 ? index : null);
    if (index < 0) {
      if (this.shown !== null) {
        this.shown = null;
        this.panels.clear();
        this.#showMeta();
      }
      return;
    }
    if (this.fetching || index === this.shown) return;
    this.fetching = true;
    const run = this.run;
    try {
      const record = await this.client.request('impact', { index });
      if (run !== this.run) return;
      this.shown = index;
      // What was set for its contacts when it happened (the log's summary keeps it).
      record.contact_e = this.impacts[index]?.contact_e;
      this.#showMeta(record, index);
      await this.panels.show(record, { labels: this.#labels(record), context: this.#context() });
    } catch (error) {
      if (run === this.run) {
        this.shown = index;  // not asked for again: the message says why it is missing
        this.messages.show(error, SOURCE);
      }
    } finally {
      this.fetching = false;
    }
    // Meanwhile a newer impact, another row or another run may have been asked for.
    const wanted = this.#wanted;
    if (wanted !== this.shown) this.#fetch();
  }

  /** What the panels need to explain an impact besides its record: the rest speed of the run. */
  #context() {
    return { restSpeed: this.scenario?.integrator?.rest_speed };
  }

  #showMeta(record, index) {
    if (!record) {
      this.panelTitle.textContent = 'The impact';
      this.panelMeta.textContent = '';
      return;
    }
    this.panelTitle.textContent = `Impact ${index + 1}`;
    const names = this.#contactNames(record);
    const latest = this.selected === null ? (this.frame?.replaying ? ' · the latest at the time shown' : ' · following the latest') : '';
    this.panelMeta.textContent = `t = ${record.t.toFixed(4)} s · ${names.length ? names.join(', ') : 'no contact'}` +
      ` · n = ${record.n}, m = ${record.m}, rank ${record.rank}${latest}`;
  }

  #contactNames(record) {
    return [...new Set((record.contacts ?? []).map((c) => (typeof c === 'number' ? contactLabel(this.scenario, c) : String(c))))];
  }

  /** A contact point's name: its contact's, numbered when the contact has several points. */
  #pointLabel(points, k) {
    const contact = points[k]?.contact;
    const name = contactLabel(this.scenario, contact);
    const siblings = points.filter((p) => p.contact === contact);
    return siblings.length > 1 ? `${name} ·${siblings.indexOf(points[k]) + 1}` : name;
  }

  /** Names for the heatmap rows and columns: coordinates x, y, θ per body; the rows of A as the core lays them out. */
  #labels(record) {
    const bodies = this.scenario?.bodies ?? [];
    const sub = (k) => String(k).split('').map((d) => SUBSCRIPTS[Number(d)]).join('');
    const coords = bodies.length === 1 ? ['x', 'y', 'θ']
      : bodies.flatMap((_, i) => ['x', 'y', 'θ'].map((c) => `${c}${sub(i + 1)}`));
    const legend = bodies.length > 1 ? bodies.map((b, i) => `${i + 1} = ${b.name || `body ${i + 1}`}`).join(', ') : null;
    return { coords: coords.length === record.n ? coords : undefined, rows: rowLabels(this.scenario, record.rows), legend };
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
    const count = this.frame.impactCount;
    const last = this.impacts[count - 1];
    const text = `${s.title || 'Scenario'}: ${bodies.join(', ')}` +
      `${s.planes?.length ? `, ${s.planes.length} ground plane${s.planes.length > 1 ? 's' : ''}` : ''}` +
      `${s.joints?.length ? `, ${s.joints.length} joint${s.joints.length > 1 ? 's' : ''}` : ''}. ` +
      `${this.playing ? 'Playing' : 'Paused'} at t = ${this.frame.time.toFixed(2)} s; ` +
      `${touching} of ${points.length} contact points touching; ${count} impacts so far` +
      (last ? `, the last at t = ${last.t.toFixed(2)} s with γ = ${formatNumber(last.gamma, 3)}.` : '.');
    this.scene.describe(text);
  }
}
