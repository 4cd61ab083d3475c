import { describe, test } from 'node:test';
import { documentToHtml, markdownToDocument } from '../../src/modules/documents/index.js';
import { assertLinear, type MarkdownCase, markdownCaseTests } from '../helpers/linear-time.js';

/**
 * GitBook's blocks (issue 27: Liquid tags and HTML forms, src/modules/documents/blocks/) are
 * linear in their input too, as test/performance/linear-time.test.ts checks the rest (its
 * harness, shared: test/helpers/linear-time.ts). A file of its own, so that each file stays
 * well within the runner's time limit per file.
 */
const gitbookCases: MarkdownCase[] = [
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
    // One text of n × 70 characters: 4n stays near 1 MB.
    { marks: true, maxN: 4_000 },
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
    // Started larger: at 32,000 columns the small run often misses the collection the large one
    // pays for, and the ratio read 6.3× (the same before and after issue 28; 4.4–5.6× from 64,000).
    'table columns',
    8_000,
    (n) =>
      `<table data-header-hidden><thead><tr>${'<th data-type="number">n</th>'.repeat(n)}</tr></thead><tbody><tr>${'<td>1</td>'.repeat(n)}</tr></tbody></table>`,
    {},
  ],
];

describe('linear time: GitBook blocks, Markdown → document → HTML and Markdown', () => {
  markdownCaseTests(gitbookCases);
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
