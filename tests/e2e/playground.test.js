// The playground in the browser: the default scenario animates and shows an impact; S, R and γ of the impact
// in the panels; scenario switching, stepping, the keyboard, reduced motion, and a 640×480 iframe.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOTS, chooseScenario, formulasTypeset, launch, openApp, openPage } from './browser.js';

const PLAY = '#view-playground';
const inPlay = (selector) => `${PLAY} ${selector}`;
const number = (text) => Number(String(text).replace(/\u2212/g, '-'));
const pages = [];

let browser;
let url;

async function newPage(options) {
  const page = await openPage(browser, options);
  pages.push(page);
  return page;
}

/** Pauses if playing (clicks the play button only when it says Pause). Call it once a scenario has loaded. */
async function pause(page) {
  if ((await page.getByTestId('play').getAttribute('data-state')) === 'playing') await page.getByTestId('play').click();
  await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
}

const logRows = (page) => page.locator('[data-testid="impact-log"] tbody tr');

/** Picks scenario `id`, waits for its description, and leaves it paused at t = 0 with an empty log. */
async function openFresh(page, id, description) {
  await chooseScenario(page, id);
  await expect.poll(() => page.locator('.scenario-description').textContent()).toMatch(description);
  await pause(page);
  await page.getByTestId('reset').click();
  await expect.poll(() => logRows(page).count()).toBe(0);
}

