/**
 * GitBook's Liquid-tag blocks (src/modules/documents/blocks/): each form of Git Sync's Markdown
 * as its node of GitBook 0.202's document (validated against 0.202's schema), its published HTML
 * (never a raw `{%`), and its Markdown again, which reads back as the same document.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Block,
  type DocumentContext,
  documentToHtml,
  documentToMarkdown,
  type HtmlOptions,
  type JsonDocument,
  markdownToDocument,
  pageLinks,
} from '../../src/modules/documents/index.js';
import { violationsAt } from '../helpers/gitbook-spec.js';

const CONTEXT: DocumentContext = {
  ...pageLinks(
    [
      ['guide', 'G'],
      ['guide/install', 'I'],
      ['guide/other', 'O'],
    ],
    'guide/install',
  ),
  file: 'guide/install.md',
  files: new Map([
    ['.gitbook/assets/report q1.pdf', 'F1'],
    ['.gitbook/assets/spec.yaml', 'F2'],
  ]),
  includes: new Map([
    ['.gitbook/includes/setup.md', 'R1'],
    ['.gitbook/includes/loop.md', 'R2'],
  ]),
};

const OPTIONS: HtmlOptions = {
  pageHref: (id) => ({ I: '/s/acme/guide/install', O: '/s/acme/guide/other' })[id],
  pageTitle: (id) => ({ I: 'Install', O: 'Other page' })[id],
  file: (id) =>
    id === 'F1'
      ? {
          url: '/files/F1/report q1.pdf',
          name: 'report q1.pdf',
          contentType: 'application/pdf',
          size: 1536,
        }
      : undefined,
  reusableContent: (id) =>
    id === 'R1'
      ? markdownToDocument('Set **up** first.', { file: '.gitbook/includes/setup.md' })
      : id === 'R2'
        ? markdownToDocument('Loop\n\n{% include "loop.md" %}', {
            file: '.gitbook/includes/loop.md',
            includes: new Map([['.gitbook/includes/loop.md', 'R2']]),
          })
        : undefined,
};

function convert(markdown: string): JsonDocument {
  const doc = markdownToDocument(markdown, CONTEXT);
  assert.deepEqual(
    violationsAt('0.202', '/components/schemas/JSONDocument', doc),
    [],
    `valid under 0.202: ${JSON.stringify(doc)}`,
  );
  return doc;
}

/** Markdown → document → HTML → Markdown → the same document; the document and HTML. */
function roundTrip(markdown: string): { doc: JsonDocument; html: string; again: string } {
  const doc = convert(markdown);
  const html = documentToHtml(doc, OPTIONS);
  assert.doesNotMatch(html, /\{%/, html);
  const again = documentToMarkdown(doc, CONTEXT);
  assert.deepEqual(markdownToDocument(again, CONTEXT), doc, again);
  return { doc, html, again };
}

const leaf = (text: string, ...marks: string[]) => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
});
const t = (value: string, ...marks: string[]) => ({
  object: 'text',
  leaves: [leaf(value, ...marks)],
});
/** One text node of several runs (neighbouring text is one node in the model). */
const runs = (...parts: [string, ...string[]][]) => ({
  object: 'text',
  leaves: parts.map(([value, ...marks]) => leaf(value, ...marks)),
});
const para = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const blk = (type: string, nodes: unknown[], data: Record<string, unknown> = {}) => ({
  object: 'block',
  type,
  data,
  nodes,
});
const voidBlk = (type: string, data: Record<string, unknown>) => ({
  object: 'block',
  type,
  data,
  isVoid: true,
});
const code = (lines: string[], data: Record<string, unknown> = {}) =>
  blk(
    'code',
    lines.map((line) => blk('code-line', [t(line)])),
    data,
  );

