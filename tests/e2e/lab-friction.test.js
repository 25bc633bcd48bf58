// Friction in the matrix lab, in the browser (docs/friction.md): the rod on a rough floor slips below μ_crit
// and sticks above it as the μ slider moves, with the engine's numbers (compared with the engine in Node, to
// the last bit); Kane's double pendulum creates energy, which the (μ, e) map and the verdict show; a bad μ
// is named and kept; the velocities panel gives the law of the mode (stick, or S_slip), not the frictionless
// one; a frictionless case hides the friction panel again.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { FRICTION_PRESETS } from '../../web/src/ui/lab/friction-presets.js';
import { SCREENSHOTS, launch, openApp, openPage } from './browser.js';

let browser;
let page;
let engine;

const lab = (selector) => `[data-testid="matrix-lab"] ${selector}`;
const input = (id, mu) => {
  const { M, A, qd, e, pairs } = FRICTION_PRESETS.find((p) => p.id === id);
  return { M, A, qd, e, pairs, mu };
};

beforeAll(async () => {
  engine = await loadOblique();
  browser = await launch();
  page = await openPage(browser, { viewport: { width: 1400, height: 900 } });
  await openApp(page, inject('baseUrl'));
  await page.getByRole('tab', { name: 'Matrix lab' }).click();
});

afterAll(async () => {
  await browser?.close();
});

