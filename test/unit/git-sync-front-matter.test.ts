import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type FrontMatter, splitPage } from '../../src/modules/git-sync/format/front-matter.js';
import { titleOf } from '../../src/modules/git-sync/format/markdown.js';

interface Row {
  rule: string;
  text: string;
  frontMatter: FrontMatter;
  body?: string;
  bodyLine?: number;
  warnings?: { line: number; includes: string }[];
}

const FULL = `---
description: >-
  Folded
  text.
icon: book-open
hidden: true
noIndex: false
noRobotsIndex: true
cover: .gitbook/assets/cover.png
coverY: -12
coverHeight: 461
layout:
  width: wide
  cover:
    visible: true
    size: hero
    mask: radial
  title:
    visible: true
  description:
    visible: false
  tableOfContents:
    visible: true
  outline:
    visible: false
  pagination:
    visible: true
  metadata:
    visible: true
  tags:
    visible: false
  actions:
    visible: true
tags:
  - beta
  - tag: api
    primary: true
metaLinks:
  canonical: https://example.com/a
  alternates:
    - ../other.md
vars:
  version: 2
if: visitor.claims.unsigned.persona === "new"
title: From another generator
date: 2026-01-02
---

# Page
`;

describe('front matter: every key of reference §3.2', () => {
  const rows: Row[] = [
    {
      rule: 'every key, mapped to its field; unknown keys kept',
      text: FULL,
      frontMatter: {
        description: 'Folded text.',
        icon: 'book-open',
        hidden: true,
        noIndex: false,
        noRobotsIndex: true,
        cover: { light: '.gitbook/assets/cover.png', yPos: -12, height: 461 },
        layout: {
          width: 'wide',
          cover: true,
          coverSize: 'hero',
          coverMask: 'radial',
          title: true,
          description: false,
          tableOfContents: true,
          outline: false,
          pagination: true,
          metadata: true,
          tags: false,
          actions: true,
        },
        tags: [{ tag: 'beta' }, { tag: 'api', primary: true }],
        metaLinks: { canonical: 'https://example.com/a', alternates: ['../other.md'] },
        vars: { version: 2 },
        condition: 'visitor.claims.unsigned.persona === "new"',
        extra: { title: 'From another generator', date: '2026-01-02' },
      },
      body: '\n# Page\n',
      bodyLine: 48,
    },
    {
      rule: 'no front matter: the whole file is the body',
      text: '# Title\n\ntext\n',
      frontMatter: { extra: {} },
      body: '# Title\n\ntext\n',
      bodyLine: 1,
    },
    {
      rule: 'a `---` later in the file is a divider, not front matter',
      text: 'intro\n---\ndescription: x\n---\n',
      frontMatter: { extra: {} },
      bodyLine: 1,
    },
    {
      rule: 'an unclosed block is not front matter',
      text: '---\ndescription: x\n',
      frontMatter: { extra: {} },
      bodyLine: 1,
    },
    {
      rule: 'CRLF and a BOM',
      text: '\uFEFF---\r\ndescription: Hi\r\ncover:\r\n  light: a.png\r\n  dark: b.png\r\n---\r\nbody',
      frontMatter: { description: 'Hi', cover: { light: 'a.png', dark: 'b.png' }, extra: {} },
      body: 'body',
      bodyLine: 7,
    },
    {
      rule: 'an empty block',
      text: '---\n---\n# T\n',
      frontMatter: { extra: {} },
      body: '# T\n',
      bodyLine: 3,
    },
    {
      rule: 'invalid YAML: a warning with the file line, no fields',
      text: '---\ndescription: ok\nhidden: [true\n---\n# T\n',
      frontMatter: { extra: {} },
      bodyLine: 5,
      warnings: [{ line: 4, includes: 'invalid YAML' }],
    },
    {
      rule: 'a value of the wrong type is dropped with its key and line',
      text: '---\ndescription: ok\nhidden: "yes"\ncoverHeight: 5000\n---\n',
      frontMatter: { description: 'ok', extra: {} },
      warnings: [
        { line: 3, includes: '`hidden`' },
        { line: 4, includes: '`coverHeight`' },
      ],
    },
    {
      rule: 'a list is not front matter',
      text: '---\n- a\n---\n',
      frontMatter: { extra: {} },
      warnings: [{ line: 2, includes: 'not a YAML mapping' }],
    },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const page = splitPage(row.text, 'guide/page.md');
      assert.deepEqual(page.frontMatter, row.frontMatter);
      if (row.body !== undefined) assert.equal(page.body, row.body);
      if (row.bodyLine !== undefined) assert.equal(page.bodyLine, row.bodyLine);
      const expected = row.warnings ?? [];
      assert.equal(page.warnings.length, expected.length, JSON.stringify(page.warnings));
      expected.forEach((want, i) => {
        const got = page.warnings[i];
        assert.equal(got?.file, 'guide/page.md');
        assert.equal(got?.line, want.line);
        assert.ok(got?.message.includes(want.includes), got?.message);
      });
    });
  }
  test('nested aliases do not expand into billions of values', () => {
    let yaml = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 9; i++) {
      const from = i === 1 ? 'a' : 'b'.repeat(i - 1);
      yaml += `${'b'.repeat(i)}: &${'b'.repeat(i)} [${Array(10).fill(`*${from}`).join(', ')}]\n`;
    }
    const page = splitPage(`---\n${yaml}vars:\n  boom: *bbbbbbbb\n---\n# T\n`, 'bomb.md');
    assert.deepEqual(page.frontMatter, { extra: {} });
    assert.equal(page.warnings.length, 1);
    assert.equal(page.body, '# T\n');
  });
  test('`__proto__` is an ordinary unknown key', () => {
    const page = splitPage('---\n__proto__:\n  hidden: true\nconstructor: x\n---\n', 'p.md');
    assert.equal(Object.getPrototypeOf(page.frontMatter.extra), Object.prototype);
    assert.equal(
      JSON.stringify(page.frontMatter.extra),
      '{"__proto__":{"hidden":true},"constructor":"x"}',
    );
    assert.equal(page.frontMatter.hidden, undefined);
  });
  test('the block is kept as written, for export', () => {
    assert.equal(splitPage('---\na: 1 # c\n---\nx', 'p.md').raw, 'a: 1 # c\n');
  });
});

