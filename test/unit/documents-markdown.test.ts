/**
 * Page documents (issue 15): Markdown in, GitBook's JSON document out, construct by construct,
 * each document valid under GitBook 0.202's `JSONDocument` schema.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Block,
  type DocumentContext,
  type JsonDocument,
  markdownToDocument,
  pageLinks,
} from '../../src/modules/documents/index.js';
import { violationsAt } from '../helpers/gitbook-spec.js';

const CONTEXT: DocumentContext = {
  title: 'Install',
  ...pageLinks(
    [
      ['guide', 'G'],
      ['guide/install', 'I'],
      ['guide/other', 'O'],
      ['reference/api', 'A'],
    ],
    'guide/install',
  ),
};

function convert(markdown: string, context: DocumentContext = CONTEXT): JsonDocument {
  const doc = markdownToDocument(markdown, context);
  const violations = violationsAt('0.202', '/components/schemas/JSONDocument', doc);
  assert.deepEqual(violations, [], `valid under 0.202: ${JSON.stringify(doc)}`);
  return doc;
}

const leaf = (text: string, ...marks: string[]) => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
});
const txt = (...leaves: ReturnType<typeof leaf>[]) => ({ object: 'text', leaves });
const t = (value: string, ...marks: string[]) => txt(leaf(value, ...marks));
const para = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const blk = (type: string, nodes: unknown[], data: Record<string, unknown> = {}) => ({
  object: 'block',
  type,
  data,
  nodes,
});
const linkTo = (ref: unknown, ...nodes: unknown[]) => ({
  object: 'inline',
  type: 'link',
  isVoid: false,
  data: { ref },
  nodes,
});
const item = (nodes: unknown[], data: Record<string, unknown> = {}) =>
  blk('list-item', nodes, data);

/** [what, Markdown, the document's nodes]. */
const TABLE: [string, string, unknown[]][] = [
  ['a paragraph', 'Hello world', [para(t('Hello world'))]],
  [
    'inline marks: bold, italic, strikethrough, code, nested',
    'a **b** *c* ~~d~~ `e` ***f*** **`g`**',
    [
      para(
        txt(
          leaf('a '),
          leaf('b', 'bold'),
          leaf(' '),
          leaf('c', 'italic'),
          leaf(' '),
          leaf('d', 'strikethrough'),
          leaf(' '),
          leaf('e', 'code'),
          leaf(' '),
          leaf('f', 'bold', 'italic'),
          leaf(' '),
          leaf('g', 'bold', 'code'),
        ),
      ),
    ],
  ],
  ['a soft line break is a space; a hard one a line break', 'a\nb  \nc', [para(t('a b\nc'))]],
  [
    'headings 1–3, deeper ones heading-3, each with its anchor',
    '# One\n\n## Two\n\n### Three\n\n#### Four\n\n## Two',
    [
      { ...blk('heading-1', [t('One')]), meta: { id: 'one' } },
      { ...blk('heading-2', [t('Two')]), meta: { id: 'two' } },
      { ...blk('heading-3', [t('Three')]), meta: { id: 'three' } },
      { ...blk('heading-3', [t('Four')]), meta: { id: 'four' } },
      { ...blk('heading-2', [t('Two')]), meta: { id: 'two-2' } },
    ],
  ],
  ['a first H1 equal to the title is the title: dropped', '# Install\n\nText', [para(t('Text'))]],
  [
    'external links and autolinks',
    '[site](https://e.test/a) and https://auto.test',
    [
      para(
        linkTo({ kind: 'url', url: 'https://e.test/a' }, t('site')),
        t(' and '),
        linkTo({ kind: 'url', url: 'https://auto.test' }, t('https://auto.test')),
      ),
    ],
  ],
  [
    'links to other pages: relative, up, absolute, README, with an anchor; unknown stay URLs',
    '[a](other.md) [b](../reference/api.md) [c](/guide/other) [d](README.md) [e](other.md#setup) [f](#here) [g](missing.md)',
    [
      para(
        linkTo({ kind: 'page', page: 'O' }, t('a')),
        t(' '),
        linkTo({ kind: 'page', page: 'A' }, t('b')),
        t(' '),
        linkTo({ kind: 'page', page: 'O' }, t('c')),
        t(' '),
        linkTo({ kind: 'page', page: 'G' }, t('d')),
        t(' '),
        linkTo({ kind: 'anchor', anchor: 'setup', page: 'O' }, t('e')),
        t(' '),
        linkTo({ kind: 'anchor', anchor: 'here' }, t('f')),
        t(' '),
        linkTo({ kind: 'url', url: 'missing.md' }, t('g')),
      ),
    ],
  ],
  [
    'a paragraph of images is an images block; an image in text is inline',
    '![Logo](logo.png "The logo")\n\nSee ![x](x.png) here',
    [
      {
        ...blk('images', [
          {
            object: 'block',
            type: 'image',
            data: { ref: { kind: 'url', url: 'logo.png' }, alt: 'Logo' },
            isVoid: true,
            fragments: [{ object: 'fragment', fragment: 'caption', nodes: [para(t('The logo'))] }],
          },
        ]),
        isVoid: false,
      },
      para(
        t('See '),
        {
          object: 'inline',
          type: 'inline-image',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'x.png' }, alt: 'x' },
        },
        t(' here'),
      ),
    ],
  ],
  [
    'bulleted, ordered (with its start) and nested lists',
    '- a\n- b\n  1. c\n  2. d\n\n3. e',
    [
      blk('list-unordered', [
        item([para(t('a'))]),
        item([para(t('b')), blk('list-ordered', [item([para(t('c'))]), item([para(t('d'))])])]),
      ]),
      blk('list-ordered', [item([para(t('e'))])], { start: 3 }),
    ],
  ],
  [
    'task lists; a list with some boxes keeps them as text',
    '- [x] done\n- [ ] todo\n\n* [x] one\n* two',
    [
      blk('list-tasks', [
        item([para(t('done'))], { checked: true }),
        item([para(t('todo'))], { checked: false }),
      ]),
      blk('list-unordered', [item([para(t('[x] one'))]), item([para(t('two'))])]),
    ],
  ],
  [
    'fenced and indented code, with its syntax',
    '```js\nlet a = 1;\n\nlet b;\n```\n\n    plain',
    [
      blk(
        'code',
        [
          blk('code-line', [t('let a = 1;')]),
          blk('code-line', [t('')]),
          blk('code-line', [t('let b;')]),
        ],
        { syntax: 'js' },
      ),
      blk('code', [blk('code-line', [t('plain')])]),
    ],
  ],
  [
    'a code block with a title',
    '{% code title="index.js" %}\n```js\nx\n```\n{% endcode %}',
    [blk('code', [blk('code-line', [t('x')])], { syntax: 'js', title: 'index.js' })],
  ],
  [
    'blockquotes, nested',
    '> a\n>\n> > b',
    [blk('blockquote', [para(t('a')), blk('blockquote', [para(t('b'))])])],
  ],
  [
    'a divider',
    'a\n\n---\n\nb',
    [para(t('a')), { object: 'block', type: 'divider', data: {}, isVoid: true }, para(t('b'))],
  ],
  ...(['info', 'success', 'warning', 'danger'] as const).map(
    (style): [string, string, unknown[]] => [
      `hint: ${style}`,
      `{% hint style="${style}" %}\nCareful **now**\n{% endhint %}`,
      [blk('hint', [para(txt(leaf('Careful '), leaf('now', 'bold')))], { style })],
    ],
  ),
  [
    'a hint of an unknown style is an info hint',
    '{% hint style="tip" %}\nx\n{% endhint %}',
    [blk('hint', [para(t('x'))], { style: 'info' })],
  ],
  [
    'tabs',
    '{% tabs %}\n{% tab title="macOS" %}\nbrew\n{% endtab %}\n\n{% tab title="Linux" %}\n```sh\napt\n```\n{% endtab %}\n{% endtabs %}',
    [
      blk('tabs', [
        blk('tabs-item', [para(t('brew'))], { title: 'macOS' }),
        blk('tabs-item', [blk('code', [blk('code-line', [t('apt')])], { syntax: 'sh' })], {
          title: 'Linux',
        }),
      ]),
    ],
  ],
  [
    'an expandable section (open)',
    '<details open>\n<summary>More *here*</summary>\n\nBody\n\n</details>',
    [
      {
        object: 'block',
        type: 'expandable',
        data: { defaultExpanded: true },
        isVoid: true,
        fragments: [
          {
            object: 'fragment',
            fragment: 'expandable-title',
            type: 'expandable-title',
            nodes: [para(txt(leaf('More '), leaf('here', 'italic')))],
          },
          {
            object: 'fragment',
            fragment: 'expandable-body',
            type: 'expandable-body',
            nodes: [para(t('Body'))],
          },
        ],
      },
    ],
  ],
  [
    'content references: to a page, to a URL',
    '{% content-ref url="other.md" %}\n[other.md](other.md)\n{% endcontent-ref %}\n\n{% content-ref url="https://e.test" %}\n[x](https://e.test)\n{% endcontent-ref %}',
    [
      {
        object: 'block',
        type: 'content-ref',
        data: { ref: { kind: 'page', page: 'O' } },
        isVoid: true,
      },
      {
        object: 'block',
        type: 'content-ref',
        data: { ref: { kind: 'url', url: 'https://e.test' } },
        isVoid: true,
      },
    ],
  ],
  [
    'embeds, alone or with a caption',
    '{% embed url="https://youtu.be/x" %}\n\n{% embed url="https://e.test/v" %}\nA video\n{% endembed %}',
    [
      { object: 'block', type: 'embed', data: { url: 'https://youtu.be/x' }, isVoid: true },
      { object: 'block', type: 'embed', data: { url: 'https://e.test/v' }, isVoid: true },
      para(t('A video')),
    ],
  ],
  [
    'unknown template blocks keep their content, stray tags disappear',
    '{% mystery %}\n{% riddle %}\nFirst\n{% endriddle %}\n{% endmystery %}\n\n{% include "x.md" %}\n\n{% endhint %}',
    [para(t('First'))],
  ],
  ['raw HTML stays text', '<b onclick="x()">hi</b>', [para(t('<b onclick="x()">hi</b>'))]],
  [
    'a code block in a quote (not a GitBook document) becomes its lines in code marks',
    '> ```\n> a\n>\n> b\n> ```',
    [blk('blockquote', [para(t('a', 'code')), para(t('b', 'code'))])],
  ],
  [
    'a quote in a hint becomes its blocks; tabs in a list their titles and bodies',
    '{% hint style="info" %}\n> q\n{% endhint %}\n\n- {% tabs %}\n  {% tab title="T" %}\n  x\n  {% endtab %}\n  {% endtabs %}',
    [
      blk('hint', [para(t('q'))], { style: 'info' }),
      blk('list-unordered', [item([para(t('T', 'bold')), para(t('x'))])]),
    ],
  ],
];

