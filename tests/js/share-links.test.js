// The share-link codec: every built-in scenario and a random set of scenarios and states round-trip
// unchanged (full and short links); every link of every version in the fixture file opens; a new version
// slots in through the upgrade chain; truncated, garbled, oversized, future and invalid links give their
// documented errors; the page's parameters fall back to their defaults with a notice.
import { readFileSync } from 'node:fs';
import LZString from 'lz-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOblique } from '../../web/src/engine/index.js';
import { PARAMETERS, SPEEDS, readParameters, writeParameters } from '../../web/src/share/query-params.js';
import {
  LONG_LINK_CHARS, MAX_LINK_CHARS, createLinkCodec, decodeFragment, encodeFragment, linkCodec, readShortLink, writeShortLink,
} from '../../web/src/share/link-codec.js';
import { LinkError } from '../../web/src/share/link-error.js';
import { LINK_VERSIONS, MAX_STATE_CHARS, linkChecksum } from '../../web/src/share/link-versions.js';
import { MAX_CHANGES, checkStateV1, checkStateV2, checkStateV3 } from '../../web/src/share/link-state.js';
import { SPEEDS as PLAYBACK_SPEEDS } from '../../web/src/ui/playground/playback.js';
import { randomGenerator } from './random-scenarios.js';
import { loadScenario, scenarioIndex } from './scenarios.js';

const fixtures = JSON.parse(readFileSync(new URL('./fixtures/share-links.json', import.meta.url), 'utf8')).links;

let oblique;
beforeAll(async () => {
  oblique = await loadOblique();
});

/** The LinkError code a call throws (fails when it throws anything else, or nothing). */
function codeOf(call) {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(LinkError);
    return error.code;
  }
  throw new Error('expected a LinkError');
}

/** A link of format `version` around any JSON text, with a good check (what only a hand-made link has). */
function linkAround(text, version = 1) {
  const payload = LZString.compressToEncodedURIComponent(text);
  return `v${version}.${payload}.${linkChecksum(`v${version}.${payload}`)}`;
}

describe('round trips', () => {
  it('carries every built-in scenario, whole, with every setting, unchanged', () => {
    const ids = scenarioIndex().map((s) => s.id);
    expect(ids.length).toBeGreaterThanOrEqual(12);
    for (const id of ids) {
      const state = { scenario: loadScenario(id), e: 0.25, e_i: { 0: 1 }, mu: 0.35, mu_i: { 0: 'stick' }, nu: 0.7, t: 2.0000000000000004, impacts: 4, impact: 3,
        horizon: 3.1000000000000005, horizon_impacts: 6, speed: 16, tab: 'editor', trails: false, matrix: 'E_tilde',
        changes: [{ t: 0.5, impacts: 1, e: 0.9 }, { t: 0.5, impacts: 1, contact: 0, e: 0.1 }, { t: 1, impacts: 1, mu: 12.5 },
          { t: 1, impacts: 1, contact: 0, mu: 'stick' }, { t: 1.25, impacts: 2, nu: null },
          { t: 3.1000000000000005, impacts: 6, nu: 1e-3 }] };
      const fragment = encodeFragment(state);
      expect(fragment).toMatch(/^v3\.[A-Za-z0-9+\-$]+\.[0-9a-z]{7}$/);
      const decoded = decodeFragment(`#${fragment}`);
      expect(decoded.kind).toBe('full');
      expect(decoded.version).toBe(3);
      expect(decoded.state, id).toEqual(state);
      // Bit for bit: the times read back to the same doubles.
      expect(Object.is(decoded.state.t, state.t)).toBe(true);
      expect(Object.is(decoded.state.horizon, state.horizon)).toBe(true);
    }
  });

  it('gives every built-in scenario a short, readable link that reads back to the same state', () => {
    for (const { id } of scenarioIndex()) {
      const state = { builtin: id, e: 0.3, e_i: { 1: 0.9 }, t: 1.2, impacts: 2, impact: 0 };
      const fragment = encodeFragment(state);
      expect(fragment).toBe(`scenario=${id}&e=0.3&e2=0.9&t=1.2&impacts=2&impact=1`);
      expect(decodeFragment(`#${fragment}`)).toEqual({ kind: 'short', state, display: {}, notices: [] });
    }
    expect(encodeFragment({ builtin: 'four-bar', e: 0.3, t: 1.2 })).toBe('scenario=four-bar&e=0.3&t=1.2');
    // An earlier moment of a run that went further: still short.
    const past = { builtin: 'two-balls', t: 0.5, impacts: 1, horizon: 2.5, horizon_impacts: 1, impact: 0 };
    expect(encodeFragment(past)).toBe('scenario=two-balls&t=0.5&impacts=1&horizon=2.5&horizon_impacts=1&impact=1');
    expect(decodeFragment(encodeFragment(past)).state).toEqual(past);
    // Changes made during the run need a full link.
    expect(encodeFragment({ builtin: 'two-balls', t: 1, changes: [{ t: 0.5, impacts: 0, e: 1 }] })).toMatch(/^v3\./);
  });

  it('round-trips a random set of scenarios (valid for the engine) and states, full and short', () => {
    const generator = randomGenerator(20240611);
    let full = 0;
    let short = 0;
    for (let k = 0; k < 60; k++) {
      const doc = generator.scenario();
      expect(oblique.checkScenario(doc), `random scenario ${k}`).toEqual([]);
      const state = generator.state(doc);
      const decoded = decodeFragment(encodeFragment(state));
      expect(decoded.state, `random state ${k}`).toEqual(state);
      if (decoded.kind === 'full') full++;
      else short++;
      // The same state as a full link, whatever it names.
      expect(linkCodec.decode(linkCodec.encode(state)).state).toEqual(state);
    }
    expect(full).toBeGreaterThan(10);
    expect(short).toBeGreaterThan(10);
  });
});

