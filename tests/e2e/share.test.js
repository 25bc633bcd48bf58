// Share links in the browser: a link made by the Share dialog opens in a fresh browser profile on the same
// scenario, settings, time and selected impact, with the same γ (short and full links); a hostile link shows
// its HTML as text and runs nothing; links that cannot be opened say why and leave the page working; a long
// link offers the scenario file.
import { describe, expect, it } from 'vitest';
import { encodeFragment } from '../../web/src/share/link-codec.js';
import { SCREENSHOTS, browserSession, formulasTypeset, openApp } from './browser.js';
import { loadScenario } from '../js/scenarios.js';

const PLAY = '#view-playground';
const number = (text) => Number(String(text).replace(/\u2212/g, '-'));
const logRows = (page) => page.locator('[data-testid="impact-log"] tbody tr');

const session = browserSession();
const { pages } = session;
const newPage = (options) => session.newPage(options);

async function pause(page) {
  if ((await page.getByTestId('play').getAttribute('data-state')) === 'playing') await page.getByTestId('play').click();
  await expect.poll(() => page.getByTestId('play').getAttribute('data-state')).toBe('paused');
}

/** What the page shows, read from its controls and panels. */
async function shown(page) {
  return page.evaluate(() => {
    const q = (s) => document.querySelector(s);
    const gamma = q('#view-playground [data-testid="gamma"]');
    return {
      scenario: q('[data-testid="scenario-select"]').value,
      e: q('[data-testid="restitution"]').value,
      contactE: [...document.querySelectorAll('.restitution .contact-list output')].map((o) => o.textContent),
      status: q('.scene-status').textContent,
      rows: document.querySelectorAll('[data-testid="impact-log"] tbody tr').length,
      title: q('#impact-title').textContent,
      gamma: gamma?.dataset.value ?? null,
      speed: q('.speed-value').textContent,
      playing: q('[data-testid="play"]').dataset.state,
      tab: q('[role="tab"][aria-selected="true"]').textContent,
    };
  });
}

/**
 * Waits until the scene has drawn the moment the status names: the status is written when a frame arrives,
 * the scene's positions at the next animation frame, which a loaded machine may delay.
 */
async function drawn(page) {
  await expect.poll(() => page.evaluate(() => {
    const status = document.querySelector('.scene-status').textContent.match(/^t = (-?[\d.]+) s/);
    const time = document.querySelector('.scene').dataset.time;
    return status !== null && time !== undefined && Number(time).toFixed(2) === status[1];
  })).toBe(true);
}