describe('markdownToDocument: construct by construct', () => {
  for (const [what, markdown, nodes] of TABLE) {
    test(what, () => assert.deepEqual(convert(markdown).nodes, nodes));
  }

  test('a table: columns, alignment, one fragment per cell', () => {
    const [table] = convert('| A | **B** |\n|:-:|--:|\n| 1 | *2* |\n| 3 | 4 |').nodes as Block[];
    assert.equal(table?.type, 'table');
    assert.equal(table?.isVoid, true);
    assert.deepEqual(table?.data.view, { type: 'grid', columns: ['c0', 'c1'], hideHeader: false });
    assert.deepEqual(table?.data.definition, {
      c0: { id: 'c0', title: 'A', type: 'text', textAlignment: 'center' },
      c1: { id: 'c1', title: 'B', type: 'text', textAlignment: 'right' },
    });
    assert.deepEqual(table?.data.records, {
      r0: { orderIndex: 'a00000', values: { c0: 'r0c0', c1: 'r0c1' } },
      r1: { orderIndex: 'a00001', values: { c0: 'r1c0', c1: 'r1c1' } },
    });
    assert.deepEqual(table?.fragments?.[1], {
      object: 'fragment',
      fragment: 'r0c1',
      nodes: [para(t('2', 'italic'))],
    });
  });

  test('nesting: a hint in a list in an expandable, tabs holding a hint with a list', () => {
    const doc = convert(
      '<details>\n<summary>S</summary>\n\n- {% hint style="danger" %}\n  x\n  {% endhint %}\n\n</details>\n\n{% tabs %}\n{% tab title="A" %}\n{% hint style="success" %}\n- y\n{% endhint %}\n{% endtab %}\n{% endtabs %}',
    );
    const [expandable, tabs] = doc.nodes as [Block, Block];
    const list = expandable.fragments?.[1]?.nodes[0] as Block;
    assert.equal(list.type, 'list-unordered');
    const listItem = (list.nodes ?? [])[0] as Block;
    assert.deepEqual(((listItem.nodes ?? [])[0] as Block).data, { style: 'danger' });
    const tab = (tabs.nodes ?? [])[0] as Block;
    const hint = (tab.nodes ?? [])[0] as Block;
    assert.equal(hint.type, 'hint');
    assert.equal(((hint.nodes ?? [])[0] as Block).type, 'list-unordered');
  });

  test('a fence may show template tags: they stay code', () => {
    const doc = convert('{% hint style="info" %}\n```\n{% endhint %}\n```\n{% endhint %}');
    assert.equal(doc.nodes.length, 1);
    assert.deepEqual(doc.nodes[0]?.nodes, [para(t('{% endhint %}', 'code'))]);
  });

  test("GitBook's <figure> image with its caption is an images block", () => {
    const [images] = convert(
      '<figure><img src=".gitbook/assets/cat.png" alt="A cat"><figcaption><p>The <strong>cat</strong></p></figcaption></figure>',
    ).nodes as Block[];
    assert.equal(images?.type, 'images');
    const image = images?.nodes?.[0] as Block;
    assert.deepEqual(image.data, {
      ref: { kind: 'url', url: '.gitbook/assets/cat.png' },
      alt: 'A cat',
    });
    assert.deepEqual(image.fragments, [
      {
        object: 'fragment',
        fragment: 'caption',
        nodes: [para(txt(leaf('The '), leaf('cat', 'bold')))],
      },
    ]);
  });

  test('an empty page is an empty document; a first H1 unlike the title stays', () => {
    assert.deepEqual(convert(''), { object: 'document', data: {}, nodes: [] });
    assert.equal(convert('# Other').nodes[0]?.type, 'heading-1');
  });
});

describe('markdownToDocument: bounded work', () => {
  test('thousands of unclosed tags cost a bounded scan, and their content stays', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `{% hint style="info" %}\nline ${i}`);
    const doc = markdownToDocument(lines.join('\n'));
    // Each tag is a lone one (dropped); every line of text is kept.
    const text = JSON.stringify(doc);
    assert.ok(text.includes('line 0') && text.includes('line 19999'));
    assert.doesNotMatch(text, /\{%/);
  });
});