describe('links of every version', () => {
  it('has fixtures made by every version there has been', () => {
    for (const { version } of LINK_VERSIONS) {
      expect(fixtures.filter((f) => f.version === version).length, `fixtures of v${version}`).toBeGreaterThan(0);
    }
  });

  it('opens every fixture link, upgraded to the current version', () => {
    for (const fixture of fixtures) {
      const decoded = decodeFragment(fixture.link);
      expect(decoded.kind).toBe('full');
      expect(decoded.version).toBe(fixture.version);
      // What the link was made from, carried up the chain of upgrades.
      const start = LINK_VERSIONS.findIndex((v) => v.version === fixture.version);
      const expected = LINK_VERSIONS.slice(start, -1).reduce((state, v) => v.upgrade(state), fixture.state);
      expect(decoded.state, fixture.note).toEqual(expected);
    }
  });

  it('still writes the current version exactly as its fixtures were written', () => {
    for (const fixture of fixtures.filter((f) => f.version === linkCodec.version)) {
      expect(`#${linkCodec.encode(fixture.state)}`, fixture.note).toBe(fixture.link);
    }
  });

  it('opens a v1 link as the v2 state of a run without changes, shown where it had got', () => {
    for (const fixture of fixtures.filter((f) => f.version === 1)) {
      const { state } = decodeFragment(fixture.link);
      expect(state).toEqual(fixture.state);
      expect(checkStateV2(state)).toBe(state);
    }
  });

  it('lets a new version slot in: v1 and v2 links open through the v1 → v2 → v3 → v4 upgrades', () => {
    // A hypothetical v4 that renames `e` to `restitution` and writes plain JSON.
    const checkV4 = (state) => {
      if (state.e !== undefined) throw new LinkError('invalid', 'v4 has no e');
      return state;
    };
    const [v1, v2, current] = LINK_VERSIONS;
    const v3 = { ...current, upgrade: ({ e, ...rest }) => (e === undefined ? rest : { ...rest, restitution: e }) };
    const v4 = { version: 4, check: checkV4, write: (s) => encodeURIComponent(JSON.stringify(s)), read: (body) => JSON.parse(decodeURIComponent(body)), upgrade: null };
    const codec = createLinkCodec([v1, v2, v3, v4]);
    for (const old of [1, 2, 3]) {
      const first = fixtures.find((f) => f.version === old && f.state.e !== undefined);
      const { version, state } = codec.decode(first.link.slice(1));
      expect(version).toBe(old);
      expect(state.restitution).toBe(first.state.e);
      expect(state.e).toBeUndefined();
      expect(codec.encode(state).startsWith('v4.')).toBe(true);
      expect(codec.decode(codec.encode(state))).toEqual({ version: 4, state });
      // And this build's codec calls v4 links the future.
      expect(codeOf(() => linkCodec.decode(codec.encode(state)))).toBe('future');
    }
  });
});