/** Opens the Share dialog and returns its link. */
async function shareLink(page, { full = false } = {}) {
  await page.getByTestId('share').click();
  const link = page.getByTestId('share-link');
  await expect.poll(() => link.inputValue()).toMatch(/^http/);
  if (full) {
    await page.getByLabel(/Carry the whole scenario/).check();
    await expect.poll(() => link.inputValue()).toMatch(/#v3\./);
  }
  const value = await link.inputValue();
  await page.screenshot({ path: `${SCREENSHOTS}share-dialog${full ? '-full' : ''}.png` });
  await page.getByRole('button', { name: 'Close' }).click();
  return value;
}

/** A fresh browser profile on `link`, waiting until the link's state is shown. */
async function openFresh(link, options) {
  const page = await newPage(options);
  await openApp(page, link);
  return page;
}


describe('a shared link', () => {
  let page;
  let before;

  it('is made for what is on screen: scenario, e, time, impact, speed', async () => {
    page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, session.url);
    await page.getByTestId('scenario-select').selectOption('double-pendulum');
    await expect.poll(() => page.locator('.scenario-description').textContent()).toMatch(/hinged together/);
    await pause(page);
    await page.getByTestId('restitution-all').fill('0.3');
    await page.getByTestId('restitution-all').press('Enter');
    for (let k = 1; k <= 3; k++) {
      await page.getByTestId('step').click();
      await expect.poll(() => logRows(page).count()).toBe(k);
    }
    // A row of the log goes back to that impact (the timeline): the run stays as far as it had got.
    await logRows(page).last().click();  // impact 1
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 1');
    await expect.poll(() => page.locator('.scene-status').textContent()).toMatch(/^t = [\d.]+ s · 1 impact · .* · replaying the run$/);
    await page.keyboard.press(']');
    await expect.poll(async () => (await shown(page)).gamma).not.toBeNull();
    before = await shown(page);
    expect(before).toMatchObject({ scenario: 'double-pendulum', e: '0.3', rows: 3, title: 'Impact 1', speed: '2×', playing: 'paused' });
  });

  it('opens in a fresh profile on the same scenario, settings, time, impact and γ (short link)', async () => {
    const link = await shareLink(page);
    // The moment shown (right after impact 1), and how far the run had got (3 impacts).
    expect(link).toMatch(/#scenario=double-pendulum&e=0\.3&t=[\d.]+&impacts=1&horizon=[\d.]+&horizon_impacts=3&impact=1&speed=2$/);
    const other = await openFresh(link);
    await expect.poll(async () => (await shown(other)).gamma).toBe(before.gamma);
    expect(await shown(other)).toEqual(before);
    await formulasTypeset(other);
    await other.screenshot({ path: `${SCREENSHOTS}share-opened.png` });
  });

  it('opens the same way from a full #v3 link that carries the scenario itself', async () => {
    const link = await shareLink(page, { full: true });
    const other = await openFresh(link);
    await expect.poll(async () => (await shown(other)).gamma).toBe(before.gamma);
    const after = await shown(other);
    // The scenario is the document itself now, shown as the reader's own.
    expect(after).toEqual({ ...before, scenario: 'custom' });
    expect(await other.locator('[data-testid="scenario-select"] option:checked').textContent()).toMatch(/Double pendulum/);
  });

  it('keeps the matrix lab and the tab', async () => {
    await page.getByRole('tab', { name: 'Matrix lab' }).click();
    await page.locator('[data-testid="matrix-lab"] [data-preset="three-balls"]').click();
    const gamma = page.locator('[data-testid="matrix-lab"] [data-testid="gamma"]');
    await expect.poll(() => gamma.getAttribute('data-value')).toMatch(/^0\.87/);
    const link = await shareLink(page);
    expect(link).toMatch(/#v3\./);
    const other = await openFresh(link);
    await expect.poll(() => other.locator('[role="tab"][aria-selected="true"]').textContent()).toBe('Matrix lab');
    await expect.poll(() => other.locator('[data-testid="matrix-lab"] [data-testid="gamma"]').getAttribute('data-value'))
      .toBe(await gamma.getAttribute('data-value'));
    await page.getByRole('tab', { name: 'Playground' }).click();
  });

  it('says when a link is long, and offers the scenario file', async () => {
    const scenario = loadScenario('bouncing-ball');
    // Text that does not compress: a link well over 2000 characters.
    scenario.description = Array.from({ length: 1200 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
    const other = await openFresh(`${session.url}#${encodeFragment({ scenario })}`);
    await other.getByTestId('share').click();
    await expect.poll(() => other.getByTestId('share-link').inputValue()).toMatch(/#v3\./);
    expect((await other.getByTestId('share-link').inputValue()).length).toBeGreaterThan(2000);
    await expect.poll(() => other.locator('.share-dialog .notice-warning').textContent()).toMatch(/characters long.*scenario file/);
    const [download] = await Promise.all([other.waitForEvent('download'),
      other.getByRole('button', { name: 'Download the scenario file' }).click()]);
    expect(download.suggestedFilename()).toBe('bouncing-ball.json');
    await formulasTypeset(other);
    await other.screenshot({ path: `${SCREENSHOTS}share-long-link.png` });
  });
});

describe('a run changed on the way', () => {
  it('is reproduced by its link: each change at its moment, the run as far as it had got, the moment shown', async () => {
    const page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, session.url);
    await page.getByTestId('scenario-select').selectOption('double-pendulum');
    await expect.poll(() => page.locator('.scenario-description').textContent()).toMatch(/hinged together/);
    await pause(page);
    const eAll = page.getByTestId('restitution-all');
    const step = async (rows) => {
      await page.getByTestId('step').click();
      await expect.poll(() => logRows(page).count()).toBe(rows);
    };
    // e changed live after the first impact, then the run goes on.
    await step(1);
    await eAll.fill('0.5');
    await eAll.press('Enter');
    for (let k = 2; k <= 4; k++) await step(k);
    // Back to just after impact 2, where e changes again: the run is cut there and goes on with it.
    const t2 = number(await logRows(page).nth(2).locator('td').nth(1).textContent());
    const t = Number((t2 + 0.01).toFixed(3));
    await page.getByTestId('timeline').fill(String(t));
    await expect.poll(() => page.locator('.scene-status').textContent()).toMatch(new RegExp(`^t = ${t.toFixed(2)} s · 2 impacts`));
    await eAll.fill('0.9');
    await eAll.press('Enter');
    await expect.poll(() => page.getByTestId('run-notice').textContent()).toMatch(/^The run now goes on from t = /);
    expect(await logRows(page).count()).toBe(2);
    for (let k = 3; k <= 5; k++) await step(k);
    // ν too, then a look back at impact 4.
    await page.locator(`${PLAY} .nu-panel input[type="range"]`).fill('2');
    await step(6);
    await logRows(page).nth(2).click();
    await expect.poll(() => page.locator('#impact-title').textContent()).toBe('Impact 4');
    await expect.poll(async () => (await shown(page)).gamma).not.toBeNull();
    await drawn(page);
    const before = { ...await shown(page), positions: await page.locator('.scene').getAttribute('data-positions'),
      log: await page.locator('[data-testid="impact-log"] tbody').textContent() };
    expect(before).toMatchObject({ e: '0.9', rows: 6, title: 'Impact 4' });
    expect(before.status).toMatch(/ · 4 impacts · .* · replaying the run$/);

    const link = await shareLink(page);
    expect(link).toMatch(/#v3\./);
    const other = await openFresh(link);
    await expect.poll(async () => (await shown(other)).gamma).toBe(before.gamma);
    await expect.poll(() => other.locator('.scene').getAttribute('data-positions')).toBe(before.positions);
    expect({ ...await shown(other), positions: await other.locator('.scene').getAttribute('data-positions'),
      log: await other.locator('[data-testid="impact-log"] tbody').textContent() }).toEqual(before);
    await formulasTypeset(other);
    await other.screenshot({ path: `${SCREENSHOTS}share-changed-run.png` });
  });
});

describe('links that cannot be opened', () => {
  const hostile = () => {
    const scenario = loadScenario('two-balls');
    scenario.title = '</script><script>window.__pwned = 1</script>';
    scenario.description = 'Hello <img src=x onerror="window.__pwned = 2"> and <b>bold</b>?';
    scenario.bodies[0].name = '<img src=x onerror=alert(1)>';
    scenario.contacts[0].body_a = scenario.bodies[0].name;
    return scenario;
  };

  it('shows the HTML and script of a hostile link as text, raises no dialog and runs nothing', async () => {
    const page = await newPage();
    const dialogs = [];
    page.on('dialog', (dialog) => { dialogs.push(dialog.message()); dialog.dismiss(); });
    await openApp(page, `${session.url}#${encodeFragment({ scenario: hostile(), impacts: 1, t: 0.7 })}`);
    await expect.poll(() => logRows(page).count()).toBe(1);
    expect(await page.locator('.scenario-description').textContent()).toBe('Hello <img src=x onerror="window.__pwned = 2"> and <b>bold</b>?');
    expect(await page.locator('[data-testid="scenario-select"] option:checked').textContent()).toBe('Yours: </script><script>window.__pwned = 1</script>');
    expect(await page.locator('[data-testid="impact-log"] tbody td').nth(2).textContent()).toMatch(/^<img src=x onerror=alert\(1\)>/);
    // Opening the editor shows them as text too.
    await page.getByRole('tab', { name: 'Editor' }).click();
    await page.waitForSelector('[data-testid="editor-text"]');
    await page.getByRole('tab', { name: 'Playground' }).click();
    expect(await page.evaluate(() => ({ pwned: window.__pwned, images: document.querySelectorAll('img').length,
      bold: document.querySelectorAll('main b').length }))).toEqual({ pwned: undefined, images: 0, bold: 0 });
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}share-hostile.png` });
  });

  it('explains a truncated, a garbled and a future link, and runs the first built-in instead', async () => {
    const link = encodeFragment({ scenario: loadScenario('four-bar'), t: 0.5 });
    const cases = [
      [link.slice(0, Math.floor(link.length / 2)), /incomplete: its end is missing/],
      [`${link.slice(0, 40)}${link[40] === 'A' ? 'B' : 'A'}${link.slice(41)}`, /damaged: its check does not match/],
      ['v4.somethingnew.0000000', /made by a newer version of Oblique.*link format v4/],
    ];
    for (const [fragment, message] of cases) {
      const page = await newPage({ reducedMotion: 'reduce' });
      await openApp(page, `${session.url}#${fragment}`);
      await expect.poll(() => page.getByTestId('error').textContent()).toMatch(message);
      expect(await page.getByTestId('scenario-select').inputValue()).toBe('bouncing-ball');
      expect(await page.locator('.scene-status').textContent()).toMatch(/^t = 0\.00 s/);
    }
    await pages.at(-1).screenshot({ path: `${SCREENSHOTS}share-future-link.png` });
  });

  it('keeps what is on screen when a bad link is pasted into the open page, and opens a good one', async () => {
    const page = await newPage({ reducedMotion: 'reduce' });
    await openApp(page, `${session.url}#scenario=four-bar`);
    await expect.poll(() => page.getByTestId('scenario-select').inputValue()).toBe('four-bar');
    await page.evaluate(() => { location.hash = 'v1.AAAA.0000000'; });
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/damaged/);
    expect(await page.getByTestId('scenario-select').inputValue()).toBe('four-bar');
    // The skip link's #main is not a link.
    await page.evaluate(() => { location.hash = 'main'; });
    await page.evaluate(() => { location.hash = 'scenario=two-balls&e=0.25&speed=9'; });
    await expect.poll(() => page.getByTestId('scenario-select').inputValue()).toBe('two-balls');
    expect(await page.getByTestId('restitution').inputValue()).toBe('0.25');
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/speed="9" is not one of .*using 1×/);
  });
});

describe('the page as a whole', () => {
  it('raised no console error or warning on any page', () => {
    expect(pages.flatMap((p) => p.problems)).toEqual([]);
  });
});
