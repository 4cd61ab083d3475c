/**
 * Page documents (issue 15) as the published site's HTML: each construct, and the safety rules
 * (raw HTML as text, refused link schemes, rel/target on external links) for documents that
 * come from Markdown and for documents built by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  documentToHtml,
  type HtmlOptions,
  type JsonDocument,
  markdownToDocument,
  pageLinks,
} from '../../src/modules/documents/index.js';
import * as m from '../../src/modules/documents/model.js';

const LINKS = pageLinks(
  [
    ['guide/install', 'I'],
    ['guide/other', 'O'],
  ],
  'guide/install',
);
const OPTIONS: HtmlOptions = {
  pageHref: (id) => ({ I: '/s/acme/guide/install', O: '/s/acme/guide/other' })[id],
  pageTitle: (id) => ({ I: 'Install', O: 'Other page' })[id],
};
const html = (markdown: string, options: HtmlOptions = OPTIONS) =>
  documentToHtml(markdownToDocument(markdown, LINKS), options);

/** [what, Markdown, what the HTML holds]. */
const TABLE: [string, string, (string | RegExp)[]][] = [
  [
    'a paragraph with marks',
    'a **b** *c* ~~d~~ `e<`',
    ['<p>a <strong>b</strong> <em>c</em> <s>d</s> <code>e&lt;</code></p>'],
  ],
  ['a hard break', 'a\\\nb', ['<p>a<br>\nb</p>']],
  [
    'headings with anchors',
    '## Install it\n\n## Install it\n\n### Über uns',
    ['<h2 id="install-it">Install it</h2>', '<h2 id="install-it-2">', '<h3 id="über-uns">'],
  ],
  [
    'links: external, to another page (its address on the site), to an anchor',
    '[ext](https://e.test/a) [o](other.md#setup) [here](#top) [rel](../install)',
    [
      '<a href="https://e.test/a" rel="noopener noreferrer">ext</a>',
      '<a href="/s/acme/guide/other#setup">o</a>',
      '<a href="#top">here</a>',
      '<a href="../install">rel</a>',
    ],
  ],
  [
    'lists: tight items without paragraphs, ordered with a start',
    '- one\n- two\n\n3. three',
    ['<ul>\n<li>one</li>\n<li>two</li>\n</ul>', '<ol start="3">\n<li>three</li>\n</ol>'],
  ],
  [
    'task lists as disabled checkboxes',
    '- [x] done\n- [ ] todo',
    [
      '<ul class="task-list">',
      '<li class="task-list-item"><input type="checkbox" disabled checked> done</li>',
      '<input type="checkbox" disabled> todo',
    ],
  ],
  [
    'tables with their header and alignment',
    '| a | b |\n|---|:-:|\n| 1 | **2** |',
    [
      '<table>',
      '<th>a</th><th style="text-align:center">b</th>',
      '<td>1</td><td style="text-align:center"><strong>2</strong></td>',
    ],
  ],
  [
    'code, plain and escaped',
    '```html\n<b>&</b>\n```',
    ['<pre><code class="language-html">&lt;b&gt;&amp;&lt;/b&gt;\n</code></pre>'],
  ],
  [
    'a code title as a caption',
    '{% code title="a&quot;b.js" %}\n```js\nx\n```\n{% endcode %}',
    [
      '<figure class="code-block"><figcaption>a&quot;b.js</figcaption>\n<pre><code class="language-js">x\n</code></pre>\n</figure>',
    ],
  ],
  ...(['info', 'success', 'warning', 'danger'] as const).map(
    (style): [string, string, string[]] => [
      `a ${style} hint as a callout`,
      `{% hint style="${style}" %}\nCareful\n{% endhint %}`,
      [`<div class="hint hint-${style}" role="note">\n<p>Careful</p>\n</div>`],
    ],
  ),
  [
    'tabs as radio buttons and panels, the first checked',
    '{% tabs %}\n{% tab title="A" %}\none\n{% endtab %}\n{% tab title="B" %}\ntwo\n{% endtab %}\n{% endtabs %}\n\n{% tabs %}\n{% tab title="C" %}\nthree\n{% endtab %}\n{% endtabs %}',
    [
      '<div class="tabs"><input type="radio" name="tabs-1" id="tabs-1-1" checked><label for="tabs-1-1">A</label><div class="tab-panel">\n<p>one</p>\n</div>',
      '<input type="radio" name="tabs-1" id="tabs-1-2"><label for="tabs-1-2">B</label>',
      'name="tabs-2" id="tabs-2-1" checked',
    ],
  ],
  [
    'an expandable as <details>',
    '<details open>\n<summary>More</summary>\n\nBody\n\n</details>',
    ['<details class="expandable" open><summary>More</summary>\n<p>Body</p>\n</details>'],
  ],
  [
    'content references as link cards, titled by their page',
    '{% content-ref url="other.md" %}\n[other.md](other.md)\n{% endcontent-ref %}',
    ['<p><a class="content-ref" href="/s/acme/guide/other">Other page</a></p>'],
  ],
  [
    'embeds as links',
    '{% embed url="https://video.test/v" %}',
    [
      '<p class="embed"><a href="https://video.test/v" rel="noopener noreferrer">https://video.test/v</a></p>',
    ],
  ],
  [
    'images, with a caption',
    '![A "cat"](cat.png "The cat")',
    [
      '<div class="images"><figure><img src="cat.png" alt="A &quot;cat&quot;" loading="lazy"><figcaption>The cat</figcaption></figure></div>',
    ],
  ],
  ['a divider', '---', ['<hr>']],
  ['a blockquote', '> q', ['<blockquote>\n<p>q</p>\n</blockquote>']],
  [
    'unknown template tags keep their content, never the tags',
    '{% stepper %}\n{% step %}\nFirst\n{% endstep %}\n{% endstepper %}\n\n{% include "x" %}',
    ['<p>First</p>'],
  ],
];