beforeAll(async () => {
  url = inject('baseUrl');
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('playground', () => {
  let page;

  it('opens on a scenario that animates and shows an impact within two seconds', async () => {
    page = await newPage();
    await openApp(page, url);
    expect(await page.getByTestId('scenario-select').inputValue()).toBe('bouncing-ball');
    expect(await page.getByTestId('play').getAttribute('data-state')).toBe('playing');
    const scene = page.getByTestId('scene');
    const first = await scene.screenshot();
    await page.waitForTimeout(300);
    const second = await scene.screenshot();
    expect(first.equals(second)).toBe(false);
    await expect.poll(() => logRows(page).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const t = number(await logRows(page).last().locator('td').nth(1).textContent());
    expect(t).toBeGreaterThan(0);
    expect(t).toBeLessThan(2);
  });

  it('shows S and R with numbers after the first impact, and a tiny R² − I residual', async () => {
    await pause(page);
    await expect.poll(() => page.locator(inPlay('[data-testid="matrix-S"] tbody td')).count()).toBe(9);
    for (const name of ['S', 'R']) {
      const cells = await page.locator(inPlay(`[data-testid="matrix-${name}"] tbody td`)).allTextContents();
      expect(cells).toHaveLength(9);
      for (const text of cells) expect(Number.isFinite(number(text))).toBe(true);
    }
    const residual = number(await page.locator(inPlay('[data-testid="residual-R2"]')).getAttribute('data-value'));
    expect(residual).toBeLessThan(1e-12);
    await formulasTypeset(page);
    await page.screenshot({ path: `${SCREENSHOTS}playground-bouncing-ball.png` });
  });

  it('shows γ in [0, 1] for the dissipative bouncing ball (e = 0.8: γ = e² = 0.64)', async () => {
    // Its first impact (the log lists the newest first): a slow machine may have played past 4 s, where the
    // ball's last bounce is below its rest speed and ends plastic, with γ = 0.
    await logRows(page).last().click();
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 1');
    const gamma = number(await page.locator(inPlay('[data-testid="gamma"]')).getAttribute('data-value'));
    expect(gamma).toBeGreaterThanOrEqual(0);
    expect(gamma).toBeLessThanOrEqual(1);
    expect(gamma).toBeCloseTo(0.64, 6);
    await page.locator(inPlay('.impact-view')).scrollIntoViewIfNeeded();
    await formulasTypeset(page);
    await page.locator(inPlay('.impact-view')).screenshot({ path: `${SCREENSHOTS}playground-panels.png` });
  });

  it('describes the canvas in text and announces impacts', async () => {
    const label = await page.getByTestId('scene').getAttribute('aria-label');
    expect(label).toMatch(/^Bouncing ball: ball \(disk\), 1 ground plane\. Paused at t = /);
    expect(label).toMatch(/impacts? so far, the last at t = /);
    // The live region speaks at most every 3 s, so the first impact's message may still be queued.
    await page.waitForFunction(() => /[Ii]mpact/.test(document.querySelector('[data-testid="announcer"]').textContent),
      null, { timeout: 5_000 });
  });

  it('says it is busy while a scenario loads, even the one already shown, and plays it once loaded', async () => {
    const id = await page.locator('.playground').getAttribute('data-scenario');
    // Record every change of the busy mark with the play state at that instant.
    await page.evaluate(() => {
      const playground = document.querySelector('.playground');
      const play = document.querySelector('[data-testid="play"]');
      window.busyChanges = [];
      new MutationObserver(() => {
        window.busyChanges.push({ busy: playground.getAttribute('aria-busy'), state: play.dataset.state });
      }).observe(playground, { attributes: true, attributeFilter: ['aria-busy'] });
    });
    // Choosing the scenario shown loads it again: its id stays on the page throughout, the busy mark does not.
    await page.getByTestId('scenario-select').selectOption(id);
    await expect.poll(() => page.evaluate(() => window.busyChanges.length)).toBe(2);
    const changes = await page.evaluate(() => window.busyChanges);
    expect(changes[0]).toEqual({ busy: 'true', state: 'paused' });
    expect(changes[1].busy).toBe(null);
    await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('playing');
    expect(await page.locator('.playground').getAttribute('data-scenario')).toBe(id);
  });

  it('switches scenario and steps from impact to impact', async () => {
    await openFresh(page, 'two-balls', /glances off/);
    await page.getByTestId('step').click();
    await expect.poll(() => logRows(page).count()).toBe(1);
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 1');
    // γ of this impact: the title names it only once the panels show it (the test below checks that).
    const gammaShown = async () => number(await page.locator(inPlay('[data-testid="gamma"]')).getAttribute('data-value'));
    await expect.poll(gammaShown).toBeGreaterThan(0.9);
    expect(await gammaShown()).toBeLessThan(1);
    // The balls fly apart: no further impact before the end of the run (its duration, 2.5 s).
    await page.getByTestId('step').click();
    await expect.poll(() => page.getByTestId('announcer').textContent()).toMatch(/No impact before the end of the run \(t = 2\.5 s\)/);
    expect(await page.getByTestId('run-notice').textContent()).toMatch(/No impact before the end of the run/);
    expect(await logRows(page).count()).toBe(1);

    await openFresh(page, 'double-pendulum', /hinged together/);
    await page.getByTestId('step').click();
    await expect.poll(() => page.locator('.impact-meta').textContent()).toMatch(/n = 6, m = 5/);
    await expect.poll(() => page.locator(inPlay('[data-testid="matrix-S"] tbody td')).count()).toBe(36);
    await page.screenshot({ path: `${SCREENSHOTS}playground-double-pendulum.png`, fullPage: true });
  });

  it('selects an impact from the log', async () => {
    await page.getByTestId('step').click();
    await expect.poll(() => logRows(page).count()).toBe(2);
    await logRows(page).last().click();  // newest first: the last row is impact 1
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 1');
    expect(await logRows(page).last().getAttribute('aria-current')).toBe('true');
    await page.getByRole('button', { name: 'Follow latest' }).click();
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 2');
  });

  it('shows the (e₁, e₂) square for an impact on two contacts, not for one sticking contact', async () => {
    const square = page.locator(inPlay('.consistency-map'));
    await openFresh(page, 'box-flat', /flat/i);
    await page.getByTestId('step').click();
    await expect.poll(() => logRows(page).count()).toBe(1);
    await expect.poll(() => square.isVisible()).toBe(true);
    expect(await square.textContent()).toMatch(/inside the consistent region/);
    // The rimless wheel lands on one spoke: a normal and a tangential row, one coefficient, no square.
    await openFresh(page, 'rimless-wheel', /spoke/i);
    await page.getByTestId('step').click();
    await expect.poll(() => logRows(page).count()).toBeGreaterThan(0);
    await expect.poll(() => square.isVisible()).toBe(false);
  });

  it('changes e and ν of the run live', async () => {
    await openFresh(page, 'bouncing-ball', /ball dropped/);
    // e = 0.5 for every contact: the next bounce keeps γ = e² = 0.25.
    const eAll = page.getByTestId('restitution-all');
    await eAll.fill('0.5');
    await eAll.press('Enter');
    await expect.poll(() => page.locator('.restitution .contact-list output').first().textContent()).toBe('0.5');
    await page.getByTestId('step').click();
    await expect.poll(async () => number(await page.locator(inPlay('[data-testid="gamma"]')).getAttribute('data-value')))
      .toBeCloseTo(0.25, 9);
    // ν: cond(Mc) moves, q̇⁺ does not (the engine solves the record's own impact again at that ν).
    const cond = page.locator(inPlay('[data-testid="cond-Mc"]'));
    const before = number(await cond.textContent());
    await page.locator(inPlay('.nu-panel input[type="range"]')).fill('2');
    await expect.poll(async () => number(await cond.textContent())).toBeGreaterThan(before * 10);
    expect(await page.locator(inPlay('.nu-panel .notice-ok')).textContent()).toMatch(/by only .* \(relative\)/);
    const residual = number(await page.locator(inPlay('[data-testid="residual-R2"]')).getAttribute('data-value'));
    expect(residual).toBeLessThan(1e-12);
    // A wrong e is the engine's to refuse, quoted with its field; nothing typed is lost.
    await eAll.fill('1.5');
    await eAll.press('Enter');
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/e.*1\.5/);
    expect(await eAll.inputValue()).toBe('1.5');
    await eAll.fill('0.8');
    await eAll.press('Enter');
    await expect.poll(() => page.getByTestId('error').textContent()).toBe('');
  });

  it('names in the panel title only the impact whose γ it shows, at a ν of the user\'s too', async () => {
    await openFresh(page, 'double-pendulum', /hinged together/);
    // Every title the panels take, with the γ shown at that moment.
    await page.evaluate(() => {
      const title = document.querySelector('#impact-title');
      window.__titles = [];
      new MutationObserver(() => {
        const gamma = document.querySelector('#view-playground [data-testid="gamma"]');
        window.__titles.push({ title: title.textContent, gamma: gamma?.dataset.value ?? null });
      }).observe(title, { childList: true, characterData: true, subtree: true });
    });
    await page.getByTestId('step').click();
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 1');
    // At ν = 2 the panels wait for the engine to solve each impact again.
    await page.locator(inPlay('.nu-panel input[type="range"]')).fill('2');
    for (let k = 2; k <= 4; k++) {
      await page.getByTestId('step').click();
      await expect.poll(() => page.locator('#impact-title').textContent()).toBe(`Impact ${k}`);
    }
    for (const row of [3, 1, 2, 0]) {
      await logRows(page).nth(row).click();
      await expect.poll(() => page.locator('#impact-title').textContent()).toBe(`Impact ${4 - row}`);
    }
    // The log's γ of each impact (newest first), against the γ on screen whenever the title changed.
    const logged = await logRows(page).evaluateAll((rows) => rows.map((r) => Number(r.querySelectorAll('td')[3].dataset.value)).reverse());
    const titles = await page.evaluate(() => window.__titles);
    expect(titles.length).toBeGreaterThanOrEqual(8);
    for (const { title, gamma } of titles.filter((t) => /^Impact \d+$/.test(t.title))) {
      const k = Number(title.match(/\d+/)[0]);
      expect(number(gamma), title).toBeCloseTo(logged[k - 1], 9);
    }
    // Four impacts of the double pendulum keep different fractions of their energy: the check can tell them apart.
    expect(new Set(logged.map((g) => g.toFixed(6))).size).toBeGreaterThan(1);
  });

  it('shows the panels a few times a second while impacts come fast, compiles no program, and catches up on pause', async () => {
    // Counts the page's requests to the worker by type from now on.
    await page.evaluate(() => {
      window.requestsSent = {};
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function count(message, transfer) {
        if (message?.type) window.requestsSent[message.type] = (window.requestsSent[message.type] ?? 0) + 1;
        return post.call(this, message, transfer);
      };
    });
    await page.getByTestId('end-mode').selectOption('continue');
    await page.getByTestId('speed').fill('7');  // 16×: the rimless wheel hits the slope some 50 times a second
    await openFresh(page, 'rimless-wheel', /spokes/i);
    const scene = page.locator('.scene');
    const impactsShown = async () => Number((await page.locator('.scene-status').textContent()).match(/(\d+) impacts?/)[1]);
    const impactRequests = () => page.evaluate(() => window.requestsSent.impact ?? 0);
    await page.getByTestId('play').click();
    // The first impacts compile the impulse arrows' programs; none is compiled after that.
    await expect.poll(impactsShown, { timeout: 10_000 }).toBeGreaterThan(2);
    await page.waitForTimeout(200);
    const programs = await scene.getAttribute('data-programs');
    const [impactsBefore, requestsBefore, started] = [await impactsShown(), await impactRequests(), Date.now()];
    await page.waitForTimeout(3000);
    const [impacts, requests, wall] = [await impactsShown() - impactsBefore, await impactRequests() - requestsBefore,
      (Date.now() - started) / 1000];
    expect(await scene.getAttribute('data-programs')).toBe(programs);
    // The log follows every impact; the panels at most every 0.5 s.
    const allowed = Math.ceil(wall / 0.5) + 1;
    expect(impacts, 'the run must be busy for this test to mean something').toBeGreaterThan(2 * allowed);
    expect(requests).toBeLessThanOrEqual(allowed);
    // Paused, the panels show the latest impact, and its row in the log is the one marked.
    await pause(page);
    const latest = await impactsShown();
    await expect.poll(() => page.locator('#impact-title').textContent(), { timeout: 10_000 }).toBe(`Impact ${latest}`);
    expect(await logRows(page).first().getAttribute('aria-current')).toBe('true');
  });

  it('logs no console error or warning', () => {
    expect(page.problems).toEqual([]);
  });
});

describe('keyboard and motion', () => {
  it('plays, steps, resets and changes speed from the keyboard', async () => {
    const page = await newPage();
    await openApp(page, url);
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
    await page.keyboard.press('r');
    await expect.poll(() => logRows(page).count()).toBe(0);
    await page.keyboard.press('n');
    await expect.poll(() => logRows(page).count()).toBe(1);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => logRows(page).count()).toBe(2);
    await page.keyboard.press(']');
    expect(await page.locator('.speed-value').textContent()).toBe('2×');
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    expect(await page.locator('.speed-value').textContent()).toBe('0.5×');
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('playing');
    // Typing in a field is not a shortcut.
    await page.getByTestId('restitution').focus();
    await page.keyboard.press('r');
    expect(await page.getByTestId('play').getAttribute('data-state')).toBe('playing');
    expect(page.problems).toEqual([]);
  });

  it('reaches every control with Tab, with a visible focus ring', async () => {
    const page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, url);
    // Focus the document (a click on the heading), then walk back to the skip link and forward from there.
    await page.locator('h1').click();
    const seen = new Set();
    const unringed = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(i === 0 ? 'Shift+Tab' : 'Tab');
      const info = await page.evaluate(() => {
        const node = document.activeElement;
        if (node === document.body) return null;  // past the last control
        const style = getComputedStyle(node);
        return { id: node.dataset.testid ?? (node.getAttribute('aria-label') || node.textContent.trim().slice(0, 20)),
          outline: style.outlineStyle };
      });
      if (!info) break;
      seen.add(info.id);
      if (info.outline === 'none') unringed.push(info.id);
    }
    expect(unringed).toEqual([]);
    for (const id of ['Skip to the content', 'Playground', 'scenario-select', 'play', 'step', 'reset', 'speed']) {
      expect(seen).toContain(id);
    }
  });

  it('starts paused when the reader prefers reduced motion', async () => {
    const page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, url);
    expect(await page.getByTestId('play').getAttribute('data-state')).toBe('paused');
    await page.waitForTimeout(800);
    expect(await page.locator('.scene-status').textContent()).toMatch(/^t = 0\.00 s · 0 impacts/);
    expect(await logRows(page).count()).toBe(0);
    expect(page.problems).toEqual([]);
  });
});

