/**
 * GitBook's HTML and inline forms of Git Sync Markdown (docs/content.md, "Page documents"), form
 * by form: Markdown → document (valid under GitBook 0.202) → the published site's HTML →
 * Markdown → the same document; and hostile attributes (`javascript:`, `onerror`, styles) that
 * come out inert.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  documentToHtml,
  documentToMarkdown,
  type HtmlOptions,
  type JsonDocument,
  markdownToDocument,
  type PageLinks,
} from '../../src/modules/documents/index.js';
import { violationsAt } from '../helpers/gitbook-spec.js';

/** A page imported from Git: its file, the revision's pages and files. */
const LINKS: PageLinks = {
  path: 'guide/install',
  ids: new Map([
    ['guide/install', 'I'],
    ['guide/other', 'O'],
  ]),
  paths: new Map([
    ['I', 'guide/install'],
    ['O', 'guide/other'],
  ]),
  file: 'guide/install.md',
  pageFiles: new Map([
    ['guide/install.md', 'I'],
    ['guide/other.md', 'O'],
  ]),
  files: new Map([
    ['.gitbook/assets/a b.png', 'F1'],
    ['.gitbook/assets/dark.png', 'F2'],
    ['.gitbook/assets/x.drawing.svg', 'F3'],
    ['.gitbook/assets/Screenshot\u202f2024.png', 'F4'],
  ]),
};
const OPTIONS: HtmlOptions = {
  pageHref: (id) => ({ I: '/s/acme/guide/install', O: '/s/acme/guide/other' })[id],
  pageTitle: (id) => ({ I: 'Install', O: 'Other page' })[id],
  file: (id) =>
    id.startsWith('F')
      ? { url: `/files/${id}`, name: `${id}.png`, contentType: 'image/png', size: 1 }
      : undefined,
};

function convert(markdown: string): JsonDocument {
  const doc = markdownToDocument(markdown, LINKS);
  assert.deepEqual(
    violationsAt('0.202', '/components/schemas/JSONDocument', doc),
    [],
    JSON.stringify(doc),
  );
  return doc;
}

/** The document's nodes without the fields a test does not name (a partial match). */
function includes(actual: unknown, expected: unknown, path = '$'): void {
  if (expected === null || typeof expected !== 'object') {
    assert.deepEqual(actual, expected, path);
    return;
  }
  assert.ok(actual !== null && typeof actual === 'object', `${path}: ${JSON.stringify(actual)}`);
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), path);
    assert.equal(actual.length, expected.length, `${path}: ${JSON.stringify(actual)}`);
  }
  for (const [key, value] of Object.entries(expected)) {
    includes((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
  }
}

const t = (text: string, ...marks: unknown[]) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks }],
});
const bold = { object: 'mark', type: 'bold' };
/** One text of two leaves, the second bold (or the first, `boldFirst`). */
const two = (a: string, b: string, boldFirst = false) => ({
  object: 'text',
  leaves: [
    { object: 'leaf', text: a, marks: boldFirst ? [bold] : [] },
    { object: 'leaf', text: b, marks: boldFirst ? [] : [bold] },
  ],
});
const file = (id: string) => ({ kind: 'file', file: id });