describe('links that cannot be opened', () => {
  const link = fixtures.find((f) => f.note.startsWith('a whole scenario')).link.slice(1);

  it('calls a link cut short truncated, wherever it was cut', () => {
    const dot = link.lastIndexOf('.');
    for (const end of [3, 10, Math.floor(link.length / 2), dot, dot + 1, dot + 4, link.length - 1]) {
      const cut = link.slice(0, end);
      expect(codeOf(() => decodeFragment(cut)), `cut at ${end}`).toBe('truncated');
    }
    expect(codeOf(() => decodeFragment('v1'))).toBe('truncated');
    expect(() => decodeFragment(link.slice(0, 40))).toThrow(/incomplete: its end is missing/);
  });

  it('calls a link with a changed, added or lost character garbled', () => {
    const at = Math.floor(link.length / 3);
    const swap = (c) => (c === 'A' ? 'B' : 'A');
    const changed = link.slice(0, at) + swap(link[at]) + link.slice(at + 1);
    expect(codeOf(() => decodeFragment(changed))).toBe('garbled');
    expect(codeOf(() => decodeFragment(link.slice(0, at) + link.slice(at + 1)))).toBe('garbled');
    expect(codeOf(() => decodeFragment(`${link.slice(0, at)}Q${link.slice(at)}`))).toBe('garbled');
    const check = link.slice(-7);
    expect(codeOf(() => decodeFragment(link.slice(0, -7) + check.split('').reverse().join('')))).toBe('garbled');
    expect(codeOf(() => decodeFragment(`${link.slice(0, 20)}<${link.slice(21)}`))).toBe('garbled');
    expect(() => decodeFragment(changed)).toThrow(/damaged: its check does not match/);
    // A good check around what is not lz-string, or not JSON.
    expect(codeOf(() => decodeFragment(`v1.$$$$.${linkChecksum('v1.$$$$')}`))).toBe('garbled');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "four-bar"')))).toBe('garbled');
  });

  it('forgives what mail programs do to a link: punctuation after it, %-escapes in it', () => {
    const state = decodeFragment(link).state;
    expect(decodeFragment(`${link}.`).state).toEqual(state);
    expect(decodeFragment(`${link}).`).state).toEqual(state);
    expect(decodeFragment(link.replace(/\$/g, '%24').replace(/\+/g, '%2B')).state).toEqual(state);
  });

  it('refuses an oversized link before reading it, and a payload that inflates past the limit', () => {
    const long = `v1.${'A'.repeat(MAX_LINK_CHARS)}.0000000`;
    expect(codeOf(() => decodeFragment(long))).toBe('oversized');
    expect(() => decodeFragment(long)).toThrow(/too large to open/);
    // A few kilobytes that decompress to more than MAX_STATE_CHARS characters.
    const bomb = linkAround(JSON.stringify({ builtin: 'x', pad: 'a'.repeat(MAX_STATE_CHARS + 10) }));
    expect(bomb.length).toBeLessThan(MAX_LINK_CHARS);
    expect(codeOf(() => decodeFragment(bomb))).toBe('oversized');
    // And the writer will not make one.
    expect(codeOf(() => linkCodec.encode({ scenario: { bodies: [], description: Array.from({ length: 60_000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('') } }))).toBe('oversized');
  });

  it('tells a link from a future version that it needs a newer Oblique', () => {
    expect(codeOf(() => decodeFragment('v4.abc.0000000'))).toBe('future');
    expect(codeOf(() => decodeFragment('v99'))).toBe('future');
    expect(() => decodeFragment('#v7.whatever')).toThrow(/made by a newer version of Oblique.*link format v7; this page reads formats v1 to v3\. Open it in an up-to-date Oblique/);
  });

  it('refuses a well-formed link whose state is not one', () => {
    expect(codeOf(() => decodeFragment(linkAround('[1, 2]')))).toBe('invalid');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "four-bar", "x": 1}')))).toBe('invalid');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "four-bar", "scenario": {}}')))).toBe('invalid');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "four-bar", "e": 1.5}')))).toBe('invalid');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "<img>"}')))).toBe('invalid');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "a", "e_i": {"-1": 0.5}}')))).toBe('invalid');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "a", "lab": {"M": [[1]], "A": [], "qd": ["x"], "e": 1}}')))).toBe('invalid');
    expect(codeOf(() => decodeFragment('v0.abc.0000000'))).toBe('invalid');
    expect(() => decodeFragment(linkAround('{"builtin": "four-bar", "colour": 1}'))).toThrow(/unknown field "colour"/i);
    // Deep nesting is refused by shape, not by the stack.
    expect(codeOf(() => decodeFragment(linkAround(`${'['.repeat(5000)}${']'.repeat(5000)}`)))).toBe('invalid');
    // v1 has no changes and no 16×; v2 has them, checked field by field.
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "a", "changes": []}')))).toBe('invalid');
    expect(codeOf(() => decodeFragment(linkAround('{"builtin": "a", "speed": 16}')))).toBe('invalid');
    expect(decodeFragment(linkAround('{"builtin": "a", "speed": 16, "changes": []}', 2)).state).toEqual({ builtin: 'a', speed: 16, changes: [] });
    const v2 = (state) => () => decodeFragment(linkAround(JSON.stringify({ builtin: 'a', ...state }), 2));
    const refusals = [
      [{ t: 2, horizon: 1 }, /horizon must be a time in \[t, 3600\] s/i],
      [{ impacts: 3, horizon_impacts: 2 }, /horizon_impacts must be a count ≥ impacts/i],
      [{ changes: {} }, /changes must be a list/i],
      [{ changes: [{ t: 0, impacts: 0, e: 0.5, nu: 2 }] }, /changes\[0\] must change e or nu, one of them/i],
      [{ changes: [{ t: 0, impacts: 0 }] }, /changes\[0\] must change e or nu/i],
      [{ changes: [{ t: 0, impacts: 0, e: 1.5 }] }, /changes\[0\]\.e must be a number in \[0, 1\]/i],
      [{ changes: [{ t: 0, impacts: 0, nu: -1 }] }, /changes\[0\]\.nu must be a number > 0, or null/i],
      [{ changes: [{ t: 0, impacts: 0, nu: 1, contact: 0 }] }, /changes\[0\] changes nu, which has no contact/i],
      [{ changes: [{ t: 0, impacts: 0, e: 1, contact: -1 }] }, /changes\[0\]\.contact must be a contact index/i],
      [{ changes: [{ t: 0, impacts: 0, e: 1, when: 3 }] }, /changes\[0\] has an unknown field "when"/i],
      [{ t: 2, changes: [{ t: 1, impacts: 1, e: 1 }, { t: 0.5, impacts: 1, e: 0 }] }, /changes\[1\] comes before changes\[0\]/i],
      [{ t: 1, changes: [{ t: 1, impacts: 2, e: 1 }, { t: 1, impacts: 1, e: 0 }] }, /changes\[1\] comes before changes\[0\]/i],
      [{ t: 1, horizon: 2, changes: [{ t: 2.5, impacts: 0, e: 1 }] }, /changes\[0\] is after the run's horizon/i],
      [{ changes: Array.from({ length: MAX_CHANGES + 1 }, () => ({ t: 0, impacts: 0, e: 1 })) }, /at most 2000 changes/i],
    ];
    for (const [state, message] of refusals) {
      expect(codeOf(v2(state)), JSON.stringify(state).slice(0, 80)).toBe('invalid');
      expect(v2(state)).toThrow(message);
    }
  });

  it('leaves fragments that are not links alone (in-page anchors)', () => {
    expect(decodeFragment('#main')).toEqual({ kind: 'none' });
    expect(decodeFragment('')).toEqual({ kind: 'none' });
    expect(decodeFragment('#')).toEqual({ kind: 'none' });
  });
});

