// The matrix lab in the browser: the textbook cases through the real wasm engine (in the worker), an engine
// error quoted with its field while every input is kept, and pasting from text.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOTS, launch, openApp, openPage } from './browser.js';

let browser;
let page;

const lab = (selector) => `[data-testid="matrix-lab"] ${selector}`;
const values = (locator) => locator.evaluate((node) => JSON.parse(node.dataset.value));

beforeAll(async () => {
  browser = await launch();
  page = await openPage(browser);
  await openApp(page, inject('baseUrl'));
  await page.getByRole('tab', { name: 'Matrix lab' }).click();
});

afterAll(async () => {
  await browser?.close();
});

describe('matrix lab', () => {
  it('reproduces the two-particle case: q̇⁺ = (−1.8, 1.4), γ = 0.650909', async () => {
    await page.locator(lab('[data-preset="two-particles"]')).click();
    const gamma = page.locator(lab('[data-testid="gamma"]'));
    await expect.poll(() => gamma.getAttribute('data-value')).not.toBeNull();
    expect(Number(await gamma.getAttribute('data-value'))).toBeCloseTo(0.650909, 6);
    expect(await gamma.textContent()).toBe('0.650909');
    const qdPlus = await values(page.locator(lab('[data-testid="qd-plus"]')));
    expect(qdPlus[0]).toBeCloseTo(-1.8, 12);
    expect(qdPlus[1]).toBeCloseTo(1.4, 12);
    await expect.poll(() => page.locator(lab('[data-testid="matrix-S"] tbody td')).count()).toBe(4);
    await page.locator(lab('[data-testid="matrix-S"]')).screenshot({ path: `${SCREENSHOTS}lab-matrix-S.png` });
    await page.screenshot({ path: `${SCREENSHOTS}lab-two-particles.png`, fullPage: true });
  });

  it('shows an error naming the field for e = 1.5 and keeps every input', async () => {
    const e = page.locator(lab('input[data-field="e"]'));
    await e.fill('1.5');
    const error = page.getByTestId('error');
    await expect.poll(() => error.textContent()).toContain('e: must be in [0, 1], got 1.5');
    expect(await e.inputValue()).toBe('1.5');
    expect(await e.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(lab('input[data-field="M[1][1]"]')).inputValue()).toBe('2');
    expect(await page.locator(lab('input[data-field="qd[0]"]')).inputValue()).toBe('3');
    expect(await page.locator(lab('input[data-field="A[0][0]"]')).inputValue()).toBe('-1');
    await page.screenshot({ path: `${SCREENSHOTS}lab-error.png` });
    // Putting it right clears the message and brings the results back.
    await e.fill('0.8');
    await expect.poll(() => error.textContent()).toBe('');
    expect(await e.getAttribute('aria-invalid')).toBeNull();
  });

  it('names a typed entry that is not a number, and keeps it', async () => {
    const cell = page.locator(lab('input[data-field="M[0][1]"]'));
    await cell.fill('abc');
    await expect.poll(() => page.getByTestId('error').textContent()).toContain('M[0][1]: must be a number, got “abc”');
    expect(await cell.inputValue()).toBe('abc');
    expect(await cell.getAttribute('aria-invalid')).toBe('true');
    await cell.fill('0');
    await expect.poll(() => page.getByTestId('error').textContent()).toBe('');
  });

  it('takes M pasted as text and resizes the problem', async () => {
    await page.locator(lab('[data-field="M"] summary')).click();
    await page.locator(lab('[data-field="M"] textarea')).fill('1, 0, 0\n0 1 0; 0 0 1');
    await page.locator(lab('[data-field="M"] button')).click();
    await expect.poll(() => page.locator(lab('[data-field="M"] .input-grid input')).count()).toBe(9);
    expect(await page.locator(lab('[data-field="qd"] .input-grid input')).count()).toBe(3);
    expect(await page.locator(lab('[data-field="A"] .input-grid input')).count()).toBe(3);
  });

  it('shows the three-ball chain with its energetic-consistency square', async () => {
    await page.locator(lab('[data-preset="three-balls"]')).click();
    const gamma = page.locator(lab('[data-testid="gamma"]'));
    await expect.poll(async () => Number(await gamma.getAttribute('data-value'))).toBeCloseTo(0.873333, 6);
    const qdPlus = await values(page.locator(lab('[data-testid="qd-plus"]')));
    [(1 - 1.8) / 3, 1.9 / 3, 1.9 / 3].forEach((v, i) => expect(qdPlus[i]).toBeCloseTo(v, 12));
    await expect.poll(() => page.locator(lab('.consistency-map')).isVisible()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}lab-three-balls.png`, fullPage: true });
  });

  it('solves the rank-deficient flat rod on three contacts', async () => {
    await page.locator(lab('[data-preset="flat-rod"]')).click();
    await expect.poll(async () => (await values(page.locator(lab('[data-testid="qd-plus"]'))))[1]).toBeCloseTo(0.5, 12);
    const qdPlus = await values(page.locator(lab('[data-testid="qd-plus"]')));
    [0.2, 0.5, -0.25].forEach((v, i) => expect(qdPlus[i]).toBeCloseTo(v, 12));
    expect(await page.locator(lab('.impact-meta, .matrix-panel')).count()).toBeGreaterThan(0);
  });

  it('shows that q̇⁺ does not depend on ν while cond(Mc) does', async () => {
    const cond = page.locator(lab('[data-testid="cond-Mc"]'));
    // The previous case's cond(Mc) (the flat rod's, 1) stays shown until the tilted rod's arrives.
    const previous = await cond.textContent();
    await page.locator(lab('[data-preset="tilted-rod"]')).click();
    await expect.poll(() => cond.textContent()).not.toBe(previous);
    const before = Number((await cond.textContent()).replace('\u2212', '-'));
    const slider = page.locator(lab('.nu-panel input[type="range"]'));
    await slider.fill('3');
    await expect.poll(async () => Number((await cond.textContent()).replace('\u2212', '-'))).toBeGreaterThan(before * 10);
    expect(await page.locator(lab('.nu-panel .notice-ok')).textContent()).toMatch(/do not depend on ν/);
    await page.locator(lab('.nu-panel input[type="checkbox"]')).check();
    await expect.poll(async () => Number((await cond.textContent()).replace('\u2212', '-'))).toBeCloseTo(before, 6);
  });

  it('logs no console error or warning', () => {
    expect(page.problems).toEqual([]);
  });
});
