// The targets of issues #14 and #31, read from one run's report (bench/run.js): each with the figure it is
// read on, whether it is met, and when it is not, by how much (the factor the figure would have to change
// by). Written to latest.json as `targets` (#14) and `targets_31`, and printed after the tables;
// bench/README.md says why each missed one is missed.

/** Half the 958 kB first load the page had when #14 was filed. */
const FIRST_LOAD_GOAL_BYTES = 479_000;

/** One target: `figure` against `goal`, at least (`atMost` false) or at most; the figure read to three
 *  significant digits, as the tables show it. `note`, when given, says what the figure covers (a run cut
 *  short by its CPU cap). */
function target(name, measured, goal, atMost, unit, note) {
  const extra = note ? { note } : {};
  if (measured == null || !Number.isFinite(measured)) {
    return { target: name, figure: null, goal, at_most: atMost, unit, met: null, missed_by: null, ...extra };
  }
  const figure = Number(measured.toPrecision(3));
  const met = atMost ? figure <= goal : figure >= goal;
  const factor = atMost ? figure / goal : goal / figure;
  // A zero figure against an at-least goal is missed by an infinite factor: said as null.
  const missedBy = met || !Number.isFinite(factor) ? null : Number(factor.toPrecision(3));
  return { target: name, figure, goal, at_most: atMost, unit, met, missed_by: missedBy, ...extra };
}

/** The largest of some numbers, null when there are none. */
const largest = (values) => {
  const finite = values.filter((v) => v != null && Number.isFinite(v));
  return finite.length ? Math.max(...finite) : null;
};

/**
 * The targets of #14 in `report` (latest.json's keys). The scene families are read over their first window
 * (the keys the issue names) and over the later windows the run measured (landing, settled), each its own
 * line: a target can be met at rest and missed while the bodies land.
 */
export function targetsOf(report) {
  const out = [];
  const windows = Object.keys(report.windows ?? {});
  for (const [family, n, goal] of [['row', 64, 10], ['column', 64, 10], ['chain', 32, 10], ['channel', 64, 1]]) {
    const first = report.families?.[family]?.[n]?.wasm_realtime;
    out.push(target(`${family} of ${n}, first ${report.settings.familySeconds} s`, first, goal, false, '× real time'));
    for (const label of windows) {
      const window = report.windows[label];
      out.push(target(`${family} of ${n}, ${label} t = ${window.from}–${window.until} s`,
        window[family]?.[n]?.wasm_realtime, goal, false, '× real time'));
    }
  }
  out.push(target('row cost growth, exponent of N', report.row_exponent_wasm, 1.5, true, ''));
  // The sparse impact (S deferred) against the classical solve, on every family's system with every row active.
  const sparseOverClassical = largest(Object.values(report.solvers ?? {})
    .flatMap((bySize) => Object.values(bySize).map((entry) => entry.wasm?.sparse_over_classical)));
  out.push(target('projection impact over the classical solve, S deferred (largest)', sparseOverClassical, 1.5, true, '×'));
  out.push(target('wasm/native, the impact at n = 60', report.wasm_over_native_impact_n60, 1.5, true, '×'));
  out.push(target('wasm/native, every kernel and built-in simulation (largest)',
    largest((report.kernels ?? []).map((k) => k.wasm_over_native)), 1.5, true, '×'));
  out.push(target(`worst advance(1/60 s) of a built-in (${report.worst_advance_scenario})`, report.worst_advance_ms, 4, true, 'ms'));
  out.push(target('first frame', report.first_frame_ms, 1000, true, 'ms'));
  out.push(target('first load, gzipped', report.first_load_gzip_bytes, FIRST_LOAD_GOAL_BYTES, true, 'bytes'));
  return out;
}

// ---- #31: the whole runs, the peers, the exact answers ----------------------------------------------------

/** The whole-run targets of #31 (wasm, × real time), each on a run of whole-runs.js's WHOLE_RUNS by name. */
export const WHOLE_RUN_GOALS = [
  { run: 'column64_whole', goal: 10, label: 'column of 64, whole run' },
  { run: 'column64_whole', goal: 30, label: 'column of 64, whole run (stretch)' },
  { run: 'channel64_whole', goal: 10, label: 'channel of 64, whole run' },
  { run: 'chain32_whole', goal: 10, label: 'chain of 32, whole run' },
  { run: 'row64_page', goal: 20, label: 'row of 64, page mode' },
  { run: 'pile200_whole', goal: 1, label: 'pile of 200 poured, whole run' },
  { run: 'pile64_mu_whole', goal: 5, label: 'pile of 64 with μ = 0.5, whole run' },
];
/** At most this many µs of wasm CPU per impact in the column of 64. */
export const US_PER_IMPACT_GOAL = 20;
/** #31's item 4, "at most a few thousand impacts over its 5 s", read as at most this many. */
export const PILE200_IMPACTS_GOAL = 5000;
/** Round-off: the largest error of Oblique's answers against the closed forms that counts as exact. */
export const EXACT = 1e-9;

