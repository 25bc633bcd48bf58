// The page readable at every size and true in every panel (issue 33, its "Why" 1 and 3–8), in the browser:
// the large matrices of Newton's cradle (15×15), the billiards break (21×21) and 64 bodies (192×192) read by
// body, entry and block, in the full page and in 640×480 and 400×300 embeds (screenshots of each); "+ Disk"
// in a 200-disk bin lands in free space and the engine takes the scenario at once; messages that say what
// they are, never cover an embed's scene nor name a control it lacks; 200 bodies with a short impact head and
// γ printed as 0 for round-off; friction drawn as the physics has it; a bowling ball in a close-up and the
// friction quantities in the Plot menu; a tour held on a representative impact; a missing comma named; the
// time bar stepping by a sample and by an impact.
import { describe, expect, it } from 'vitest';
import { encodeFragment } from '../../web/src/share/link-codec.js';
import { loadOblique } from '../../web/src/engine/index.js';
import { loadScenario } from '../js/scenarios.js';
import { SCREENSHOTS, browserSession, formulasTypeset, openApp } from './browser.js';

const PLAY = '#view-playground';
const session = browserSession();
const newPage = (options) => session.newPage(options);
const number = (text) => Number(String(text).replace(/\u2212/g, '-'));

/** `count` disks of radius 0.04 in rows in a bin with a floor and two walls ("collide": "all"). */
function diskBin(count, { perRow = 20 } = {}) {
  const bodies = Array.from({ length: count }, (_, k) => {
    const row = Math.floor(k / perRow);
    return { name: `disk ${k + 1}`, shape: { type: 'disk', radius: 0.04 }, mass: 0.1,
      position: [Number((-0.95 + (k % perRow) * 0.1 + (row % 2) * 0.05).toFixed(3)), Number((0.06 + row * 0.1).toFixed(3))] };
  });
  return { oblique: 1, title: `${count} disks in a bin`, collide: 'all', restitution: 0.3, duration: 2,
    planes: [{ name: 'floor', point: [0, 0], normal: [0, 1] }, { name: 'left wall', point: [-1.05, 0], normal: [1, 0] },
      { name: 'right wall', point: [1.05, 0], normal: [-1, 0] }],
    bodies, view: { center: [0, 0.6], width: 2.6 } };
}

/** A page at `hash` (reduced motion: it opens paused). */
async function openAt(hash, { viewport = { width: 1280, height: 800 }, tour = false, reducedMotion = 'reduce' } = {}) {
  const page = await newPage({ viewport, tour, reducedMotion });
  await openApp(page, `${session.url}${hash}`);
  return page;
}

/** A course page with an embed of `query`, `width` × `height`; returns the page and the frame. */
async function embed(query, width, height) {
  const page = await newPage({ viewport: { width: width + 60, height: height + 80 } });
  await page.setContent(`<!doctype html><body style="margin:0;font:16px serif"><div style="height:20px">Course text.</div>
    <iframe id="frame" src="${session.url}?${query}" width="${width}" height="${height}" style="border:1px solid #999;margin-left:20px" title="Oblique"></iframe></body>`);
  const frame = page.frames().find((f) => f.url().startsWith(session.url));
  await frame.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  return { page, frame };
}

/** The box of `selector` in `target` (a page or a frame), rounded. */
const box = (target, selector) => target.evaluate((s) => {
  const b = document.querySelector(s)?.getBoundingClientRect();
  return b ? { top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width, height: b.height } : null;
}, selector);

