// The playground view: a scenario running in the worker, drawn in the scene, with playback, the timeline,
// live restitution and friction, the impact log, the energy plot and a plot of the reader's choice, and the
// panels of the selected impact. It owns the run's state and moves it in time; its parts show it: the
// playback loop (playback-loop.js), the impact the panels follow (impact-feed.js), the settings of the run
// (run-settings.js), the run in words (run-description.js). Share links, embeds, the editor and the export
// reach it through the small interface of playground-api.js.
import { el } from '../widgets/dom.js';
import { Emitter } from '../widgets/emitter.js';
import { formatGamma, formatNumber } from '../widgets/format.js';
import { EnergyPlot } from './energy-plot.js';
import { ContactTable } from './contact-table.js';
import { ImpactFeed } from './impact-feed.js';
import { ImpactHeading } from './impact-heading.js';
import { ImpactLog } from './impact-log.js';
import { LazyImpactPanels } from '../impact-panels/lazy-impact-panels.js';
import { PlaybackControls } from './playback.js';
import { PlaybackLoop } from './playback-loop.js';
import { Presentation } from './presentation.js';
import { QuantityPlot } from './quantity-plot.js';
import { RestitutionControls } from './restitution-controls.js';
import { RunHistory } from './run-history.js';
import { RunSettings } from './run-settings.js';
import { Scene } from './scene.js';
import { StepQueue } from './step-queue.js';
import { TimelineControls } from './timeline-controls.js';
import { ViewOptions } from './view-options.js';
import { describeRun, impactText } from './run-description.js';
import { loadRequest } from './load-request.js';
import { scenarioDocument } from '../../scenario/builtins.js';
import { applyOverrides } from '../../scenario/overrides.js';
import { contactLabel } from '../../scenario/names.js';

const SOURCE = 'Playground';
/** How far "Next impact" looks ahead, in simulated seconds. */
const STEP_HORIZON = 10;
/**
 * Simulated seconds per request when a seek runs the live run ahead (a link's far time): the worker answers
 * other requests in between and `onProgress` is told after each.
 */