/** [what, Markdown, the document's nodes, what the HTML holds]. */
const TABLE: [string, string, unknown[], (string | RegExp)[]][] = [
  [
    'a stepper of steps, code in a step',
    '{% stepper %}\n{% step %}\n#### First\n\nDo this.\n\n```sh\nnpm i\n```\n{% endstep %}\n\n{% step %}\nThen that.\n{% endstep %}\n{% endstepper %}',
    [
      {
        ...blk('stepper', [
          blk('stepper-step', [
            { ...blk('heading-3', [t('First')]), meta: { id: 'first' } },
            para(t('Do this.')),
            code(['npm i'], { syntax: 'sh' }),
          ]),
          blk('stepper-step', [para(t('Then that.'))]),
        ]),
        isVoid: false,
      },
    ],
    ['<ol class="stepper">', '<li class="step">', '<h3 id="first">First</h3>'],
  ],
  [
    'columns with widths and a vertical alignment, a content reference in a column',
    '{% columns fullWidth="true" %}\n{% column width="66.66666666666666%" valign="middle" %}\nLeft\n{% endcolumn %}\n\n{% column %}\n{% content-ref url="other.md" %}\n[other.md](other.md)\n{% endcontent-ref %}\n{% endcolumn %}\n{% endcolumns %}',
    [
      {
        ...blk(
          'columns',
          [
            blk('column', [para(t('Left'))], {
              width: { unit: '%', value: 66.66666666666666 },
              verticalAlignment: 'middle',
            }),
            blk('column', [voidBlk('content-ref', { ref: { kind: 'page', page: 'O' } })]),
          ],
          { fullWidth: true },
        ),
        isVoid: false,
      },
    ],
    [
      '<div class="columns full-width">',
      '<div class="column column-middle" style="flex:0 1 66.66666666666666%">',
      'Other page',
    ],
  ],
  [
    'every attribute of a code block',
    '{% code title="index.js" overflow="wrap" lineNumbers="true" fullWidth="false" expandable="true" %}\n```js\nx()\n```\n{% endcode %}',
    [
      code(['x()'], {
        syntax: 'js',
        title: 'index.js',
        overflow: 'wrap',
        lineNumbers: true,
        fullWidth: false,
        expandable: true,
      }),
    ],
    [
      '<figure class="code-block code-wrap line-numbers"><figcaption>index.js</figcaption>',
      '<span class="line">x()</span>',
    ],
  ],
  [
    'a mermaid fence: code shown as its source',
    '```mermaid\ngraph TD; A-->B\n```',
    [code(['graph TD; A-->B'], { syntax: 'mermaid' })],
    ['<pre class="mermaid">graph TD; A--&gt;B\n</pre>'],
  ],
  [
    'a formula alone in its paragraph is a math block; within text, inline math',
    '$$\\frac{a}{b}$$\n\nSo $$x^2$$ grows, and $5 is money.',
    [
      voidBlk('math', { formula: '\\frac{a}{b}' }),
      para(
        t('So '),
        { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } },
        t(' grows, and $5 is money.'),
      ),
    ],
    [
      '<div class="math"><span class="katex-display">',
      '<span class="math-inline"><span class="katex">',
      '<math',
    ],
  ],
  [
    'a file of the revision, its caption left to the Markdown; another source as a link',
    '{% file src="../.gitbook/assets/report q1.pdf" %}\nThe report\n{% endfile %}\n\n{% file src="https://e.test/x.pdf" %}',
    [
      voidBlk('file', { ref: { kind: 'file', file: 'F1' } }),
      para({
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: { kind: 'url', url: 'https://e.test/x.pdf' } },
        nodes: [t('x.pdf')],
      }),
    ],
    [
      '<a class="file-download" href="/files/F1/report q1.pdf" download><span class="file-name">report q1.pdf</span> <span class="file-size">1.5 KB</span></a>',
    ],
  ],
  [
    'an include of a known reusable content, rendered in place; an unknown one is nothing',
    '{% include "../.gitbook/includes/setup.md" %}\n\n{% include "../.gitbook/includes/nowhere.md" %}',
    [voidBlk('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'R1' } })],
    ['<div class="reusable-content">\n<p>Set <strong>up</strong> first.</p>\n</div>'],
  ],
  [
    "another space's reusable content",
    '{% include "https://app.gitbook.com/s/S1/~/reusable/RC9/" %}',
    [
      voidBlk('reusable-content', {
        ref: { kind: 'reusable-content', reusableContent: 'RC9', space: 'S1' },
      }),
    ],
    [],
  ],
  [
    'an OpenAPI block of a spec file, and the `{% openapi %}` form of a URL',
    '{% swagger src="../.gitbook/assets/spec.yaml" path="/pets" method="post" %}\n[spec.yaml](../.gitbook/assets/spec.yaml)\n{% endswagger %}\n\n{% openapi src="https://e.test/o.json" path="/users" method="get" %}\n[https://e.test/o.json](https://e.test/o.json)\n{% endopenapi %}',
    [
      voidBlk('swagger', { ref: { kind: 'file', file: 'F2' }, path: '/pets', method: 'post' }),
      voidBlk('swagger', {
        ref: { kind: 'url', url: 'https://e.test/o.json' },
        path: '/users',
        method: 'get',
      }),
    ],
    [
      '<span class="openapi-method method-post">POST</span> <code>/pets</code>',
      'href="https://e.test/o.json"',
    ],
  ],
  [
    'an operation and schemas of a registered spec',
    '{% openapi-operation spec="petstore" path="/pet" method="get" %}\n[Broken link](broken-reference)\n{% endopenapi-operation %}\n\n{% openapi-schemas spec="petstore" schemas="Pet, Tag" grouped="false" %}\nThe Pet object\n{% endopenapi-schemas %}',
    [
      voidBlk('openapi-operation', {
        ref: { kind: 'openapi', spec: 'petstore' },
        path: '/pet',
        method: 'get',
      }),
      voidBlk('openapi-schemas', {
        ref: { kind: 'openapi', spec: 'petstore' },
        schemas: ['Pet', 'Tag'],
        grouped: false,
      }),
    ],
    ['<span class="openapi-method method-get">GET</span> <code>/pet</code>', 'Pet, Tag'],
  ],
  [
    'the legacy inline API block: its content as plain blocks',
    '{% swagger baseUrl="https://api.e.test" path="/v1/c" method="get" summary="List them" %}\n{% swagger-description %}\nReturns them\n{% endswagger-description %}\n\n{% swagger-parameter in="query" name="ids" type="array" %}\nthe ids\n{% endswagger-parameter %}\n\n{% swagger-response status="200" description="Found" %}\n```\n{}\n```\n{% endswagger-response %}\n{% endswagger %}',
    [
      para(runs(['GET', 'bold', 'code'], [' '], ['https://api.e.test/v1/c', 'code'])),
      para(t('List them', 'bold')),
      para(t('Returns them')),
      para(t('Parameters', 'bold')),
      blk('list-unordered', [
        blk('list-item', [para(runs(['ids', 'code'], [' (query, array)'])), para(t('the ids'))]),
      ]),
      para(t('Responses', 'bold')),
      blk('list-unordered', [
        blk('list-item', [para(runs(['200', 'code'], [' Found'])), code(['{}'])]),
      ]),
    ],
    ['<p><strong><code>GET</code></strong> <code>https://api.e.test/v1/c</code></p>'],
  ],
  [
    'a condition holding a hint with an icon, and columns',
    '{% if visitor.claims.unsigned.persona === "new" %}\n{% hint style="info" icon="books" %}\nWelcome\n{% endhint %}\n\n{% columns %}\n{% column %}\nA\n{% endcolumn %}\n{% endcolumns %}\n{% endif %}',
    [
      blk(
        'if',
        [
          blk('hint', [para(t('Welcome'))], { style: 'info', icon: 'books' }),
          { ...blk('columns', [blk('column', [para(t('A'))])]), isVoid: false },
        ],
        { expression: 'visitor.claims.unsigned.persona === "new"' },
      ),
    ],
    ['<div class="conditional">', '<div class="hint hint-info" role="note">'],
  ],
  [
    'a prompt of one code block',
    '{% prompt description="Review it" icon="rectangle-terminal" openInAIProviders="true" defaultExpanded="full" %}\n```markdown\nReview the page.\n```\n{% endprompt %}',
    [
      blk('prompt', [code(['Review the page.'], { syntax: 'markdown' })], {
        description: 'Review it',
        icon: 'rectangle-terminal',
        openInAIProviders: true,
        defaultExpanded: 'full',
      }),
    ],
    ['<details class="prompt" open><summary>Review it</summary>'],
  ],
  [
    'updates of dated, tagged updates',
    '{% updates format="short" %}\n{% update date="2025-12-25" tags="beta,fixes" %}\nShipped.\n{% endupdate %}\n\n{% update date="2025-12-01" %}\nEarlier.\n{% endupdate %}\n{% endupdates %}',
    [
      {
        ...blk(
          'updates',
          [
            blk('update', [para(t('Shipped.'))], {
              date: '2025-12-25T00:00:00.000Z',
              tags: [
                { kind: 'tag', tag: 'beta' },
                { kind: 'tag', tag: 'fixes' },
              ],
            }),
            blk('update', [para(t('Earlier.'))], { date: '2025-12-01T00:00:00.000Z' }),
          ],
          { format: 'short' },
        ),
        isVoid: false,
      },
    ],
    [
      '<time datetime="2025-12-25T00:00:00.000Z">2025-12-25</time> <span class="update-tag">beta</span>',
    ],
  ],
  [
    'an integration block: a labelled placeholder with its props',
    '{% @marketo/form formId="4316" note="a &quot;b&quot; <c>" %}',
    [
      voidBlk('integration', {
        integration: 'marketo',
        block: 'form',
        props: { formId: '4316', note: 'a "b" <c>' },
      }),
    ],
    [
      '<p class="integration-name">marketo · form</p><dl><dt>formId</dt><dd>4316</dd><dt>note</dt><dd>a &quot;b&quot; &lt;c&gt;</dd></dl>',
    ],
  ],
  [
    'the legacy page link, an embed with a caption attribute, a tab with an icon',
    '{% page-ref page="other.md" %}\n\n{% embed url="https://e.test/v" caption="A video" %}\n\n{% tabs %}\n{% tab title="macOS" icon="apple" %}\nbrew\n{% endtab %}\n{% endtabs %}',
    [
      voidBlk('content-ref', { ref: { kind: 'page', page: 'O' } }),
      voidBlk('embed', { url: 'https://e.test/v' }),
      para(t('A video')),
      blk('tabs', [blk('tabs-item', [para(t('brew'))], { title: 'macOS', icon: 'apple' })]),
    ],
    ['Other page', '<label for="tabs-1-1">macOS</label>'],
  ],
  [
    'a paired tag on one line',
    '{% file src="https://e.test/a.pdf" %}The A file{% endfile %}',
    [
      para({
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: { kind: 'url', url: 'https://e.test/a.pdf' } },
        nodes: [t('The A file')],
      }),
    ],
    ['<a href="https://e.test/a.pdf"'],
  ],
];

