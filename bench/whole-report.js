// #31's part of `npm run bench`: the whole runs (whole-runs.js) in wasm through the JS engine API and
// natively through oblique_bench, Oblique's answers against the closed forms, and the peers on the same
// scenes (peers/compare.js). Returns the keys latest.json gets and prints their tables; bench/README.md,
// "Whole runs" and "Peers", explains every figure.
import { execFileSync } from 'node:child_process';
import { loadOblique } from '../web/src/engine/index.js';
import { ballApexes, ApexTracker, apexError } from './closed-forms.js';
import { BALL_APEXES, comparePeers, PEER_STEPS, peersNote, sceneMeasures } from './peers/compare.js';
import { describeScene } from './peers/scene.js';
import { cpuTo, runName, runOblique, runPhases, sceneDocument, WHOLE_RUNS } from './whole-runs.js';

const root = new URL('..', import.meta.url).pathname;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (x, digits = 3) => (x == null || !Number.isFinite(x) ? null : Number(x.toPrecision(digits)));

/** The settings of #31's runs: CPU caps per run (s) and when a run is repeated. */
export function wholeSettings(quick) {
  return {
    // A capped scene's run stops, between two calls, once its CPU time reaches the cap; natively it runs
    // to the time the wasm run reached (this cap only a guard).
    wholeCap: quick ? 5 : 60,
    // The peers' runs: none is capped in a full run.
    peerCap: quick ? 5 : 0,
    // A run of less CPU than this is repeated, three times in all, and its median CPU time taken.
    repeatBelow: 2,
    ballSeconds: 3,
  };
}

/** The drop height of the ball scene: its lowest point above the floor (the document's centre less its radius). */
function dropHeight(doc) {
  const ball = JSON.parse(doc).bodies[0];
  return ball.position[1] - ball.shape.radius;
}

/** Oblique's whole runs in wasm, each with its penetration and (the row) exit velocities read per frame. */
function wasmWholeRuns(engine, documents, settings) {
  const results = {};
  for (const run of WHOLE_RUNS) {
    const name = runName(run);
    const doc = documents[run.key];
    // The reference without friction runs to the time the frictional pile reached.
    const seconds = run.key === 'pile64' ? Math.min(run.seconds, results.pile64_mu_whole.simulated) : run.seconds;
    const cpuCap = run.capped ? settings.wholeCap : 0;
    const scene = describeScene(JSON.parse(doc));
    const { measures, observe } = sceneMeasures(scene, run.family);
    const first = runOblique(engine, { ...run, seconds }, doc, { cpuCap, observe });
    // What stopped a run short of the scene's duration: its CPU cap, or the span it was asked for.
    const stopped = first.simulated >= run.seconds ? null : first.simulated < seconds ? 'CPU cap' : 'span';
    const runs = [first];
    while (first.complete && first.cpu < settings.repeatBelow && runs.length < 3) {
      runs.push(runOblique(engine, { ...run, seconds }, doc));
    }
    const cpu = median(runs.map((r) => r.cpu));
    results[name] = {
      key: run.key, family: run.family, bodies: run.bodies, mode: run.mode, seconds: run.seconds,
      simulated: first.simulated, complete: !stopped, stopped, cpu, runs: runs.length,
      cpu_cap: cpuCap || null, realtime: first.simulated / cpu, impacts: first.impacts,
      same_impacts: runs.every((r) => r.impacts === first.impacts),
      us_per_impact: first.impacts ? (cpu / first.impacts) * 1e6 : null,
      calls: first.calls, worst_call_ms: first.worstCallMs, phases: runPhases(first),
      frames: { cpuAt: first.cpuAt, timeAt: first.timeAt },
      ...measures,
    };
  }
  return results;
}

/** The same scenes natively (oblique_bench --whole-runs; process CPU, Google Benchmark), each over the span its
 *  wasm run reached (a capped run's: the ratio of the two builds is over the same simulated time). */
