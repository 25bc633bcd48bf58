// The Export menu in the browser: each file matches what is on screen. The trajectory CSV is the bytes
// `oblique simulate --format csv` writes for the exported scenario file (with a setting changed on the
// page); the LaTeX of S and R writes 0 exactly where the panel shows 0 (two balls, whose S and R carry
// round-off of 10⁻¹²); the scene and the plots come at twice the screen's resolution (at a device pixel
// ratio of 1 and of 2), the plots also as SVG that parses, with a curve per series and a line per impact.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, browserSession, chooseScenario, openApp } from './browser.js';
import { cliPath } from '../js/scenarios.js';

const session = browserSession();

/**
 * A page at device pixel ratio `scale` (openPage's are at 1): the tour marked as seen, its console errors and
 * warnings and uncaught errors kept in `page.problems` (the software GL driver's chatter aside).
 */
async function pageAt(scale) {
  if (scale === 1) return session.newPage({ reducedMotion: 'reduce' });
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: scale, reducedMotion: 'reduce' });
  await context.addInitScript(() => localStorage.setItem('oblique.tour', 'done'));
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.problems = [];
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type()) && !/GL Driver Message|GPU stall due to ReadPixels|fallback to software WebGL/i.test(message.text())) {
      page.problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => page.problems.push(`pageerror: ${error.message}`));
  session.pages.push(page);
  return page;
}
const downloads = mkdtempSync(join(tmpdir(), 'oblique-export-'));
afterAll(() => rmSync(downloads, { recursive: true, force: true }));

/** Chooses the Export menu's item named `name` and saves what it downloads; returns the file's path. */
async function exported(page, name) {
  await page.getByTestId('export').click();
  const item = page.getByRole('menuitem', { name });
  await expect.poll(() => item.isDisabled()).toBe(false);
  const [file] = await Promise.all([page.waitForEvent('download'), item.click()]);
  const path = join(downloads, file.suggestedFilename());
  await file.saveAs(path);
  return path;
}

