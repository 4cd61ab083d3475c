import { describe, test } from 'node:test';
import { highlight, prepare } from '../../src/modules/published/highlighting/code-highlight.js';
import { excerpt } from '../../src/modules/search/rank.js';
import { sectionsOf } from '../../src/modules/search/sections.js';
import { buildIndex, type IndexInput } from '../../src/modules/search/space-index.js';
import { parseQuery } from '../../src/modules/search/text.js';
import { assertLinear, type MarkdownCase, markdownCaseTests } from '../helpers/linear-time.js';

/**
 * Parsing, rendering, folding, excerpting, indexing and highlighting are linear in their input
 * (issue 25), measured by test/helpers/linear-time.ts: 4× the input may cost at most 6.25× the
 * CPU. GitBook's blocks have their own file (linear-time-gitbook.test.ts).
 */

const markdownCases: MarkdownCase[] = [
  // `markdownToDocument('*a* '.repeat(8000))` took 12.9 s: text runs merged over and over.
  ['emphasis', 16_000, (n) => '*a* '.repeat(n), { marks: true }],
  ['bold', 16_000, (n) => '**a** '.repeat(n), { marks: true }],
  ['inline code', 16_000, (n) => '`a` '.repeat(n), { marks: true }],
  ['links to pages', 8_000, (n) => '[a](other.md) '.repeat(n), {}],
  ['unclosed emphasis', 32_000, (n) => '*a'.repeat(n), { marks: true }],
  [
    'headings (the 120,000-heading page)',
    4_000,
    (n) => '## Heading\n\ntext\n\n'.repeat(n),
    { keys: true },
  ],
  [
    'table rows (the 80,000-row table)',
    16_000,
    (n) => `| a | b |\n|---|---|\n${'| x | y |\n'.repeat(n)}`,
    { keys: true },
  ],
  ['unclosed template tags', 16_000, (n) => '{% hint style="info" %}\n\n'.repeat(n), {}],
  ['code blocks', 8_000, (n) => '```js\nlet a = 1;\n```\n\n'.repeat(n), {}],
];

describe('linear time: Markdown → document → HTML and Markdown', () => {
  markdownCaseTests(markdownCases);
});

describe('linear time: search', () => {
  test('sections of a page of unclosed template tags (a lazy regex was quadratic)', () => {
    assertLinear(
      2000,
      (n) => '{%a '.repeat(n),
      (markdown) => sectionsOf(markdown),
    );
  });

  // One anonymous query over 12 long non-ASCII pages blocked the server 2.0–2.5 s: excerpts
  // folded the whole section one character at a time.
  test('the excerpt of a long non-ASCII section, its match at the end', () => {
    const query = parseQuery('zielwort');
    assertLinear(
      20_000,
      (n) => `${'Über die Straße ging ein Mädchen. '.repeat(n)}Zielwort.`,
      (text) => excerpt(text, query),
    );
  });

  test('an index over many pages', () => {
    const page = (i: number): IndexInput => ({
      id: `p${i}`,
      title: `Page ${i}`,
      description: '',
      path: `p${i}`,
      ancestors: [],
      markdown: `## Über ${i}\n\nStraße ${i} und Weg ${i * 7}, ein Mädchen.\n\n`.repeat(10),
    });
    assertLinear(
      100,
      (n) => Array.from({ length: n }, (_, i) => page(i)),
      (pages) => buildIndex(pages),
    );
  });
});

describe('linear time: code highlighting', () => {
  test('a long TypeScript block (up to the highlighted size), within an unlimited budget', async () => {
    const themes = { light: 'github-light', dark: 'github-dark' } as const;
    await prepare(['ts'], themes);
    const unlimited = Number.POSITIVE_INFINITY;
    assertLinear(
      150, // 4n lines stay under MAX_HIGHLIGHTED_CHARS: longer blocks are plain
      (n) => Array.from({ length: n }, (_, i) => `const v${i} = f(${i}, "s${i}");`).join('\n'),
      // Each run a block of its own: highlighted blocks are kept by their code.
      (code) =>
        highlight(
          `${code}\n// ${Math.random()}`,
          'ts',
          themes,
          { spentMs: 0 },
          undefined,
          unlimited,
        ),
    );
  });
});
