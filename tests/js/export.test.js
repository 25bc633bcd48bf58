// Export: the trajectory sampled in the page (wasm) is the one `oblique simulate --format csv` writes —
// same columns, same rows, the same doubles, and the CLI's own number layout (1.0, 1e-05, 2.5e+16); S and
// R as CSV (reads back to the same doubles) and as LaTeX bmatrix.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { cliNumber } from '../../web/src/export/number-text.js';
import { impactMatricesCsv, latexNumber, matrixLatex } from '../../web/src/export/matrix-text.js';
import { sampleTrajectory, trajectoryCsv } from '../../web/src/export/trajectory.js';
import { cliPath, loadScenario, scenarioPath } from './scenarios.js';

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** A CSV's two tables (samples, impacts) as rows of cells. */
const tables = (csv) => csv.trimEnd().split('\n\n').map((block) => block.split('\n').map((line) => line.split(',')));

describe('trajectory CSV', () => {
  for (const id of ['bouncing-ball', 'double-pendulum', 'rimless-wheel']) {
    it(`${id}: the columns, rows and numbers of oblique simulate --format csv`, async () => {
      const duration = 2;
      const doc = await sampleTrajectory(oblique, loadScenario(id), { duration, sample: 0.02 });
      const mine = trajectoryCsv(doc);
      const cli = execFileSync(cliPath, ['simulate', scenarioPath(id), '--duration', '2', '--sample', '0.02', '--format', 'csv'], { encoding: 'utf8' });
      const [mySamples, myImpacts] = tables(mine);
      const [cliSamples, cliImpacts] = tables(cli);
      expect(mySamples[0]).toEqual(cliSamples[0]);
      expect(myImpacts[0]).toEqual(cliImpacts[0]);
      expect(mySamples).toHaveLength(duration / 0.02 + 2);
      expect(mySamples).toHaveLength(cliSamples.length);
      expect(myImpacts).toHaveLength(cliImpacts.length);
      // Cell by cell: the same double; and, but for Grisu2's occasional extra digit in the CLI, the same text.
      let differentText = 0;
      let cells = 0;
      [[mySamples, cliSamples], [myImpacts, cliImpacts]].forEach(([a, b]) => a.forEach((row, r) => row.forEach((cell, c) => {
        cells++;
        if (cell === b[r][c]) return;
        differentText++;
        expect(cell.split(' ').map(Number), `row ${r}, column ${c}`).toEqual(b[r][c].split(' ').map(Number));
      })));
      expect(differentText / cells).toBeLessThan(0.01);
    });
  }

  it('writes an impact and its plastic follow-up, two records of one call, as the CLI does', async () => {
    // The chamfered corner with e = (0, 0.3, 0): at t = 0.38237 s a wall row is left moving (A rank-deficient,
    // unequal eᵢ) and a plastic follow-up record follows at the same instant.
    const doc = loadScenario('chamfered-corner');
    [0, 0.3, 0].forEach((e, k) => { doc.contacts[k].e = e; });
    const mine = await sampleTrajectory(oblique, doc, { duration: 2, sample: 0.05 });
    const cli = JSON.parse(execFileSync(cliPath, ['simulate', '-', '--duration', '2', '--sample', '0.05'],
      { input: JSON.stringify(doc), encoding: 'utf8' }));
    expect(mine.impacts.map((r) => r.t)).toEqual(cli.impacts.map((r) => r.t));
    expect(mine.impacts[1].t).toBe(mine.impacts[0].t);
    // Every key and number of the CLI's records and samples, both through JSON.stringify, which writes −0 as 0
    // (the CLI writes −0.0: an impulse's exact zero can carry either sign).
    const roundTrip = (value) => JSON.parse(JSON.stringify(value));
    expect(roundTrip(mine)).toEqual(roundTrip(cli));
  });

  it("without the projections' scalars: the same CSV, and the records of oblique simulate --no-projection-scalars", async () => {
    // The export's CSV has no column for rank, ν, cond(Mc) or λ_max(EQE − Q), so the page leaves them
    // uncomputed (O(n³) per impact): nothing the CSV holds changes.
    const doc = loadScenario('chamfered-corner');
    const lean = await sampleTrajectory(oblique, doc, { duration: 2, sample: 0.05, projectionScalars: false });
    const full = await sampleTrajectory(oblique, doc, { duration: 2, sample: 0.05 });
    expect(lean.impacts.length).toBeGreaterThan(0);
    expect(trajectoryCsv(lean)).toBe(trajectoryCsv(full));
    for (const [k, record] of lean.impacts.entries()) {
      for (const key of ['rank', 'nu', 'nu_range', 'nu_optimal', 'cond_Mc']) {
        expect(record, `impact ${k}`).not.toHaveProperty(key);
        expect(full.impacts[k], `impact ${k}`).toHaveProperty(key);
      }
    }
    const cli = JSON.parse(execFileSync(cliPath, ['simulate', '-', '--duration', '2', '--sample', '0.05', '--no-projection-scalars'],
      { input: JSON.stringify(doc), encoding: 'utf8' }));
    const roundTrip = (value) => JSON.parse(JSON.stringify(value));
    expect(roundTrip(lean)).toEqual(roundTrip(cli));
  });

  it('writes numbers as the CLI (nlohmann::json) does', () => {
    const cases = [[0, '0.0'], [-0, '-0.0'], [1, '1.0'], [-2.5, '-2.5'], [120, '120.0'], [1e-5, '1e-05'], [1.5e-7, '1.5e-07'],
      [0.0001, '0.0001'], [123456789012345, '123456789012345.0'], [1e15, '1e+15'], [2.5e16, '2.5e+16'], [1e100, '1e+100'],
      [9.81, '9.81'], [0.1 + 0.2, '0.30000000000000004'], [null, '']];
    for (const [x, text] of cases) expect(cliNumber(x), String(x)).toBe(text);
    for (const x of [Math.PI, 1 / 3, 6.02e23, 2 ** -1074, Number.MAX_VALUE]) expect(Number(cliNumber(x))).toBe(x);
  });
});

describe('S and R', () => {
  it('as CSV read back to the same doubles, and as LaTeX bmatrix without round-off noise', () => {
    const sim = oblique.createSimulation(loadScenario('falling-rod'));
    sim.advanceToNextImpact(5);
    const record = sim.impact(0);
    sim.dispose();
    const [S, R] = impactMatricesCsv(record, { index: 0 }).trimEnd().split('\n\n').map((block) => block.split('\n'));
    expect(S[0]).toBe(`# S (3 × 3), impact 1 at t = ${record.t} s`);
    expect(S.slice(1).map((row) => row.split(',').map(Number))).toEqual(record.S);
    expect(R.slice(1).map((row) => row.split(',').map(Number))).toEqual(record.R);
    const latex = matrixLatex(record.R, { name: 'R' });
    expect(latex).toMatch(/^R = \\begin\{bmatrix\}\n {2}\S+ & \S+ & \S+ \\\\\n.*\n.*\n\\end\{bmatrix\}$/);
    expect(matrixLatex([[1, 1e-17], [-0.333333333, 2.5e-7]], { digits: 3 })).toBe(
      '\\begin{bmatrix}\n  1 & 0 \\\\\n  -0.333 & 2.5 \\times 10^{-7}\n\\end{bmatrix}');
    expect(latexNumber(0.6666666, 4)).toBe('0.6667');
  });
});