describe('Why 1: large matrices read by body, entry and block', () => {
  it('Newton’s cradle (15×15): S on the coordinates the impact acts on with its numbers; all of it in blocks by ball', async () => {
    const page = await openAt('#scenario=newtons-cradle');
    await page.getByTestId('step').click();
    const S = page.locator(`${PLAY} [data-testid="matrix-S"]`);
    // The first impact acts on the x of each ball only: S there is 5×5, with its numbers. S = M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹A
    // for four touching unit balls in a row is I − 11ᵀ/5 on those coordinates (the impact keeps the
    // common velocity): 0.8 on the diagonal, −0.2 elsewhere.
    await expect.poll(() => S.getAttribute('data-size')).toBe('5x5');
    const cells = await S.locator('tbody td').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    cells.forEach((x, k) => expect(x).toBeCloseTo(k % 6 === 0 ? 0.8 : -0.2, 12));
    expect(await S.locator('thead th').allTextContents()).toEqual(['x₁', 'x₂', 'x₃', 'x₄', 'x₅']);
    await formulasTypeset(page);
    await page.locator(`${PLAY} .impact-view`).screenshot({ path: `${SCREENSHOTS}cradle-panels-1280x800.png` });
    // All 15: a heatmap in blocks of three by ball, within its panel; the keys read entries and the block.
    await page.getByRole('radio', { name: 'All 15' }).check();
    await expect.poll(() => S.getAttribute('data-size')).toBe('15x15');
    const canvas = S.locator('canvas');
    expect((await canvas.boundingBox()).width).toBeLessThanOrEqual((await box(page, `${PLAY} .matrix-panel`)).width);
    await canvas.focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('PageDown');
    const readout = S.locator('.heatmap-readout');
    await expect.poll(() => readout.textContent()).toMatch(/^S\(x of ball2, x of striker\) = −0\.2$/);
    // The block of that entry, ball2 × striker, printed with its numbers: x, y, θ of each.
    const block = page.getByTestId('block-S');
    expect(await block.locator('.large-matrix-block-title').textContent()).toBe('S, block ball2 × striker');
    expect(await block.locator('tbody td').allTextContents()).toEqual(['−0.2', '0', '0', '0', '0', '0', '0', '0', '0']);
    await page.locator(`${PLAY} .matrix-panel`).screenshot({ path: `${SCREENSHOTS}cradle-all-1280x800.png` });
    expect(page.problems).toEqual([]);
  });

  it('the billiards break (21×21): a heatmap in blocks by ball that fits its panel, its entries read with the keyboard', async () => {
    const page = await openAt('#scenario=billiards-break');
    await page.getByTestId('step').click();
    const S = page.locator(`${PLAY} [data-testid="matrix-S"]`);
    // The break's first impact acts on 13 of the 21 coordinates (x of the cue, x and y of the six balls).
    await expect.poll(() => S.getAttribute('data-size')).toBe('13x13');
    const canvas = S.locator('canvas');
    expect((await canvas.boundingBox()).width).toBeLessThanOrEqual((await box(page, `${PLAY} .matrix-panel`)).width);
    await canvas.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => S.locator('.heatmap-readout').textContent()).toMatch(/^S\([xy] of (cue|ball\d), [xy] of (cue|ball\d)\) = /);
    expect(await page.getByTestId('block-S').locator('tbody td').count()).toBeGreaterThan(0);
    await formulasTypeset(page);
    await page.locator(`${PLAY} .impact-view`).screenshot({ path: `${SCREENSHOTS}billiards-panels-1280x800.png` });
    expect(page.problems).toEqual([]);
  });

  for (const [id, name] of [['newtons-cradle', 'cradle'], ['billiards-break', 'billiards']]) {
    it(`the ${name} in a 640×480 embed: S and R beside the scene, within the column`, async () => {
      const { page, frame } = await embed(`embed=1&scenario=${id}&panels=gamma,S,R&autoplay=0`, 640, 480);
      await frame.getByTestId('step').click();
      await frame.waitForSelector('[data-testid="matrix-S"] td, [data-testid="matrix-S"] canvas');
      const column = await box(frame, '.embed-panels');
      const S = await box(frame, '[data-testid="matrix-S"] .heatmap-body > *');
      expect(S.right).toBeLessThanOrEqual(column.right + 0.5);
      expect(S.top).toBeLessThan(480);
      // R follows in the same column, reached by scrolling it.
      expect((await box(frame, '[data-testid="matrix-R"] .heatmap-body > *')).right).toBeLessThanOrEqual(column.right + 0.5);
      expect(await frame.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await formulasTypeset(frame);
      await page.screenshot({ path: `${SCREENSHOTS}${name}-embed-640x480.png` });
      expect(page.problems).toEqual([]);
    });

    it(`the ${name} in a 400×300 embed: γ under the scene, and the matrices a button away`, async () => {
      const { page, frame } = await embed(`embed=1&scenario=${id}&panels=gamma,S,R&autoplay=0`, 400, 300);
      await frame.getByTestId('step').click();
      await expect.poll(() => frame.getByTestId('embed-gamma').getAttribute('data-value')).not.toBeNull();
      const toggle = frame.getByTestId('embed-panels-toggle');
      expect((await box(frame, '[data-testid="embed-panels-toggle"]')).bottom).toBeLessThanOrEqual(300);
      await toggle.click();
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      // S fills the frame under the bar (γ and the way back stay in view), its numbers or its blocks legible.
      await frame.waitForSelector('[data-testid="matrix-S"] td, [data-testid="matrix-S"] canvas');
      const S = await box(frame, '[data-testid="matrix-S"] .heatmap-body > *');
      expect(S.top).toBeGreaterThanOrEqual((await box(frame, '.embed-bar')).bottom - 1);
      expect(S.top).toBeLessThan(220);
      expect(S.right).toBeLessThanOrEqual(400);
      expect((await box(frame, '.embed-bar')).top).toBeGreaterThanOrEqual(-1);
      await formulasTypeset(frame);
      await page.screenshot({ path: `${SCREENSHOTS}${name}-embed-400x300.png` });
      await toggle.click();
      await expect.poll(async () => (await box(frame, '[data-testid="scene"]')).height).toBeGreaterThan(80);
      expect(page.problems).toEqual([]);
    });
  }

  it('64 bodies (192×192): the coordinates of the impact first, all of them in a heatmap that fits, read a body at a time', async () => {
    const bin = diskBin(64, { perRow: 16 });
    const page = await openAt(`#${encodeFragment({ scenario: bin })}`);
    await page.getByTestId('step').click();
    const S = page.locator(`${PLAY} [data-testid="matrix-S"]`);
    await expect.poll(() => S.getAttribute('data-size'), { timeout: 20_000 }).toMatch(/^\d+x\d+$/);
    await page.getByRole('radio', { name: 'All 192' }).check();
    await expect.poll(() => S.getAttribute('data-size')).toBe('192x192');
    const canvas = S.locator('canvas');
    expect((await canvas.boundingBox()).width).toBeLessThanOrEqual((await box(page, `${PLAY} .matrix-panel`)).width);
    await canvas.focus();
    await page.keyboard.press('Control+Home');
    const readout = S.locator('.heatmap-readout');
    const rowOf = async () => /^S\(([xyθ]) of (disk \d+),/.exec(await readout.textContent())?.slice(1);
    const first = await rowOf();
    await page.keyboard.press('PageDown');
    // A block down: the same coordinate of the next body.
    await expect.poll(rowOf).toEqual([first[0], `disk ${Number(first[1].slice(5)) + 1}`]);
    expect(await page.getByTestId('block-S').locator('tbody td').count()).toBe(9);
    expect(page.problems).toEqual([]);
  }, 60_000);
});

describe('Why 3: "+ Disk" in free space', () => {
  it('adds a disk to a 200-disk bin inside the view, clear of every disk and wall, and the engine takes it at once', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    await openApp(page, `${session.url}#scenario=bouncing-ball`);
    await page.getByRole('tab', { name: 'Editor' }).click();
    await page.waitForSelector('[data-testid="editor-text"] .cm-line', { timeout: 20_000 });
    const bin = diskBin(200);
    await page.locator('input[type="file"]').setInputFiles({ name: 'bin.json', mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(bin, null, 2)) });
    const status = page.getByTestId('editor-status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Imported “bin\.json”: no problems/);
    await expect.poll(() => page.getByTestId('editor-scene').getAttribute('aria-label')).toMatch(/disk 200/);
    await page.locator('[data-add="disk"]').click();
    // The status says where it went, and stays so once the check of the new text finds no problem.
    let added = null;
    await expect.poll(async () => (added = /^In the scene: added disk 201 at \((-?[\d.]+), (-?[\d.]+)\)/.exec(await status.textContent())))
      .not.toBeNull();
    const [x, y] = added.slice(1).map(Number);
    // Clear of every disk (radius 0.04; the new one's radius is the view's width / 30, to the millimetre) and the walls.
    const r = Number((bin.view.width / 30).toFixed(3));
    for (const b of bin.bodies) expect(Math.hypot(b.position[0] - x, b.position[1] - y)).toBeGreaterThan(0.04 + r - 1e-9);
    expect(y).toBeGreaterThan(r - 1e-9);
    expect(Math.abs(x)).toBeLessThan(1.05 - r + 1e-9);
    // Inside the part of the scene shown.
    const [left, bottom, right, top] = (await page.locator('.scene-editor .scene').getAttribute('data-view')).split(' ').map(Number);
    expect(x - r).toBeGreaterThanOrEqual(left);
    expect(x + r).toBeLessThanOrEqual(right);
    expect(y - r).toBeGreaterThanOrEqual(bottom);
    expect(y + r).toBeLessThanOrEqual(top);
    await page.getByTestId('editor-apply').click();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Applied: “200 disks in a bin” is running/);
    await page.locator('.scene-editor').screenshot({ path: `${SCREENSHOTS}editor-200-disks.png` });
    expect(page.problems).toEqual([]);
  }, 90_000);
});

