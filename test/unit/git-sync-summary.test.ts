import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSummary, type SummaryOptions } from '../../src/modules/git-sync/format/summary.js';
import { pagesOf, type SummaryEntry } from '../../src/modules/git-sync/format/summary-entry.js';

const page = (title: string, file: string, line: number, children: SummaryEntry[] = []) =>
  ({ kind: 'page', title, file, line, children }) as const;

interface Row {
  rule: string;
  text: string;
  options?: Partial<SummaryOptions>;
  entries: SummaryEntry[];
  warnings?: [number, string][];
}

const rows: Row[] = [
  {
    rule: 'the first `# Table of contents` is ignored; nesting makes children',
    text: '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n    * [Linux](guide/linux.md)\n',
    entries: [
      page('Home', 'README.md', 3),
      page('Guide', 'guide/README.md', 4, [
        page('Install', 'guide/install.md', 5, [page('Linux', 'guide/linux.md', 6)]),
      ]),
    ],
  },
  {
    rule: '`-` bullets and 4-space indents',
    text: '# Summary\n\n- [A](a.md)\n    - [B](b.md)\n',
    entries: [page('A', 'a.md', 3, [page('B', 'b.md', 4)])],
  },
  {
    rule: 'groups with and without an anchor; `***` ends a group',
    text: '# Table of contents\n\n* [Home](README.md)\n\n## Get Started <a href="#getting-started" id="getting-started"></a>\n\n* [Quick](start/quick.md)\n\n## Old style <a id="old"></a>\n\n## Plain\n\n* [P](p.md)\n\n***\n\n* [Last](last.md)\n',
    entries: [
      page('Home', 'README.md', 3),
      {
        kind: 'group',
        title: 'Get Started',
        slug: 'getting-started',
        line: 5,
        children: [page('Quick', 'start/quick.md', 7)],
      },
      { kind: 'group', title: 'Old style', slug: 'old', line: 9, children: [] },
      { kind: 'group', title: 'Plain', line: 11, children: [page('P', 'p.md', 13)] },
      page('Last', 'last.md', 17),
    ],
  },
  {
    rule: 'link titles, escapes, `<…>` and `%20` destinations, backslashes in paths',
    text: '* [Agent](a.md "Agent skills")\n* [README \\(1\\)](<README (1).md>)\n* [Web App](Web%20App/x.md)\n* [Conduct](CODE\\_OF\\_CONDUCT.md)\n* [\\[new\\] *when()*](n.md)\n',
    entries: [
      { ...page('Agent', 'a.md', 1), linkTitle: 'Agent skills' },
      page('README (1)', 'README (1).md', 2),
      page('Web App', 'Web App/x.md', 3),
      page('Conduct', 'CODE_OF_CONDUCT.md', 4),
      page('[new] when()', 'n.md', 5),
    ],
  },
  {
    rule: 'external links, other spaces and anchors are link entries',
    text: '* [Site](https://example.com/x)\n* [Other](https://app.gitbook.com/s/abc/page)\n* [Buttons](inline.md#buttons)\n',
    entries: [
      {
        kind: 'link',
        title: 'Site',
        target: { kind: 'url', url: 'https://example.com/x' },
        line: 1,
      },
      {
        kind: 'link',
        title: 'Other',
        target: { kind: 'url', url: 'https://app.gitbook.com/s/abc/page' },
        line: 2,
      },
      {
        kind: 'link',
        title: 'Buttons',
        target: { kind: 'page', file: 'inline.md', anchor: 'buttons' },
        line: 3,
      },
    ],
  },
  {
    rule: 'an OpenAPI fence is a computed entry',
    text: '* [A](a.md)\n* ```yaml\n  type: builtin:openapi\n  dependencies: { spec: { ref: { kind: openapi, spec: x } } }\n  ```\n',
    entries: [
      page('A', 'a.md', 1),
      {
        kind: 'openapi',
        spec: 'type: builtin:openapi\ndependencies: { spec: { ref: { kind: openapi, spec: x } } }\n',
        line: 2,
      },
    ],
  },
  {
    rule: 'an item without a link: a warning, its children lifted',
    text: '* Section\n  * [A](a.md)\n',
    entries: [page('A', 'a.md', 2)],
    warnings: [[1, 'without a link']],
  },
  {
    rule: 'outside the root, twice, not Markdown: warnings, first wins',
    text: '* [X](../x.md)\n* [A](a.md)\n* [Again](./a.md)\n* [NB](nb.ipynb)\n* [Deep](a/../../../etc.md)\n',
    entries: [page('A', 'a.md', 2)],
    warnings: [
      [1, 'outside the space root'],
      [3, 'listed twice'],
      [4, 'not a Markdown file'],
      [5, 'outside the space root'],
    ],
  },
  {
    rule: 'a SUMMARY in a folder: entries from its folder, `/` from the root',
    text: '* [A](a.md)\n* [Up](../b.md)\n* [Top](/c.md)\n',
    options: { file: 'product/SUMMARY.md' },
    entries: [page('A', 'product/a.md', 1), page('Up', 'b.md', 2), page('Top', 'c.md', 3)],
  },
  {
    rule: 'with the file list: folders mean their readme, missing files are warned',
    text: '* [Guide](guide/)\n* [Ref](ref)\n* [Gone](gone.md)\n  * [Kept](kept.md)\n',
    options: { files: new Set(['guide/readme.md', 'ref/README', 'kept.md']) },
    entries: [
      page('Guide', 'guide/readme.md', 1),
      page('Ref', 'ref/README', 2),
      page('Kept', 'kept.md', 4),
    ],
    warnings: [[3, 'does not exist']],
  },
  {
    rule: 'CRLF, and a paragraph that is not an entry',
    text: '# TOC\r\n\r\nSome text\r\n\r\n* [A](a.md)\r\n',
    entries: [page('A', 'a.md', 5)],
    warnings: [[3, 'ignored']],
  },
  { rule: 'an empty file', text: '', entries: [] },
];

describe('SUMMARY.md (reference §2)', () => {
  for (const row of rows) {
    test(row.rule, () => {
      const result = parseSummary(row.text, { file: 'SUMMARY.md', ...row.options });
      assert.deepEqual(result.entries, row.entries);
      assert.deepEqual(
        result.warnings.map((w) => w.line),
        (row.warnings ?? []).map(([line]) => line),
        JSON.stringify(result.warnings),
      );
      (row.warnings ?? []).forEach(([, part], i) => {
        assert.ok(result.warnings[i]?.message.includes(part), result.warnings[i]?.message);
      });
    });
  }
  test('nesting as deep as it is written (30 levels)', () => {
    let text = '';
    for (let i = 0; i < 30; i++) text += `${'  '.repeat(i)}* [P${i}](p${i}.md)\n`;
    const { entries, warnings } = parseSummary(text, { file: 'SUMMARY.md' });
    let depth = 0;
    for (let level = entries; level.length > 0; depth++) {
      const first = level[0];
      level = first?.kind === 'page' ? first.children : [];
    }
    assert.equal(depth, 30);
    assert.deepEqual(warnings, []);
  });
  test('pagesOf walks pages depth first, groups included', () => {
    const { entries } = parseSummary(
      '* [A](a.md)\n  * [B](b.md)\n\n## G\n\n* [C](c.md)\n* [L](https://x.y)\n',
      { file: 'SUMMARY.md' },
    );
    assert.deepEqual(
      [...pagesOf(entries)].map((p) => p.file),
      ['a.md', 'b.md', 'c.md'],
    );
  });
});