describe('short links and page parameters', () => {
  it('reads and writes μ: mu for every contact, mu1… for one, "stick", and names a bad value', () => {
    const { state, notices } = readShortLink('scenario=incline-block&mu=0.6&mu2=stick&t=1');
    expect(state).toEqual({ builtin: 'incline-block', mu: 0.6, mu_i: { 1: 'stick' }, t: 1 });
    expect(notices).toEqual([]);
    expect(writeShortLink(state)).toBe('scenario=incline-block&mu=0.6&mu2=stick&t=1');
    expect(readShortLink('scenario=incline-block&mu=stick').state.mu).toBe('stick');
    const bad = readShortLink('scenario=incline-block&mu=-1&mu1=slippery&mu3=1001');
    expect(bad.state).toEqual({ builtin: 'incline-block' });
    expect(bad.notices).toEqual([
      'mu="-1" is not a number in [0, 1000] or stick; ignored',
      'mu1="slippery" is not a number in [0, 1000] or stick (ignored)',
      'mu3="1001" is not a number in [0, 1000] or stick (ignored)',
    ]);
  });

  it('refuses a v3 state whose μ is out of range or not a number, naming the field', () => {
    for (const [state, field] of [[{ builtin: 'a', mu: -1 }, /Mu must/], [{ builtin: 'a', mu_i: { 0: 'ice' } }, /Mu_i\.0 must/],
      [{ builtin: 'a', changes: [{ t: 0, impacts: 0, mu: 1e4 }] }, /Changes\[0\]\.mu must/],
      [{ builtin: 'a', changes: [{ t: 0, impacts: 0, mu: 0.5, nu: 1 }] }, /Changes\[0\] has an unknown field "nu"/]]) {
      let error;
      try {
        checkStateV3(state);
      } catch (e) {
        error = e;
      }
      expect(error?.code).toBe('invalid');
      expect(error.message).toMatch(field);
    }
    expect(checkStateV3({ builtin: 'a', mu: 'stick', changes: [{ t: 0, impacts: 0, contact: 1, mu: 0 }] })).toBeTruthy();
  });

  it('reads a hand-written short link', () => {
    expect(readShortLink('scenario=four-bar&e=0.3&t=1.2')).toEqual({
      state: { builtin: 'four-bar', e: 0.3, t: 1.2 }, display: {}, notices: [] });
    const { state, display } = readShortLink('scenario=newtons-cradle&e3=0.5&e1=1&impact=2&speed=0.25&embed=1&panels=gamma,log&autoplay=0');
    expect(state).toEqual({ builtin: 'newtons-cradle', e_i: { 0: 1, 2: 0.5 }, impact: 1, speed: 0.25 });
    expect(display).toEqual({ embed: true, panels: ['gamma', 'log'], autoplay: false });
  });

  it('falls back to the default of every bad value, with a notice naming it', () => {
    const { state, notices } = readShortLink('scenario=four-bar&e=1.5&speed=3&t=-1&impact=0&tab=x&e2=abc&colour=red&e=0.1');
    expect(state).toEqual({ builtin: 'four-bar' });
    expect(notices).toEqual([
      'e="1.5" is not a number in [0, 1]; ignored',
      'speed="3" is not one of 0.1, 0.25, 0.5, 1, 2, 4, 8, 16; using 1×',
      't="-1" is not a time in [0, 3600] s; using 0',
      'impact="0" is not an impact number (1 is the first); ignored',
      'tab="x" is not one of playground, lab, editor; using playground',
      'e2="abc" is not a number in [0, 1] (ignored)',
      'unknown parameter "colour" (ignored)',
      'e is given twice: the first value is used',
    ]);
    expect(readParameters('panels=gamma,Z&controls=2&scenario=%3Cimg%3E').notices).toEqual([
      'panels="gamma,Z" names no panel "Z" (panels: a comma list of gamma, S, R, velocity, impulses, log, energy, restitution); using gamma,S,R',
      'controls="2" is not 0 or 1; using 1',
      'scenario="<img>" is not a scenario id; ignored',
    ]);
    expect(readParameters('a='.repeat(3000)).notices[0]).toMatch(/at most 4000/);
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    expect(writeParameters({ scenario: 'two-balls', speed: 1, panels: ['gamma', 'S', 'R'], embed: true, controls: true })).toBe('embed=1&scenario=two-balls&speed=1');
    const values = { scenario: 'two-balls', e: 0.5, nu: 3, t: 0.75, impacts: 0, impact: 2, speed: 2, tab: 'lab', trails: false, matrix: 'Mc',
      embed: true, autoplay: false, controls: false, panels: ['S', 'log'], lang: 'en' };
    const text = writeParameters(values, { 1: 0.2 });
    const read = readParameters(text);
    expect(read.notices).toEqual([]);
    for (const [name, value] of Object.entries(values)) expect(read.values[name], name).toEqual(value);
    expect(read.contacts).toEqual({ 1: 0.2 });
    expect(writeShortLink({ scenario: {} })).toBeNull();
  });

  it('offers the same speeds as the playback controls, and documents every parameter', () => {
    expect(SPEEDS).toEqual(PLAYBACK_SPEEDS);
    // Each in a row of a parameter table: a short link's in docs/share-links.md, an embed's in docs/embedding.md.
    const guides = ['share-links.md', 'embedding.md'].map((name) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8')).join('\n');
    for (const name of Object.keys(PARAMETERS)) expect(guides, `docs/share-links.md or embedding.md documents ${name}`).toContain(`| \`${name}\` |`);
  });

  it('flags links long enough for mail programs to cut', () => {
    expect(LONG_LINK_CHARS).toBe(2000);
    expect(checkStateV1({ builtin: 'a' })).toEqual({ builtin: 'a' });
    expect(checkStateV2({ builtin: 'a' })).toEqual({ builtin: 'a' });
  });
});
