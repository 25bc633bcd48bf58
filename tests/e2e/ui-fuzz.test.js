// UI fuzz, in the spirit of PhET's fuzz mode: random clicks on every control, keys, slider moves, pasted and
// typed text (hostile text among it: markup, lone surrogates, huge numbers, NaN) in the playground and the
// matrix lab, in bursts, from a seeded PRNG so that a failure replays. After every burst: no console error
// or warning, no uncaught exception, no dialog, no navigation away, no page of another site opened, no markup
// from the typed text in the page, and the page still answers — an animation frame within a few seconds, a
// click on a tab (after closing with Escape a modal dialog a click opened: Share, Embed), and a lab preset
// solved by the worker.
//
// `npm test` runs it for OBLIQUE_UI_FUZZ_SECONDS (default 12) with seed OBLIQUE_UI_FUZZ_SEED (default 1);
// `npm run fuzz -- --seconds N` runs it longer with a new seed. A failure prints the seed and the last
// actions; run it again with that seed to replay.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOTS, launch, openApp, openPage } from './browser.js';
import { randomSource } from '../js/random-scenarios.js';

const SECONDS = Number(process.env.OBLIQUE_UI_FUZZ_SECONDS ?? 12);
const SEED = Number(process.env.OBLIQUE_UI_FUZZ_SEED ?? 1);
const BURST = 25;             // actions between two checks
const FRAME_BOUND_MS = 5_000;  // an animation frame must come within this (software WebGL is slow)
const WORKER_BOUND_MS = 15_000;  // the worker must solve a lab preset within this
const XSS = '__obliqueFuzzXss';

/** Text a user might type or paste, hostile or not. */
const TEXTS = [
  `<img src=x onerror="window.${XSS}=1">`, `"><svg onload="window.${XSS}=1">`, `javascript:window.${XSS}=1`,
  '\ud800', 'a\udc00b', '\udfff\ud800', 'NaN', 'Infinity', '-Infinity', 'null', 'undefined', '', ' ', '-0',
  '1e308', '1e309', '-1e400', '1e-400', '5e-324', '9'.repeat(400), '0x1F', '1,5', '١٢٣', '½', '1 2; 3 4',
  '1 0 0\n0 1 0\n0 0 1', '1e308 1e308\n1e308 1e308', '-1 -1\n-1 -1', '0', '1', '2', '0.8', '12', '13', '1000',
  '\u202eevil', '\u0000', 'x'.repeat(20_000), '🎱🎱', 'é\u0301', '{"__proto__":{"polluted":1}}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`, '%s%s%n', '${7*7}', '{{7*7}}',
];
const KEYS = [
  'Space', 'Enter', 'Escape', 'Tab', 'Shift+Tab', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home',
  'End', 'PageUp', 'PageDown', 'n', 'r', '[', ']', 'k', '0', '9', '-', 'e', 'Backspace', 'Delete',
  'Control+a', 'Control+z', 'Shift+ArrowRight',
];

/**
 * In the page: the interactive elements that can be seen now (in the shown view and the header), in DOM order.
 * `kind` narrows them: 'any', 'text' (text-like inputs and editors), 'range', 'select'.
 */
function candidates(kind) {
  const selector = {
    any: 'button, input:not([type=hidden]):not([type=file]), select, textarea, summary, [role=tab], [role=button], ' +
      '[contenteditable=""], [contenteditable=true], a[href^="#"], canvas, [tabindex]:not([tabindex="-1"])',
    text: 'input:not([type]), input[type=text], input[type=number], input[type=search], input[type=url], ' +
      'textarea, [contenteditable=""], [contenteditable=true]',
    range: 'input[type=range]',
    select: 'select',
  }[kind];
  return [...document.querySelectorAll(selector)].filter((node) => {
    if (node.disabled || node.closest('[inert], [aria-hidden="true"]')) return false;
    const rect = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && style.pointerEvents !== 'none';
  });
}

/**
 * In the page: element `index` (modulo their number) of `kind`, scrolled into view: where it is on screen,
 * a short description for the trace, and for a drop-down its number of options. Null when there is none.
 */
function locate([kind, index]) {
  const list = window.__obliqueFuzzCandidates(kind);
  if (!list.length) return null;
  const node = list[index % list.length];
  node.scrollIntoView({ block: 'center', inline: 'center' });
  const rect = node.getBoundingClientRect();
  const id = node.dataset?.testid ?? node.dataset?.field ?? node.dataset?.preset ?? node.id;
  const text = (node.getAttribute('aria-label') ?? node.textContent ?? '').trim().slice(0, 24);
  const label = `${node.tagName.toLowerCase()}${node.type ? `[${node.type}]` : ''}${id ? `#${id}` : ''}${text ? ` "${text}"` : ''}`;
  return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, label, options: node.options?.length ?? 0 };
}