describe('Why 3: the live check names what overlaps at the start', () => {
  it('marks a disk inside a wall and a disk inside another in a 200-disk bin by their names, at their positions', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    await openApp(page, `${session.url}#scenario=bouncing-ball`);
    await page.getByRole('tab', { name: 'Editor' }).click();
    await page.waitForSelector('[data-testid="editor-text"] .cm-line', { timeout: 20_000 });
    const bin = diskBin(200);
    // Disk 200 past the right wall (x = 1.05): its centre 0.15 m beyond, so 0.19 m inside; disk 2 0.05 m
    // from disk 1's centre, so 0.03 m inside it.
    bin.bodies[199].position = [1.2, 0.4];
    bin.bodies[1].position = [bin.bodies[0].position[0] + 0.05, bin.bodies[0].position[1]];
    await page.locator('input[type="file"]').setInputFiles({ name: 'bin.json', mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(bin, null, 2)) });
    const status = page.getByTestId('editor-status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Imported “bin\.json”: 2 problems \(marked\)\. Not applied\./);
    const issues = page.getByTestId('editor-issues').locator('li');
    await expect.poll(() => issues.allTextContents()).toEqual([
      expect.stringMatching(/\/bodies\/1\/position.*disk "disk 2" starts 0\.03 m inside disk "disk 1"/),
      expect.stringMatching(/\/bodies\/199\/position.*disk "disk 200" starts 0\.19 m inside plane "right wall"/),
    ]);
    // Apply is refused with where the first problem is, and the running scenario is kept.
    // The scene shows what was imported, the overlapping disks where they are and ringed, ready to be dragged out.
    const label = () => page.getByTestId('editor-scene').getAttribute('aria-label');
    await expect.poll(label).toMatch(/disk 200 \(disk\) at \(1\.200, 0\.400\), marked by the checks/);
    expect((await label()).match(/marked by the checks/g)).toHaveLength(2);
    expect(await label()).toMatch(/disk 2 \(disk\) at \([-\d.]+, [-\d.]+\), marked by the checks/);
    expect(await page.locator('.scene-editor .scene-stale').isVisible()).toBe(false);
    const lines = JSON.stringify(bin, null, 2).split('\n');
    const line = lines.findIndex((l) => l.includes('"disk 2"')) + 1 + lines.slice(lines.findIndex((l) => l.includes('"disk 2"'))).findIndex((l) => l.includes('"position"'));
    expect(await issues.first().textContent()).toMatch(new RegExp(`^Line ${line}/`));
    await page.getByTestId('editor-apply').click();
    await expect.poll(() => status.textContent())
      .toBe(`Not applied: 2 problems (the first on line ${line}). The Playground keeps running “Bouncing ball”.`);
    await page.locator('.editor-tab').screenshot({ path: `${SCREENSHOTS}editor-overlaps-named.png` });
    expect(page.problems).toEqual([]);
  }, 90_000);
});