/** What a whole run's figure covers when its CPU cap cut it short (null when it ran whole). */
function coverage(entry) {
  if (!entry || entry.complete) return null;
  return `over its first ${Number(entry.simulated.toPrecision(3))} s of ${entry.seconds} (cut by its CPU cap of ` +
    `${entry.cpu_cap} s), not the whole run`;
}

/**
 * The targets of #31 in `report` (latest.json): the whole runs in wasm (`whole_runs`), friction's and the
 * page's calls' costs (items 5 and 6), µs per impact, the pour's impacts, Oblique against Rapier at 1 ms on
 * every scene over the same simulated span, and Oblique's answers against the closed forms.
 */
export function wholeRunTargetsOf(report) {
  const runs = report.whole_runs ?? {};
  const out = [];
  for (const { run, goal, label } of WHOLE_RUN_GOALS) {
    const wasm = runs[run]?.wasm;
    out.push(target(label, wasm?.realtime, goal, false, '× real time', coverage(wasm)));
  }
  const column = runs.column64_whole?.wasm;
  out.push(target('µs of CPU per impact, column of 64', report.column64_us_per_impact_wasm, US_PER_IMPACT_GOAL, true,
    'µs', coverage(column)));
  // The pour's impacts: a run cut short gives a lower bound, enough to miss the goal but not to meet it.
  const pour = runs.pile200_whole?.wasm;
  const impacts = pour && (pour.complete || pour.impacts > PILE200_IMPACTS_GOAL) ? pour.impacts : null;
  out.push(target(`impacts of the pour of 200 over 5 s (a few thousand: ≤ ${PILE200_IMPACTS_GOAL})`, impacts,
    PILE200_IMPACTS_GOAL, true, '', pour && !pour.complete ? `${pour.impacts} ${coverage(pour)}` : undefined));
  out.push(target('friction\'s cost: pile of 64, μ = 0.5 over μ = 0 (CPU, same span)', report.pile64_mu_over_pile64_wasm,
    2, true, '×', runs.pile64_whole?.wasm && `over t = 0–${runs.pile64_whole.wasm.simulated.toPrecision(3)} s`));
  out.push(target('the page\'s calls: row of 64, page mode over one call a frame (CPU)', report.row64_page_over_whole_wasm,
    1.1, true, '×'));
  // Against Rapier at 1 ms, each scene over the span Oblique ran.
  const rapier = (report.peers ?? []).find((row) => row.id === 'rapier' && row.step === '1 ms');
  for (const [scene, entry] of Object.entries(rapier?.scenes ?? {})) {
    out.push(target(`${scene}: Oblique over Rapier at 1 ms (same span)`, entry.oblique_over_peer, 1, false, '×'));
  }
  const oblique = (report.peers ?? []).find((row) => row.id === 'oblique');
  out.push(target('exact answers: ball apex heights against h·e^(2k) (relative)', oblique?.ball_apex_error, EXACT, true, ''));
  out.push(target('exact answers: row exit velocities against the closed form', oblique?.row_exit_error, EXACT, true, 'm/s'));
  return out;
}

/** One line per target: name, goal, figure, and met or missed by how much (and what it covers). */
export function describeTargets(targets) {
  const show = (x) => (x == null ? '—' : String(Number(x.toPrecision(3))));
  return targets.map((t) => {
    const unit = t.unit.startsWith('×') ? t.unit : t.unit && ` ${t.unit}`;
    const goal = `${t.at_most ? '≤' : '≥'} ${t.goal}${unit}`;
    // A factor read to three digits (1.00, not 1, for a figure just short of its goal).
    const by = t.missed_by == null ? '∞' : t.missed_by < 10 ? t.missed_by.toFixed(2) : String(t.missed_by);
    const status = t.met == null ? 'not measured' : t.met ? 'met' : `missed by ${by}×`;
    const line = `${t.target.padEnd(64)} ${goal.padEnd(18)} ${show(t.figure).padStart(8)}  ${status}`;
    return t.note ? `${line} (${t.note})` : line;
  });
}
