import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markdownToDocument } from '../../src/modules/documents/index.js';
import type { Block } from '../../src/modules/documents/model.js';
import { type LinkContext, runsOf } from '../../src/modules/pdf/inlines.js';

const ctx: LinkContext = {
  pageId: 'here',
  printed: new Set(['here', 'there']),
  linkColor: '#123456',
};
const ids = new Map([
  ['there', 'there'],
  ['away', 'away'],
]);

/** The runs of a one-paragraph Markdown. */
const runs = (markdown: string) => {
  const doc = markdownToDocument(markdown, { ids, path: 'here' });
  return runsOf((doc.nodes[0] as Block).nodes, ctx);
};

describe('runsOf', () => {
  test('marks choose the font; neighbours alike merge', () => {
    assert.deepEqual(runs('a **b** `c` ~~d~~ e'), [
      { text: 'a ', font: 'body' },
      { text: 'b', font: 'bold' },
      { text: ' ', font: 'body' },
      { text: 'c', font: 'mono' },
      { text: ' ', font: 'body' },
      { text: 'd', font: 'body', strike: true },
      { text: ' e', font: 'body' },
    ]);
  });

  const link = { color: '#123456', underline: true };
  const cases: [string, string, object | undefined][] = [
    ['a page of the PDF: a jump', '[t](/there)', { goTo: 'p:there' }],
    ['a heading of this page', '[t](#setup)', { goTo: 'a:here:setup' }],
    ['a heading of another printed page', '[t](/there#setup)', { goTo: 'a:there:setup' }],
    ['a page left out of the PDF: text', '[t](/away)', undefined],
    ['an address', '[t](https://example.com/x)', { link: 'https://example.com/x' }],
    ['a relative address: text', '[t](notes.txt)', undefined],
  ];
  for (const [name, markdown, target] of cases) {
    test(name, () => {
      const [run] = runs(markdown);
      assert.deepEqual(run, {
        text: 't',
        font: 'body',
        ...(target === undefined ? {} : { ...link, ...target }),
      });
    });
  }

  test('a scheme off the allow-list is text, whoever made the document', () => {
    const text = { object: 'text', leaves: [{ object: 'leaf', text: 't', marks: [] }] } as const;
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
      const node = {
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: { kind: 'url', url } },
        nodes: [text],
      };
      assert.deepEqual(runsOf([node as never], ctx), [{ text: 't', font: 'body' }], url);
    }
  });

  test('tabs become spaces; formulas print as TeX in the code font', () => {
    assert.deepEqual(runs('$$x^2$$ and')[0], { text: 'x^2', font: 'mono' });
  });
});