describe('Why 4: messages that say what they are and what still works', () => {
  it('a bad parameter in a 400×300 embed: the notice takes its own room, above the scene, which it never covers', async () => {
    const { page, frame } = await embed('embed=1&scenario=bouncing-ball&speed=3&panels=gamma,Z&autoplay=0', 400, 300);
    await expect.poll(() => frame.getByTestId('error').textContent()).toMatch(/speed="3" is not one of/);
    expect(await frame.locator('.message-box').getAttribute('data-kind')).toBe('warning');
    const notice = await box(frame, '.message-box');
    const scene = await box(frame, '[data-testid="scene"]');
    expect(scene.top).toBeGreaterThanOrEqual(notice.bottom);
    expect(scene.height).toBeGreaterThan(60);
    expect((await box(frame, '[data-testid="embed-gamma"]')).bottom).toBeLessThanOrEqual(300);
    await page.screenshot({ path: `${SCREENSHOTS}embed-notice-400x300.png` });
  });

  it('the embed’s end-of-run note names only the controls the embed has', async () => {
    const { frame } = await embed('embed=1&scenario=bouncing-ball&t=5.95&autoplay=0', 640, 480);
    await expect.poll(() => frame.locator('.scene-status').textContent()).toMatch(/^t = 5\.95 s/);
    await frame.getByTestId('play').click();
    const notice = frame.getByTestId('run-notice');
    await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toMatch(/^End of the run \(t = 6 s, the scenario’s duration\)\./);
    expect(await notice.textContent()).toBe('End of the run (t = 6 s, the scenario’s duration). Play watches it again.');
  });

  it('“Copied.” and “Saved …” are successes, not errors, and go with the scenario; a refused value is an error that says what still works', async () => {
    const page = await openAt('#scenario=two-balls');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('step').click();
    await page.waitForSelector(`${PLAY} [data-testid="matrix-S"] td`);
    await page.getByTestId('export').click();
    await page.getByRole('menuitem', { name: /^Copy S and R of impact 1 as LaTeX/ }).click();
    await expect.poll(() => page.getByTestId('error').textContent()).toBe('Export: Copied.');
    expect(await page.locator('.message-box').getAttribute('data-kind')).toBe('success');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^% Two balls colliding: impact 1 at t = [\s\S]*\nS = \\begin\{bmatrix\}/);
    await page.getByTestId('export').click();
    await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: /^S and R of impact 1 \(LaTeX\)/ }).click()]);
    await expect.poll(() => page.getByTestId('error').textContent()).toBe('Export: Saved two-balls-colliding-impact-1-S-R.tex.');
    expect(await page.locator('.message-box').getAttribute('data-kind')).toBe('success');
    await page.screenshot({ path: `${SCREENSHOTS}export-saved-message.png` });
    await page.getByTestId('scenario-select').selectOption('bouncing-ball');
    await expect.poll(() => page.locator('.message-box').isVisible()).toBe(false);
    // e = 2 is refused: an error naming the field, and what the run does instead.
    await page.getByTestId('restitution-all').fill('2');
    await page.getByTestId('restitution-all').press('Enter');
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/e: must be in \[0, 1\], got 2\. The run goes on with the value it had\./);
    expect(await page.locator('.message-box').getAttribute('data-kind')).toBe('error');
  });
});