describe('Liquid-tag blocks: Markdown → 0.202 document → HTML → Markdown → same document', () => {
  for (const [what, markdown, nodes, holds] of TABLE) {
    test(what, () => {
      const { doc, html } = roundTrip(markdown);
      assert.deepEqual(doc.nodes, nodes);
      for (const part of holds) {
        if (typeof part === 'string') assert.ok(html.includes(part), `${part}\nin\n${html}`);
        else assert.match(html, part);
      }
    });
  }
});

describe('Liquid-tag blocks: nesting as real repositories nest it', () => {
  test('tabs in tabs: the inner tabs as their titles and bodies (0.202 has no tabs in a tab)', () => {
    const { doc } = roundTrip(
      '{% tabs %}\n{% tab title="A" %}\n{% tabs %}\n{% tab title="B" %}\nb\n{% endtab %}\n{% endtabs %}\n{% endtab %}\n{% endtabs %}',
    );
    assert.deepEqual(doc.nodes, [
      blk('tabs', [blk('tabs-item', [para(t('B', 'bold')), para(t('b'))], { title: 'A' })]),
    ]);
  });

  test('a hint in a tab, code in a step, a condition in a hint becomes its content', () => {
    const { doc } = roundTrip(
      '{% tabs %}\n{% tab title="A" %}\n{% hint style="warning" %}\nw\n{% endhint %}\n{% endtab %}\n{% endtabs %}\n\n{% hint style="info" %}\n{% if page.vars.x %}\ninner\n{% endif %}\n{% endhint %}',
    );
    assert.deepEqual(doc.nodes, [
      blk('tabs', [
        blk('tabs-item', [blk('hint', [para(t('w'))], { style: 'warning' })], { title: 'A' }),
      ]),
      blk('hint', [para(t('inner'))], { style: 'info' }),
    ]);
  });

  test('a stepper in a column in columns in a condition, nine levels deep', () => {
    const markdown = [
      '{% if a %}',
      '{% columns %}',
      '{% column width="50%" %}',
      '{% stepper %}',
      '{% step %}',
      '<details>',
      '<summary>More</summary>',
      '',
      '- {% hint style="info" %}',
      '  > deep',
      '  {% endhint %}',
      '',
      '</details>',
      '{% endstep %}',
      '{% endstepper %}',
      '{% endcolumn %}',
      '{% endcolumns %}',
      '{% endif %}',
    ].join('\n');
    const { doc, html } = roundTrip(markdown);
    const first = (node: Block | undefined) => node?.nodes?.[0] as Block | undefined;
    // if > columns > column > stepper > step
    const step = first(first(first(first(doc.nodes[0]))));
    assert.ok(step !== undefined);
    assert.equal(step.type, 'stepper-step');
    assert.equal(first(step)?.type, 'expandable');
    assert.match(
      html,
      /<div class="conditional">\n<div class="columns">\n<div class="column"[^>]*>\n<ol class="stepper">/,
    );
  });

  test('blocks where 0.202 cannot hold them become their plain content', () => {
    const { doc } = roundTrip(
      '> {% stepper %}\n> {% step %}\n> s\n> {% endstep %}\n> {% endstepper %}\n\n{% hint style="info" %}\n$$x$$\n\n{% openapi-operation spec="p" path="/a" method="get" %}\n{% endopenapi-operation %}\n{% endhint %}',
    );
    assert.deepEqual(doc.nodes, [
      blk('blockquote', [para(t('s'))]),
      blk(
        'hint',
        [
          para({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x' } }),
          para(runs(['GET', 'bold', 'code'], [' '], ['/a', 'code'])),
        ],
        { style: 'info' },
      ),
    ]);
  });
});

describe('Liquid-tag blocks: what never becomes a block', () => {
  test('tags inside fenced code and inline code stay code', () => {
    const doc = convert(
      '```liquid\n{% stepper %}\n{% step %}\n{% endstep %}\n{% endstepper %}\n```\n\nWrite `{% include "x.md" %}` or `$$x$$` like this.',
    );
    assert.deepEqual(doc.nodes, [
      code(['{% stepper %}', '{% step %}', '{% endstep %}', '{% endstepper %}'], {
        syntax: 'liquid',
      }),
      para(
        runs(
          ['Write '],
          ['{% include "x.md" %}', 'code'],
          [' or '],
          ['$$x$$', 'code'],
          [' like this.'],
        ),
      ),
    ]);
  });

  test('unknown, lone and stray tags never leave `{%` in the HTML', () => {
    const { html } = roundTrip(
      '{% mystery x="1" %}\n\n{% step %}\nalone\n{% endstep %}\n\n{% endcolumns %}\n\n{% column %}\nc\n\n{% @broken %}\n\n{% include %}\n\n{% swagger-parameter name="x" %}\nloose\n{% endswagger-parameter %}',
    );
    assert.doesNotMatch(html, /\{%|%\}/);
    assert.match(html, /alone/);
    assert.match(html, /loose/);
  });

  test('an include within its own reusable content is shown once', () => {
    const html = documentToHtml(convert('{% include "../.gitbook/includes/loop.md" %}'), OPTIONS);
    assert.equal(html.match(/<p>Loop<\/p>/g)?.length, 1, html);
  });

  test('a page renders at most 200 includes: nested ones cannot multiply it without end', () => {
    const many = '{% include "../.gitbook/includes/setup.md" %}\n\n'.repeat(300);
    const html = documentToHtml(convert(many), OPTIONS);
    assert.equal(html.match(/<div class="reusable-content">/g)?.length, 200);
  });

  test('a hostile formula is typeset, never markup', () => {
    const html = documentToHtml(
      convert(
        '$$\\href{javascript:alert(1)}{x} \\htmlClass{a}{b} </span><script>alert(1)</script>$$',
      ),
      OPTIONS,
    );
    assert.doesNotMatch(html, /<script|href="javascript/i);
  });

  test('text with dollars is written so that it reads back as text', () => {
    const doc = convert('Costs \\$\\$5 and $$ alone');
    assert.deepEqual(doc.nodes, [para(t('Costs $$5 and $$ alone'))]);
    const again = documentToMarkdown(doc, CONTEXT);
    assert.deepEqual(markdownToDocument(again, CONTEXT), doc, again);
  });
});