/** Width and height of a PNG file (its IHDR chunk). */
function pngSize(path) {
  const png = readFileSync(path);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** What an SVG text holds once parsed by the browser: parse errors, its size, its series and impact lines. */
const readSvg = (page, text) => page.evaluate((source) => {
  const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
  const svg = doc.documentElement;
  return {
    errors: doc.getElementsByTagName('parsererror').length,
    width: Number(svg.getAttribute('width')),
    height: Number(svg.getAttribute('height')),
    series: [...svg.querySelectorAll('g.series')].map((g) => ({ label: g.getAttribute('data-label'),
      lines: g.querySelectorAll('polyline').length, dots: g.querySelectorAll('circle').length,
      points: [...g.querySelectorAll('polyline')].reduce((n, p) => n + p.getAttribute('points').trim().split(/\s+/).length, 0) })),
    impacts: svg.querySelectorAll('line.impact').length,
    now: svg.querySelectorAll('line.now').length,
    title: svg.querySelector('title')?.textContent,
  };
}, text);

describe('export', () => {
  it('writes the trajectory CSV of the exported scenario file byte for byte as oblique simulate does', async () => {
    const page = await session.newPage({ reducedMotion: 'reduce' });
    await openApp(page, session.url);
    await chooseScenario(page, 'double-pendulum');
    // A setting changed on the page: it is written into the scenario file, and so into the CLI's run.
    await page.getByTestId('restitution-all').fill('0.35');
    await page.getByTestId('restitution-all').press('Enter');
    await expect.poll(() => page.getByTestId('restitution').inputValue()).toBe('0.35');
    const scenario = await exported(page, /^Scenario file \(\.json\)/);
    expect(readFileSync(scenario, 'utf8')).toMatch(/"(e|restitution)": 0\.35/);
    const csv = readFileSync(await exported(page, /^Trajectory \(\.csv\)/), 'utf8');
    const cli = execFileSync(cliPath, ['simulate', scenario, '--format', 'csv'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(csv).toBe(cli);
    expect(csv.split('\n\n')[1].split('\n').length).toBeGreaterThan(2);  // impacts after the samples
  });

  it('writes S and R as LaTeX with 0 exactly where the panel shows 0', async () => {
    const page = await session.newPage({ reducedMotion: 'reduce' });
    await openApp(page, session.url);
    await chooseScenario(page, 'two-balls');
    await page.getByTestId('step').click();
    const cells = (name) => page.locator(`#view-playground [data-testid="matrix-${name}"] tbody tr`).evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => ({ text: td.textContent, value: Number(td.dataset.value) }))));
    await expect.poll(async () => (await cells('S')).length).toBe(6);
    const latex = readFileSync(await exported(page, /^S and R of impact 1 \(LaTeX\)/), 'utf8');
    await page.screenshot({ path: `${SCREENSHOTS}export-two-balls-panel.png` });
    let roundOff = 0;
    for (const name of ['S', 'R']) {
      const block = new RegExp(`${name} = \\\\begin\\{bmatrix\\}\\n([\\s\\S]*?)\\n\\\\end\\{bmatrix\\}`).exec(latex)[1];
      const printed = block.split(' \\\\\n').map((line) => line.trim().split(' & '));
      const shown = await cells(name);
      expect(printed.length).toBe(shown.length);
      shown.forEach((row, i) => row.forEach((cell, j) => {
        expect(printed[i][j] === '0', `${name}(${i + 1}, ${j + 1}) = ${cell.value}: panel "${cell.text}", LaTeX "${printed[i][j]}"`)
          .toBe(cell.text === '0');
        if (cell.text === '0' && cell.value !== 0) roundOff++;
      }));
    }
    expect(roundOff).toBeGreaterThan(0);  // the case in point: entries of 10⁻¹² shown and written as 0
    expect(latex).not.toMatch(/10\^\{-1\d\}/);
  });

  for (const scale of [1, 2]) {
    it(`draws the scene and the plots at twice the screen's resolution (device pixel ratio ${scale}), the plots also as SVG`, async () => {
      const page = await pageAt(scale);
      await openApp(page, session.url);
      await chooseScenario(page, 'bouncing-ball');
      for (let k = 0; k < 3; k++) await page.getByTestId('step').click();
      await expect.poll(() => page.locator('[data-testid="impact-log"] tr[data-index]').count()).toBe(3);
      const impacts = 3;

      // The scene's drawing buffer holds the screen's pixels (its CSS size × the device pixel ratio).
      const screen = await page.getByTestId('scene').evaluate((canvas) => [canvas.width, canvas.height]);
      const scenePng = await exported(page, /^Scene \(\.png\)/);
      const [sw, sh] = pngSize(scenePng);
      expect(sw).toBe(2 * screen[0]);
      expect(sh).toBeGreaterThan(2 * screen[1]);  // and the caption under it
      expect(await page.getByTestId('scene').evaluate((canvas) => [canvas.width, canvas.height])).toEqual(screen);  // put back

      const energySvg = readFileSync(await exported(page, /^Energy plot \(\.svg\)/), 'utf8');
      const svg = await readSvg(page, energySvg);
      expect(svg.errors).toBe(0);
      expect(svg.title).toBe('Energy · Bouncing ball');
      expect(svg.series.map((s) => s.label)).toEqual(['kinetic', 'potential', 'total']);
      for (const s of svg.series) expect(s.points, s.label).toBeGreaterThan(20);
      expect(svg.impacts).toBe(impacts);
      expect(svg.now).toBe(1);
      // At the plot's width on screen, drawn or not yet (it is below the fold: the export needs no uPlot).
      const width = await page.getByTestId('energy-plot').locator('.energy-holder').evaluate((node) => Math.floor(node.getBoundingClientRect().width));
      expect(svg.width).toBe(width);
      const energyPng = await exported(page, /^Energy plot \(\.png\)/);
      expect(pngSize(energyPng)).toEqual([svg.width * 2 * scale, svg.height * 2 * scale]);

      // The chosen quantity's plot, once it is drawn (uPlot is loaded when it first comes into view).
      await page.getByTestId('quantity-plot').scrollIntoViewIfNeeded();
      await page.getByTestId('quantity-plot').locator('canvas').first().waitFor();
      const chosen = await readSvg(page, readFileSync(await exported(page, /^Plot of y of ball \(m\) \(\.svg\)/), 'utf8'));
      expect(chosen.errors).toBe(0);
      expect(chosen.series).toHaveLength(1);
      expect(chosen.series[0].points).toBeGreaterThan(20);
      expect(chosen.impacts).toBe(impacts);
      if (scale === 1) {
        // To look at: the exported images beside the page's screenshots.
        execFileSync('cp', [scenePng, `${SCREENSHOTS}export-scene.png`]);
        execFileSync('cp', [energyPng, `${SCREENSHOTS}export-energy.png`]);
      }
      expect(page.problems).toEqual([]);
    });
  }

  it('raised no console error or warning on any page', () => {
    expect(session.pages.flatMap((p) => p.problems)).toEqual([]);
  });
});
