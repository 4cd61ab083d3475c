import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../src/errors.js';
import type { StoredPage } from '../../src/modules/content/tree.js';
import { selectPages } from '../../src/modules/pdf/selection.js';

const page = (id: string, type: StoredPage['type'], pages: StoredPage[] = []): StoredPage => ({
  id,
  type,
  title: id.toUpperCase(),
  createdAt: '',
  updatedAt: '',
  pages,
});

// a, a/b, a/b/c, g (group), g/d, l (link), e
const TREE = [
  page('a', 'document', [page('b', 'document', [page('c', 'document')])]),
  page('g', 'group', [page('d', 'document')]),
  page('l', 'link'),
  page('e', 'document'),
];

const ids = (request: Parameters<typeof selectPages>[1], max = 100) =>
  selectPages(TREE, request, max).map((p) => `${p.id}${p.depth}`);

const refusal = (request: Parameters<typeof selectPages>[1], max = 100) => {
  try {
    selectPages(TREE, request, max);
  } catch (error) {
    assert.ok(error instanceof AppError);
    return `${error.statusCode} ${error.message}`;
  }
  return assert.fail('refused');
};

describe('selectPages', () => {
  const cases: [string, Parameters<typeof selectPages>[1], string[]][] = [
    ['the whole space, depth first, links left out', {}, ['a0', 'b1', 'c2', 'g0', 'd1', 'e0']],
    ['only=false is the whole space', { only: false }, ['a0', 'b1', 'c2', 'g0', 'd1', 'e0']],
    ['a page and its descendants', { page: 'b' }, ['b0', 'c1']],
    ['a group and its pages', { page: 'g' }, ['g0', 'd1']],
    ['one page alone', { page: 'b', only: true }, ['b0']],
    ['a leaf', { page: 'e' }, ['e0']],
  ];
  for (const [name, request, expected] of cases) {
    test(name, () => assert.deepEqual(ids(request), expected));
  }

  test('refusals name their field', () => {
    assert.match(refusal({ page: 'zz' }), /^404 querystring\.page: no page "zz"/);
    assert.match(refusal({ page: 'l' }), /^400 querystring\.page: .* is a link/);
    assert.match(refusal({ only: true }), /^400 querystring\.only: /);
    assert.match(
      refusal({}, 5),
      /^413 spaceId: the PDF would hold 6 pages, over the limit of 5 \(PDF_MAX_PAGES\)/,
    );
    assert.match(refusal({ page: 'a' }, 2), /^413 querystring\.page: the PDF would hold 3 pages/);
    assert.deepEqual(ids({}, 6).length, 6, 'the limit itself is allowed');
  });
});