const SEEK_CHUNK = 1;
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
    this.steps = new StepQueue(() => this.#stepOnce());
    this.impacts = [];
    this.frame = null;
    this.lastDescribed = 0;
    this.seekWanted = null;  // the newest seek asked for while one is in flight
    this.history = new RunHistory();
    this.document = null;    // the scenario document as loaded (before the overrides)
    this.settings = new RunSettings();
    this.events = new Emitter((error) => this.messages.show(error, SOURCE));

    this.scene = new Scene({
      onFollowChange: (on) => { if (!on) this.view.followStopped(); },
      onCloseUpChange: (index) => this.view?.showCloseUp(index),
    });
    this.status = el('p', { class: 'scene-status', 'aria-hidden': 'true' });
    this.notice = el('p', { class: 'run-notice', role: 'status', 'data-testid': 'run-notice' });
    this.presentation = new Presentation({ onChange: (on) => this.view.setPresenting(on) });
    this.view = new ViewOptions({ scene: this.scene, onPresent: () => this.presentation.toggle() });
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
      onStepSample: (direction) => this.stepSample(direction),
      onStepImpact: (direction) => (direction > 0 ? this.step() : this.stepBack()),
    });
    this.restitution = new RestitutionControls({
      onGlobal: (e) => this.#set({ restitution: e }),
      onContact: (contact, e) => this.#set({ contact, restitution: e }),
      onFriction: (mu) => this.#set({ mu }),
      onContactFriction: (contact, mu) => this.#set({ contact, mu }),
      onInvalid: (error) => this.messages.show(error, SOURCE, 'error'),
    });
    this.log = new ImpactLog({ onSelect: (index) => this.showImpact(index), onFollow: () => this.followLatest() });
    this.energy = new EnergyPlot({ history: this.history, onPick: (index) => this.showImpact(index) });
    this.plot = new QuantityPlot({ history: this.history, onPick: (index) => this.showImpact(index) });
    this.heading = new ImpactHeading();
    // The panels' code is loaded at the first impact shown (lazy-impact-panels.js).
    this.panels = new LazyImpactPanels({
      client,
      empty: EMPTY_NOTE,
      onNu: (nu) => this.#set({ nu }),
      onError: (error) => this.messages.show(error.message, SOURCE, error.kind ?? 'error'),
    });
    this.feed = new ImpactFeed({
      client,
      panels: this.panels,
      heading: this.heading,
      run: () => ({ scenario: this.scenario, frame: this.frame, impacts: this.impacts, playing: this.playing }),
      mark: (index, following) => {
        this.log.select(index, following);
        this.energy.select(index);
        this.plot.select(index);
      },
      relabel: (summary) => this.log.relabel(summary),
      shown: (detail) => this.events.emit('shown', detail),
      unavailable: (detail) => this.#panelsUnavailable(detail),
    });
    this.loop = new PlaybackLoop({
      client,
      isRun: (generation) => generation === this.generation,
      isPlaying: () => this.playing,
      speed: () => this.speed,
      until: () => this.#until,
      apply: (frame, elapsed) => this.#apply(frame, elapsed),
      ended: () => this.#ended(),
      failed: (error) => this.#failed(error),
      showSpeed: (real, asked) => this.timeline.showSpeed(real, asked),
    });

    this.figure = el('figure', { class: 'scene-figure' }, this.scene.element,
      el('figcaption', { class: 'scene-caption' }, this.status, this.view.element),
      this.timeline.element, this.notice);
    this.contacts = new ContactTable({ label: (points, k) => this.#pointLabel(points, k) });
    this.impactView = el('section', { class: 'impact-view', 'aria-labelledby': 'impact-title' },
      this.heading.element, this.panels.element, this.contacts.element);
    this.element = el('div', { class: 'playground' },
      el('div', { class: 'stage' },
        this.controls.element,
        this.figure,
        this.restitution.element,
        this.energy.element,
        this.plot.element,
        this.log.element),
      this.impactView);
  }

  /** Loads the scenario of index entry `id` (options as loadDocument's); resolves true when it runs. */
  async load(id, options = {}) {
    const entry = this.entries.find((e) => e.id === id) ?? this.entries[0];
    if (!entry) return false;
    let doc;
    try {
      doc = await scenarioDocument(entry);
    } catch (error) {
      this.messages.show(`could not load “${entry.title}”: ${error.message}. ` +
        `${this.scenario ? `“${this.scenario.title || 'The previous scenario'}” is still running.` : 'Choose another scenario.'}`,
      SOURCE, 'error');
      return false;
    }
    return this.loadDocument(doc, { ...options, entry });
  }

  /**
   * Loads a scenario document: a built-in one (`entry`), or one from the editor, a file, a link or the embed
   * API. `overrides` ({e, e_i, mu, mu_i, nu}) are the run's settings from its start; `play` starts it
   * (default: the page's autoplay). Resolves true when it runs; otherwise the previous scenario keeps
   * running and the message area says why. Every load starts a new run in the worker (a new timeline, its
   * snapshots from t = 0), whoever asks for it.
   */
  async loadDocument(doc, { entry = null, overrides = {}, play = this.autoplay } = {}) {
    if (!doc) return false;
    this.#stop();
    this.steps.drop();
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
        const kept = this.scenario ? ` “${this.scenario.title || 'The previous scenario'}” is still running.` : '';
        this.messages.show(`could not load “${name}”: ${error.message}.${kept}`, SOURCE, 'error');
        // The previous scenario (if any) is still the one running: show it again.
        if (this.scenario) this.#showChoice();
        this.#enable(Boolean(this.scenario));
        this.element.removeAttribute('aria-busy');
      }
      return false;
    }
    if (generation !== this.generation) return false;
    // What was said about the scenario before (a copy made, a note) does not outlive it.
    this.messages.clear(SOURCE);
    this.messages.clearTransient();
    if (notices.length) this.messages.show(`${notices.join('; ')}. The rest of the scenario runs as written.`, SOURCE, 'warning');
    const { scenario } = loaded;
    this.scenario = scenario;
    this.entry = entry;
    this.document = structuredClone(doc);
    if (!entry) this.customDocument = this.document;
    this.settings.start(overrides);
    this.panelsWarned = false;
    // A scenario without contacts or impulses has no impact at all: say so instead of searching for one.
    // Contacts are declared, or found by the core ("collide": "all").
    this.impactless = !scenario.contacts.length && scenario.collide !== 'all' && !scenario.impulses.length;
    this.#showChoice();
    this.#enable(true);
    this.restitution.setScenario(scenario);
    this.log.setContactNames(scenario.contacts.map((_, i) => contactLabel(scenario, i)),
      scenario.integrator.rest_speed,
      (summary, j) => contactLabel(scenario, -1, { pair: summary.point_bodies?.[j], normal: summary.normals?.[j] }));
    this.scene.setScenario(scenario);
    this.view.setScenario(scenario);
    this.contacts.setScenario(scenario);
    this.plot.setScenario(scenario, loaded.frame.contacts, (k) => this.#pointLabel(loaded.frame.contacts, k));
    this.timeline.setDuration(scenario.duration);
    this.frame = null;
    this.#clearRun();
    this.panels.resetNu(nu ?? scenario.nu ?? null);
    this.panels.setEmptyNote(this.impactless
      ? 'This scenario has no contacts and no impulses, so it has no impacts: it shows the smooth motion of a ' +
        'constrained system, q̈ = (I − S)q̈* + Sq̈⊥, with S the oblique projector of its joints.'
      : EMPTY_NOTE);
    this.#apply(loaded.frame);
    this.scene.frameBodies();
    this.#describe(true);
    this.element.dataset.scenario = entry?.id ?? CUSTOM;  // loaded (a hook for tests and embedding pages)
    this.element.removeAttribute('aria-busy');
    this.events.emit('loaded', { scenario, entry });
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
    this.steps.drop();
    if (this.playing || !this.scenario) return;
    // At the end of the run, Play watches it again from the start.
    if (this.#atEnd) await this.seek(0);
    if (this.playing) return;
    this.playing = true;
    this.controls.setPlaying(true);
    this.events.emit('playing', true);
    this.loop.start(this.generation, this.frame?.time ?? 0);
  }

  /** Stops playback; the panels show the impact they should at once (the latest, unless one is chosen). */
  pause() {
    if (!this.#stop()) return;
    this.feed.fetch();
  }

  /** Stops playback (true if it was playing); for callers that move elsewhere next and fetch the panels then. */
  #stop() {
    if (!this.playing) return false;
    this.playing = false;
    this.controls.setPlaying(false);
    this.timeline.showSpeed(null);
    this.events.emit('playing', false);
    this.energy.flush();
    this.#describe(true);
    return true;
  }

  /** The live run reached the scenario's duration: stop there, or loop back to the start (still playing). */
  async #ended() {
    if (this.timeline.mode === 'loop') {
      await this.seek(0, { keepPlaying: true });
      if (this.playing) this.loop.start(this.generation, this.frame?.time ?? 0);
      return;
    }
    this.pause();
    const duration = formatNumber(this.scenario.duration, 4);
    // Only the controls this page shows are named (an embed has no choice of what happens at the end, and
    // may have no Play button).
    const play = this.controls.play.checkVisibility();
    const ways = [];
    if (play) ways.push('Play watches it again');
    if (this.timeline.endModeShown()) ways.push('“At the end of the run” can loop it or let it go on');
    this.announcer.say(`End of the run at t = ${duration} s.${play ? ' Press Play to watch it again.' : ''}`);
    this.notice.textContent = `End of the run (t = ${duration} s, the scenario’s duration).` +
      (ways.length ? ` ${ways.join('; ')}.` : '');
  }

  /** Runs to right after the next impact; pressed again meanwhile, the steps follow it (StepQueue). */
  step() {
    if (!this.scenario || this.impactless) return Promise.resolve();
    const generation = this.generation;
    return this.steps.push(() => generation === this.generation);
  }

  /** One step of step(): true when it found an impact and showed it. */
  async #stepOnce() {
    const generation = this.generation;
    this.#stop();
    const slow = setTimeout(() => { this.status.textContent = 'Looking for the next impact…'; }, 250);
    try {
      const frame = await this.client.request('step', { horizon: STEP_HORIZON, until: this.#until });
      clearTimeout(slow);
      if (generation !== this.generation) return false;
      this.feed.selected = null;
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
      return Boolean(frame.found) && !frame.superseded;
    } catch (error) {
      clearTimeout(slow);
      this.#failed(error);
      return false;
    }
  }

  /**
   * Back one impact: to the moment right after the previous impact instant (an impact and its plastic
   * follow-up share one), or to the start before the first.
   */
  async stepBack() {
    this.steps.drop();
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
    this.feed.select(null);
    this.announcer.say(`Impact ${k + 1}: ${impactText(this.scenario, this.impacts[k])}`);
  }

  /** One sample of the run (TimelineControls.SAMPLE) later (`direction` 1) or earlier (−1). */
  async stepSample(direction) {
    if (!this.scenario || !this.frame) return;
    // Keys pressed faster than the seeks answer step on from the time the last one asked for.
    const from = this.seeking ? this.seekTarget : this.frame.time;
    const t = await this.seek(this.timeline.sampleFrom(from, direction));
    this.announcer.say(`t = ${t.toFixed(3)} s`);
  }

  /** Back to t = 0 with a new run: the settings in force become its start. */
  async reset() {
    this.steps.drop();
    if (!this.scenario) return;
    const generation = this.generation;
    try {
      const frame = await this.client.request('reset');
      if (generation !== this.generation) return;
      this.settings.start(this.settings.now());
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
    this.steps.drop();
    if (!this.scenario) return 0;
    if (!keepPlaying) this.#stop();
    this.seekWanted = { t, impactCount, onProgress };
    this.seekTarget = t;
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
    this.feed.select(index);
  }

  /** Shows impact `index` in the panels without moving in time (null: the latest at the moment shown). */
  select(index) {
    this.feed.select(index);
  }

  /** Back to the live end of the run, following each new impact. */
  async followLatest() {
    this.feed.selected = null;
    if (this.frame?.replaying) await this.#jump('seek', { time: this.frame.horizon, impactCount: this.#liveImpactCount });
    this.feed.fetch();
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
      this.settings.setEdits(reply.edits ?? []);
      if (reply.branched) this.#branched(reply.branched);
      // μ acts on the state at once (the contacts' slip, a sticking impact): show it while paused too.
      if (change.mu !== undefined && !this.playing) {
        const frame = await this.client.request('tick', { dt: 0, until: this.#until });
        if (generation === this.generation) this.#apply(frame);
      }
      return true;
    } catch (error) {
      this.messages.show(`${error.message}. The run goes on with the value it had.`, SOURCE, 'error');
      return false;
    }
  }

  /** The restitution controls and the ν panel show the settings in force (after a branch, a link, the API). */
  #showSettings() {
    this.restitution.showValues(applyOverrides(this.scenario, this.settings.now()).doc);
    this.panels.showNu(this.settings.nu(this.scenario));
  }

  /** The run was cut at `time` (a change made in the past): what came after is gone. */
  #branched({ time, impactCount }) {
    this.impacts.length = Math.min(this.impacts.length, impactCount);
    this.log.keep(impactCount);
    this.history.truncate(time);
    this.energy.keepImpacts(impactCount);
    this.plot.keepImpacts(impactCount);
    this.feed.keep(impactCount);
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
    this.messages.show(`${error.message}. The run stopped at t = ${(this.frame?.time ?? 0).toFixed(3)} s; ` +
      'Play, the time bar and Reset still work.', SOURCE, 'error');
  }

  /** The panels cannot have impact `index`'s record: they say why, the message area says what still works. */
  #panelsUnavailable({ error, index, summary }) {
    const what = summary ? `impact ${index + 1} (γ = ${formatGamma(summary.gamma).text})` : `impact ${index + 1}`;
    this.panels.showUnavailable(`The matrices and panels of ${what} cannot be computed: ${error.message}. ` +
      'Its γ, W_loss and contacts are in the impact log.');
    // Once per run: every impact of a large scenario fails the same way.
    if (this.panelsWarned) return;
    this.panelsWarned = true;
    this.messages.show(`the panels of the impacts (S, R, P and the rest) cannot be computed for this run: ${error.message}. ` +
      'Still working: the run, the time bar, the impact log with γ and W_loss of every impact, and the plots.',
    SOURCE, 'warning');
  }

  #clearRun() {
    this.impacts = [];
    this.history.clear();
    this.log.clear();
    this.log.select(null, true);
    this.energy.clear();
    this.plot.clear();
    this.scene.clearImpulses();
    this.announcer.cancel();
    this.feed.clear();
    this.notice.textContent = this.#impactlessNote();
  }

  /** The run's standing note: none, or that it has no impacts. */
  #impactlessNote() {
    if (!this.impactless) return '';
    return `No contacts: this run has no impacts${this.controls.step.checkVisibility() ? ' (“Next impact” is off)' : ''}.`;
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
      if (announceNow) this.announcer.say(`Impact ${latest.index + 1}: ${impactText(this.scenario, latest)}`);
      else this.announcer.impacts(fresh.length, impactText(this.scenario, latest));
      this.events.emit('impacts', fresh);
    }
    // The impacts the scene passed to reach this frame (their arrows): those of the moment a jump lands on.
    const from = frame.jumped ? this.#firstAt(frame) : Math.min(previous?.impactCount ?? 0, frame.impactCount);
    const passed = this.impacts.slice(from, frame.impactCount);
    this.scene.update(frame, { playing: this.playing, elapsed, passed });
    this.contacts.show(frame.contacts ?? [], frame.time);
    // The run's history grows only at its live end.
    for (const sample of frame.samples ?? []) this.history.add(sample, sample.q, sample.qd, null);
    for (const impact of fresh) {
      if (impact.t === frame.time) this.history.add({ time: impact.t, kinetic: impact.K_minus, potential: frame.state.potential }, frame.positions, null, null);
    }
    if (!frame.replaying) this.history.add(frame.state, frame.positions, frame.velocities, frame.contacts);
    this.energy.setNow(frame.time);
    this.plot.setNow(frame.time);
    this.log.setNow(frame.impactCount);
    this.feed.follow(frame, { fresh, previous, passing });
    if (frame.jumped || frame.reset) this.notice.textContent = this.#impactlessNote();
    this.#showTime();
    if (performance.now() - this.lastDescribed > 1000) this.#describe();
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

  /** A contact point's name: its contact's, numbered when the contact has several points. */
  #pointLabel(points, k) {
    const contact = points[k]?.contact;
    const name = contactLabel(this.scenario, contact, { pair: [points[k]?.bodyA, points[k]?.bodyB], normal: points[k]?.normal });
    const siblings = points.filter((p) => p.contact === contact);
    return siblings.length > 1 ? `${name} ·${siblings.indexOf(points[k]) + 1}` : name;
  }

  /** The canvas's text alternative, at most once a second unless `force`. */
  #describe(force = false) {
    if (!this.scenario || !this.frame) return;
    const now = performance.now();
    if (!force && now - this.lastDescribed < 1000) return;
    this.lastDescribed = now;
    this.scene.describe(describeRun({ scenario: this.scenario, frame: this.frame, impacts: this.impacts, playing: this.playing }));
  }

  // ---- what playground-api.js offers share links, embeds, the editor and the export ----

  /**
   * Calls `listener` on `type`: 'loaded' ({scenario, entry}) after every load, 'impacts' (the new impact
   * summaries of a frame), 'shown' ({record, index}) when the panels show an impact, 'playing' (true or
   * false) when playback starts or stops. Returns a remover.
   */
  on(type, listener) {
    return this.events.on(type, listener);
  }

  /**
   * What the playground shows, to be put in a link or exported: the document (before the overrides) and the
   * built-in it is (or null), the normalized scenario; `overrides` {e, e_i, mu, mu_i, nu}, the settings in
   * force now; the run's `start` settings and its `changes` since, each at its moment ({time, impactCount,
   * change} as the worker made it); the moment shown (`time`, `impactCount`: the impacts logged by then) and
   * how far the run has got (`horizon`, `horizonImpacts`); the impact shown (null: the latest at the moment
   * shown), whether it plays, the speed, the trails, the third matrix, what happens at the end of the run,
   * and the title.
   */
  viewState() {
    const frame = this.frame;
    const time = frame?.time ?? 0;
    const { start, changes } = this.settings.split();
    return {
      builtin: this.entry?.id ?? null,
      document: this.document,
      scenario: this.scenario ?? null,
      overrides: this.settings.now(),
      start,
      changes,
      time,
      impactCount: frame?.impactCount ?? 0,
      horizon: frame?.horizon ?? time,
      horizonImpacts: this.#liveImpactCount,
      impact: this.feed.selected,
      playing: this.playing,
      speed: this.speed,
      trails: this.view.trails.input.checked,
      trailsDefault: Boolean(this.scenario?.view?.trails),
      matrix: this.panels.matrices.choice,
      endMode: this.timeline.mode,
      title: this.scenario?.title ?? '',
    };
  }

  /**
   * Reproduces a run as a share link describes it, on the scenario just loaded with the run's start
   * settings: each change (as viewState gives them, {time, impactCount, change}) made at its moment, the run
   * taken to its horizon ({horizon, horizonImpacts}), then the moment {t, impacts} shown, paused. Every step
   * is a seek of the timeline (the live run advanced, the past replayed), so the state is the one the page
   * that made the link showed, to the last bit. A run that goes past the scenario's duration goes on past
   * it. Resolves with notices for what could not be reproduced (the rest is shown as far as it goes).
   */
  async reproduce({ changes = [], t = 0, impacts = 0, horizon = t, horizonImpacts = impacts } = {}, { onProgress } = {}) {
    if (!this.scenario) return ['no scenario is loaded'];
    const notices = [];
    const last = Math.max(t, horizon, ...changes.map((change) => change.time));
    if (last > this.scenario.duration) this.setEndMode('continue');
    for (const { time, impactCount, change } of changes) {
      await this.seek(time, { impactCount });
      const at = this.frame;
      if (at.time !== time || at.impactCount !== impactCount) {
        notices.push(`the run did not reach the change made at t = ${time} s (impact ${impactCount}); ` +
          'it and the later ones are left out');
        break;
      }
      if (!await this.#set(change)) {
        notices.push(`the change made at t = ${time} s was refused (see above); it and the later ones are left out`);
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

  /**
   * Changes settings as the controls do, at the moment shown: `e` (every contact), `e_i` ({contact index:
   * e}), `mu` (μ of every contact: a number or 'stick'), `nu` (null: optimal); and how the run is shown:
   * `speed` (one of the speed slider's notches), `trails`, `matrix` (the third matrix: 'P', 'Mc', 'E_tilde'
   * or 'Q'), `endMode`. The controls show the new values. Resolves false (the message area says why) when
   * the engine refuses one; those before it are kept.
   */
  async applySettings({ e, e_i: contacts, mu, nu, speed, trails, matrix, endMode } = {}) {
    if (speed !== undefined) this.speed = this.controls.setSpeed(speed);
    if (trails !== undefined) this.view.setTrails(trails);
    if (matrix !== undefined) this.panels.matrices.setChoice(matrix);
    if (endMode !== undefined) this.setEndMode(endMode);
    if (!this.scenario || (e === undefined && contacts === undefined && mu === undefined && nu === undefined)) return true;
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

  /** The impact the panels show: {index, record} (matrices included), or null. */
  shownImpact() {
    return this.feed.current();
  }
}