/** [what, Markdown, (part of) the document's nodes, what its HTML holds, what it must not]. */
const FORMS: [string, string, unknown[], (string | RegExp)[], RegExp[]][] = [
  [
    'a figure with a caption and a width; the source a file of the revision (spaces raw)',
    '<figure><img src="../.gitbook/assets/a b.png" alt="A cat" width="188"><figcaption><p>The <strong>cat</strong></p></figcaption></figure>',
    [
      {
        type: 'images',
        data: {},
        nodes: [
          {
            type: 'image',
            data: { ref: file('F1'), alt: 'A cat', width: 188 },
            fragments: [{ fragment: 'caption', nodes: [{ nodes: [two('The ', 'cat')] }] }],
          },
        ],
      },
    ],
    [
      '<img src="/files/F1" alt="A cat" width="188" loading="lazy">',
      '<figcaption>The <strong>cat</strong></figcaption>',
    ],
    [],
  ],
  [
    'a div with options around several figures: one images block; %20 and a URL',
    '<div align="left" data-full-width="true" data-with-frame="true"><figure><img src="../.gitbook/assets/a%20b.png" alt=""><figcaption></figcaption></figure><figure><img src="https://x.test/y.png" alt="y"><figcaption><p>c</p></figcaption></figure></div>',
    [
      {
        type: 'images',
        data: { align: 'left', fullWidth: true, withFrame: true },
        nodes: [
          { data: { ref: file('F1') }, fragments: [] },
          { data: { ref: { kind: 'url', url: 'https://x.test/y.png' }, alt: 'y' } },
        ],
      },
    ],
    ['<div class="images images-left full-width images-frame">', '<img src="https://x.test/y.png"'],
    [],
  ],
  [
    'a picture with a dark source: refDark, two images shown by the theme',
    '<picture><source srcset="../.gitbook/assets/dark.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/a b.png" alt=""></picture>',
    [{ type: 'images', nodes: [{ data: { ref: file('F1'), refDark: file('F2') } }] }],
    [
      '<img src="/files/F1" alt="" class="image-light"',
      '<img src="/files/F2" alt="" class="image-dark"',
    ],
    [],
  ],
  [
    'a drawing',
    '<img src="../.gitbook/assets/x.drawing.svg" alt="A drawing" class="gitbook-drawing">',
    [{ type: 'drawing', isVoid: true, data: { ref: file('F3') } }],
    ['<img src="/files/F3"'],
    [],
  ],
  [
    'Markdown images: a <…> destination, a U+202F name',
    '![x](<../.gitbook/assets/a b.png>)\n\n![s](../.gitbook/assets/Screenshot\u202f2024.png)',
    [
      { type: 'images', nodes: [{ data: { ref: file('F1'), alt: 'x' } }] },
      { type: 'images', nodes: [{ data: { ref: file('F4'), alt: 's' } }] },
    ],
    ['<img src="/files/F1" alt="x"', '<img src="/files/F4" alt="s"'],
    [],
  ],
  [
    'an inline image with a size',
    'An <img src="../.gitbook/assets/a b.png" alt="icon" data-size="line"> icon',
    [
      {
        type: 'paragraph',
        nodes: [
          t('An '),
          { type: 'inline-image', data: { ref: file('F1'), alt: 'icon', size: 'line' } },
          t(' icon'),
        ],
      },
    ],
    ['<img src="/files/F1" alt="icon" class="inline-line"'],
    [],
  ],
  [
    'a <pre> code block with its options; markup inside reduced to text, entities decoded',
    '<pre class="language-ts" data-title="src/App.tsx" data-line-numbers data-expandable="true" data-overflow="wrap" data-full-width="false"><code class="lang-ts"><strong>if (a &#x3C; b &#x26;&#x26; c)\n</strong>  go()<a data-footnote-ref href="#fn1">1</a>\n</code></pre>',
    [
      {
        type: 'code',
        data: {
          syntax: 'ts',
          title: 'src/App.tsx',
          overflow: 'wrap',
          lineNumbers: true,
          expandable: true,
          fullWidth: false,
        },
        nodes: [{ nodes: [t('if (a < b && c)')] }, { nodes: [t('  go()1')] }],
      },
    ],
    [
      '<figure class="code-block code-wrap line-numbers"><figcaption>src/App.tsx</figcaption>',
      'a &lt; b &amp;&amp; c',
    ],
    [/<strong>/],
  ],
  [
    'a cards table: the target a page, the cover a file, hidden columns, text cells with HTML',
    '<table data-view="cards" data-card-size="large"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image">Cover</th></tr></thead><tbody><tr><td><h4><i class="fa-rocket">:rocket:</i></h4></td><td><strong>Quick</strong> start</td><td><a href="other.md">other.md</a></td><td><a href="../.gitbook/assets/a b.png">a b.png</a></td></tr></tbody></table>',
    [
      {
        type: 'table',
        data: {
          view: {
            type: 'cards',
            columns: ['c0', 'c1'],
            cardSize: 'large',
            targetDefinition: 'c2',
            coverDefinition: 'c3',
          },
          definition: {
            c2: { id: 'c2', title: '', type: 'content-ref' },
            c3: { id: 'c3', title: 'Cover', type: 'image' },
          },
          records: {
            r0: {
              orderIndex: 'a00000',
              values: {
                c0: 'r0c0',
                c1: 'r0c1',
                c2: { kind: 'page', page: 'O' },
                c3: { ref: file('F1') },
              },
            },
          },
        },
        fragments: [
          { fragment: 'r0c0', nodes: [{ nodes: [{ type: 'icon', data: { icon: 'rocket' } }] }] },
          { fragment: 'r0c1', nodes: [{ nodes: [two('Quick', ' start', true)] }] },
        ],
      },
    ],
    [
      '<div class="cards cards-large">',
      '<img class="card-cover" src="/files/F1"',
      '<a class="card-link" href="/s/acme/guide/other" aria-label="Quick start"></a>',
    ],
    [/<table/],
  ],
  [
    "a cards table as GitBook exports it: the cover a `files` column, its cell the file's link",
    '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Trails</strong></td><td><a href="other.md">other.md</a></td><td><a href="../.gitbook/assets/a b.png">a b.png</a></td></tr><tr><td>No cover</td><td></td><td></td></tr></tbody></table>',
    [
      {
        type: 'table',
        data: {
          view: { type: 'cards', columns: ['c0'], targetDefinition: 'c1', coverDefinition: 'c2' },
          definition: { c2: { id: 'c2', title: '', type: 'files' } },
          records: {
            r0: { values: { c0: 'r0c0', c1: { kind: 'page', page: 'O' }, c2: ['F1'] } },
            r1: { values: { c0: 'r1c0' } },
          },
        },
      },
    ],
    [
      '<div class="card card-linked"><img class="card-cover" src="/files/F1" alt="" loading="lazy">',
      '<div class="card"><div class="card-body">',
    ],
    [/<table/, /\.gitbook\/assets/],
  ],
  [
    'an HTML grid table: typed columns, alignment, width, a hidden header, paragraphs in a cell',
    '<table data-header-hidden data-full-width="true"><thead><tr><th align="right" width="30">A</th><th data-type="number">N</th><th data-type="checkbox">C</th></tr></thead><tbody><tr><td><p>a</p><p>b</p></td><td>3</td><td>true</td></tr></tbody></table>',
    [
      {
        type: 'table',
        data: {
          view: {
            type: 'grid',
            columns: ['c0', 'c1', 'c2'],
            hideHeader: true,
            columnWidths: { c0: 30 },
          },
          definition: {
            c0: { type: 'text', textAlignment: 'right' },
            c1: { type: 'number' },
            c2: { type: 'checkbox' },
          },
          records: { r0: { values: { c0: 'r0c0', c1: 3, c2: true } } },
          fullWidth: true,
        },
        fragments: [{ fragment: 'r0c0', nodes: [{ nodes: [t('a')] }, { nodes: [t('b')] }] }],
      },
    ],
    ['<td style="text-align:right"><p>a</p>', '<input type="checkbox" disabled checked>'],
    [/<thead>/],
  ],
  [
    'colour marks (named colours and theme tokens), with other marks inside',
    'A <mark style="color:orange;background-color:purple;">x **b**</mark> <mark style="color:$primary;">y</mark>',
    [
      {
        type: 'paragraph',
        nodes: [
          {
            leaves: [
              { text: 'A ', marks: [] },
              {
                text: 'x ',
                marks: [{ type: 'color', data: { text: 'orange', background: 'purple' } }],
              },
              {
                text: 'b',
                marks: [bold, { type: 'color', data: { text: 'orange', background: 'purple' } }],
              },
              { text: ' ', marks: [] },
              {
                text: 'y',
                marks: [{ type: 'color', data: { text: '$primary', background: 'default' } }],
              },
            ],
          },
        ],
      },
    ],
    [
      '<mark class="color text-orange bg-purple">x </mark>',
      '<mark class="color text-primary">y</mark>',
    ],
    [/style=/],
  ],
  [
    'buttons: a link, an action, an inactive one',
    '<a href="other.md" class="button primary" data-icon="github">Go</a> <button type="button" class="button secondary" data-action="ask" data-query="How?" data-icon="gitbook-assistant">Ask</button>',
    [
      {
        type: 'paragraph',
        nodes: [
          {
            type: 'button',
            isVoid: true,
            data: {
              label: 'Go',
              kind: 'primary',
              icon: 'github',
              ref: { kind: 'page', page: 'O' },
            },
          },
          t(' '),
          {
            type: 'button',
            data: { label: 'Ask', kind: 'secondary', action: { action: 'ask', query: 'How?' } },
          },
        ],
      },
    ],
    [
      '<a class="button button-primary" href="/s/acme/guide/other">Go</a>',
      '<span class="button button-secondary">Ask</span>',
    ],
    [],
  ],
  [
    'icons, emoji (a shortcode, a span, an unknown shortcode stays text)',
    '<i class="fa-github" style="color:$info;">:github:</i> :sparkles: <span data-gb-custom-inline data-tag="emoji" data-code="274c">❌</span> :not-an-emoji:',
    [
      {
        type: 'paragraph',
        nodes: [
          { type: 'icon', data: { icon: 'github', color: '$info' } },
          t(' '),
          { type: 'emoji', data: { code: '2728' } },
          t(' '),
          { type: 'emoji', data: { code: '274c' } },
          t(' :not-an-emoji:'),
        ],
      },
    ],
    [
      '<span class="inline-icon text-info" title="github"',
      '<span class="emoji" role="img">✨</span>',
      ':not-an-emoji:',
    ],
    [],
  ],
  [
    'a footnote: the word before it annotated, the note listed after the page',
    'Some word[^1] here.\n\n[^1]: The **note**.',
    [
      {
        type: 'paragraph',
        nodes: [
          t('Some '),
          {
            type: 'annotation',
            isVoid: false,
            nodes: [t('word')],
            fragments: [
              {
                type: 'annotation-body',
                nodes: [
                  {
                    type: 'paragraph',
                    nodes: [{ leaves: [{ text: 'The ' }, { text: 'note' }, { text: '.' }] }],
                  },
                ],
              },
            ],
          },
          t(' here.'),
        ],
      },
    ],
    [
      'word<sup class="footnote-ref"><a href="#fn-1" id="fnref-1">1</a></sup>',
      '<li id="fn-1"><p>The <strong>note</strong>.</p>',
    ],
    [/\[\^1\]/],
  ],
  [
    'an expression and mentions (Markdown and HTML)',
    '<code class="expression">space.vars.x</code> [Other](other.md "mention") <a data-mention href="other.md">Other</a>',
    [
      {
        type: 'paragraph',
        nodes: [
          { type: 'expression', data: { expression: 'space.vars.x' } },
          t(' '),
          { type: 'mention', data: { ref: { kind: 'page', page: 'O' } } },
          t(' '),
          { type: 'mention', data: { ref: { kind: 'page', page: 'O' } } },
        ],
      },
    ],
    [
      '<code class="expression">space.vars.x</code>',
      '<a class="mention" href="/s/acme/guide/other">Other page</a>',
    ],
    [],
  ],
  [
    "GitBook's custom-block fallback in a list item: a hint",
    '* item\n\n    <div data-gb-custom-block data-tag="hint" data-style="success" class="hint hint-success"><p><strong>Support</strong> first.</p></div>',
    [
      {
        type: 'list-unordered',
        nodes: [
          {
            type: 'list-item',
            nodes: [
              { type: 'paragraph' },
              {
                type: 'hint',
                data: { style: 'success' },
                nodes: [{ nodes: [two('Support', ' first.', true)] }],
              },
            ],
          },
        ],
      },
    ],
    ['<div class="hint hint-success" role="note">'],
    [/data-gb-custom-block/],
  ],
  [
    'a heading with a custom anchor; entities in text',
    '### Get started <a href="#getting-started" id="getting-started"></a>\n\nA&#x20;&#x26;&#x3C;b',
    [
      {
        type: 'heading-2',
        data: { id: 'getting-started' },
        meta: { id: 'getting-started' },
        nodes: [t('Get started')],
      },
      { type: 'paragraph', nodes: [t('A &<b')] },
    ],
    ['<h2 id="getting-started">Get started</h2>', '<p>A &amp;&lt;b</p>'],
    [/<a href="#getting-started"/],
  ],
  [
    '<sub>, <sup> and <br> in text: their text, a line break, never the tags',
    'H<sub>2</sub>O x<sup>2</sup> a<br>b',
    [{ type: 'paragraph', nodes: [t('H2O x2 a\nb')] }],
    ['<p>H2O x2 a<br>\nb</p>'],
    [/<su[bp]>|&lt;su/],
  ],
  [
    "a significant space at a paragraph's end (`&#x20;`), line breaks in a cell, a select option, `<code>` with a `|`",
    'Emoji:&#x20;\n\n| a | b |\n| --- | --- |\n| x<br><br>y | <span data-option="k1">Done</span> <code>a \\| b</code> |',
    [
      { type: 'paragraph', nodes: [t('Emoji: ')] },
      {
        type: 'table',
        fragments: [
          { fragment: 'r0c0', nodes: [{ nodes: [t('x\n\ny')] }] },
          {
            fragment: 'r0c1',
            // In a pipe table a select's option stays text (GitBook writes it in HTML tables).
            nodes: [
              {
                nodes: [
                  {
                    leaves: [
                      { text: '<span data-option="k1">Done</span> ' },
                      { text: 'a | b', marks: [{ type: 'code' }] },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
    ['<td>x<br>\n<br>\ny</td>', '<code>a | b</code>'],
    [],
  ],
  [
    "a select column's options in an HTML table: their text",
    '<table><thead><tr><th>S</th></tr></thead><tbody><tr><td><span data-option="k1">Done</span></td></tr></tbody></table>',
    [{ type: 'table', fragments: [{ fragment: 'r0c0', nodes: [{ nodes: [t('Done')] }] }] }],
    ['<td>Done</td>'],
    [/data-option/],
  ],
];

describe('GitBook HTML forms: Markdown → document → HTML → Markdown → document', () => {
  for (const [what, markdown, nodes, holds, never] of FORMS) {
    test(what, () => {
      const doc = convert(markdown);
      includes(doc.nodes, nodes);
      const out = documentToHtml(doc, OPTIONS);
      for (const expected of holds) {
        if (typeof expected === 'string')
          assert.ok(out.includes(expected), `${expected}\nin\n${out}`);
        else assert.match(out, expected);
      }
      for (const refused of never) assert.doesNotMatch(out, refused);
      const back = documentToMarkdown(doc, LINKS);
      assert.deepEqual(markdownToDocument(back, LINKS), doc, back);
    });
  }

  test('the data-tag="if" fallback is an if block with its expression', () => {
    const doc = convert(
      '<div data-gb-custom-block data-tag="if" data-expression="visitor.claims.x"><p>Shown</p></div>',
    );
    includes(doc.nodes, [
      { type: 'if', data: { expression: 'visitor.claims.x' }, nodes: [{ nodes: [t('Shown')] }] },
    ]);
    // Shown to every reader (Livery has no visitor claims), as the `{% if %}` form is.
    assert.equal(documentToHtml(doc, OPTIONS), '<div class="conditional">\n<p>Shown</p>\n</div>\n');
  });

  test("a `files` cover shows the cell's first file, or an address that is no revision file", () => {
    const cards = (files: string[]): JsonDocument => ({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'table',
          isVoid: true,
          data: {
            view: { type: 'cards', columns: [], coverDefinition: 'c0' },
            definition: { c0: { id: 'c0', title: '', type: 'files' } },
            records: { r0: { orderIndex: 'a00000', values: { c0: files } } },
          },
        },
      ],
    });
    const cover = (files: string[]) =>
      /<img class="card-cover" src="([^"]*)"/.exec(documentToHtml(cards(files), OPTIONS))?.[1];
    assert.equal(cover(['F2', 'F1']), '/files/F2');
    assert.equal(cover(['https://cdn.test/a.png']), 'https://cdn.test/a.png');
    assert.equal(cover(['X9']), undefined); // a file the revision does not have
    assert.equal(cover([]), undefined);
  });

  test('HTML other than these forms stays text', () => {
    const doc = convert(
      '<div class="x">a</div> <span>b</span> <mark>c</mark> <font color="red">d</font>',
    );
    assert.deepEqual(doc.nodes, [
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [
          t('<div class="x">a</div> <span>b</span> <mark>c</mark> <font color="red">d</font>'),
        ],
      },
    ]);
  });
});

describe('GitBook HTML forms: hostile attributes are inert', () => {
  const html = (markdown: string) => documentToHtml(markdownToDocument(markdown, LINKS), OPTIONS);
  const cases: [string, string][] = [
    [
      'javascript: in a figure',
      '<figure><img src="javascript:alert(1)" alt="x" onerror="alert(1)"><figcaption></figcaption></figure>',
    ],
    [
      'javascript: in an inline image',
      'a <img src="javascript:alert(1)" alt="x" data-size="line"> b',
    ],
    ['an unquoted onerror', 'a <img src=x onerror=alert(1)> b'],
    [
      'javascript: in a dark source',
      '<picture><source srcset="javascript:alert(1)" media="(prefers-color-scheme: dark)"><img src="a.png" alt=""></picture>',
    ],
    [
      'javascript: in a button',
      '<a href="javascript:alert(1)" class="button primary" onclick="alert(1)">B</a>',
    ],
    ['javascript: in a mention', '<a data-mention href="javascript:alert(1)">x</a>'],
    [
      'javascript: as a card target and cover',
      '<table data-view="cards"><thead><tr><th></th><th data-card-target data-type="content-ref"></th><th data-card-cover data-type="image"></th></tr></thead><tbody><tr><td>t</td><td><a href="javascript:alert(1)">x</a></td><td><a href="javascript:alert(2)">y</a></td></tr></tbody></table>',
    ],
    [
      'an svg data: image',
      '<figure><img src="data:image/svg+xml,<svg onload=alert(1)>" alt=""></figure>',
    ],
    ['a style with a URL', '<mark style="color:red;background:url(javascript:alert(1))">m</mark>'],
    ['a style on an icon', '<i class="fa-x" style="color:expression(alert(1))">:x:</i>'],
    [
      'a class that closes its attribute',
      '<pre class="language-x&#x22; onload=&#x22;alert(1)"><code>a</code></pre>',
    ],
    [
      'script in an expression',
      '<code class="expression">&#x3C;script>alert(1)&#x3C;/script></code>',
    ],
  ];
  for (const [what, markdown] of cases) {
    test(what, () => {
      const out = html(markdown);
      // Text may show what was written (escaped); no tag may carry it.
      for (const [tag] of out.matchAll(/<[a-z][^>]*>/gi)) {
        assert.doesNotMatch(
          tag,
          /javascript:|\son[a-z]+=|style="(?!text-align)|expression\(/i,
          out,
        );
        assert.doesNotMatch(tag, /(src|href)="data:image\/svg/i, out);
      }
      assert.doesNotMatch(out, /<script/i);
    });
  }
});
