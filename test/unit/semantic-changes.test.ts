import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type FileSnapshot,
  type RevisionSide,
  type SemanticChange,
  semanticChanges,
} from '../../src/modules/content/semantic-changes.js';
import type { StoredPage, Tree } from '../../src/modules/content/tree.js';

const AT = '2026-01-01T00:00:00.000Z';

/** A document page (a group with `type: 'group'`), children after. */
function page(id: string, fields: Partial<StoredPage> = {}, ...pages: StoredPage[]): StoredPage {
  return {
    id,
    type: 'document',
    title: id.toUpperCase(),
    slug: id,
    ...(fields.type === 'group' ? {} : { markdown: `# ${id}\n` }),
    createdAt: AT,
    updatedAt: AT,
    ...fields,
    pages,
  };
}

const side = (pages: Tree, files: FileSnapshot[] = []): RevisionSide => ({
  pages,
  files,
  reusableContents: [],
});
const OPTIONS = { layoutOf: (p: StoredPage) => ({ width: 'default', ...p.layout }) };
const run = (before: RevisionSide | undefined, after: RevisionSide) =>
  semanticChanges(before, after, OPTIONS);
/** `type id` of each change, for rows that only check which changes were found. */
const kinds = (changes: SemanticChange[]) =>
  changes.map((c) => {
    const what = 'page' in c ? c.page.id : 'file' in c ? c.file.id : c.reusableContent.id;
    return `${c.type} ${what}`;
  });

describe('semanticChanges: which changes a revision made, by kind', () => {
  const a = page('a');
  const b = page('b');
  const rows: { rule: string; before: Tree | undefined; after: Tree; expected: string[] }[] = [
    {
      rule: 'a first revision (no parent): every page is created, in reading order',
      before: undefined,
      after: [page('a', {}, page('a1')), b],
      expected: ['page_created a', 'page_created a1', 'page_created b'],
    },
    { rule: 'nothing changed: no change', before: [a, b], after: [a, b], expected: [] },
    {
      rule: 'a reorder among the same siblings is not a move',
      before: [a, b],
      after: [b, a],
      expected: [],
    },
    {
      rule: 'a page added beside others',
      before: [a],
      after: [a, b],
      expected: ['page_created b'],
    },
    {
      rule: 'a deleted subtree: every page of it, in the old reading order',
      before: [page('a', {}, page('a1', {}, page('a2'))), b],
      after: [b],
      expected: ['page_deleted a', 'page_deleted a1', 'page_deleted a2'],
    },
    {
      rule: 'a page moved under another: a move; its children follow without a change',
      before: [page('a', {}, page('a1')), b],
      after: [page('b', {}, page('a', {}, page('a1')))],
      expected: ['page_moved a'],
    },
    {
      rule: 'a page moved to the top level',
      before: [page('a', {}, page('a1'))],
      after: [page('a'), page('a1')],
      expected: ['page_moved a1'],
    },
    {
      rule: 'a rename is an edit, not a move or a delete and create',
      before: [page('a', {}, page('a1'))],
      after: [page('a', { title: 'Renamed', slug: 'renamed' }, page('a1'))],
      expected: ['page_edited a'],
    },
    {
      rule: 'moved and edited: both changes',
      before: [a, page('b')],
      after: [page('b', {}, page('a', { markdown: 'new body' }))],
      expected: ['page_moved a', 'page_edited a'],
    },
    {
      rule: 'a page replaced by a new one at the same path: deleted and created (ids, not paths)',
      before: [a],
      after: [page('a2', { slug: 'a', title: 'A' })],
      expected: ['page_created a2', 'page_deleted a'],
    },
    {
      rule: 'only updatedAt differs: no change',
      before: [a],
      after: [page('a', { updatedAt: '2027-01-01T00:00:00.000Z' })],
      expected: [],
    },
    {
      rule: 'hidden is no attribute of the change: no change',
      before: [a],
      after: [page('a', { hidden: true })],
      expected: [],
    },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const before = row.before === undefined ? undefined : side(row.before);
      assert.deepEqual(kinds(run(before, side(row.after))), row.expected);
    });
  }
});

