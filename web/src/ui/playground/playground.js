// The playground view: a scenario running in the worker, drawn in the scene, with playback, the timeline,
// live restitution, the impact log, the energy plot and a plot of the user's choice, and the panels of the
// selected impact (the latest at the moment shown unless one is chosen). It owns the state; the components
// only show it. Share links, embeds, the editor and export reach it through the hooks at the end.
import { el } from '../widgets/dom.js';
import { EnergyPlot } from './energy-plot.js';
import { formatNumber } from '../widgets/format.js';
import { ImpactLog } from './impact-log.js';
import { LazyImpactPanels } from '../impact-panels/lazy-impact-panels.js';
import { PlaybackControls } from './playback.js';
import { QuantityPlot } from './quantity-plot.js';
import { contactLabel, rowLabels } from './names.js';
import { RestitutionControls } from './restitution-controls.js';
import { RunHistory } from './run-history.js';
import { Scene } from './scene.js';
import { TimelineControls } from './timeline-controls.js';
import { ViewOptions } from './view-options.js';
import { scenarioDocument } from '../../scenarios.js';
import { applyOverrides, linkChange, runChange, withChange } from '../../share/overrides.js';
import { jacobianPointBodies } from '../../worker/impact-pairs.js';
import { loadRequest } from './load-request.js';

const SOURCE = 'Playground';
/** Longest wall-clock step one animation frame may ask for (a stalled tab does not jump ahead). */
const MAX_FRAME = 0.05;
/**
 * Longest time (ms) the page goes on applying ticks without drawing them: a bound, so that a worker that
 * answers faster than the page draws can never keep the page from drawing.
 */
const UNDRAWN_MS = 1000;
/**
 * While playing, the panels follow the latest impact at most every PANEL_INTERVAL seconds, and take at most
 * PANEL_SHARE of the time: an impact's record and its cond(Mc) curve cost the worker far more than a tick
 * at many coordinates (about 200 ms at n = 90), and a busy run logs impacts at every tick. The log, the
 * plots and the scene still follow every impact; the panels catch up at once when the run stops.
 */
const PANEL_INTERVAL = 0.5;
const PANEL_SHARE = 0.25;
/** How far "Next impact" looks ahead, in simulated seconds. */
const STEP_HORIZON = 10;
/** The achieved speed is measured over this much wall-clock time (s). */
const SPEED_WINDOW = 1;
/**
 * Simulated seconds per request when a seek runs the live run ahead (a link's far time): the worker answers
 * other requests in between and `onProgress` is told after each.
 */
