// The scenario editor in the browser: a typo is marked at its line with the engine's message, apply is
// refused and the old scenario keeps running, a reload brings the text back; field names complete from the
// schema; dragging a body and its velocity arrow changes the JSON and the run (checked against the closed
// form of a ball thrown sideways onto a floor), undo and redo; the palette and the inspector; and export:
// the scenario made in the page runs unchanged with the native `oblique simulate`, whose CSV the page's
// trajectory export matches column for column, row for row, number for number.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOTS, launch, openApp, openPage } from './browser.js';
import { cliPath, loadScenario } from '../js/scenarios.js';

const G = 9.81;
const pages = [];
let browser;
let url;
const downloads = mkdtempSync(join(tmpdir(), 'oblique-e2e-'));

async function newPage(options) {
  const page = await openPage(browser, options);
  pages.push(page);
  return page;
}

/** The editor's text (every line is drawn: the scenarios here are short). */
const editorText = (page) => page.locator('[data-testid="editor-text"] .cm-line').allTextContents().then((lines) => lines.join('\n'));

/** Replaces the editor's text as a person would (select all, type). */
async function setText(page, text) {
  await page.getByTestId('editor-text').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

async function openEditor(page) {
  await page.getByRole('tab', { name: 'Editor' }).click();
  await page.waitForSelector('[data-testid="editor-text"] .cm-line', { timeout: 20_000 });
  await expect.poll(() => page.getByTestId('editor-status').textContent()).not.toBe('');
}

/** The screen point of world point (x, y) in the editor's scene (the framing of scene.js). */
async function screenPoint(page, [x, y], view) {
  const box = await page.getByTestId('editor-scene').boundingBox();
  const aspect = box.width / box.height;
  const width = Math.max(view.width, view.width * 0.5 * aspect);
  const height = width / aspect;
  return [box.x + ((x - (view.center[0] - width / 2)) / width) * box.width, box.y + ((view.center[1] + height / 2 - y) / height) * box.height];
}

async function drag(page, from, to, { shift = false } = {}) {
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(...to, { steps: 8 });
  await page.mouse.up();
  if (shift) await page.keyboard.up('Shift');
}

/** Runs a menu item or button that downloads a file; returns the file's path. */
async function download(page, click, name) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = join(downloads, name ?? file.suggestedFilename());
  await file.saveAs(path);
  return path;
}

beforeAll(async () => {
  url = inject('baseUrl');
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  rmSync(downloads, { recursive: true, force: true });
});