function nativeWholeRuns(wasm, settings) {
  const spec = WHOLE_RUNS.filter((run) => !run.reference).map((run) => {
    const { runs: reps, simulated, complete } = wasm[runName(run)];
    const seconds = complete ? run.seconds : simulated;
    return `${run.mode}:${run.family}:${run.bodies}:${seconds}:${run.capped ? settings.wholeCap : 0}:${reps}`;
  });
  const text = execFileSync(`${root}build/native/oblique_bench`, [
    '--family-sizes=8', `--whole-runs=${spec.join(',')}`, '--benchmark_filter=^(whole|page)_',
    '--benchmark_format=json',
  ], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const runs = {};
  for (const b of JSON.parse(text.replace(/(?<=": )-?(nan|NaN|inf|Infinity)\b/g, 'null')).benchmarks) {
    if (b.run_type !== 'iteration') continue;
    const unit = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 }[b.time_unit];
    (runs[b.run_name.split('/')[0]] ??= []).push({ cpu: b.cpu_time * unit, simulated: b.simulated_seconds, impacts: b.impacts });
  }
  const out = {};
  for (const run of WHOLE_RUNS.filter((r) => !r.reference)) {
    const list = runs[`${run.mode}_${run.family}_n${run.bodies}`];
    if (!list) continue;
    const cpu = median(list.map((r) => r.cpu));
    out[runName(run)] = {
      simulated: list[0].simulated, complete: list[0].simulated >= run.seconds, cpu, realtime: list[0].simulated / cpu,
      impacts: list[0].impacts, runs: list.length,
    };
  }
  return out;
}

/** Oblique's ball through the engine API: its apexes, sampled at every frame, against h e^(2k). */
function obliqueBallError(engine, doc, seconds) {
  const sim = engine.createSimulation(doc);
  const scene = describeScene(JSON.parse(doc));
  const h = dropHeight(doc);
  const expected = ballApexes(h, scene.restitution, BALL_APEXES);
  const tracker = new ApexTracker(-scene.gravity[1], scene.bodies[0].radius, 0.1 * expected.at(-1));
  for (let frame = 1; frame <= Math.round(seconds * 60); frame++) {
    do sim.advanceTo(frame / 60); while (sim.workLimitHit);
    tracker.sample(sim.positions[1], sim.velocities[1]);
  }
  sim.dispose();
  return apexError(tracker.apexes, expected);
}

/**
 * Measures #31's runs. Returns `{keys, details}`: `keys` are latest.json's top-level keys of #31 (the
 * whole runs, µs per impact, the two cost ratios, `peers`, `peers_note`), `details` what the tables print.
 */
export async function measureWholeRuns({ quick }) {
  const settings = wholeSettings(quick);
  const documents = Object.fromEntries(WHOLE_RUNS.map((run) => [run.key, sceneDocument(run.family, run.bodies)]));
  const ballDoc = sceneDocument('ball', 1);
  const engine = await loadOblique();
  // Warm-up, untimed: V8 compiles the wasm with its baseline compiler first and optimises hot functions
  // later, on threads whose CPU time is the process's too; a second of the chain lets it finish.
  runOblique(engine, { ...WHOLE_RUNS.find((r) => r.key === 'chain32'), mode: 'whole' }, documents.chain32, { cpuCap: 1 });

  const wasm = wasmWholeRuns(engine, documents, settings);
  const native = nativeWholeRuns(wasm, settings);
  const obliqueBall = obliqueBallError(engine, ballDoc, settings.ballSeconds);

  // The peers on the scenes Oblique ran (its page mode for the row, as the page runs it), each compared
  // with Oblique over the span Oblique reached.
  const scenes = WHOLE_RUNS.filter((run) => !run.reference).map((run) => ({
    key: run.key, family: run.family, doc: documents[run.key], seconds: run.seconds, cpuCap: settings.peerCap,
  }));
  const peerRows = await comparePeers({
    scenes, ball: { doc: ballDoc, height: dropHeight(ballDoc), seconds: settings.ballSeconds },
    repeatBelow: settings.repeatBelow,
  });
  // Oblique's run of a scene of the comparison (not a reference run).
  const obliqueRun = (key) => wasm[runName(WHOLE_RUNS.find((run) => run.key === key && !run.reference))];
  const oblique = {
    engine: 'Oblique', id: 'oblique', version: 'this build (wasm)', step: 'events; RK4 at 1 ms', dt: null,
    ball_apex_error: obliqueBall, row_exit_error: obliqueRun('row64').row_exit_error ?? null, scenes: {},
  };
  for (const { key } of scenes) {
    const r = obliqueRun(key);
    oblique.scenes[key] = {
      realtime: round(r.realtime), simulated: r.simulated, complete: r.complete,
      deepest_penetration_m: r.deepest_penetration_m,
    };
  }
  const peers = [oblique, ...peerRows.map((row) => ({
    ...row,
    scenes: Object.fromEntries(Object.entries(row.scenes).map(([key, s]) => {
      const span = obliqueRun(key);
      const peerCpu = cpuTo(s, span.simulated);
      return [key, {
        realtime: round(s.realtime), simulated: s.simulated, complete: s.complete,
        deepest_penetration_m: s.deepest_penetration_m,
        // Oblique's CPU over the peer's, both over t = 0 to the time Oblique reached.
        oblique_over_peer: peerCpu ? round(peerCpu / span.cpu) : null,
      }];
    })),
  }))];

  const whole_runs = Object.fromEntries(Object.entries(wasm).map(([name, r]) => {
    const { frames: _frames, key, family, bodies, mode, seconds, ...figures } = r;
    return [name, {
      key, family, bodies, mode, seconds,
      wasm: { ...figures, seconds, realtime: round(figures.realtime), us_per_impact: round(figures.us_per_impact) },
      // The same impacts in both builds, read on complete runs (null on a capped one: its native run stops at
      // the time the wasm run reached, before the impacts of that instant the wasm call the cap stopped
      // after had logged).
      native: native[name] ? {
        ...native[name], realtime: round(native[name].realtime),
        same_impacts_as_wasm: r.complete ? native[name].impacts === r.impacts : null,
      } : null,
    }];
  }));
  const keys = {};
  for (const run of WHOLE_RUNS) {
    const name = runName(run);
    const entry = whole_runs[name];
    keys[`${name}_realtime_wasm`] = entry.wasm.realtime;
    if (entry.native) keys[`${name}_realtime_native`] = entry.native.realtime;
    keys[`${name}_impacts`] = entry.wasm.impacts;
    if (run.capped) {
      keys[`${name}_simulated_s`] = entry.wasm.simulated;
      keys[`${name}_complete`] = entry.wasm.complete;
    }
  }
  keys.column64_us_per_impact_wasm = whole_runs.column64_whole.wasm.us_per_impact;
  // Item 6: the page's calls against one call a frame, the same 3 s of the row.
  keys.row64_page_over_whole_wasm = round(wasm.row64_page.cpu / wasm.row64_whole.cpu);
  // Item 5: friction's cost, both piles of 64 over the same span (t = 0 to where the frictional one got).
  const span = wasm.pile64_whole.simulated;
  const muCpu = cpuTo(wasm.pile64_mu_whole.frames, span);
  keys.pile64_mu_over_pile64_wasm = muCpu ? round(muCpu / wasm.pile64_whole.cpu) : null;
  keys.whole_runs = whole_runs;
  keys.whole_settings = { ...settings, frames: '1/60 s', peer_steps: PEER_STEPS.map((s) => s.label) };
  keys.peers = peers;
  keys.peers_note = peersNote();
  return keys;
}

/** The tables of #31, as lines. */
export function describeWholeRuns(keys) {
  const pad = (x, width) => String(x ?? '—').padStart(width);
  const mm = (m) => (m == null ? null : round(m * 1000, 2));
  const lines = ['whole runs (frames of 1/60 s; "whole": one advance call a frame, "page": calls of the default ' +
    'work budget; × real time = simulated s per CPU s)'];
  lines.push(['scene'.padEnd(18), 'simulated'.padStart(14), 'impacts'.padStart(8), 'wasm ×'.padStart(9),
    'native ×'.padStart(9), 'wasm CPU s'.padStart(11), 'µs/impact'.padStart(10), 'worst call ms'.padStart(14),
    'calls'.padStart(7), 'deepest mm'.padStart(11)].join(' '));
  for (const [name, r] of Object.entries(keys.whole_runs)) {
    const w = r.wasm;
    lines.push([name.padEnd(18), pad(`${round(w.simulated)} of ${r.seconds} s`, 14), pad(w.impacts, 8), pad(w.realtime, 9),
      pad(r.native?.realtime, 9), pad(round(w.cpu), 11), pad(w.us_per_impact, 10), pad(round(w.worst_call_ms), 14),
      pad(w.calls, 7), pad(mm(w.deepest_penetration_m), 11)].join(' '));
  }
  const differing = Object.entries(keys.whole_runs).filter(([, r]) => r.native?.same_impacts_as_wasm === false)
    .map(([name, r]) => `${name} ${r.wasm.impacts} in wasm, ${r.native.impacts} natively`);
  if (differing.length) lines.push(`IMPACTS DIFFER BETWEEN THE BUILDS: ${differing.join('; ')}`);
  const capped = Object.entries(keys.whole_runs).filter(([, r]) => r.wasm.stopped === 'CPU cap');
  if (capped.length) {
    lines.push(`NOT RUN WHOLE, cut by their CPU cap of ${keys.whole_settings.wholeCap} s a run: ${capped.map(([name, r]) =>
      `${name} reached t = ${round(r.wasm.simulated)} s of ${r.seconds}`).join('; ')}; their figures are over that span`);
  }
  if (keys.whole_runs.pile64_whole?.wasm.stopped === 'span') {
    lines.push(`pile64_whole (no friction) runs to the time pile64_mu_whole reached, for friction's cost`);
  }
  lines.push(`column of 64: ${keys.column64_us_per_impact_wasm} µs of wasm CPU per impact; row of 64, page mode over ` +
    `one call a frame: ${keys.row64_page_over_whole_wasm}×; pile of 64, μ = 0.5 over μ = 0: ${keys.pile64_mu_over_pile64_wasm}×`);
  lines.push('', 'the same runs in their phases (wasm): to the end of the frame of the last impact (landing, piling, ' +
    'bouncing), then the rest (at rest, or sliding apart); × real time and the share of the run\'s CPU');
  lines.push(['scene'.padEnd(18), 'impacts until'.padStart(14), 'impacts ×'.padStart(10), 'CPU share'.padStart(10),
    'after ×'.padStart(9), 'CPU share'.padStart(10)].join(' '));
  for (const [name, r] of Object.entries(keys.whole_runs)) {
    const { impacts, after } = r.wasm.phases;
    const total = (impacts?.cpu ?? 0) + (after?.cpu ?? 0);
    const share = (p) => (p && total > 0 ? `${round((100 * p.cpu) / total, 2)} %` : null);
    lines.push([name.padEnd(18), pad(impacts && `${round(impacts.until)} s`, 14), pad(round(impacts?.realtime), 10),
      pad(share(impacts), 10), pad(round(after?.realtime), 9), pad(share(after), 10)].join(' '));
  }
  const sceneKeys = Object.keys(keys.peers[0].scenes);
  lines.push('', 'peers on the same scenes (× real time, process CPU; deepest penetration in mm; errors against the ' +
    'closed forms: ball apexes relative, row exit velocities in m/s)');
  lines.push(`versions: ${keys.peers.filter((row) => row.dt === PEER_STEPS[0].dt).map((row) => `${row.engine} ${row.version}`)
    .join(', ')}; how each is set up: peers_note in latest.json, bench/README.md`);
  lines.push(['engine'.padEnd(10), 'step'.padEnd(16), 'ball apex'.padStart(10), 'row exit'.padStart(9),
    ...sceneKeys.map((k) => `${k} × / mm`.padStart(20))].join(' '));
  for (const row of keys.peers) {
    lines.push([row.engine.padEnd(10), row.step.padEnd(16), pad(round(row.ball_apex_error, 2), 10),
      pad(round(row.row_exit_error, 2), 9), ...sceneKeys.map((k) => {
        const s = row.scenes[k];
        const reached = s.complete ? '' : ` (${round(s.simulated, 2)} s)`;
        return `${s.realtime}${reached} / ${mm(s.deepest_penetration_m)}`.padStart(20);
      })].join(' '));
  }
  return lines;
}
