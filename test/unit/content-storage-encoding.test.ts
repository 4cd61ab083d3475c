/**
 * Encoding a revision's tree as nodes and bodies (content/storage/encode.ts): comparing each page
 * with its prior, to hash only what changed, must give exactly what encoding from scratch gives;
 * and no change to a page can keep its old hash.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/errors.js';
import { applyChanges, type PageChange } from '../../src/modules/content/changes.js';
import { mergeTrees } from '../../src/modules/content/merge.js';
import { encodeTree, type TreeIndex } from '../../src/modules/content/storage/encode.js';
import { cloneTree, type Tree, walk } from '../../src/modules/content/tree.js';

const POOL = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
const TEXTS = ['# A', '# B\n\nbody', '', 'ü', '# A'];

const insert: fc.Arbitrary<PageChange> = fc
  .record({
    operation: fc.constant('insert_page' as const),
    type: fc.constantFrom('document' as const, 'group' as const, 'link' as const),
    title: fc.constantFrom('One', 'Two', 'Three'),
    into: fc.option(fc.constantFrom(...POOL), { nil: null, freq: 2 }),
    at: fc.nat({ max: 4 }),
    markdown: fc.constantFrom(...TEXTS),
  })
  .map(
    ({ markdown, ...spec }): PageChange => ({
      ...spec,
      ...(spec.type === 'document' ? { document: { markdown } } : {}),
      ...(spec.type === 'link' ? { target: { kind: 'url', url: 'https://x.test' } } : {}),
    }),
  );

const update: fc.Arbitrary<PageChange> = fc.record(
  {
    operation: fc.constant('update_page' as const),
    page: fc.constantFrom(...POOL),
    title: fc.constantFrom('One', 'Renamed'),
    emoji: fc.constantFrom('', '📘'),
    hidden: fc.boolean(),
    document: fc.constantFrom(...TEXTS).map((markdown) => ({ markdown })),
    into: fc.option(fc.constantFrom(...POOL), { nil: null }),
    at: fc.nat({ max: 4 }),
  },
  { requiredKeys: ['operation', 'page'] },
);

const remove: fc.Arbitrary<PageChange> = fc.record({
  operation: fc.constant('delete_page' as const),
  page: fc.constantFrom(...POOL),
});

const change: fc.Arbitrary<PageChange> = fc.oneof(
  { arbitrary: insert, weight: 4 },
  { arbitrary: update, weight: 4 },
  { arbitrary: remove, weight: 1 },
);

/**
 * Applies each change that applies, one revision per change; the revisions' trees. A change's
 * `page` and `into` name the tree's pages by position (`p3`: the fourth page in reading order,
 * modulo their number), so that most changes apply.
 */
function history(changes: PageChange[]): Tree[] {
  let next = 0;
  const makeId = () => `id${next++}`;
  const trees: Tree[] = [[]];
  for (const [i, one] of changes.entries()) {
    const previous = trees[trees.length - 1] ?? [];
    const ids = [...walk(previous)].map((located) => located.page.id);
    const resolve = (ref: string) => ids[Number(ref.slice(1)) % ids.length] ?? ref;
    const resolved = { ...one };
    if (resolved.page !== undefined) resolved.page = resolve(resolved.page);
    if (typeof resolved.into === 'string') resolved.into = resolve(resolved.into);
    try {
      const at = new Date(Date.UTC(2024, 0, 1, 0, 0, i % 3)).toISOString();
      trees.push(applyChanges(previous, [resolved], at, makeId).tree);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return trees;
}

/** Pages inserted, deleted or changed (their own fields or place) from `before` to `after`. */
function changedPages(before: Tree, after: Tree): Set<string> {
  const key = (tree: Tree) =>
    new Map(
      [...walk(tree)].map(({ page, parent, index }) => {
        const { pages: _children, ...own } = page;
        return [page.id, JSON.stringify([own, parent?.id, index])];
      }),
    );
  const a = key(before);
  const b = key(after);
  return new Set([...a.keys(), ...b.keys()].filter((id) => a.get(id) !== b.get(id)));
}

const hashesById = (index: TreeIndex) =>
  Object.fromEntries([...index].map(([id, record]) => [id, [record.node, record.body]]));

describe('encoding trees as nodes and bodies', () => {
  test('each revision encoded against its parent equals it encoded from scratch', () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 10, maxLength: 40 }), (changes) => {
        let prior: TreeIndex | undefined;
        const stored = new Set<string>();
        for (const tree of history(changes)) {
          const incremental = encodeTree(tree, prior === undefined ? [] : [prior]);
          const scratch = encodeTree(tree, []);
          assert.deepEqual(incremental.roots, scratch.roots);
          assert.deepEqual(hashesById(incremental.index), hashesById(scratch.index));
          // Whatever it did not write, the parent's revisions had already stored.
          for (const [hash] of [...scratch.nodes, ...scratch.bodies]) {
            if (!incremental.nodes.has(hash) && !incremental.bodies.has(hash)) {
              assert.ok(stored.has(hash), `${hash} neither written nor stored before`);
            }
          }
          for (const [hash] of [...incremental.nodes, ...incremental.bodies]) stored.add(hash);
          prior = incremental.index;
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a merge encoded against both parents equals it encoded from scratch', () => {
    fc.assert(
      fc.property(
        fc.array(change, { maxLength: 12 }),
        fc.array(change, { maxLength: 6 }),
        (shared, mine) => {
          const base = history(shared).at(-1) ?? [];
          const ours = history([...shared, ...mine]).at(-1) ?? [];
          const result = mergeTrees({
            ours,
            oursTouched: changedPages(base, ours),
            theirs: base,
            theirsTouched: new Set(),
          });
          if (result.conflicts !== undefined) return;
          const priors = [encodeTree(base, []).index, encodeTree(ours, []).index];
          const merged = encodeTree(result.tree, priors);
          assert.deepEqual(merged.roots, encodeTree(result.tree, []).roots);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a page changed in place after it was encoded is hashed again, never matched to its old hash', () => {
    const tree = applyChanges(
      [],
      [{ operation: 'insert_page', title: 'A', document: { markdown: 'one' } }],
      '2024-01-01T00:00:00.000Z',
    ).tree;
    const first = encodeTree(tree, []);
    // Against every rule (trees are copied before they change), the stored tree's page changes.
    const page = tree[0];
    assert.ok(page !== undefined);
    page.markdown = 'two';
    page.title = 'B';
    const again = encodeTree(cloneTree(tree), [first.index]);
    assert.deepEqual(again.roots, encodeTree(cloneTree(tree), []).roots);
    assert.notDeepEqual(again.roots, first.roots);
    assert.equal(again.bodies.size, 1);
  });

  test('cloneTree copies the pages and shares their Markdown', () => {
    const tree = applyChanges(
      [],
      [
        { operation: 'insert_page', title: 'A', document: { markdown: 'x'.repeat(1000) } },
        {
          operation: 'insert_page',
          type: 'link',
          title: 'L',
          target: { kind: 'url', url: 'https://x.test' },
        },
      ],
      '2024-01-01T00:00:00.000Z',
    ).tree;
    const copy = cloneTree(tree);
    assert.deepEqual(copy, tree);
    assert.notEqual(copy[0], tree[0]);
    assert.notEqual(copy[1]?.target, tree[1]?.target);
    assert.notEqual(copy[0]?.pages, tree[0]?.pages);
  });
});