describe('the JSON editor', () => {
  let page;
  // The file as it is written (short enough for every line to be drawn).
  const original = () => readFileSync(new URL('../../web/scenarios/bouncing-ball.json', import.meta.url), 'utf8');
  const typo = () => original().replace('"radius": 0.1', '"radus": 0.1');

  it('shows the running scenario, exactly as its file is written', async () => {
    page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, url);
    await openEditor(page);
    expect(`${await editorText(page)}`).toBe(readFileSync(new URL('../../web/scenarios/bouncing-ball.json', import.meta.url), 'utf8'));
    expect(await page.getByTestId('editor-status').textContent()).toBe('This is the scenario running in the Playground.');
  });

  it('marks a typo at its line with the engine’s message, and refuses to apply it', async () => {
    await setText(page, typo());
    const issues = page.locator('[data-testid="editor-issues"] li');
    await expect.poll(() => issues.count()).toBe(1);
    const line = typo().split('\n').findIndex((l) => l.includes('radus')) + 1;
    expect(await issues.first().textContent()).toBe(`Line ${line}/bodies/0/shape/radus unknown field "radus"; did you mean "radius"?`);
    // The underline is on that line, and the gutter marks it.
    await expect.poll(() => page.locator('.cm-lintRange-error').count()).toBeGreaterThan(0);
    const marked = await page.evaluate(() => {
      const lines = [...document.querySelectorAll('[data-testid="editor-text"] .cm-line')];
      return lines.indexOf(document.querySelector('.cm-lintRange-error').closest('.cm-line')) + 1;
    });
    expect(marked).toBe(line);
    expect(await page.locator('.cm-lint-marker-error').count()).toBe(1);
    await page.getByTestId('editor-apply').click();
    await expect.poll(() => page.getByTestId('editor-status').textContent())
      .toBe(`Not applied: 1 problem (the first on line ${line}). The Playground keeps running “Bouncing ball”.`);
    await page.screenshot({ path: `${SCREENSHOTS}editor-typo.png` });
    // The old scenario keeps running.
    await page.getByRole('tab', { name: 'Playground' }).click();
    expect(await page.getByTestId('scenario-select').inputValue()).toBe('bouncing-ball');
    await page.getByTestId('step').click();
    await expect.poll(async () => Number(await page.locator('#view-playground [data-testid="gamma"]').getAttribute('data-value'))).toBeCloseTo(0.64, 12);
  });

  it('brings the text back after a reload', async () => {
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    await openEditor(page);
    expect(await editorText(page)).toBe(typo());
    expect(await page.locator('.editor-notice').textContent()).toMatch(/^Restored your draft from .* \(not applied\)\.Edit the running scenario instead$/);
    await expect.poll(() => page.locator('[data-testid="editor-issues"] li').count()).toBe(1);
  });

  it('completes field names from the schema, and values', async () => {
    // Typing at the end of the ball's object (the text after it does not matter to the completion).
    const cut = original().indexOf('"color": "#d04030"') + '"color": "#d04030"'.length;
    await setText(page, original().slice(0, cut));
    await page.keyboard.type(', "angu');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await expect.poll(() => options.allTextContents()).toEqual([expect.stringMatching(/^angular_velocity/)]);
    await page.screenshot({ path: `${SCREENSHOTS}editor-completion.png` });
    await page.waitForTimeout(200);  // CodeMirror ignores Enter on a list shown less than 75 ms ago
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page)).toMatch(/"color": "#d04030", "angular_velocity": 0$/);
    // Values: a shape's type.
    const at = original().indexOf('"type": "disk"') + '"type": '.length;
    await setText(page, original().slice(0, at));
    await page.keyboard.type('"b');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => options.allTextContents()).toContain('"box"');
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page)).toMatch(/"shape": \{"type": "box"$/);
    await setText(page, original());
  });

  it('keeps “Applied” and its button when Apply comes before the check of the last edit', async () => {
    // Apply at once after an edit: the check CodeMirror runs 300 ms after the edit finishes after Apply has
    // (a check of the text now running), and must not put back "This is the scenario running…".
    const dropped = original().replace('"restitution": 0.8', '"restitution": 0.5');
    await setText(page, dropped);
    await page.getByTestId('editor-apply').click();
    const status = page.getByTestId('editor-status');
    await expect.poll(() => status.textContent()).toMatch(/^Applied: “Bouncing ball” is running in the Playground\./);
    await page.waitForTimeout(1000);
    expect(await status.textContent()).toMatch(/^Applied: “Bouncing ball” is running/);
    expect(await status.getByRole('button', { name: 'Go to the Playground' }).count()).toBe(1);
    // The next edit's check speaks again.
    await setText(page, original());
    await expect.poll(() => status.textContent()).toBe('No problems. Apply to run it in the Playground.');
    await page.getByTestId('editor-apply').click();
    await expect.poll(() => status.textContent()).toMatch(/^Applied: /);
  });
});