describe('Why 5: 200 bodies', () => {
  it('names a few contacts of an impact of 200 bodies, and says what cannot be had and what can', async () => {
    const page = await openAt(`#${encodeFragment({ scenario: diskBin(200) })}`);
    await page.getByTestId('step').click();
    const meta = page.getByTestId('impact-meta');
    // The first impact: the lowest row of 20 disks lands on the floor, one contact each.
    await expect.poll(() => meta.textContent(), { timeout: 30_000 }).toMatch(/^t = [\d.]+ s · disk \d+ – floor, disk \d+ – floor, disk \d+ – floor and 17 more contacts · n = 600, m = 20, rank 20/);
    expect((await meta.getAttribute('title')).split(', ')).toHaveLength(20);
    // γ counts every body's kinetic energy, the 180 still falling too.
    expect(number(await page.locator(`${PLAY} [data-testid="gamma"]`).textContent())).toBeCloseTo(0.909, 3);
    // cond(Mc) against ν needs M of at most 256 coordinates: the ν panel says so; the rest is shown.
    await expect.poll(() => page.locator(`${PLAY} .nu-panel`).textContent()).toMatch(/The curve cond\(Mc\) is not available: M: has 600 rows; at most 256/);
    expect(await page.locator('.message-box').isVisible()).toBe(false);
    // It acts on the y of the 20 disks only: S there is 20×20.
    expect(await page.locator(`${PLAY} [data-testid="matrix-S"]`).getAttribute('data-size')).toBe('20x20');
    // Its islands are those 20 disks, each with the floor: the panel names them, and the 180 others keep
    // their velocities.
    expect(await page.locator(`${PLAY} .matrix-scope-note`).textContent()).toMatch(
      /^The impact takes 20 of the 200 bodies, the islands of its collisions \(.*\): (disk \d+, ){5}disk \d+ and 14 more bodies; the others keep their velocities\. The other 580 coordinates/);
    await page.locator(`${PLAY} .impact-view`).screenshot({ path: `${SCREENSHOTS}bodies-200-panels.png` });
    expect(page.problems).toEqual([]);
  }, 90_000);

  it('prints γ of round-off size as 0, with what it means (the pile’s settling impact: K⁺/K⁻ of order 10⁻³¹)', async () => {
    // The pile's first impact whose γ is round-off (0 < γ < 1e-20: every body it acts on brought to rest),
    // found by the engine itself, as the page will log it.
    const oblique = await loadOblique();
    const sim = oblique.createSimulation(loadScenario('pile-in-bin'));
    let index = -1;
    for (let t = 0.1, seen = 0; index < 0 && t <= 3; t += 0.1) {
      do sim.advanceTo(t); while (sim.workLimitHit);
      for (; seen < sim.impactCount && index < 0; seen++) {
        const { gamma } = sim.impact(seen);
        if (gamma > 0 && gamma < 1e-20) index = seen;
      }
    }
    const time = index >= 0 ? sim.impact(index).t : null;
    sim.dispose();
    expect(index, 'the pile logs an impact of round-off γ within 3 s').toBeGreaterThanOrEqual(0);
    const page = await openAt(`#scenario=pile-in-bin&t=${Math.ceil(time * 10) / 10}&impact=${index + 1}`);
    const gamma = page.locator(`${PLAY} [data-testid="gamma"]`);
    await expect.poll(() => gamma.getAttribute('data-value'), { timeout: 30_000 }).toMatch(/e-[23]\d$/);
    expect(await gamma.textContent()).toBe('0');
    expect(await page.getByTestId('gamma-note').textContent()).toMatch(/^γ = 0: all the kinetic energy the impact acted on was taken/);
    const cell = page.locator(`[data-testid="impact-log"] tr[data-index="${index}"] td`).nth(3);
    expect(await cell.textContent()).toBe('0');
    expect(await page.locator('body').textContent()).not.toMatch(/× 10⁻[23]\d/);
  });
});

