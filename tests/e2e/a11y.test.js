// Accessibility to WCAG 2.2 AA: axe-core (from npm) audits the playground (with an impact in its panels,
// the tour open, the presentation mode, the Share dialog), the matrix lab and the editor, and must find
// nothing; every visible text is at least 12 px; every control has an accessible name.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chooseScenario, launch, openApp, openPage } from './browser.js';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let browser;
let page;

/** The violations axe finds on the page now, as "rule: target" lines. */
async function audit() {
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy (no inline script) stays on.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(readFileSync(axePath, 'utf8'));
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary}`));
}

/** Visible elements whose own text is smaller than 12 px. */
function smallText() {
  return page.evaluate(() => {
    const small = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Zero-width characters (KaTeX's struts) are not text anyone reads.
      if (!/[^\s\u200b]/.test(node.textContent) || !parent) continue;
      if (parent.closest('.katex-mathml, .visually-hidden, [hidden], script, style')) continue;
      const box = parent.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const size = parseFloat(getComputedStyle(parent).fontSize);
      if (size < 11.95) small.push(`${size}px: ${node.textContent.trim().slice(0, 30)}`);
    }
    return small;
  });
}

/** Controls without an accessible name (by the names axe and the browser compute). */
function unnamedControls() {
  return page.evaluate(() => [...document.querySelectorAll('button, input, select, textarea, [role="tab"], summary')]
    .filter((c) => c.getClientRects().length > 0)
    .filter((c) => {
      const labelled = c.getAttribute('aria-label') || c.getAttribute('aria-labelledby') || c.labels?.length ||
        c.closest('label') || c.textContent.trim() || c.title;
      return !labelled;
    })
    .map((c) => c.outerHTML.slice(0, 80)));
}

beforeAll(async () => {
  browser = await launch();
  page = await openPage(browser, { reducedMotion: 'reduce' });
  await openApp(page, inject('baseUrl'));
});

afterAll(async () => {
  await browser?.close();
});

describe('accessibility (WCAG 2.2 AA)', () => {
  it('the playground with an impact in its panels: no violation, no small text, every control named', async () => {
    await chooseScenario(page, 'box-flat');
    await page.getByTestId('step').click();
    await page.waitForSelector('#view-playground [data-testid="matrix-S"] tbody td');
    for (const id of ['show-velocity', 'show-centre']) await page.getByTestId(id).check();
    await page.getByTestId('scenario-note').locator('summary').click();
    expect(await audit()).toEqual([]);
    expect(await smallText()).toEqual([]);
    expect(await unnamedControls()).toEqual([]);
  });

  it('a large matrix read by body and block, a close-up, the friction plots and a message: no violation, no small text', async () => {
    await chooseScenario(page, 'newtons-cradle');
    await page.getByTestId('step').click();
    await page.waitForSelector('#view-playground [data-testid="matrix-S"] tbody td');
    expect(await audit()).toEqual([]);
    await page.getByRole('radio', { name: 'All 15' }).check();
    await page.waitForSelector('#view-playground [data-testid="matrix-S"] canvas');
    await page.locator('#view-playground [data-testid="matrix-S"] canvas').focus();
    await page.keyboard.press('PageDown');
    await page.waitForSelector('[data-testid="block-S"] tbody td');
    await page.getByTestId('close-up').selectOption({ label: 'ball2' });
    const friction = await page.getByTestId('plot-quantity').locator('option').allTextContents();
    await page.getByTestId('plot-quantity').selectOption({ label: friction.find((o) => o.startsWith('λₜ/λₙ')) });
    // A warning in the message area (a value the engine refuses).
    await page.getByTestId('restitution-all').fill('2');
    await page.getByTestId('restitution-all').press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="error"]').textContent.includes('e:'));
    expect(await audit()).toEqual([]);
    expect(await smallText()).toEqual([]);
    expect(await unnamedControls()).toEqual([]);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('close-up').selectOption('');
  });

  it('the playground with the tour open and in the presentation mode', async () => {
    await page.getByTestId('tour-start').click();
    await page.getByTestId('tour').getByRole('button', { name: 'Next' }).click();
    expect(await audit()).toEqual([]);
    await page.getByTestId('tour-skip').click();
    await page.getByTestId('present').click();
    await page.waitForFunction(() => document.documentElement.classList.contains('presenting'));
    expect(await audit()).toEqual([]);
    expect(await smallText()).toEqual([]);
    await page.getByTestId('present').click();
  });

  it('the matrix lab: no violation, no small text, every control named', async () => {
    await page.getByRole('tab', { name: 'Matrix lab' }).click();
    await page.locator('[data-testid="matrix-lab"] [data-preset="three-balls"]').click();
    await page.waitForSelector('[data-testid="matrix-lab"] .consistency-map:not([hidden])');
    await page.locator('[data-testid="matrix-lab"] [data-field="M"] summary').click();
    expect(await audit()).toEqual([]);
    expect(await smallText()).toEqual([]);
    expect(await unnamedControls()).toEqual([]);
    // An error state too: the message and the marked field.
    await page.locator('[data-testid="matrix-lab"] input[data-field="e"]').fill('1.5');
    await page.waitForFunction(() => document.querySelector('[data-testid="error"]').textContent.includes('e:'));
    expect(await audit()).toEqual([]);
  });

  it('the editor, with a problem marked, and the Share dialog: no violation, no small text, every control named', async () => {
    await page.getByRole('tab', { name: 'Editor' }).click();
    await page.waitForSelector('[data-testid="editor-text"]');
    await page.waitForSelector('[data-testid="editor-scene"]');
    expect(await audit()).toEqual([]);
    expect(await smallText()).toEqual([]);
    expect(await unnamedControls()).toEqual([]);
    // A typo, marked in the text and listed under it.
    const text = page.getByTestId('editor-text');
    await text.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('x');
    await expect.poll(() => page.getByTestId('editor-issues').textContent(), { timeout: 10_000 }).toMatch(/Line 1/);
    expect(await audit()).toEqual([]);
    await page.keyboard.press('Control+z');
    await page.getByRole('tab', { name: 'Playground' }).click();
    await page.getByTestId('share').click();
    await page.waitForSelector('[data-testid="share-link"]');
    expect(await audit()).toEqual([]);
    expect(await smallText()).toEqual([]);
    expect(await unnamedControls()).toEqual([]);
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('logs no console error or warning', () => {
    expect(page.problems).toEqual([]);
  });
});

describe('accessibility of the small embed (WCAG 2.2 AA)', () => {
  it('a 400×300 embed with its matrices shown in the scene’s place: no violation, every control named', async () => {
    const course = await openPage(browser, { viewport: { width: 460, height: 380 } });
    await course.setContent(`<!doctype html><html lang="en"><title>Course</title><body><iframe id="frame" src="${inject('baseUrl')}?embed=1&scenario=billiards-break&panels=gamma,S,R&autoplay=0" width="400" height="300" title="Oblique"></iframe></body></html>`);
    const frame = course.frames().find((f) => f.url().startsWith(inject('baseUrl')));
    await frame.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
    await frame.getByTestId('step').click();
    await frame.waitForSelector('[data-testid="matrix-S"] canvas');
    await frame.getByTestId('embed-panels-toggle').click();
    if (!(await frame.evaluate(() => typeof window.axe === 'object'))) await frame.evaluate(readFileSync(axePath, 'utf8'));
    const result = await frame.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
    expect(result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toEqual([]);
    expect(course.problems).toEqual([]);
  });
});
