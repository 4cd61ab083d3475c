/**
 * Search's pure parts (docs/search.md): folding and tokens, queries, sections and their anchors,
 * the index and its ranking, excerpts. Table tests, and properties with fast-check.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { StoredPage, Tree } from '../../src/modules/content/tree.js';
import { type Block, markdownToDocument } from '../../src/modules/documents/index.js';
import { excerpt, searchIndex, sectionHits } from '../../src/modules/search/rank.js';
import { sectionsOf } from '../../src/modules/search/sections.js';
import { buildIndex, readablePages, wordsMatching } from '../../src/modules/search/space-index.js';
import { fold, foldChar, parseQuery, tokenize } from '../../src/modules/search/text.js';

const AT = '2024-01-01T00:00:00.000Z';
let next = 0;
const doc = (title: string, markdown: string, extra: Partial<StoredPage> = {}): StoredPage => ({
  id: `p${next++}`,
  type: 'document',
  title,
  slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  markdown,
  createdAt: AT,
  updatedAt: AT,
  pages: [],
  ...extra,
});

describe('search: text', () => {
  test('folding ignores case and accents, spells out letters without decomposition', () => {
    for (const [text, folded] of [
      ['Über', 'uber'],
      ['ÉCOLE', 'ecole'],
      ['Straße', 'strasse'],
      ['Ærø', 'aero'],
      ['ﬁle', 'file'], // a ligature decomposes
      ['Łódź', 'lodz'],
      ['日本語', '日本語'],
    ] as const) {
      assert.equal(fold(text), folded, text);
    }
  });

  test('tokens are runs of letters and digits; punctuation separates', () => {
    assert.deepEqual(tokenize('Install v2.0 — the CLI (npm-install)!'), [
      'install',
      'v2',
      '0',
      'the',
      'cli',
      'npm',
      'install',
    ]);
    assert.deepEqual(tokenize('  '), []);
  });

  test('queries: terms folded, repeats dropped, the last a prefix unless a space ends it', () => {
    assert.deepEqual(parseQuery('Install inst'), { terms: ['install', 'inst'], prefixLast: true });
    assert.deepEqual(parseQuery('install install '), { terms: ['install'], prefixLast: false });
    assert.deepEqual(parseQuery('über?'), { terms: ['uber'], prefixLast: false });
    assert.deepEqual(parseQuery('!!'), { terms: [], prefixLast: false });
    assert.equal(
      parseQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')).terms.length,
      16,
    );
  });
});

describe('search: sections', () => {
  test('a page is cut at its headings; anchors are the published slugs, repeats numbered', () => {
    const sections = sectionsOf(
      [
        'Intro **text** with `code`.',
        '',
        '## Install *now*',
        '',
        '- one',
        '- two',
        '',
        '```sh',
        'npm install livery',
        '```',
        '',
        '### Install now',
        '',
        '{% hint style="info" %}',
        'A hint, kept.',
        '{% endhint %}',
        '',
        '## Über uns',
        '',
        '| a | b |',
        '|---|---|',
        '| cell | ![alt text](x.png) |',
      ].join('\n'),
    );
    assert.deepEqual(sections, [
      { anchor: '', title: '', text: 'Intro text with code.' },
      { anchor: 'install-now', title: 'Install now', text: 'one two npm install livery' },
      { anchor: 'install-now-2', title: 'Install now', text: 'A hint, kept.' },
      { anchor: 'über-uns', title: 'Über uns', text: 'a b cell alt text' },
    ]);
  });

  test('a first heading-1 equal to the title is the title: no section, not counted', () => {
    const body = '# Install\n\nFirst.\n\n## Install\n\nAgain.';
    assert.deepEqual(sectionsOf(body, 'Install'), [
      { anchor: '', title: '', text: 'First.' },
      { anchor: 'install', title: 'Install', text: 'Again.' },
    ]);
    assert.deepEqual(
      sectionsOf(body, 'Other').map((s) => s.anchor),
      ['install', 'install-2'],
    );
  });

  test('an empty body has no sections; a heading alone is one', () => {
    assert.deepEqual(sectionsOf(''), []);
    assert.deepEqual(sectionsOf('# Title'), [{ anchor: 'title', title: 'Title', text: '' }]);
  });
});

const TREE: Tree = [
  doc(
    'Getting started',
    'Welcome to Acme. Read the install guide first.\n\n## Requirements\n\nNode 20.',
    {
      description: 'How to begin',
    },
  ),
  {
    ...doc('Guides', ''),
    type: 'group',
    pages: [
      doc(
        'Install',
        'Run the installer.\n\n## Configure\n\nSet the install path. Install again to update.',
      ),
      doc('Secret', 'install install install', { hidden: true }),
      doc(
        'Deploy',
        '## Install on a server\n\nCopy files.\n\n## Rollback\n\nInstall the previous version.',
      ),
    ],
  },
  doc('Hidden parent', 'install', {
    hidden: true,
    pages: [doc('Hidden child', 'install everywhere')],
  }),
  doc('Straße', 'Die Straße ist lang. Über alles.'),
];

const index = buildIndex(readablePages(TREE));
const titles = (text: string) => searchIndex(index, parseQuery(text)).map((hit) => hit.page.title);

describe('search: index and ranking', () => {
  test('readable documents only: not groups, links, hidden pages nor what is below them', () => {
    assert.deepEqual(
      index.pages.map((p) => [p.title, p.path, p.ancestors]),
      [
        ['Getting started', 'getting-started', []],
        ['Install', 'guides/install', ['Guides']],
        ['Deploy', 'guides/deploy', ['Guides']],
        ['Straße', 'stra-e', []],
      ],
    );
  });

  test('queries → ranked pages: title > heading > text, then frequency', () => {
    for (const [query, expected] of [
      // Install: title; Deploy: heading; Getting started: text ("install guide").
      ['install', ['Install', 'Deploy', 'Getting started']],
      ['INSTALL ', ['Install', 'Deploy', 'Getting started']],
      // prefix on the last term only
      ['inst', ['Install', 'Deploy', 'Getting started']],
      ['inst ', []],
      ['install guide', ['Getting started']],
      ['guide install', ['Getting started']],
      // all terms must match
      ['install rollback', ['Deploy']],
      ['install nothing', []],
      // accents and ß
      ['strasse', ['Straße']],
      ['uber', ['Straße']],
      ['STRASSE über', ['Straße']],
      // the description counts as a page field
      ['begin', ['Getting started']],
      ['requirements', ['Getting started']],
      ['', []],
    ] as const) {
      assert.deepEqual(titles(query), expected, JSON.stringify(query));
    }
  });

  test('sections: those holding a term, best first, with their anchor and an excerpt', () => {
    const [deploy] = searchIndex(index, parseQuery('rollback install'));
    assert.ok(deploy);
    assert.equal(deploy.onPageFields, false);
    assert.deepEqual(
      sectionHits(deploy, parseQuery('rollback install')).map((s) => [s.section.anchor, s.body]),
      [
        ['rollback', 'Install the previous version.'],
        ['install-on-a-server', 'Copy files.'],
      ],
    );
    // A page found by its title alone: its first section with text, as a preview.
    const [begin] = searchIndex(index, parseQuery('begin'));
    assert.equal(begin?.onPageFields, true);
    assert.deepEqual(
      (begin === undefined ? [] : sectionHits(begin, parseQuery('begin'))).map((s) => [
        s.section.anchor,
        s.score,
      ]),
      [['', 0]],
    );
  });

  test('prefix look-ups find every word that starts with the term, and only those', () => {
    assert.deepEqual(wordsMatching(index, 'inst', true), ['install', 'installer']);
    assert.deepEqual(wordsMatching(index, 'inst', false), []);
    assert.deepEqual(wordsMatching(index, 'zzz', true), []);
  });

  test('excerpts: short texts whole; long ones cut around the first match', () => {
    const query = parseQuery('needle');
    assert.equal(excerpt('A short text.', query), 'A short text.');
    const long = `${'word '.repeat(60)}the Needle is here ${'tail '.repeat(60)}`.trim();
    const cut = excerpt(long, query);
    assert.match(cut, /^….*the Needle is here.*…$/);
    assert.ok(cut.length <= 170, cut);
    // Accented text: the match is found folded and cut from the original.
    const german = `${'Über Äpfel '.repeat(20)}die Straße ist lang ${'Öl '.repeat(60)}`.trim();
    assert.match(excerpt(german, parseQuery('strasse')), /^….*die Straße ist lang.*…$/);
  });
});

/** The heading anchors of the page document (what the published site renders), in order. */
function documentAnchors(markdown: string, title: string): string[] {
  const visit = (nodes: readonly Block[]): string[] =>
    nodes.flatMap((node) => [
      ...(typeof node.meta?.id === 'string' ? [node.meta.id] : []),
      ...visit((node.nodes ?? []).filter((child): child is Block => child.object === 'block')),
      ...(node.fragments ?? []).flatMap((fragment) => visit(fragment.nodes)),
    ]);
  return visit(markdownToDocument(markdown, { title }).nodes as Block[]);
}