describe('Why 6: friction drawn as the physics has it', () => {
  it('a block held on the incline at μ = 0.8 has no point drawn sliding; at μ = 0.3 both corners slide', async () => {
    const held = await openAt('#scenario=incline-block&mu=0.8&t=1');
    const scene = held.locator(`${PLAY} .scene`);
    await expect.poll(() => scene.getAttribute('data-time')).toBe('1');
    expect(await scene.getAttribute('data-sliding')).toBe('0');
    expect(await held.getByTestId('scene').getAttribute('aria-label')).toMatch(/2 of 8 contact points touching; /);
    expect(await held.getByTestId('scene').getAttribute('aria-label')).not.toMatch(/\(\d+ sliding\)/);
    // What holds it: the contacts now, one corner sticking, the other at the edge of its cone (λₜ/λₙ = μ),
    // neither moving.
    const rows = held.locator('[data-testid="contact-table"] tbody tr');
    await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.state).sort())).toEqual(['at the cone’s edge', 'sticking']);
    const ratios = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.children[4].dataset.value)));
    expect(Math.max(...ratios.map(Math.abs))).toBeCloseTo(0.8, 9);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.children[5].textContent))).toEqual(['0', '0']);
    const sliding = await openAt('#scenario=incline-block&t=0.5');
    await expect.poll(() => sliding.locator(`${PLAY} .scene`).getAttribute('data-time')).toBe('0.5');
    expect(await sliding.locator(`${PLAY} .scene`).getAttribute('data-sliding')).toBe('2');
    expect(await sliding.getByTestId('scene').getAttribute('aria-label')).toMatch(/touching \(2 sliding\)/);
    await expect.poll(() => sliding.locator('[data-testid="contact-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.state)))
      .toEqual(['sliding', 'sliding']);
  });
});

