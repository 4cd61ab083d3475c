import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  documentToHtml,
  documentToMarkdown,
  markdownToDocument,
  withKeys,
} from '../../src/modules/documents/index.js';
import { highlight, prepare } from '../../src/modules/published/highlighting/code-highlight.js';
import { excerpt } from '../../src/modules/search/rank.js';
import { sectionsOf } from '../../src/modules/search/sections.js';
import { buildIndex, type IndexInput } from '../../src/modules/search/space-index.js';
import { parseQuery } from '../../src/modules/search/text.js';

/**
 * Parsing, rendering, folding, excerpting, indexing and highlighting are linear in their input
 * (issue 25): for each hostile shape, the work on 4n is at most 2.5² (6.25) times the work on n,
 * i.e. about 2.5 times per doubling. Quadratic work gives 16 times. A ratio of two measurements
 * in the same process, never a time limit: CPU time (process.cpuUsage, so other processes do not
 * count), the least of a few runs after a warm-up. Each case is one the issue found (or its
 * neighbour), and failed before its fix.
 */
const MAX_RATIO = 6.25;

/** CPU time of one run of `work`, in ms: the least of 3 measures of enough runs to be read. */
function cpuMs(work: () => unknown): number {
  // getrusage counts in ticks of a few ms: measure enough runs together to be well above one.
  const started = performance.now();
  work();
  const once = Math.max(performance.now() - started, 0.01);
  const runs = Math.max(1, Math.ceil(40 / once));
  let best = Number.POSITIVE_INFINITY;
  for (let measure = 0; measure < 3; measure++) {
    const before = process.cpuUsage();
    for (let run = 0; run < runs; run++) work();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000 / runs);
  }
  return best;
}

/**
 * `prepare(input)` outside the measure, `work(prepared)` measured, on n and on 4n. A collection
 * of garbage that falls in one measure and not the other can make a linear case look 7× slower
 * once: the pair is measured up to three times, and one ratio within bounds is enough (quadratic
 * work is 16× every time).
 */
function assertLinear<T>(start: number, prepare: (n: number) => T, work: (input: T) => unknown) {
  // Small inputs live and die in the young generation, large ones fill the old one, and the
  // collector's share grows in between (a third of the time near 10 ms, for linear work): each
  // case starts at a size past that (as hostile pages are), and grows on a faster machine.
  let n = start;
  let small = prepare(n);
  // Warm first: a cold run (compiling) can pass 30 ms where the warm one takes 6 ms, and the
  // size would then stay too small to measure (a 10× ratio at 6 → 66 ms, on a busy machine).
  work(small);
  for (let grown = 0; grown < 3 && cpuMs(() => work(small)) < 30; grown++) {
    n *= 2;
    small = prepare(n);
  }
  const large = prepare(4 * n);
  work(small); // warm-up: compiled code, caches
  work(large);
  const ratios: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const a = cpuMs(() => work(small));
    const b = cpuMs(() => work(large));
    if (b / a <= MAX_RATIO) return;
    ratios.push(`${(b / a).toFixed(1)}× (${a.toFixed(2)} → ${b.toFixed(2)} ms)`);
  }
  assert.fail(`n = ${n}: 4× the input took ${ratios.join(', ')} the time`);
}

/** Each hostile shape, the size it starts at, and whether its marks make Markdown hard. */
const markdownCases: [string, number, (n: number) => string, { marks?: true; keys?: true }][] = [
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
  // Each `$$` looked for its closing `$$` to the end of the paragraph.
  ['unclosed formulas', 16_000, (n) => '$$a '.repeat(n), { marks: true }],
  ['formulas', 16_000, (n) => '$$x$$ and '.repeat(n), { marks: true }],
  [
    'blocks between the steps of a stepper',
    8_000,
    (n) => `{% stepper %}\n{% step %}\na\n{% endstep %}\n\n${'b\n\n'.repeat(n)}{% endstepper %}\n`,
    {},
  ],
  [
    'paired tags on one line',
    8_000,
    (n) => '{% file src="a %}" %}x %}{% endfile %}\n\n'.repeat(n),
    {},
  ],
  // GitBook's HTML forms (documents/blocks/): each rule's scan stops at the next tag.
  ['colour marks', 8_000, (n) => '<mark style="color:red;">a</mark> '.repeat(n), { marks: true }],
  [
    'unclosed inline tags',
    2_000,
    (n) => '<mark style="color:red;"><i class="fa-x"><a class="button primary" href="x'.repeat(n),
    { marks: true },
  ],
  [
    'emoji, icons and footnotes',
    8_000,
    (n) => `${':sparkles: <i class="fa-x">:x:</i> a[^1] '.repeat(n)}\n\n[^1]: note`,
    { marks: true },
  ],
  [
    'figures',
    4_000,
    (n) =>
      '<figure><img src="a.png" alt=""><figcaption><p>c</p></figcaption></figure>\n\n'.repeat(n),
    { keys: true },
  ],
  [
    'figures in one div',
    8_000,
    (n) => `<div>${'<figure><img src="a.png"></figure>'.repeat(n)}</div>`,
    {},
  ],
  ['unclosed <pre> blocks', 8_000, (n) => '<pre><code>a\n\n'.repeat(n), {}],
  ['unclosed tables', 8_000, (n) => '<table>\n\n'.repeat(n), {}],
  [
    'card rows',
    8_000,
    (n) =>
      `<table data-view="cards"><thead><tr><th></th><th data-card-target data-type="content-ref"></th></tr></thead><tbody>${'<tr><td>x</td><td><a href="o.md">o</a></td></tr>'.repeat(n)}</tbody></table>`,
    { keys: true },
  ],
  [
    'table columns',
    4_000,
    (n) =>
      `<table data-header-hidden><thead><tr>${'<th data-type="number">n</th>'.repeat(n)}</tr></thead><tbody><tr>${'<td>1</td>'.repeat(n)}</tr></tbody></table>`,
    {},
  ],
];

describe('linear time: Markdown → document → HTML and Markdown', () => {
  for (const [name, n, make, also] of markdownCases) {
    test(`${name}: Markdown → document`, () => {
      assertLinear(n, make, (markdown) => markdownToDocument(markdown));
    });
    test(`${name}: document → HTML`, () => {
      assertLinear(
        n,
        (k) => markdownToDocument(make(k)),
        (doc) => documentToHtml(doc),
      );
    });
    if (also.marks) {
      // Closing a run of marks looked for the white space at the end of all written so far.
      test(`${name}: document → Markdown`, () => {
        assertLinear(
          n,
          (k) => markdownToDocument(make(k)),
          (doc) => documentToMarkdown(doc),
        );
      });
    }
    if (also.keys) {
      test(`${name}: document with keys (the API's)`, () => {
        assertLinear(
          n,
          (k) => markdownToDocument(make(k)),
          (doc) => withKeys(doc),
        );
      });
    }
  }
});

describe('linear time: formulas typeset by KaTeX', () => {
  // KaTeX's own work per formula is far above the parser's: a page of fewer of them is enough.
  test('document → HTML', () => {
    assertLinear(
      500,
      (k) => markdownToDocument('$$x^2 + \\frac{a}{b}$$ and '.repeat(k)),
      (doc) => documentToHtml(doc),
    );
  });
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