const SEEK_CHUNK = 1;
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
/** The scenario picker's value for a scenario that is not a built-in one. */
const CUSTOM = 'custom';
const EMPTY_NOTE = 'No impact yet. Press Play or “Next impact”: S, R and γ of each impact appear here.';

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
    this.shownRecord = null;
    this.fetching = false;
    this.panelTimer = null;   // a fetch of the latest impact's panels waiting for its turn while playing
    this.nextPanels = 0;      // performance.now() before which no such fetch starts
    this.lastDescribed = 0;
    this.seekWanted = null;  // the newest seek asked for while one is in flight
    this.history = new RunHistory();
    this.document = null;    // the scenario document as loaded (before the overrides)
    // The settings of the run: those it was loaded (or reset) with ({e, e_i, nu} over the document), and its
    // changes since, each at its moment ({time, impactCount, change}, as the worker's timeline keeps them).
    this.settings = { base: { e_i: {} }, edits: [] };
    this.listeners = new Map();

    this.scene = new Scene({ onFollowChange: (on) => { if (!on) this.view.followStopped(); } });
    this.status = el('p', { class: 'scene-status', 'aria-hidden': 'true' });
    this.notice = el('p', { class: 'run-notice', role: 'status', 'data-testid': 'run-notice' });
    this.view = new ViewOptions({ scene: this.scene, onPresent: () => this.togglePresentation() });
    this.controls = new PlaybackControls({
      entries,
      onScenario: (id) => (id === CUSTOM ? this.loadDocument(this.customDocument) : this.load(id)),
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
      onFriction: (mu) => this.#set({ mu }),
      onContactFriction: (contact, mu) => this.#set({ contact, mu }),
      onInvalid: (error) => this.messages.show(error, SOURCE),
    });
    this.log = new ImpactLog({ onSelect: (index) => this.showImpact(index), onFollow: () => this.followLatest() });
    this.energy = new EnergyPlot({ history: this.history, onPick: (index) => this.showImpact(index) });
    this.plot = new QuantityPlot({ history: this.history, onPick: (index) => this.showImpact(index) });
    this.panelTitle = el('h2', { text: 'The impact' });
    this.panelMeta = el('p', { class: 'impact-meta' });
    // The panels' code is loaded at the first impact shown (lazy-impact-panels.js).
    this.panels = new LazyImpactPanels({
      client,
      empty: EMPTY_NOTE,
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

  /** Loads the scenario of index entry `id` (options as loadDocument's); resolves true when it runs. */
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
   * API. `overrides` ({e, e_i, nu}) are the run's settings from its start; `play` starts it (default: the
   * page's autoplay). Resolves true when it runs; otherwise the previous scenario keeps running and the
   * message area says why. Every load starts a new run in the worker (a new timeline, its snapshots from
   * t = 0), whoever asks for it.
   */
  async loadDocument(doc, { entry = null, overrides = {}, play = this.autoplay } = {}) {
    if (!doc) return false;
    this.#stop();
    const generation = ++this.generation;
    this.seekWanted = null;
    this.controls.setEnabled(false);
    // Busy until this load (or a newer one) ends: the old run's state must not be read as the new one's.
    this.element.setAttribute('aria-busy', 'true');
    const { nu } = overrides;
    const { request, notices } = loadRequest(doc, overrides);
    let loaded;
    try {
      loaded = await this.client.request('load', request);
    } catch (error) {
      if (generation === this.generation) {
        const name = entry?.title ?? (typeof doc.title === 'string' && doc.title ? doc.title : 'the scenario');
        this.messages.show(`could not load “${name}”: ${error.message}`, SOURCE);
        // The previous scenario (if any) is still the one running: show it again.
        if (this.scenario) this.#showChoice();
        this.#enable(Boolean(this.scenario));
        this.element.removeAttribute('aria-busy');
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
    this.settings = { base: { e_i: {}, ...structuredClone(overrides) }, edits: [] };
    // A scenario without contacts or impulses has no impact at all: say so instead of searching for one.
    // Contacts are declared, or found by the core ("collide": "all").
    this.impactless = !(scenario.contacts?.length) && scenario.collide !== 'all' && !(scenario.impulses?.length);
    this.#showChoice();
    this.#enable(true);
    this.restitution.setScenario(scenario);
    this.log.setContactNames((scenario.contacts ?? []).map((_, i) => contactLabel(scenario, i)),
      scenario.integrator?.rest_speed ?? 0,
      (summary, j) => contactLabel(scenario, -1, { pair: summary.point_bodies?.[j], normal: summary.normals?.[j] }));
    this.scene.setScenario(scenario);
    this.view.setScenario(scenario);
    this.plot.setScenario(scenario, loaded.frame.contacts, (k) => this.#pointLabel(loaded.frame.contacts, k));
    this.timeline.setDuration(scenario.duration);
    this.frame = null;
    this.#clearRun();
    this.panels.resetNu(nu ?? scenario.nu ?? null);
    this.panels.setEmptyNote(this.impactless
      ? 'This scenario has no contacts and no impulses, so it has no impacts: it shows the smooth motion of a ' +
        'constrained system, q̈ = (I − S)q̈* + Sq̈⊥, with S the oblique projector of its joints.'
      : EMPTY_NOTE);
    this.notice.textContent = this.impactless ? 'No contacts: this run has no impacts (“Next impact” is off).' : '';
    this.#apply(loaded.frame);
    this.scene.frameBodies();
    this.#describe(true);
    this.element.dataset.scenario = entry?.id ?? CUSTOM;  // loaded (a hook for tests and embedding pages)
    this.element.removeAttribute('aria-busy');
    this.#emit('loaded', { scenario, entry });
    if (play) this.play();
    return true;
  }

  /** The scenario picker shows the scenario running: a built-in one with its note, or the reader's own. */
  #showChoice() {
    if (this.entry) this.controls.setScenario(this.entry.id, this.scenario.description, this.entry.note);
    else this.controls.showCustom(CUSTOM, this.scenario.title, this.scenario.description);
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
    if (this.playing) return;
    this.playing = true;
    this.controls.setPlaying(true);
    this.#emit('playing', true);
    this.#loop();
  }

  /**
   * The animation loop: one tick per animation frame while playing, each asking for the wall-clock time since
   * the previous one (times the speed). A tick the worker could not finish in its share of real time
   * (frame.limited: the run is slower than asked) is followed at once by the next, sent before its frame is
   * applied and drawn, so that the worker computes while the page draws; but not once the page has gone
   * UNDRAWN_MS without drawing the frames applied (a worker faster than the page's draws must not starve
   * them). The ticks stay one at a time and in order: the run is the same whatever their size.
   */
  #loop() {
    this.speedWindow = { wall: 0, simulated: 0 };
    const generation = this.generation;
    // One loop at a time: a pause and a play while a tick is in flight must not leave two loops running.
    const token = (this.loopToken = (this.loopToken ?? 0) + 1);
    const current = () => this.playing && generation === this.generation && token === this.loopToken;
    let lastSent = null;
    let lastTime = this.frame?.time ?? 0;
    let inFlight = false;
    let applied = 0;  // frames applied by this loop
    let drawn = 0;    // of those, the ones an animation frame has passed since (drawn)
    let drawnAt = performance.now();
    const send = () => {
      if (!current() || inFlight) return;
      if (drawn < applied && performance.now() - drawnAt > UNDRAWN_MS) return;
      inFlight = true;
      const sent = performance.now();
      const elapsed = lastSent === null ? 1 / 60 : (sent - lastSent) / 1000;
      lastSent = sent;
      const asked = Math.min(MAX_FRAME, elapsed) * this.speed;
      this.client.request('tick', { dt: asked, until: this.#until }).then((frame) => {
        inFlight = false;
        if (generation !== this.generation || token !== this.loopToken) return;
        const simulated = frame.time - lastTime;
        lastTime = frame.time;
        if (frame.limited && !frame.ended) send();
        this.#apply(frame, elapsed);
        const count = ++applied;
        // A tick that was in flight when play was paused is still applied (the worker ran it), but the speed
        // of a paused run is not measured: it would show the behind-notice that the pause took down.
        if (current()) this.#measureSpeed(elapsed, simulated, frame);
        if (frame.ended) this.#ended();
        else {
          requestAnimationFrame(() => {
            if (count > drawn) {
              drawn = count;
              drawnAt = performance.now();
            }
            send();
          });
        }
      }, (error) => this.#failed(error));
    };
    requestAnimationFrame(send);
  }

  /** Stops playback; the panels show the impact they should at once (the latest, unless one is chosen). */
  pause() {
    if (!this.#stop()) return;
    this.#fetch();
  }

  /** Stops playback (true if it was playing); for callers that move elsewhere next and fetch the panels then. */
  #stop() {
    if (!this.playing) return false;
    this.playing = false;
    this.controls.setPlaying(false);
    this.timeline.showSpeed(null);
    this.#emit('playing', false);
    this.energy.flush();
    this.#describe(true);
    return true;
  }

  /** The live run reached the scenario's duration: stop there, or loop back to the start (still playing). */
  async #ended() {
    if (this.timeline.mode === 'loop') {
      await this.seek(0, { keepPlaying: true });
      if (this.playing) this.#loop();
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
    this.#stop();
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
    this.#stop();
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

  /** Back to t = 0 with a new run: the settings in force become its start. */
  async reset() {
    if (!this.scenario) return;
    const generation = this.generation;
    try {
      const frame = await this.client.request('reset');
      if (generation !== this.generation) return;
      this.settings = { base: this.#overridesNow(), edits: [] };
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
   * Shows time `t` of the run, the one way the page moves in time (the scrub bar, Play at the end, a loop, a
   * share link): the worker replays the past from a snapshot, and runs the live run ahead to a later time
   * (in requests of SEEK_CHUNK seconds, `onProgress(fraction)` after each), not past the end of the run.
   * `impactCount` asks for the moment {t, impactCount}: the impacts logged at exactly t too (an impact at the
   * time an advance stops at is resolved only by a step to it), as a link carries it. While a seek is in
   * flight only the newest wish is kept. Resolves with the time shown.
   */
  async seek(t, { impactCount = 0, keepPlaying = false, onProgress = () => {} } = {}) {
    if (!this.scenario) return 0;
    if (!keepPlaying) this.#stop();
    this.seekWanted = { t, impactCount, onProgress };
    if (!this.seeking) {
      this.seeking = (async () => {
        try {
          while (this.seekWanted) {
            const wish = this.seekWanted;
            this.seekWanted = null;
            await this.#seekTo(wish);
          }
        } finally {
          this.seeking = null;
        }
      })();
    }
    await this.seeking;
    return this.frame?.time ?? 0;
  }

  async #seekTo({ t, impactCount, onProgress }) {
    const generation = this.generation;
    const target = Math.max(0, Number(t) || 0);
    // Far ahead of the run: the live run goes there a chunk at a time (a newer wish or a load stops it).
    let horizon = this.frame?.horizon ?? 0;
    while (target - horizon > SEEK_CHUNK && Math.min(target, this.#until) > horizon) {
      await this.#jump('seek', { time: horizon + SEEK_CHUNK, until: this.#until }, { passing: true });
      if (generation !== this.generation || this.seekWanted || !this.frame || this.frame.horizon <= horizon) return;
      horizon = this.frame.horizon;
      onProgress(Math.min(1, horizon / target));
    }
    await this.#jump('seek', { time: target, until: this.#until, impactCount });
    if (generation === this.generation) onProgress(1);
  }

  /** Goes to impact `index` and shows it in the panels (a row of the log, a line of a plot). */
  async showImpact(index) {
    if (!this.scenario || index === null || index === undefined) return;
    this.#stop();
    await this.#jump('seekImpact', { index });
    this.select(index);
  }

  /** Back to the live end of the run, following each new impact. */
  async followLatest() {
    this.selected = null;
    if (this.frame?.replaying) await this.#jump('seek', { time: this.frame.horizon, impactCount: this.#liveImpactCount });
    this.#fetch();
  }

  /**
   * A seek or seekImpact request; its frame replaces the scene's state (trails and arrows restart).
   * `passing`: a frame on the way to another (a long seek), not one to show the panels of.
   */
  async #jump(type, payload, { passing = false } = {}) {
    const generation = this.generation;
    try {
      const frame = await this.client.request(type, payload);
      if (generation !== this.generation) return;
      frame.jumped = true;
      this.#apply(frame, 0, { passing });
    } catch (error) {
      this.#failed(error);
    }
  }

  /** The end of the run when the run reaches its duration: 'stop', 'loop' or 'continue' (go on past it). */
  setEndMode(mode) {
    this.timeline.setMode(mode);
    this.#showTime();
  }

  // ---- changes of e, μ and ν ----

  /**
   * Sends a change; resolves true when the engine took it. A change in the past cuts the run there. The
   * worker's reply lists the run's changes with their moments, which share links carry.
   */
  async #set(change) {
    if (!this.scenario) return false;
    const generation = this.generation;
    try {
      const reply = await this.client.request('set', change);
      if (generation !== this.generation) return false;
      this.messages.clear(SOURCE);
      this.settings.edits = reply.edits ?? [];
      if (reply.branched) this.#branched(reply.branched);
      // μ acts on the state at once (the contacts' slip, a sticking impact): show it while paused too.
      if (change.mu !== undefined && !this.playing) {
        const frame = await this.client.request('tick', { dt: 0, until: this.#until });
        if (generation === this.generation) this.#apply(frame);
      }
      return true;
    } catch (error) {
      this.messages.show(error, SOURCE);
      return false;
    }
  }

  /**
   * The settings the run started with and the changes made since: those made at its very start (t = 0, no
   * impact yet) are part of its start (a link writes them as its e, eᵢ, ν).
   */
  #runSettings() {
    const { base, edits } = this.settings;
    let start = structuredClone(base);
    let k = 0;
    for (; k < edits.length && edits[k].time === 0 && edits[k].impactCount === 0; k++) start = withChange(start, edits[k].change);
    return { start, changes: edits.slice(k) };
  }

  /** The settings in force at the live end of the run ({e, e_i, nu} over the document). */
  #overridesNow() {
    return this.settings.edits.reduce((o, edit) => withChange(o, edit.change), structuredClone(this.settings.base));
  }

  /** The ν the engine holds now (null: the optimal one): the last change of ν, else the run's own. */
  #nuNow() {
    for (let k = this.settings.edits.length - 1; k >= 0; k--) {
      const { nu } = this.settings.edits[k].change;
      if (nu !== undefined) return nu;
    }
    return this.settings.base.nu ?? this.scenario?.nu ?? null;
  }

  /** The restitution controls and the ν panel show the settings in force (after a branch, a link, the API). */
  #showSettings() {
    this.restitution.showValues(applyOverrides(this.scenario, this.#overridesNow()).doc);
    this.panels.showNu(this.#nuNow());
  }

  /** The run was cut at `time` (a change made in the past): what came after is gone. */
  #branched({ time, impactCount }) {
    this.impacts.length = Math.min(this.impacts.length, impactCount);
    this.log.keep(impactCount);
    this.history.truncate(time);
    this.energy.keepImpacts(impactCount);
    this.plot.keepImpacts(impactCount);
    if (this.selected !== null && this.selected >= impactCount) this.selected = null;
    // The settings of the kept past, with the new change: the controls show what the engine holds.
    this.#showSettings();
    this.notice.textContent = `The run now goes on from t = ${time.toFixed(3)} s with the new value; what came after was dropped.`;
    this.announcer.say(this.notice.textContent);
    if (this.frame) {
      this.frame = { ...this.frame, horizon: time, replaying: false };
      this.#showTime();
    }
  }

  #failed(error) {
    this.#stop();
    this.messages.show(error, SOURCE);
  }

  #clearRun() {
    this.run = (this.run ?? 0) + 1;  // records of an earlier run that are still on their way are dropped
    this.impacts = [];
    this.selected = null;
    this.shown = null;
    this.shownRecord = null;
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

  /**
   * Applies a frame from the worker to the scene, the timeline, the log, the plots and the panels (not the
   * panels for a frame `passing` on the way to another).
   */
  #apply(frame, elapsed = 0, { announceNow = false, passing = false } = {}) {
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
      this.#emit('impacts', fresh);
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
    if (!passing && (fresh.length || frame.jumped || (previous && previous.impactCount !== frame.impactCount))) {
      if (this.selected === null) {
        if (this.playing && !frame.jumped) this.#fetchSoon();
        else this.#fetch();
      }
    }
    if (frame.jumped || frame.reset) this.notice.textContent = this.impactless ? this.notice.textContent : '';
    this.#showTime();
    const now = performance.now();
    if (now - this.lastDescribed > 1000) this.#describe();
  }

  /** Impacts the run has logged so far (at its live end, whatever the moment shown). */
  get #liveImpactCount() {
    return this.impacts.length ? this.impacts[this.impacts.length - 1].index + 1 : 0;
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

  /** The log and the plots mark the impact the panels should show (before the panels have it). */
  #mark() {
    const index = this.#wanted;
    this.log.select(index >= 0 ? index : null, this.selected === null && !this.frame?.replaying);
    this.energy.select(index >= 0 ? index : null);
    this.plot.select(index >= 0 ? index : null);
    return index;
  }

  /**
   * While playing: the log and the plots mark the latest impact now, its panels come at their turn
   * (PANEL_INTERVAL, PANEL_SHARE), never while a fetch is in flight (its end asks again).
   */
  #fetchSoon() {
    this.#mark();
    if (this.fetching || this.panelTimer !== null) return;
    const wait = this.nextPanels - performance.now();
    if (wait <= 0) {
      this.#fetch();
      return;
    }
    const run = this.run;
    this.panelTimer = setTimeout(() => {
      this.panelTimer = null;
      if (run === this.run && !this.fetching && this.#wanted !== this.shown) this.#fetch();
    }, wait);
  }

  /** Fetches the full record of the impact to show; one request at a time, the newest wish wins. */
  async #fetch() {
    const index = this.#mark();
    if (this.panelTimer !== null) {
      clearTimeout(this.panelTimer);
      this.panelTimer = null;
    }
    if (index < 0) {
      if (this.shown !== null) {
        this.shown = null;
        this.shownRecord = null;
        this.panels.clear();
        this.#showMeta();
      }
      return;
    }
    if (this.fetching || index === this.shown) return;
    this.fetching = true;
    const run = this.run;
    const started = performance.now();
    try {
      const record = await this.client.request('impact', { index });
      if (run !== this.run) return;
      this.shown = index;
      this.shownRecord = record;
      // What was set for its contacts when it happened (the log's summary keeps it).
      record.contact_e = this.impacts[index]?.contact_e;
      // The bodies of its automatic contact points: exactly from its A, else as the worker found them; the
      // log's row learns them too.
      const summary = this.impacts[index];
      const exact = jacobianPointBodies(record);
      if (exact) {
        record.point_bodies = exact.map((pair, j) => pair ?? summary?.point_bodies?.[j] ?? null);
        if (summary && JSON.stringify(summary.point_bodies) !== JSON.stringify(record.point_bodies)) {
          summary.point_bodies = record.point_bodies;
          this.log.relabel(summary);
        }
      }
      await this.panels.show(record, { labels: this.#labels(record), context: this.#context() });
      if (run !== this.run) return;
      // The title names the impact once its panels show it: at a ν of the user's the panels wait for the
      // engine, and a title set before would name one impact above the γ of another.
      this.#showMeta(record, index);
      this.#emit('shown', { record, index });
    } catch (error) {
      if (run === this.run) {
        this.shown = index;  // not asked for again: the message says why it is missing
        this.messages.show(error, SOURCE);
      }
    } finally {
      this.fetching = false;
      this.nextPanels = started + Math.max(1000 * PANEL_INTERVAL, (performance.now() - started) / PANEL_SHARE);
      // Meanwhile a newer impact, another row or another run may have been asked for: while playing the
      // latest waits for its turn, anything else is fetched now.
      if (this.#wanted !== this.shown) {
        if (this.playing && this.selected === null) this.#fetchSoon();
        else this.#fetch();
      }
    }
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
    return [...new Set((record.contacts ?? []).map((c, j) => (typeof c === 'number'
      ? contactLabel(this.scenario, c, { pair: record.point_bodies?.[j], normal: record.normals?.[j] }) : String(c))))];
  }

  /** A contact point's name: its contact's, numbered when the contact has several points. */
  #pointLabel(points, k) {
    const contact = points[k]?.contact;
    const name = contactLabel(this.scenario, contact, { pair: [points[k]?.bodyA, points[k]?.bodyB], normal: points[k]?.normal });
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
    return { coords: coords.length === record.n ? coords : undefined, rows: rowLabels(this.scenario, record.rows, record), legend };
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
   * What the playground shows, to be put in a link or exported: the document (before the overrides) and the
   * built-in it is (or null); `overrides` {e, e_i, nu}, the settings in force now; the run's `start`
   * settings and its `changes` since, each at its moment ({t, impacts, e | contact and e | nu}); the moment
   * shown (`time`, `impactCount`: the impacts logged by then) and how far the run has got (`horizon`,
   * `horizonImpacts`); the impact shown (null: the latest at the moment shown), the speed, the trails, what
   * happens at the end of the run, and the title.
   */
  viewState() {
    const frame = this.frame;
    const time = frame?.time ?? 0;
    const { start, changes } = this.#runSettings();
    return {
      builtin: this.entry?.id ?? null,
      document: this.document,
      overrides: this.#overridesNow(),
      start,
      changes: changes.map(linkChange),
      time,
      impactCount: frame?.impactCount ?? 0,
      horizon: frame?.horizon ?? time,
      horizonImpacts: this.#liveImpactCount,
      impact: this.selected,
      speed: this.speed,
      trails: this.view.trails.input.checked,
      trailsDefault: Boolean(this.scenario?.view?.trails),
      endMode: this.timeline.mode,
      title: this.scenario?.title ?? '',
    };
  }

  /**
   * Reproduces a run as a share link describes it, on the scenario just loaded with the link's start
   * settings: each change of e, eᵢ or ν made at its moment ({t, impacts, …}), the run taken to its horizon
   * ({horizon, horizonImpacts}), then the moment {t, impacts} shown, paused. Every step is a seek of the
   * timeline (the live run advanced, the past replayed), so the state is the one the page that made the
   * link showed, to the last bit. A run that goes past the scenario's duration goes on past it. Resolves
   * with notices for what could not be reproduced (the rest is shown as far as it goes).
   */
  async reproduce({ changes = [], t = 0, impacts = 0, horizon = t, horizonImpacts = impacts } = {}, { onProgress } = {}) {
    if (!this.scenario) return ['no scenario is loaded'];
    const notices = [];
    const last = Math.max(t, horizon, ...changes.map((change) => change.t));
    if (last > this.scenario.duration) this.setEndMode('continue');
    for (const change of changes) {
      await this.seek(change.t, { impactCount: change.impacts });
      const at = this.frame;
      if (at.time !== change.t || at.impactCount !== change.impacts) {
        notices.push(`the run did not reach the change made at t = ${change.t} s (impact ${change.impacts}); ` +
          'it and the later ones are left out');
        break;
      }
      if (!await this.#set(runChange(change))) {
        notices.push(`the change made at t = ${change.t} s was refused (see above); it and the later ones are left out`);
        break;
      }
    }
    this.#showSettings();
    const far = horizon > t || horizonImpacts > impacts;
    if (far) await this.seek(horizon, { impactCount: horizonImpacts, onProgress });
    const reached = await this.seek(t, { impactCount: impacts, ...(far ? {} : { onProgress }) });
    if (reached < t) notices.push(`the run stopped at t = ${reached} s, short of the link’s t = ${t} s`);
    this.energy.flush();
    this.#describe(true);
    return notices;
  }

  /** Sets the playback speed (one of the speed slider's notches). */
  setSpeed(speed) {
    this.speed = this.controls.setSpeed(speed);
    return this.speed;
  }

  /** Shows or hides the trails (the check box follows). */
  setTrails(on) {
    this.view.setTrails(on);
  }

  /**
   * Changes settings of the run as the controls do, at the moment shown: `e` (every contact), `e_i`
   * ({contact index: e}), `mu` (μ of every contact: a number or 'stick'), `nu` (null: optimal). The controls show the new values. Resolves false (the
   * message area says why) when the engine refuses one; those before it are kept.
   */
  async setOverrides({ e, e_i: contacts, mu, nu } = {}) {
    if (!this.scenario) return false;
    let ok = true;
    if (e !== undefined) ok = await this.#set({ restitution: e });
    for (const [key, value] of Object.entries(contacts ?? {})) {
      if (!ok) break;
      ok = await this.#set({ contact: Number(key), restitution: value });
    }
    if (ok && mu !== undefined) ok = await this.#set({ mu });
    if (ok && nu !== undefined) ok = await this.#set({ nu });
    this.#showSettings();
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

  /** Puts `node` right under the scene's figure (the embed bar). */
  placeUnderScene(node) {
    this.scene.element.closest('figure').after(node);
  }

  /** The scene as a 2D canvas (a copy of what is drawn now). */
  snapshotScene() {
    return this.scene.snapshot();
  }

  /** The energy plot's canvas (axes and curves; the legend is HTML), drawn now; null while the plot has no width. */
  energyCanvas() {
    return this.energy.canvas();
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
    const sliding = points.filter((p) => p.state === 'active' && p.slip).length;
    const count = this.frame.impactCount;
    const last = this.impacts[count - 1];
    const text = `${s.title || 'Scenario'}: ${bodies.join(', ')}` +
      `${s.planes?.length ? `, ${s.planes.length} ground plane${s.planes.length > 1 ? 's' : ''}` : ''}` +
      `${s.joints?.length ? `, ${s.joints.length} joint${s.joints.length > 1 ? 's' : ''}` : ''}. ` +
      `${this.playing ? 'Playing' : 'Paused'} at t = ${this.frame.time.toFixed(2)} s; ` +
      `${touching} of ${points.length} contact points touching${sliding ? ` (${sliding} sliding)` : ''}; ` +
      `${count} impacts so far` +
      (last ? `, the last at t = ${last.t.toFixed(2)} s with γ = ${formatNumber(last.gamma, 3)}.` : '.');
    this.scene.describe(text);
  }
}