describe('titleOf: the first ATX heading 1', () => {
  const rows: [string, string, string | undefined][] = [
    ['a plain title', '# Getting started\n\ntext', 'Getting started'],
    ['after other blocks', 'intro\n\n## Two\n\n# One\n', 'One'],
    ['formatting is dropped', '# The `git` *command*', 'The git command'],
    ['a GitBook anchor is not text', '# Title <a href="#t" id="t"></a>', 'Title'],
    ['escapes and entities', '# A \\[b\\] &amp; c', 'A [b] & c'],
    ['a setext heading is not GitBook`s title', 'Title\n=====\n', undefined],
    ['a heading inside a fence is code', '```\n# not\n```\n', undefined],
    ['`#x` is not a heading', '#x\n', undefined],
    ['no heading', 'text', undefined],
    ['an empty heading', '#\n\n# Real', undefined],
    ['a heading ends a paragraph', 'intro text\n# Title\n', 'Title'],
    ['a quoted heading is not the title', '> # Quoted\n\n# Real', 'Real'],
    ['nor one in a list', '* # Listed\n\n# Real', 'Real'],
    ['nor one inside an HTML block', '<div>\n# Not\n</div>\n\n# Real', 'Real'],
    ['nor one in an unclosed fence', '~~~\n# Not\n', undefined],
    ['indented 4 spaces is code', '    # Not\n', undefined],
    ['up to 3 spaces of indent', '   # Yes', 'Yes'],
  ];
  for (const [rule, body, title] of rows) {
    test(rule, () => assert.equal(titleOf(body), title));
  }
});
