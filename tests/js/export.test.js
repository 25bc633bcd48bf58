// Export: the trajectory CSV is written by the core (the wasm binding of the CLI's own CSV writer and
// sampled run), so it is `oblique simulate --format csv`'s output byte for byte, for built-in scenarios,
// with settings written into the document, other durations and samplings, and the impacts table alone; the
// physics it carries (energy kept between impacts, Newton's law and γ = e² at a ball's bounce); S and R as
// CSV (the same doubles) and LaTeX (round-off as 0 by the panels' rule); the plots as SVG.
import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { CsvExport, loadOblique } from '../../web/src/engine/index.js';
import { impactMatricesCsv, impactMatricesLatex, latexNumber, matrixLatex, roundOffBound } from '../../web/src/export/matrix-text.js';
import { niceTicks, plotSvg, xmlText } from '../../web/src/export/plot-svg.js';
import { exportTrajectory } from '../../web/src/export/trajectory.js';
import { ROUND_OFF } from '../../web/src/ui/widgets/matrix-heatmap.js';
import { cliPath, loadScenario, scenarioPath } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** `oblique simulate` of a document (a built-in's path, or a document on standard input) with `args`. */
function cli(scenario, args) {
  const file = typeof scenario === 'string' ? scenarioPath(scenario) : '-';
  return execFileSync(cliPath, ['simulate', file, '--format', 'csv', ...args],
    { input: typeof scenario === 'string' ? undefined : JSON.stringify(scenario), encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** A CSV's two tables (samples, impacts) as rows of cells, headers first. */
const tables = (csv) => csv.trimEnd().split('\n\n').map((block) => block.split('\n').map((line) => line.split(',')));

describe('trajectory CSV, written by the core', () => {
  const cases = [
    ['bouncing-ball', {}, {}, []],
    ['double-pendulum', {}, { duration: 2, sample: 0.02 }, ['--duration', '2', '--sample', '0.02']],
    ['rimless-wheel', {}, { duration: 3 }, ['--duration', '3']],
    ['pile-in-bin', {}, { duration: 1.5, sample: 0.05 }, ['--duration', '1.5', '--sample', '0.05']],
    ['incline-block', { mu: 0.3 }, {}, []],
    ['two-balls', { restitution: 0.5, nu: 2 }, { sample: 0.1 }, ['--sample', '0.1']],
  ];
  for (const [id, settings, options, args] of cases) {
    const what = Object.keys(settings).length ? ` with ${JSON.stringify(settings)} written in` : '';
    it(`${id}${what}: the bytes of ${['oblique simulate', ...args, '--format csv'].join(' ')}`, () => {
      const doc = { ...loadScenario(id), ...settings };
      const mine = oblique.simulationCsv(doc, options);
      expect(mine).toBe(cli(Object.keys(settings).length ? doc : id, args));
      const [samples, impacts] = tables(mine);
      const duration = options.duration ?? doc.duration;
      const sample = options.sample ?? 0.01;
      // A header, then t = 0, Δ, …, and the duration itself when the last kΔ falls short of it.
      const whole = Math.floor((duration / sample) * (1 + 1e-12));
      expect(samples.length - 1).toBe(whole + 1 + (whole * sample < duration ? 1 : 0));
      expect(Number(samples.at(-1)[0])).toBe(duration);
      expect(impacts[0].slice(0, 6)).toEqual(['t', 'contacts', 'gamma', 'W_loss', 'K_minus', 'K_plus']);
    });
  }

  it('an impact and its plastic follow-up, two records logged by one call, as the CLI writes them', () => {
    // The chamfered corner with e = (0, 0.3, 0): at t = 0.38237 s a wall row is left moving (A rank-deficient,
    // unequal eᵢ) and a plastic follow-up record follows at the same instant.
    const doc = loadScenario('chamfered-corner');
    [0, 0.3, 0].forEach((e, k) => { doc.contacts[k].e = e; });
    const mine = oblique.simulationCsv(doc, { duration: 2, sample: 0.05 });
    expect(mine).toBe(cli(doc, ['--duration', '2', '--sample', '0.05']));
    const [, impacts] = tables(mine);
    expect(impacts[2][0]).toBe(impacts[1][0]);
  });

  it('the impacts table alone, as --impacts-only', () => {
    const mine = oblique.simulationCsv(loadScenario('newtons-cradle-gaps'), { impactsOnly: true });
    expect(mine).toBe(cli('newtons-cradle-gaps', ['--impacts-only']));
    expect(mine.split('\n')[0]).toMatch(/^t,contacts,gamma,/);
    expect(mine).not.toContain('\n\n');
  });

  it('carries the physics: energy kept between impacts, Newton’s law and γ = e² at each bounce', () => {
    // A ball dropped on a floor, e = 0.8: no force but gravity, so the total energy is constant between
    // impacts and drops by W_loss at each; each bounce reverses the normal velocity times e.
    const csv = oblique.simulationCsv(loadScenario('bouncing-ball'), { duration: 3 });
    const [samples, impacts] = tables(csv);
    const head = samples[0];
    const col = (name) => head.indexOf(name);
    const rows = samples.slice(1).map((row) => row.map(Number));
    const bounces = impacts.slice(1).map((row) => Object.fromEntries(impacts[0].map((name, k) => [name, row[k]])));
    const elastic = bounces.filter((b) => Number(b['qd_plus[1]']) > 0);
    expect(elastic.length).toBeGreaterThan(2);
    for (const b of elastic) {
      expect(Number(b['qd_plus[1]'])).toBeCloseTo(-0.8 * Number(b['qd_minus[1]']), 12);
      expect(Number(b.gamma)).toBeCloseTo(0.64, 12);
      expect(Number(b.W_loss)).toBeCloseTo(Number(b.K_plus) - Number(b.K_minus), 12);
    }
    // Between two samples with no impact in between, the total is the same to round-off; across one, it
    // falls by that impact's W_loss.
    const times = bounces.map((b) => Number(b.t));
    for (let k = 1; k < rows.length; k++) {
      const [t0, t1] = [rows[k - 1][col('t')], rows[k][col('t')]];
      const lost = bounces.filter((b, i) => times[i] > t0 && times[i] <= t1).reduce((sum, b) => sum + Number(b.W_loss), 0);
      expect(rows[k][col('total')] - rows[k - 1][col('total')]).toBeCloseTo(lost, 9);
    }
  });

  it('names a bad duration, sampling or scenario as the CLI does, and frees its memory', () => {
    const run = (doc, args) => spawnSync(cliPath, ['simulate', '-', '--format', 'csv', ...args], { input: JSON.stringify(doc), encoding: 'utf8' });
    const ball = loadScenario('bouncing-ball');
    const heavy = { ...ball, bodies: [{ ...ball.bodies[0], mass: 0 }] };
    for (const [doc, options, args] of [[ball, { duration: 4000 }, ['--duration', '4000']], [ball, { sample: 0 }, ['--sample', '0']],
      [ball, { duration: 10, sample: 1e-6 }, ['--duration', '10', '--sample', '1e-6']], [heavy, {}, []]]) {
      const message = run(doc, args).stderr.trim().replace(/^oblique simulate: /, '');
      expect(message).toMatch(/^(duration|sample|\/bodies\/0\/mass): /);
      expect(() => oblique.createCsvExport(doc, options)).toThrow(message);
    }
    expect(() => oblique.createCsvExport(ball, { sample: '0.1' })).toThrow(/^sample: must be a positive number/);
    expect(() => oblique.createCsvExport(ball, { duration: '2' })).toThrow(/^duration: must be a number of seconds or null/);

    const before = oblique.heapBytesInUse;
    const run1 = oblique.createCsvExport(ball, { duration: 1 });
    expect(run1).toBeInstanceOf(CsvExport);
    expect(run1.done).toBe(false);
    expect(run1.samples).toBe(0);
    expect(run1.takeText()).toMatch(/^t,ball\.x,ball\.y,ball\.theta,ball\.vx,/);
    while (run1.advance()) expect(run1.sampleTime).toBeLessThanOrEqual(1);
    expect(run1.done).toBe(true);
    expect(run1.samples).toBe(101);
    expect(run1.duration).toBe(1);
    expect(run1.impacts).toBeGreaterThan(0);
    expect(run1.advance()).toBe(false);
    run1.dispose();
    run1.dispose();
    expect(() => run1.takeText()).toThrow('CsvExport: disposed');
    expect(oblique.heapBytesInUse).toBeLessThanOrEqual(before);
  });

  it('the export of the page: the same bytes taken in slices with pauses', async () => {
    const doc = loadScenario('pile-in-bin');
    let pauses = 0;
    const sliced = await exportTrajectory(oblique, doc, { duration: 2, sample: 0.02, pause: async () => { pauses++; } });
    const whole = oblique.simulationCsv(doc, { duration: 2, sample: 0.02 });
    expect(sliced.csv).toBe(whole);
    const [samples, impacts] = tables(whole);
    expect(sliced.samples).toBe(samples.length - 1);
    expect(sliced.impacts).toBe(impacts.length - 1);
    expect(sliced.duration).toBe(2);
    expect(pauses).toBeGreaterThan(0);  // seconds of work, in slices of 30 ms
  });
});

describe('S and R', () => {
  /** The first impact of a built-in, with its matrices. */
  function firstImpact(id) {
    const sim = oblique.createSimulation(loadScenario(id));
    sim.advanceToNextImpact(5);
    const record = sim.impact(0);
    sim.dispose();
    return record;
  }

  it('as CSV: the same doubles, with a header per matrix', () => {
    const record = firstImpact('falling-rod');
    const [S, R] = impactMatricesCsv(record, { index: 0 }).trimEnd().split('\n\n').map((block) => block.split('\n'));
    expect(S[0]).toBe(`# S (3 × 3), impact 1 at t = ${record.t} s`);
    expect(S.slice(1).map((row) => row.split(',').map(Number))).toEqual(record.S);
    expect(R.slice(1).map((row) => row.split(',').map(Number))).toEqual(record.R);
  });

  it('as LaTeX: round-off written 0 by the panels’ rule, R² = I read off the printed entries', () => {
    // Two balls glancing: S and R carry entries of order 10⁻¹² where the exact value is 0 (the panel prints 0).
    const record = firstImpact('two-balls');
    const tiny = record.R.flat().filter((x) => x !== 0 && Math.abs(x) < 1e-9);
    expect(tiny.length).toBeGreaterThan(0);
    const latex = impactMatricesLatex(record, { index: 0, title: 'Two balls colliding' });
    expect(latex).not.toMatch(/\\times 10\^\{-1\d\}/);
    // Entry by entry: written 0 exactly where the panel writes 0 (|x| ≤ ROUND_OFF × the largest).
    for (const name of ['S', 'R']) {
      const matrix = record[name];
      const printed = matrixLatex(matrix).split('\n').slice(1, -1).map((line) => line.replace(/ \\\\$/, '').trim().split(' & '));
      const bound = ROUND_OFF * Math.max(...matrix.flat().map(Math.abs));
      expect(roundOffBound(matrix)).toBe(bound);
      matrix.forEach((row, i) => row.forEach((x, j) => expect(printed[i][j] === '0', `${name}[${i}][${j}] = ${x}`).toBe(Math.abs(x) <= bound)));
      // The printed R is a reflection to its 4 digits: R² = I within their rounding.
      if (name === 'R') {
        const Rp = printed.map((row) => row.map(Number));
        const n = Rp.length;
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const sq = Rp[i].reduce((sum, v, k) => sum + v * Rp[k][j], 0);
            expect(Math.abs(sq - (i === j ? 1 : 0))).toBeLessThan(2e-3);
          }
        }
      }
    }
    expect(latex.startsWith('% Two balls colliding: impact 1 at t = ')).toBe(true);
  });

  it('numbers laid out as the panels print them', () => {
    expect(latexNumber(0.6666666, 4)).toBe('0.6667');
    expect(latexNumber(-0.333333333, 3)).toBe('-0.333');
    expect(latexNumber(2.5e-7, 3)).toBe('2.5 \\times 10^{-7}');
    expect(latexNumber(1234567, 4)).toBe('1.235 \\times 10^{6}');
    expect(latexNumber(123456, 4)).toBe('123500');
    expect(latexNumber(3e-12, 4, 1e-9)).toBe('0');
    expect(latexNumber(-0, 4)).toBe('0');
    expect(() => latexNumber(NaN)).toThrow('a matrix entry must be finite, got NaN');
    expect(matrixLatex([[1, 1e-17], [-0.333333333, 2.5e-7]], { digits: 3 })).toBe(
      '\\begin{bmatrix}\n  1 & 0 \\\\\n  -0.333 & 2.5 \\times 10^{-7}\n\\end{bmatrix}');
  });
});

describe('plots as SVG', () => {
  const energy = {
    title: 'Energy', subtitle: '<img src=x onerror=alert(1)> & "ball"', xLabel: 't (s)', yLabel: 'J',
    x: [0, 0.5, 1, 1.5, 2],
    series: [
      { label: 'kinetic', color: '#0072b2', values: [0, 4, 1, null, 3] },
      { label: 'total', color: '#222831', values: [10, 10, 8, 8, 8] },
      { label: 'γ', color: '#0b5fa5', values: [null, 0.64, null, null, 0.64], points: true },
    ],
    impacts: [{ t: 0.75, index: 0 }, { t: 1.75, index: 1 }, { t: 9, index: 2 }],
    selected: 1,
    now: 1.2,
  };

  it('draws each series, broken at gaps, the impacts in range, the time shown, and escapes text', () => {
    const text = plotSvg(energy, { width: 600, height: 170 });
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="600" height="196"/);
    expect(text).not.toContain('<img');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;ball&quot;');
    const series = (label) => new RegExp(`<g class="series" data-label="${label}">(.*?)</g>`).exec(text)[1];
    expect(series('kinetic').match(/<polyline/g)).toHaveLength(2);  // the gap at t = 1.5
    expect(series('kinetic').match(/points="([^"]*)"/g).map((p) => p.split(' ').length)).toEqual([3, 1]);
    expect(series('total').match(/<polyline/g)).toHaveLength(1);
    expect(series('γ').match(/<circle/g)).toHaveLength(2);
    const impacts = [...text.matchAll(/<line class="impact" data-index="(\d)"[^>]*stroke-width="([\d.]+)"/g)].map((m) => [m[1], m[2]]);
    expect(impacts).toEqual([['0', '1'], ['1', '2.5']]);  // the one outside the run is left out; the shown one bolder
    expect(text.match(/<line class="now"/g)).toHaveLength(1);
    // Higher values higher up: the total's first point (10 J) above kinetic's (0 J) at t = 0.
    const first = (label) => Number(/points="[\d.]+,([\d.]+)/.exec(series(label))[1]);
    expect(first('total')).toBeLessThan(first('kinetic'));
  });

  it('ticks at round numbers covering the range', () => {
    expect(niceTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(-0.013, 0.027, 4)).toEqual([-0.01, 0, 0.01, 0.02]);
    expect(niceTicks(3, 3)).toEqual([3]);
    for (const [lo, hi] of [[0, 2.5], [1e-7, 9e-7], [-3e5, 7e5], [0.1, 0.30000000000000004]]) {
      const ticks = niceTicks(lo, hi, 5);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks.every((t) => t >= lo - 1e-9 * (hi - lo) && t <= hi + 1e-9 * (hi - lo))).toBe(true);
    }
    expect(xmlText(`a<b>&'"`)).toBe('a&lt;b&gt;&amp;&#39;&quot;');
  });
});