describe('embedded', () => {
  it('works inside a 640×480 iframe, without opening the tour there', async () => {
    const page = await newPage({ viewport: { width: 700, height: 540 }, tour: true });
    await page.setContent(`<!doctype html><body style="margin:20px"><iframe src="${url}" width="640" height="480"
      style="border:1px solid #999" title="Oblique"></iframe></body>`);
    const frame = page.frames().find((f) => f.url().startsWith(url));
    await frame.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
    const layout = await frame.evaluate(() => {
      const scene = document.querySelector('[data-testid="scene"]').getBoundingClientRect();
      return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, scene: [scene.width, scene.height] };
    });
    expect(layout.scroll).toBeLessThanOrEqual(layout.width);
    expect(await frame.getByTestId('tour').isVisible()).toBe(false);
    expect(layout.scene[0]).toBeGreaterThan(500);
    expect(layout.scene[1]).toBeGreaterThan(150);
    await frame.getByTestId('play').click();
    await expect.poll(() => frame.getByTestId('play').getAttribute('data-state')).toBe('paused');
    await frame.getByTestId('step').click();
    await expect.poll(() => frame.locator('[data-testid="impact-log"] tbody tr').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}iframe-640x480.png` });
    expect(page.problems).toEqual([]);
  });
});

describe('the page as a whole', () => {
  it('raised no console error or warning on any page', () => {
    expect(pages.flatMap((p) => p.problems)).toEqual([]);
  });
});
