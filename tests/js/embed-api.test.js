// The embed's pure parts: the shape checks of messages from the parent page (every bad message named by its
// field), the iframe snippet (escaped for someone else's HTML), and the live overrides written into a
// document so that a fresh run of it is the run they were made on.
import { describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { MAX_SCENARIO_CHARS, checkMessage, isForOblique } from '../../web/src/embed/message-shapes.js';
import { embedSnippet, embedUrl, escapeAttribute } from '../../web/src/embed/embed-snippet.js';
import { decodeFragment } from '../../web/src/share/link-codec.js';
import { applyOverrides } from '../../web/src/scenario/overrides.js';
import { loadScenario } from './scenarios.js';

const problem = (data) => {
  try {
    checkMessage(data);
  } catch (error) {
    return error.message;
  }
  throw new Error('expected the message to be refused');
};

describe('messages from the parent page', () => {
  it('are for Oblique only when their type says so', () => {
    expect(isForOblique({ type: 'oblique:play' })).toBe(true);
    for (const data of [null, 'oblique:play', ['oblique:play'], { type: 'h5p:resize' }, { type: 7 }, {}]) expect(isForOblique(data)).toBe(false);
  });

  it('are accepted in every documented shape', () => {
    expect(checkMessage({ type: 'oblique:play' })).toEqual({ type: 'oblique:play' });
    expect(checkMessage({ type: 'oblique:set', e: 0, nu: null, speed: 0.25, id: 'a1' })).toEqual({ type: 'oblique:set', e: 0, nu: null, speed: 0.25, id: 'a1' });
    expect(checkMessage({ type: 'oblique:set', e_i: [0.5, null, 1] }).e_i).toEqual({ 0: 0.5, 2: 1 });
    expect(checkMessage({ type: 'oblique:set', e_i: { 3: 0.25 } }).e_i).toEqual({ 3: 0.25 });
    const scenario = loadScenario('two-balls');
    expect(checkMessage({ type: 'oblique:load-scenario', scenario }).scenario).toEqual(scenario);
    expect(checkMessage({ type: 'oblique:load-scenario', scenario: JSON.stringify(scenario) }).scenario).toEqual(scenario);
  });

  it('are refused, naming the field, when anything is off', () => {
    expect(problem({ type: 'oblique:stop' })).toMatch(/^oblique:stop: unknown message \(Oblique accepts oblique:load-scenario, /);
    expect(problem({ type: 'oblique:set' })).toBe('oblique:set: give at least one of e, e_i, mu, nu, speed');
    expect(problem({ type: 'oblique:set', mu: -1 })).toBe('oblique:set: mu must be a number in [0, 1000] or "stick", got -1');
    expect(checkMessage({ type: 'oblique:set', mu: 'stick' })).toEqual({ type: 'oblique:set', mu: 'stick' });
    expect(problem({ type: 'oblique:set', e: '0.5' })).toBe('oblique:set: e must be a number in [0, 1], got "0.5"');
    expect(problem({ type: 'oblique:set', e: NaN })).toBe('oblique:set: e must be a number in [0, 1], got NaN');
    expect(problem({ type: 'oblique:set', e_i: { x: 0.5 } })).toBe('oblique:set: e_i has a key that is not a contact index: "x"');
    expect(problem({ type: 'oblique:set', e_i: [2] })).toBe('oblique:set: e_i[0] must be a number in [0, 1], got 2');
    expect(problem({ type: 'oblique:set', nu: -1 })).toBe('oblique:set: nu must be a number > 0, or null for the optimal one, got -1');
    expect(problem({ type: 'oblique:set', speed: 3 })).toBe('oblique:set: speed must be one of 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, got 3');
    expect(problem({ type: 'oblique:set', e: 0.5, colour: 1 })).toBe('oblique:set: unknown field "colour" (it takes e, e_i, mu, nu, speed)');
    expect(problem({ type: 'oblique:reset', id: { a: 1 } })).toBe('oblique:reset: id must be a short string or an integer');
    expect(problem({ type: 'oblique:load-scenario', scenario: [] })).toBe('oblique:load-scenario: scenario must be a scenario object (or its JSON text), got an array');
    expect(problem({ type: 'oblique:load-scenario', scenario: '{' })).toMatch(/^oblique:load-scenario: scenario is not JSON/);
    expect(problem({ type: 'oblique:load-scenario', scenario: 'x'.repeat(MAX_SCENARIO_CHARS + 1) })).toMatch(/characters of JSON \(at most 1000000\)$/);
    const cyclic = { bodies: [] };
    cyclic.self = cyclic;
    expect(problem({ type: 'oblique:load-scenario', scenario: cyclic })).toBe('oblique:load-scenario: scenario cannot be written as JSON');
  });
});

describe('the embed snippet', () => {
  it('escapes what it puts in someone else’s HTML', () => {
    expect(escapeAttribute('"><script>alert(1)</script>&\'')).toBe('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#39;');
    const html = embedSnippet({ url: 'https://x.org/?a=1&b=2', title: '"><img src=x onerror=alert(1)>', width: 640, height: 480 });
    expect(html).toBe('<iframe src="https://x.org/?a=1&amp;b=2" width="640" height="480" title="Oblique: &quot;&gt;&lt;img src=x ' +
      'onerror=alert(1)&gt;" loading="lazy" style="border: 1px solid #ccc; border-radius: 6px; max-width: 100%;" ' +
      'allow="fullscreen; clipboard-write"></iframe>');
    expect(html.match(/</g)).toHaveLength(2);  // the iframe's own tags, nothing else
  });

  it('points a built-in at a readable address and any other scenario at a #v3 fragment (the current link format), never the tab or the lab', () => {
    expect(embedUrl('https://x.org/o/', { builtin: 'four-bar', e: 0.3, tab: 'lab', lab: { M: [[1]], A: [], qd: [0], e: 1 } },
      { panels: ['gamma', 'log'], autoplay: false })).toBe('https://x.org/o/?embed=1&scenario=four-bar&e=0.3&autoplay=0&panels=gamma,log');
    const scenario = loadScenario('two-balls');
    const url = embedUrl('https://x.org/o/', { scenario, t: 0.5 }, { controls: false });
    expect(url).toMatch(/^https:\/\/x\.org\/o\/\?embed=1&controls=0#v3\./);
    expect(decodeFragment(url.slice(url.indexOf('#'))).state).toEqual({ scenario, t: 0.5 });
  });
});

describe('live settings written into the document', () => {
  it('give a fresh run the same impacts as the live run they were made on, bit for bit', async () => {
    const oblique = await loadOblique();
    const doc = loadScenario('billiards-break');
    const overrides = { e: 0.6, e_i: { 1: 0.95 }, nu: 2 };
    // Live: the settings changed on a running simulation at t = 0.
    const live = oblique.createSimulation(doc);
    live.setRestitution(0.6);
    live.setContactRestitution(1, 0.95);
    live.setNu(2);
    do live.advanceTo(3); while (live.workLimitHit);
    // As the page loads a link: e and eᵢ written into the document, ν set on the run at t = 0.
    const { nu, ...inDocument } = overrides;
    const { doc: written, notices } = applyOverrides(doc, inDocument);
    expect(notices).toEqual([]);
    const fresh = oblique.createSimulation(written);
    fresh.setNu(nu);
    do fresh.advanceTo(3); while (fresh.workLimitHit);
    expect(fresh.impactCount).toBe(live.impactCount);
    expect(fresh.impactCount).toBeGreaterThan(1);
    for (let i = 0; i < live.impactCount; i++) {
      expect(fresh.impact(i).gamma).toBe(live.impact(i).gamma);
      expect(fresh.impact(i).qd_plus).toEqual(live.impact(i).qd_plus);
    }
    expect(Array.from(fresh.positions)).toEqual(Array.from(live.positions));
    live.dispose();
    fresh.dispose();
    expect(applyOverrides(doc, { e_i: { 999: 0.5 } }).notices).toEqual([`e1000: the scenario has no contact 1000 (it has ${doc.contacts.length}); ignored`]);
    expect(doc.contacts[0].e).toBe(loadScenario('billiards-break').contacts[0].e);  // the original is left as it was
  });
});