/**
 * In the page: chooses option `option` of drop-down `index`, as a user's choice does (the value, then the
 * input and change events): a native drop-down's list cannot be clicked in headless Chromium.
 */
function chooseOption([index, option]) {
  const list = window.__obliqueFuzzCandidates('select');
  const select = list[index % list.length];
  if (!select) return;
  select.selectedIndex = option;
  select.dispatchEvent(new Event('input', { bubbles: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('UI fuzz', () => {
  let browser;
  let page;
  const trace = [];
  const problems = [];

  beforeAll(async () => {
    browser = await launch();
    page = await openPage(browser);
    page.on('dialog', (dialog) => {
      problems.push(`dialog (${dialog.type()}): ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
    // A new tab on the app's own pages is a feature (the embed's preview, the share link's "open in a new
    // tab"); a page of any other site is not.
    const appOrigin = new URL(inject('baseUrl')).origin;
    page.context().on('page', async (popup) => {
      await popup.waitForLoadState('domcontentloaded').catch(() => {});
      const url = popup.url();
      if (!URL.canParse(url) || new URL(url).origin !== appOrigin) problems.push(`opened a page of another site: ${url}`);
      popup.close().catch(() => {});
    });
    await page.addInitScript(`window.__obliqueFuzzCandidates = ${candidates.toString()};`);
    await openApp(page, inject('baseUrl'));
  });

  afterAll(async () => {
    await browser?.close();
  });

  /**
   * One random action; returns its description. Clicks are real mouse clicks at a point of a control (what
   * is on top there takes them, as for a user); keys and text go wherever the focus is.
   */
  async function act(random) {
    const choose = (list) => list[Math.floor(random() * list.length)];
    const index = Math.floor(random() * 1e6);
    const roll = random();
    const at = (box) => ({ x: box.x + random() * box.width, y: box.y + random() * box.height });
    if (roll < 0.4) {
      // A click somewhere on a control, or now and then a turn of the mouse wheel over it.
      const box = await page.evaluate(locate, ['any', index]);
      if (!box) return 'click: no control';
      const { x, y } = at(box);
      if (random() < 0.1) {
        const delta = Math.round((random() - 0.5) * 2000);
        await page.mouse.move(x, y);
        await page.mouse.wheel(0, delta);
        return `wheel ${delta} over ${box.label}`;
      }
      await page.mouse.click(x, y);
      return `click ${box.label}`;
    }
    if (roll < 0.55) {
      // A key, wherever the focus is.
      const key = choose(KEYS);
      await page.keyboard.press(key);
      return `key ${key}`;
    }
    if (roll < 0.7) {
      // A slider: a drag along it, or a click on it and keys.
      const box = await page.evaluate(locate, ['range', index]);
      if (!box) return 'slider: none';
      const y = box.y + box.height / 2;
      if (random() < 0.5) {
        await page.mouse.move(box.x + random() * box.width, y);
        await page.mouse.down();
        await page.mouse.move(box.x + random() * box.width, y, { steps: 4 });
        await page.mouse.up();
        return `drag ${box.label}`;
      }
      await page.mouse.click(box.x + random() * box.width, y);
      const key = choose(['ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
      await page.keyboard.press(key);
      return `slider ${box.label} ${key}`;
    }
    if (roll < 0.9) {
      // Text into a field: typed, or pasted over its content; sometimes committed with Enter or Tab.
      const box = await page.evaluate(locate, ['text', index]);
      if (!box) return 'text: no field';
      const text = choose(TEXTS);
      const { x, y } = at(box);
      await page.mouse.click(x, y);
      await page.keyboard.press('Control+a');
      if (random() < 0.5 || text.length > 40) await page.keyboard.insertText(text);
      else await page.keyboard.type(text);
      const commit = choose(['Enter', 'Tab', null]);
      if (commit) await page.keyboard.press(commit);
      return `text ${box.label} ← ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}… (${text.length})` : text)}` +
        (commit ? ` ${commit}` : '');
    }
    // A choice in a drop-down.
    const box = await page.evaluate(locate, ['select', index]);
    if (!box) return 'select: none';
    const option = Math.floor(random() * box.options);
    await page.evaluate(chooseOption, [index, option]);
    return `select ${box.label} option ${option}`;
  }

  /** Closes the page's modal dialogs (Share, Embed: opened by a random click, they hold the focus and take
   *  the clicks) with Escape, as a user would; one that does not close is a failure. */
  async function closeDialogs(fail) {
    // A dialog whose code is still loading opens a moment after its click: wait for it first.
    await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: WORKER_BOUND_MS }).toBe(0)
      .catch(() => fail(`a control stayed busy for ${WORKER_BOUND_MS} ms`));
    for (let i = 0; i < 3 && await page.locator('dialog[open]').count() > 0; i += 1) {
      await page.keyboard.press('Escape');
      trace.push('key Escape (a dialog was open)');
    }
    if (await page.locator('dialog[open]').count() > 0) fail('a dialog did not close on Escape');
  }

  /** What must hold after every burst; throws with the reason. */
  async function check(burst) {
    const fail = (what) => {
      throw new Error(`UI fuzz (seed ${SEED}, burst ${burst}): ${what}\nlast actions:\n  ${trace.slice(-30).join('\n  ')}`);
    };
    const seen = [...page.problems, ...problems];
    if (seen.length) fail(`the page reported:\n  ${seen.join('\n  ')}`);
    const origin = new URL(inject('baseUrl')).origin;
    if (new URL(page.url()).origin !== origin) fail(`the page navigated away to ${page.url()}`);
    // The typed markup stayed text.
    const injected = await page.evaluate((flag) => Boolean(window[flag]) ||
      document.querySelector('img[src="x"], svg[onload]') !== null, XSS);
    if (injected) fail('typed markup was rendered as HTML');
    // The main thread answers: an animation frame, then a click on a known control (a tab).
    const frame = await page.evaluate((bound) => new Promise((resolve) => {
      const start = performance.now();
      const timer = setTimeout(() => resolve(Infinity), bound);
      requestAnimationFrame(() => { clearTimeout(timer); resolve(performance.now() - start); });
    }), FRAME_BOUND_MS);
    if (!(frame < FRAME_BOUND_MS)) fail(`no animation frame within ${FRAME_BOUND_MS} ms`);
    await closeDialogs(fail);
    const labTab = page.getByRole('tab', { name: 'Matrix lab' });
    await labTab.click({ timeout: FRAME_BOUND_MS }).catch(() => fail('the Matrix lab tab did not take a click'));
    await expect.poll(() => labTab.getAttribute('aria-selected'), { timeout: FRAME_BOUND_MS }).toBe('true')
      .catch(() => fail(`the Matrix lab tab was not selected within ${FRAME_BOUND_MS} ms of a click`));
    // The worker answers: the two-particle preset is solved (γ = 0.650909).
    await page.locator('[data-testid="matrix-lab"] [data-preset="two-particles"]').click({ timeout: WORKER_BOUND_MS })
      .catch(() => fail('the two-particle preset did not take a click'));
    const gamma = page.locator('[data-testid="matrix-lab"] [data-testid="gamma"]');
    await expect.poll(async () => Number(await gamma.getAttribute('data-value')), { timeout: WORKER_BOUND_MS })
      .toBeCloseTo(0.650909, 6)
      .catch(() => fail(`the worker did not solve the two-particle preset within ${WORKER_BOUND_MS} ms`));
    return frame;
  }

  it(`survives ${SECONDS} s of random input (seed ${SEED})`, async () => {
    const random = randomSource(SEED);
    const end = Date.now() + SECONDS * 1000;
    const views = ['Playground', 'Matrix lab'];
    let burst = 0;
    let actions = 0;
    let slowestFrame = 0;
    while (Date.now() < end) {
      // Each burst starts in one of the two views (they alternate), then goes where the clicks take it.
      const view = views[burst % 2];
      await page.getByRole('tab', { name: view }).click({ timeout: FRAME_BOUND_MS });
      trace.push(`-- burst ${burst} in ${view}`);
      for (let i = 0; i < BURST && Date.now() < end; i += 1) {
        // A control that refuses an action (gone, covered, not editable) is no failure; the checks decide.
        const started = Date.now();
        trace.push(await act(random).catch((error) => `action refused: ${error.message.split('\n')[0]}`));
        if (process.env.OBLIQUE_UI_FUZZ_VERBOSE) console.log(`${Date.now() - started} ms ${trace[trace.length - 1]}`);
        actions += 1;
      }
      if (burst < 2) await page.screenshot({ path: `${SCREENSHOTS}ui-fuzz-${view === 'Playground' ? 'playground' : 'lab'}.png` });
      slowestFrame = Math.max(slowestFrame, await check(burst));
      burst += 1;
    }
    console.log(`UI fuzz: seed ${SEED}, ${actions} actions in ${burst} bursts, slowest frame ${slowestFrame.toFixed(0)} ms`);
    expect(actions).toBeGreaterThan(BURST);
  }, SECONDS * 1000 + 120_000);
});