describe('Why 7: friction scenes one can watch', () => {
  it('keeps the bowling ball in a close-up at least 36 px in radius, and plots its slip velocity and friction', async () => {
    const page = await openAt('#scenario=bowling-ball&t=1');
    const scene = page.locator(`${PLAY} .scene`);
    await expect.poll(() => scene.getAttribute('data-time')).toBe('1');
    expect(await scene.getAttribute('data-close-up')).toBe('0');
    expect(await page.getByTestId('close-up').inputValue()).toBe('0');
    const [left, , right] = (await scene.getAttribute('data-view')).split(' ').map(Number);
    const width = (await page.getByTestId('scene').boundingBox()).width;
    const radius = (0.108 * width) / (right - left);
    expect(radius).toBeGreaterThanOrEqual(36);
    expect(Number(await scene.getAttribute('data-outside'))).toBe(0);
    const options = await page.getByTestId('plot-quantity').locator('option').allTextContents();
    for (const label of [/^v_t: slip velocity at /, /^λₜ: friction force at /, /^λₜ\/λₙ: friction over normal force/]) {
      expect(options.some((o) => label.test(o))).toBe(true);
    }
    await page.getByTestId('plot-quantity').selectOption({ label: options.find((o) => o.startsWith('v_t: slip velocity')) });
    await page.getByTestId('quantity-plot').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-testid="quantity-plot"] .visually-hidden').textContent()).toMatch(/^v_t: slip velocity at .*: \d+ samples/);
    await page.locator(`${PLAY} .scene-figure`).screenshot({ path: `${SCREENSHOTS}bowling-close-up.png` });
    expect(page.problems).toEqual([]);
  });
});

describe('Why 8: the tour, the editor’s errors, the time bar', () => {
  it('holds the run on the first bounce while the tour explains γ, S and R, and plays on after', async () => {
    const page = await openAt('', { tour: true, reducedMotion: 'no-preference' });
    const tour = page.getByTestId('tour');
    await expect.poll(() => tour.isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
    for (let k = 0; k < 5; k++) await tour.getByRole('button', { name: 'Next' }).click();
    expect(await tour.locator('h2').textContent()).toBe('S and R');
    // The impact the panels show: a bounce of e = 0.8, γ = e², not the last plastic one (γ = 0).
    const gamma = page.locator(`${PLAY} [data-testid="gamma"]`);
    await expect.poll(() => gamma.getAttribute('data-value')).not.toBeNull();
    expect(Number(await gamma.getAttribute('data-value'))).toBeCloseTo(0.64, 10);
    expect(await page.locator(`${PLAY} .impact-summary .warnings`).textContent()).not.toMatch(/Plastic/);
    await page.screenshot({ path: `${SCREENSHOTS}tour-s-and-r.png` });
    await tour.getByRole('button', { name: 'Next' }).click();
    await tour.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('playing');
    expect(page.problems).toEqual([]);
  });

  it('names a missing comma where it is missing', async () => {
    const page = await openAt('#scenario=bouncing-ball');
    await page.getByRole('tab', { name: 'Editor' }).click();
    await page.waitForSelector('[data-testid="editor-text"] .cm-line', { timeout: 20_000 });
    await page.locator('[data-testid="editor-text"]').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('{\n  "title": "No comma"\n  "bodies": [{"name": "ball"}]\n}\n');
    const issue = page.getByTestId('editor-issues').locator('li').first();
    await expect.poll(() => issue.textContent()).toMatch(/^Line 2\(document\) missing comma after line 2\? \(malformed JSON/);
    expect(page.problems).toEqual([]);
  });

  it('steps the time bar by a sample with the arrow keys, and by an impact with Shift', async () => {
    const page = await openAt('#scenario=bouncing-ball');
    const bar = page.getByTestId('timeline');
    await bar.focus();
    for (let k = 0; k < 5; k++) await bar.press('ArrowRight');
    const status = page.locator('.scene-status');
    await expect.poll(() => status.textContent()).toMatch(/^t = 0\.08 s · 0 impacts/);
    await expect.poll(async () => Number(await page.locator(`${PLAY} .scene`).getAttribute('data-time'))).toBeCloseTo(5 / 60, 12);
    await bar.press('Shift+ArrowRight');
    await expect.poll(() => status.textContent()).toMatch(/^t = 0\.45 s · 1 impact/);
    await bar.press('ArrowLeft');
    // A sample before the impact (at 0.4515 s): 27/60 s, before it.
    await expect.poll(() => status.textContent()).toMatch(/^t = 0\.45 s · 0 impacts/);
    expect(page.problems).toEqual([]);
  });
});

describe('the pages as a whole', () => {
  it('raised no console error or warning', () => {
    expect(session.pages.flatMap((p) => p.problems)).toEqual([]);
  });
});