describe('documentToHtml: construct by construct', () => {
  for (const [what, markdown, expected] of TABLE) {
    test(what, () => {
      const out = html(markdown);
      for (const e of expected) {
        if (typeof e === 'string') assert.ok(out.includes(e), `${e}\nin\n${out}`);
        else assert.match(out, e);
      }
      assert.doesNotMatch(out, /\{%/);
    });
  }

  test('the highlighter receives each block and its syntax; its HTML is used as is', () => {
    const seen: [string, string][] = [];
    const out = html('```ts\nlet a\n```\n\n    plain', {
      highlight: (code, info) => {
        seen.push([code, info]);
        return `<pre class="shiki">${info}</pre>`;
      },
    });
    assert.deepEqual(seen, [
      ['let a\n', 'ts'],
      ['plain\n', ''],
    ]);
    assert.equal(out, '<pre class="shiki">ts</pre>\n<pre class="shiki"></pre>\n');
  });

  test('externalLinks.target blank: external links and embeds open in a new tab', () => {
    const out = html('[e](https://e.test) [o](other.md)\n\n{% embed url="https://v.test" %}', {
      ...OPTIONS,
      newTab: true,
    });
    assert.match(out, /<a href="https:\/\/e.test" target="_blank" rel="noopener noreferrer">e/);
    assert.match(out, /<a href="https:\/\/v.test" target="_blank" rel="noopener noreferrer">/);
    assert.match(out, /<a href="\/s\/acme\/guide\/other">o/);
  });

  test('a link to a page the site does not have is its text', () => {
    const doc = m.document([m.paragraph([m.link({ kind: 'page', page: 'gone' }, [m.text('x')])])]);
    assert.equal(documentToHtml(doc, OPTIONS), '<p>x</p>\n');
  });
});

describe('documentToHtml: hostile content is inert', () => {
  test('raw HTML is text (only <details> is read, as an expandable)', () => {
    const out = html(
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\nx <b onclick="y">z</b>',
    );
    assert.doesNotMatch(out, /<script|<img|<b /);
    assert.match(out, /&lt;script&gt;/);
  });

  for (const href of [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'vbscript:x',
    'data:text/html,<b>',
    'java\tscript:x',
  ]) {
    test(`a ${JSON.stringify(href)} target is refused, from Markdown and in a document`, () => {
      const fromMarkdown = html(`[x](${href}) ![y](${href})`);
      assert.doesNotMatch(fromMarkdown, /(href|src)="[^"]*script:/i);
      assert.doesNotMatch(fromMarkdown, /(href|src)="data:text/i);
      const doc: JsonDocument = m.document([
        m.paragraph([
          m.link({ kind: 'url', url: href }, [m.text('x')]),
          m.inlineImage(href, 'alt'),
        ]),
        m.voidBlock('embed', { url: href }),
        m.voidBlock('content-ref', { ref: { kind: 'url', url: href } }),
        m.images([{ url: href, alt: 'alt' }]),
      ]);
      const out = documentToHtml(doc, OPTIONS);
      assert.doesNotMatch(out, /<a |<img /);
    });
  }

  test('data: images of the safe kinds are shown', () => {
    assert.match(
      html('![i](data:image/png;base64,AAAA)'),
      /<img src="data:image\/png;base64,AAAA"/,
    );
  });

  test('text and attributes from a document are escaped', () => {
    const doc = m.document([
      m.block('tabs', [
        m.block('tabs-item', [m.paragraph([m.text('<i>')])], { title: '"><script>' }),
      ]),
      m.block('hint', [m.paragraph([m.text('x')])], { style: '"><script>' }),
      m.codeBlock('</code><script>', '"><script>', '<t>'),
      m.heading(2, [m.text('h')], '"><script>'),
    ]);
    assert.doesNotMatch(documentToHtml(doc), /<script|<i>/);
  });
});