describe('matrix lab with friction', () => {
  const panel = () => page.locator(lab('[data-testid="friction-panel"]'));
  const mode = () => page.locator(lab('[data-testid="friction-mode"]')).getAttribute('data-value');
  const gamma = () => page.locator(lab('[data-testid="gamma"]')).getAttribute('data-value');

  it('the rod slips below μ_crit and sticks above it, with the engine’s numbers', async () => {
    await page.locator(lab('[data-preset="rod-rough-floor"]')).click();
    await expect.poll(() => panel().isVisible()).toBe(true);
    await expect.poll(mode).toBe('slip');
    const slip = engine.analyzeImpact(input('rod-rough-floor', 0.5));
    expect(await page.locator(lab('[data-testid="mu-critical"]')).getAttribute('data-value'))
      .toBe(String(slip.friction.pairs[0].mu_critical));
    await expect.poll(gamma).toBe(String(slip.gamma));
    // The (μ, e) map is drawn, the velocity picture (an M-orthogonal split) is not.
    expect(await page.locator(lab('[data-testid="friction-map"]')).isVisible()).toBe(true);
    expect(await page.locator(lab('.velocity-picture')).isVisible()).toBe(false);
    // The velocities panel gives the law of the slip mode (S_slip), not the frictionless q̇⁺ formula.
    const law = page.locator(lab('[data-testid="velocity-law"]'));
    await expect.poll(() => law.getAttribute('data-law')).toBe('slip');
    await expect.poll(() => law.locator('annotation').allTextContents()).toEqual([
      String.raw`\dot q^{+} = \big(I - S_{\text{slip}}(I + \tilde E)\big)\,\dot q^{-}`,
      String.raw`S_{\text{slip}} = M^{-1}B^{\mathsf T}\,(A_v M^{-1} B^{\mathsf T})^{+} A_v`]);
    expect(await law.textContent()).toContain('The contact point slips');
    await page.locator(lab('section.impulse-table')).screenshot({ path: `${SCREENSHOTS}lab-friction-velocities-slip.png` });
    await page.locator(lab('[data-testid="friction-panel"]')).screenshot({ path: `${SCREENSHOTS}lab-friction-rod-slip.png` });
    // Past μ_crit ≈ 1.08 the end sticks.
    await page.locator(lab('[data-testid="mu-slider"]')).fill('1.5');
    await expect.poll(mode).toBe('stick');
    const stick = engine.analyzeImpact(input('rod-rough-floor', 1.5));
    await expect.poll(gamma).toBe(String(stick.gamma));
    await expect.poll(() => page.locator(lab('[data-testid="velocity-law"]')).getAttribute('data-law')).toBe('stick');
    expect(await page.locator(lab('[data-testid="velocity-law"]')).textContent()).toContain('The contact point sticks');
    expect(await page.locator(lab('input[data-field="mu"]')).inputValue()).toBe('1.5');
    expect(await page.locator(lab('[data-testid="friction-map-summary"]')).textContent())
      .toContain('μ = 1.5, e = 0.6: the point sticks and energy is lost');
  });

  it('Kane’s pendulum creates energy: the verdict, the map and the explanation say so', async () => {
    await page.locator(lab('[data-preset="kane-pendulum"]')).click();
    await expect.poll(() => page.locator(lab('[data-testid="friction-verdict"]')).textContent())
      .toContain('Energy is created');
    const out = engine.analyzeImpact(input('kane-pendulum', 0.5));
    expect(out.gamma).toBeGreaterThan(1);
    await expect.poll(gamma).toBe(String(out.gamma));
    await expect.poll(mode).toBe('stick');
    const map = page.locator(lab('[data-testid="friction-map"]'));
    expect(Number(await map.getAttribute('data-gains'))).toBeGreaterThan(0);
    expect(await map.getAttribute('aria-label')).toContain('energy is created');
    await page.locator(lab('.kane-paradox summary')).click();
    expect(await page.locator(lab('.kane-paradox')).textContent()).toContain('Kane and Levinson (1985)');
    await page.screenshot({ path: `${SCREENSHOTS}lab-friction-kane.png`, fullPage: true });
    await page.locator(lab('[data-testid="friction-panel"]')).screenshot({ path: `${SCREENSHOTS}lab-friction-kane-panel.png` });
    // A frictional impact has no Q of its own (the sticking mode's is in the document's friction.sticking).
    await page.locator(lab('.matrix-more input[type="radio"][value="Q"]')).check({ force: true });
    await expect.poll(() => page.locator(lab('.matrix-more')).textContent()).toContain('Q does not apply to this impact.');
    // Below μ_crit it slips and loses energy.
    await page.locator(lab('[data-testid="mu-slider"]')).fill('0.1');
    await expect.poll(mode).toBe('slip');
    await expect.poll(() => page.locator(lab('[data-testid="friction-verdict"]')).textContent()).toContain('Energy is lost');
  });

  it('names a μ the engine refuses, keeps it, and recovers', async () => {
    const mu = page.locator(lab('input[data-field="mu"]'));
    await mu.fill('-1');
    await expect.poll(() => page.getByTestId('error').textContent()).toContain('mu: must be ≥ 0, got -1');
    expect(await mu.inputValue()).toBe('-1');
    expect(await mu.getAttribute('aria-invalid')).toBe('true');
    await mu.fill('0.5');
    await expect.poll(() => page.getByTestId('error').textContent()).toBe('');
    expect(await mu.getAttribute('aria-invalid')).toBeNull();
  });

  it('a frictionless case hides the friction panel and shows the (e₁, e₂) square again', async () => {
    await page.locator(lab('[data-preset="three-balls"]')).click();
    await expect.poll(() => page.locator(lab('.consistency-map')).isVisible()).toBe(true);
    expect(await panel().isVisible()).toBe(false);
    expect(await page.locator(lab('[data-testid="friction-on"]')).isChecked()).toBe(false);
    expect(await page.locator(lab('.velocity-picture')).isVisible()).toBe(true);
    await expect.poll(() => page.locator(lab('.matrix-more tbody td')).count()).toBe(4);  // its 2×2 Q again
    // The paper's frictionless law again.
    expect(await page.locator(lab('[data-testid="velocity-law"]')).getAttribute('data-law')).toMatch(/^(global|local)$/);
  });

  it('logs no console error or warning', () => {
    expect(page.problems).toEqual([]);
  });
});