describe('semanticChanges: what each change says', () => {
  test('an edit lists exactly the attributes that differ, before and after', () => {
    const before = side([page('a', { description: 'Old' })]);
    const after = side([
      page('a', { title: 'New', emoji: '🚀', markdown: 'other', layout: { width: 'wide' } }),
    ]);
    assert.deepEqual(run(before, after), [
      {
        type: 'page_edited',
        page: { id: 'a', type: 'document', title: 'New', path: 'a' },
        attributes: {
          title: { before: 'A', after: 'New' },
          emoji: { after: '🚀' },
          description: { before: 'Old' },
          // The document id of a page is its id: each side is read in its own revision.
          document: { before: 'a', after: 'a' },
          layout: { before: { width: 'default' }, after: { width: 'wide' } },
        },
      },
    ]);
  });

  test("a move names the parents before and after, with the page's new path", () => {
    const before = side([page('g', { type: 'group' }, page('x')), page('h', { type: 'group' })]);
    const after = side([page('g', { type: 'group' }), page('h', { type: 'group' }, page('x'))]);
    assert.deepEqual(run(before, after), [
      {
        type: 'page_moved',
        page: { id: 'x', type: 'document', title: 'X', path: 'h/x' },
        parent: {
          before: { id: 'g', type: 'group', title: 'G', path: 'g' },
          after: { id: 'h', type: 'group', title: 'H', path: 'h' },
        },
      },
    ]);
  });

  test('a deleted page carries its old path; a link has no path', () => {
    const link: StoredPage = {
      id: 'l',
      type: 'link',
      title: 'Site',
      target: { kind: 'url', url: 'https://a.test/' },
      createdAt: AT,
      updatedAt: AT,
      pages: [],
    };
    const moved = { ...link, target: { kind: 'page' as const, page: 'a' } };
    assert.deepEqual(run(side([page('a', {}, page('b')), link]), side([page('a'), moved])), [
      {
        type: 'page_edited',
        page: { id: 'l', type: 'link', title: 'Site' },
        attributes: {
          target: {
            before: { kind: 'url', url: 'https://a.test/' },
            after: { kind: 'page', page: 'a' },
          },
        },
      },
      { type: 'page_deleted', page: { id: 'b', type: 'document', title: 'B', path: 'a/b' } },
    ]);
  });

  test('a group edit lists only what a group has (title, emoji, slug)', () => {
    const before = side([page('g', { type: 'group' })]);
    const after = side([page('g', { type: 'group', slug: 'guides' })]);
    assert.deepEqual(run(before, after), [
      {
        type: 'page_edited',
        page: { id: 'g', type: 'group', title: 'G', path: 'guides' },
        attributes: { slug: { before: 'g', after: 'guides' } },
      },
    ]);
  });

  test('files: created, edited (the attributes that differ) and deleted', () => {
    const file = (id: string, fields: Partial<FileSnapshot> = {}): FileSnapshot => ({
      id,
      name: `${id}.png`,
      contentType: 'image/png',
      downloadURL: `https://l.test/${id}`,
      size: 10,
      ...fields,
    });
    const changes = run(
      side([], [file('kept'), file('edited'), file('gone')]),
      side(
        [],
        [file('kept'), file('edited', { size: 20, downloadURL: 'https://l.test/v2' }), file('new')],
      ),
    );
    assert.deepEqual(changes, [
      {
        type: 'file_edited',
        file: {
          id: 'edited',
          name: 'edited.png',
          contentType: 'image/png',
          downloadURL: 'https://l.test/v2',
        },
        attributes: {
          downloadURL: { before: 'https://l.test/edited', after: 'https://l.test/v2' },
          size: { before: 10, after: 20 },
        },
      },
      {
        type: 'file_created',
        file: {
          id: 'new',
          name: 'new.png',
          contentType: 'image/png',
          downloadURL: 'https://l.test/new',
        },
      },
      {
        type: 'file_deleted',
        file: {
          id: 'gone',
          name: 'gone.png',
          contentType: 'image/png',
          downloadURL: 'https://l.test/gone',
        },
      },
    ]);
  });

  test('reusable contents: created, edited (title, document) and deleted', () => {
    const item = (id: string, title = id, markdown = 'x') => ({ id, title, markdown });
    const changes = run(
      { pages: [], files: [], reusableContents: [item('r1'), item('r2')] },
      { pages: [], files: [], reusableContents: [item('r1', 'R one', 'y'), item('r3')] },
    );
    assert.deepEqual(kinds(changes), [
      'reusable_content_edited r1',
      'reusable_content_created r3',
      'reusable_content_deleted r2',
    ]);
    assert.deepEqual((changes[0] as { attributes: unknown }).attributes, {
      title: { before: 'r1', after: 'R one' },
      document: { before: 'r1', after: 'r1' },
    });
  });
});