describe('importing a file', () => {
  it('reads a file from the picker and marks what oblique check reports; a dropped file replaces it', async () => {
    const page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, url);
    await openEditor(page);
    // docs/cli.md's broken.json (“oblique check”): the same problems, at their lines.
    const broken = ['{', '  "restitution": 1.5,', '  "bodies": [', '    {"name": "ball", "mass": -2, "positon": [0, 1]},',
      '    {"name": "ball"},', '    {"name": "box", "shape": {"type": "box"}}', '  ],', '  "joints": [{"body_a": "bal", "body_b": "box"}],',
      '  "contacts": [{"type": "disk_disk", "body_a": "ball", "body_b": "box"}]', '}', ''].join('\n');
    await page.locator('[data-testid="editor"] input[type="file"]').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toMatch(/^Imported “broken\.json”|problems/);
    // What the native CLI prints for the same file (`<file>:<pointer>: <message>`), at the lines holding them.
    const brokenDir = mkdtempSync(join(tmpdir(), 'oblique-broken-'));
    const file = join(brokenDir, 'broken.json');
    writeFileSync(file, broken);
    const check = spawnSync(cliPath, ['check', file], { encoding: 'utf8' });
    rmSync(brokenDir, { recursive: true, force: true });
    expect(check.status).toBe(2);
    const lines = [2, 4, 4, 5, 8, 9];
    const expected = check.stderr.trim().split('\n').map((line, k) => {
      const [, pointer, message] = line.slice(file.length + 1).match(/^([^:]*): (.*)$/);
      return `Line ${lines[k]}${pointer} ${message}`;
    });
    expect(expected).toHaveLength(6);
    await expect.poll(() => page.locator('[data-testid="editor-issues"] li').allTextContents()).toEqual(expected);
    expect(await editorText(page)).toBe(broken);
    // A file dropped on the tab.
    const good = readFileSync(new URL('../../web/scenarios/two-balls.json', import.meta.url), 'utf8');
    const transfer = await page.evaluateHandle((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'two-balls.json', { type: 'application/json' }));
      return data;
    }, good);
    await page.dispatchEvent('[data-testid="editor"]', 'drop', { dataTransfer: transfer });
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toBe('Imported “two-balls.json”: no problems. Apply to run it.');
    expect(await editorText(page)).toBe(good);
    await expect.poll(() => page.locator('[data-testid="editor-issues"] li').count()).toBe(0);
    // Ctrl+Z (outside the text) brings the broken one back: nothing is lost.
    await page.getByTestId('editor-scene').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => editorText(page)).toBe(broken);
  });
});

