// Every relative link of the README and of docs/ resolves: the file (or folder) it names exists, and the
// anchor after `#`, in that file or in the same one, is a heading there (GitHub's anchors: the heading's
// text, lower case, punctuation dropped, spaces as hyphens, a repeated one numbered). Links inside code
// blocks and to other sites are not followed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const documents = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text of a markdown file without its fenced code blocks and inline code spans. */
function prose(text) {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading's text. */
export function anchorOf(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')  // a link: its text
    .replace(/[`*_]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a markdown file's headings. */
function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const match of text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchorOf(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count ? `${base}-${count}` : base);
  }
  return out;
}

/** The relative links of a markdown file: [text](target) and ![alt](target), without a title. */
function links(text) {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('links of the README and docs/', () => {
  it('finds the headings’ anchors as GitHub writes them', () => {
    expect(anchorOf('`oblique simulate SCENARIO.json`')).toBe('oblique-simulate-scenariojson');
    expect(anchorOf('Changing μ during a run')).toBe('changing-μ-during-a-run');
    expect(anchorOf('Limits: what Oblique refuses, and why')).toBe('limits-what-oblique-refuses-and-why');
    expect([...anchors('# A\n## B b\n```\n# not a heading\n```\n## B b\n')]).toEqual(['a', 'b-b', 'b-b-1']);
    expect(links('[a](x.md) ![b](y.png "t") `[c](z.md)` [d](https://e.org) [e](#f)\n```\n[g](h.md)\n```')).toEqual(['x.md', 'y.png', '#f']);
  });

  for (const document of documents) {
    it(`${document}: every relative link resolves`, () => {
      const text = readFileSync(new URL(document, root), 'utf8');
      const found = links(text);
      if (document === 'README.md') expect(found.length).toBeGreaterThan(10);
      for (const target of found) {
        const [path, anchor] = target.split('#');
        const file = path ? new URL(decodeURI(path), new URL(document, root)) : new URL(document, root);
        expect(existsSync(file), `${document}: ${target} names no file`).toBe(true);
        if (anchor === undefined) continue;
        expect(statSync(file).isFile() && file.pathname.endsWith('.md'), `${document}: ${target} is not a markdown file`).toBe(true);
        const known = anchors(readFileSync(file, 'utf8'));
        expect(known.has(decodeURIComponent(anchor)), `${document}: ${target}: no heading #${anchor} (${[...known].join(', ')})`).toBe(true);
      }
    });
  }
});
