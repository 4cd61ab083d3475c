import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inferSummary } from '../../src/modules/git-sync/format/infer-summary.js';
import type { SummaryEntry } from '../../src/modules/git-sync/format/summary-entry.js';

/** A tree as `file` or `file > [children]`, compact enough to read in a table. */
type Shape = string | [string, Shape[]];

function shapeOf(entries: readonly SummaryEntry[]): Shape[] {
  return entries.map((entry) => {
    assert.equal(entry.kind, 'page');
    if (entry.kind !== 'page') return '';
    assert.equal(entry.line, 0);
    return entry.children.length === 0 ? entry.file : [entry.file, shapeOf(entry.children)];
  });
}

const rows: { rule: string; files: string[]; readme?: string; shape: Shape[] }[] = [
  {
    rule: 'the readme first, then files and folders alphabetically',
    files: ['zeta.md', 'Alpha.md', 'guide/README.md', 'guide/b.md', 'guide/a.md', 'README.md'],
    shape: ['README.md', 'Alpha.md', ['guide/README.md', ['guide/a.md', 'guide/b.md']], 'zeta.md'],
  },
  {
    rule: 'numbers by value',
    files: ['10-end.md', '2-middle.md', '1-start.md'],
    shape: ['1-start.md', '2-middle.md', '10-end.md'],
  },
  {
    rule: 'a folder without a readme: its pages take its place',
    files: ['README.md', 'b.md', 'a/x.md', 'a/y.md', 'c/README.md'],
    shape: ['README.md', 'a/x.md', 'a/y.md', 'b.md', 'c/README.md'],
  },
  {
    rule: 'hidden folders, .gitbook/ and node_modules/ are not content; other files are not pages',
    files: [
      'README.md',
      '.gitbook/includes/x.md',
      '.gitbook/assets/y.md',
      '.github/PULL.md',
      'node_modules/p/README.md',
      'img.png',
      'notes.txt',
      'page.MD',
    ],
    shape: ['README.md', 'page.MD'],
  },
  {
    rule: 'structure.readme names the first page',
    files: ['README.md', 'INTRODUCTION.md', 'a.md'],
    readme: 'INTRODUCTION.md',
    shape: ['INTRODUCTION.md', 'a.md', 'README.md'],
  },
  {
    rule: 'the readme spellings, extensionless included',
    files: ['readme.md', 'docs/README', 'docs/a.md'],
    shape: ['readme.md', ['docs/README', ['docs/a.md']]],
  },
  {
    rule: 'nesting as deep as the folders',
    files: ['a/README.md', 'a/b/README.md', 'a/b/c/README.md', 'a/b/c/d.md'],
    shape: [['a/README.md', [['a/b/README.md', [['a/b/c/README.md', ['a/b/c/d.md']]]]]]],
  },
  { rule: 'nothing', files: ['image.png'], shape: [] },
];

describe('the inferred table of contents (no SUMMARY.md)', () => {
  for (const row of rows) {
    test(row.rule, () => {
      assert.deepEqual(shapeOf(inferSummary(row.files, row.readme)), row.shape);
    });
  }
  test('titles are file and folder names', () => {
    const entries = inferSummary(['README.md', 'Getting started.md', 'api/README.md']);
    assert.deepEqual(
      entries.map((e) => (e.kind === 'page' ? e.title : '')),
      ['README', 'api', 'Getting started'],
    );
  });
  test('the order does not depend on the order of the listing', () => {
    const files = ['b.md', 'B.md', 'a/README.md', 'A.md', 'README.md'];
    assert.deepEqual(inferSummary(files), inferSummary([...files].reverse()));
  });
});