describe('editing in the scene', () => {
  let page;
  let view;
  const doc = async () => JSON.parse(await editorText(page));

  it('moves a body by dragging it: the JSON follows', async () => {
    page = await newPage({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
    await openApp(page, url);
    await openEditor(page);
    view = (await doc()).view;
    const from = await screenPoint(page, [0, 1.1], view);
    const to = await screenPoint(page, [0.5, 0.8], view);
    await drag(page, from, to);
    await expect.poll(async () => (await doc()).bodies[0].position[1]).toBeCloseTo(0.8, 2);
    const [x, y] = (await doc()).bodies[0].position;
    expect(x).toBeCloseTo(0.5, 2);
    // The rest of the text is as it was: one line changed.
    const before = readFileSync(new URL('../../web/scenarios/bouncing-ball.json', import.meta.url), 'utf8').split('\n');
    const after = (await editorText(page)).split('\n');
    expect(after.filter((l, k) => l !== before[k])).toEqual([before[8].replace('"position": [0, 1.1]', `"position": [${x}, ${y}]`)]);
  });

  it('draws the velocity as an arrow from the body (Shift+drag), and drags its tip', async () => {
    const [x, y] = (await doc()).bodies[0].position;
    // The scene has caught up with the text (its description names the position).
    await expect.poll(() => page.getByTestId('editor-scene').getAttribute('aria-label')).toContain(`at (${x.toFixed(3)}, ${y.toFixed(3)})`);
    // The arrow is the distance covered in 0.25 s: 0.5 m to the right is 2 m/s.
    await drag(page, await screenPoint(page, [x, y], view), await screenPoint(page, [x + 0.5, y], view), { shift: true });
    await expect.poll(async () => (await doc()).bodies[0].velocity?.[0]).toBeCloseTo(2, 1);
    await expect.poll(() => page.getByTestId('editor-scene').getAttribute('aria-label')).toMatch(/moving at \(\d/);
    // Its tip, dragged back to 0.25 m: 1 m/s.
    await drag(page, await screenPoint(page, [x + 0.5, y], view), await screenPoint(page, [x + 0.25, y], view));
    await expect.poll(async () => (await doc()).bodies[0].velocity?.[0]).toBeCloseTo(1, 1);
    expect((await doc()).bodies[0].velocity[1]).toBeCloseTo(0, 1);
    await page.getByTestId('editor-scene').screenshot({ path: `${SCREENSHOTS}editor-scene-arrow.png` });
    await page.screenshot({ path: `${SCREENSHOTS}editor-scene.png` });
  });

  it('changes the run: a ball thrown sideways lands when y − r = 0 and keeps γ = (vx² + e²vy²)/(vx² + vy²)', async () => {
    const body = (await doc()).bodies[0];
    const [vx, vy0] = body.velocity;
    await page.getByTestId('editor-apply').click();
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toMatch(/^Applied: “Bouncing ball” is running/);
    await page.getByRole('button', { name: 'Go to the Playground' }).click();
    expect(await page.locator('[data-testid="scenario-select"] option:checked').textContent()).toBe('Yours: Bouncing ball');
    await page.getByTestId('step').click();
    const row = page.locator('[data-testid="impact-log"] tbody tr').first();
    await expect.poll(() => row.count()).toBe(1);
    // y(t) = y₀ + vy₀ t − g t²/2 = r at the impact, when the vertical velocity is vy₀ − g t.
    const t = (vy0 + Math.sqrt(vy0 * vy0 + 2 * G * (body.position[1] - 0.1))) / G;
    expect(Number(await row.locator('td').nth(1).textContent())).toBeCloseTo(t, 3);
    const vy = vy0 - G * t;
    const e = 0.8;
    // The panels fill in after the log's row (their code and the impact's record arrive then).
    const gamma = async () => Number(await page.locator('#view-playground [data-testid="gamma"]').getAttribute('data-value'));
    await expect.poll(gamma).toBeCloseTo((vx * vx + e * e * vy * vy) / (vx * vx + vy * vy), 9);
    await page.getByRole('tab', { name: 'Editor' }).click();
  });

  it('undoes both edits with Ctrl+Z and redoes them with Ctrl+Shift+Z', async () => {
    const edited = await editorText(page);
    await page.getByTestId('editor-scene').focus();
    for (let k = 0; k < 3; k++) await page.keyboard.press('Control+z');
    const original = readFileSync(new URL('../../web/scenarios/bouncing-ball.json', import.meta.url), 'utf8');
    await expect.poll(() => editorText(page)).toBe(original);
    for (let k = 0; k < 3; k++) await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => editorText(page)).toBe(edited);
  });

  it('adds a disk with its contacts, changes its mass in the inspector, and deletes it', async () => {
    await page.getByRole('button', { name: '+ Disk' }).click();
    await expect.poll(async () => (await doc()).bodies.length).toBe(2);
    const added = await doc();
    expect(added.bodies[1]).toMatchObject({ name: 'disk 1', shape: { type: 'disk' }, mass: 1 });
    expect(added.contacts.slice(1)).toEqual([
      { type: 'body_plane', body: 'disk 1', plane: 'floor' }, { type: 'disk_disk', body_a: 'ball', body_b: 'disk 1' }]);
    // The inspector follows once the scene shows the new body (selected).
    await expect.poll(() => page.locator('.inspector h3').textContent()).toBe('Selected: disk 1 (disk)');
    const mass = page.locator('.inspector [data-field="mass"]');
    await mass.fill('2.5');
    await mass.press('Enter');
    await expect.poll(async () => (await doc()).bodies[1].mass).toBe(2.5);
    const e = page.locator('.inspector [data-field="e"]');
    await e.fill('0.3');
    await e.press('Enter');
    await expect.poll(async () => (await doc()).contacts.slice(1).map((c) => c.e)).toEqual([0.3, 0.3]);
    await expect.poll(() => page.locator('[data-testid="editor-issues"] li').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}editor-palette.png` });
    await page.getByTestId('editor-delete').click();
    await expect.poll(async () => (await doc()).bodies.length).toBe(1);
    expect((await doc()).contacts).toHaveLength(1);
  });
});

describe('export', () => {
  let page;

  it('exports a scenario made in the page, which oblique simulate runs, with the page’s trajectory CSV', async () => {
    page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, url);
    await openEditor(page);
    const made = loadScenario('bouncing-ball');
    made.bodies[0].velocity = [0.75, 1.5];
    made.duration = 2.5;
    made.title = 'Thrown ball';
    await setText(page, JSON.stringify(made));
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toMatch(/No problems/);
    await page.getByTestId('editor-apply').click();
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toMatch(/^Applied/);
    const file = await download(page, () => page.getByRole('button', { name: 'Export file' }).click(), 'made.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(made);
    // From the Export menu: the trajectory, as `oblique simulate --format csv` writes it.
    await page.getByTestId('export').click();
    const csvFile = await download(page, () => page.getByRole('menuitem', { name: /^Trajectory \(\.csv\)/ }).click());
    expect(csvFile).toMatch(/thrown-ball-trajectory\.csv$/);
    const mine = readFileSync(csvFile, 'utf8');
    const cli = execFileSync(cliPath, ['simulate', file, '--format', 'csv'], { encoding: 'utf8' });
    const [mySamples, myImpacts] = mine.trimEnd().split('\n\n').map((block) => block.split('\n').map((line) => line.split(',')));
    const [cliSamples, cliImpacts] = cli.trimEnd().split('\n\n').map((block) => block.split('\n').map((line) => line.split(',')));
    expect(mySamples[0]).toEqual(['t', 'ball.x', 'ball.y', 'ball.theta', 'ball.vx', 'ball.vy', 'ball.omega', 'kinetic', 'potential', 'total', 'violation']);
    expect(mySamples[0]).toEqual(cliSamples[0]);
    expect(mySamples).toHaveLength(Math.floor(2.5 / 0.01 + 1e-9) + 2);  // a header, t = 0, 0.01, …, 2.5
    expect(mySamples).toHaveLength(cliSamples.length);
    expect(myImpacts[0]).toEqual(cliImpacts[0]);
    expect(myImpacts.length).toBe(cliImpacts.length);
    expect(myImpacts.length).toBeGreaterThan(2);
    // Number for number (the page writes the shortest digits; the CLI now and then one more).
    const cells = (rows) => rows.slice(1).flat().flatMap((cell) => cell.split(' '));
    const numbers = (list) => list.map((c) => (c === 'true' || c === 'false' || c === '' ? c : Number(c)));
    expect(numbers(cells(mySamples))).toEqual(numbers(cells(cliSamples)));
    expect(numbers(cells(myImpacts))).toEqual(numbers(cells(cliImpacts)));
  });

  it('exports S and R as CSV and LaTeX, the impact log with its matrices, the scene and the energy plot', async () => {
    await page.getByRole('tab', { name: 'Playground' }).click();
    await page.getByTestId('step').click();
    await expect.poll(() => page.locator('#view-playground [data-testid="matrix-S"] tbody td').count()).toBe(9);
    await page.getByTestId('export').click();
    await page.screenshot({ path: `${SCREENSHOTS}export-menu.png` });
    const latex = readFileSync(await download(page, () => page.getByRole('menuitem', { name: /LaTeX\)/ }).click()), 'utf8');
    expect(latex).toContain('S = \\begin{bmatrix}\n  0 & 0 & 0 \\\\\n  0 & 1 & 0 \\\\\n  0 & 0 & 0\n\\end{bmatrix}');
    expect(latex).toContain('R = \\begin{bmatrix}\n  1 & 0 & 0 \\\\\n  0 & -1 & 0 \\\\\n  0 & 0 & 1\n\\end{bmatrix}');
    await page.getByTestId('export').click();
    const csv = readFileSync(await download(page, () => page.getByRole('menuitem', { name: /S and R of impact 1 \(\.csv\)/ }).click()), 'utf8');
    const blocks = csv.trimEnd().split('\n\n');
    expect(blocks.map((b) => b.split('\n')[0])).toEqual([expect.stringMatching(/^# S \(3 × 3\), impact 1 at t = /), expect.stringMatching(/^# R \(3 × 3\)/)]);
    const R = blocks[1].split('\n').slice(1).map((row) => row.split(',').map(Number));
    [[1, 0, 0], [0, -1, 0], [0, 0, 1]].forEach((row, i) => row.forEach((x, j) => expect(R[i][j]).toBeCloseTo(x, 12)));
    await page.getByTestId('export').click();
    const log = JSON.parse(readFileSync(await download(page, () => page.getByRole('menuitem', { name: /Impact log/ }).click()), 'utf8'));
    expect(log.impacts).toHaveLength(1);
    expect(log.impacts[0].S).toHaveLength(3);
    expect(log.impacts[0].gamma).toBe(Number(await page.locator('#view-playground [data-testid="gamma"]').getAttribute('data-value')));
    expect(log.scenario.title).toBe('Thrown ball');
    for (const name of [/^Scene \(\.png\)/, /^Energy plot \(\.png\)/]) {
      await page.getByTestId('export').click();
      const png = readFileSync(await download(page, () => page.getByRole('menuitem', { name }).click()));
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      expect(png.readUInt32BE(16)).toBeGreaterThan(300);  // the image's width
    }
  });
});

describe('the page as a whole', () => {
  it('raised no console error or warning on any page', () => {
    expect(pages.flatMap((p) => p.problems)).toEqual([]);
  });
});