describe('search: properties', () => {
  test("section anchors are the page document's heading ids", () => {
    const heading = fc
      .tuple(
        fc.constantFrom('#', '##', '###'),
        fc.constantFrom(
          'Install',
          'Install *now*',
          'Über uns',
          '`code` here',
          '[Link](https://x.test)',
          '???',
        ),
      )
      .map(([level, text]) => `${level} ${text}`);
    const block = fc.oneof(
      heading,
      fc.constantFrom('Text.', '> ## Quoted', '- item', '{% hint %}\n## Hinted\n{% endhint %}'),
    );
    fc.assert(
      fc.property(
        fc.array(block, { maxLength: 8 }),
        fc.constantFrom('Install', 'Other'),
        (blocks, title) => {
          const markdown = blocks.join('\n\n');
          const anchors = sectionsOf(markdown, title)
            .map((section) => section.anchor)
            .filter((anchor) => anchor !== '');
          assert.deepEqual(anchors, documentAnchors(markdown, title), markdown);
        },
      ),
    );
  });

  const word = fc.constantFrom('alpha', 'beta', 'gamma', 'délta', 'Über', 'straße', 'zeta', 'eta');
  const text = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '));
  const page = fc.record({ title: text, body: text, heading: text });
  const pages = fc.array(page, { maxLength: 8 });

  test('every page found holds every query term (its last as a prefix), hidden pages never', () => {
    fc.assert(
      fc.property(
        pages,
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (ps, q, typing) => {
          const tree = ps.map((p, i) =>
            doc(p.title || `t${i}`, `${p.body}\n\n## ${p.heading || 'h'}\n\n${p.body}`, {
              hidden: i % 4 === 3,
            }),
          );
          const query = parseQuery(q.join(' ') + (typing ? '' : ' '));
          const built = buildIndex(readablePages(tree));
          const hits = searchIndex(built, query);
          for (const hit of hits) {
            const words = new Set(
              tokenize(
                [hit.page.title, ...hit.page.sections.flatMap((s) => [s.title, s.text])].join(' '),
              ),
            );
            query.terms.forEach((term, t) => {
              const prefix = query.prefixLast && t === query.terms.length - 1;
              assert.ok(
                [...words].some((w) => (prefix ? w.startsWith(term) : w === term)),
                `${hit.page.title} holds ${term}`,
              );
            });
            assert.notEqual(tree.find((p) => p.id === hit.page.id)?.hidden, true);
          }
          // Ranked: scores never increase.
          for (let i = 1; i < hits.length; i++) {
            assert.ok((hits[i - 1]?.score ?? 0) >= (hits[i]?.score ?? 0));
          }
        },
      ),
    );
  });

  test('folding is idempotent and tokens are folded', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        assert.equal(fold(fold(s)), fold(s));
        // One pass and one character at a time agree: excerpts map matches back through the latter.
        assert.equal([...s].map(foldChar).join(''), fold(s));
        for (const token of tokenize(s)) assert.equal(fold(token), token);
      }),
    );
  });
});
