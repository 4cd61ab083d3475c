/**
 * Searching many spaces in parts (src/modules/search/merge.ts, docs/search.md "Where it runs"):
 * how spaces are cut into parts, and that merging the parts' best pages gives exactly the
 * ranking, the page of results and the count that one search over every space gives.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { mergeParts, partsOf } from '../../src/modules/search/merge.js';
import { addPages, find } from '../../src/modules/search/search-thread.js';

describe('search in parts', () => {
  test('partsOf: consecutive runs within the budget; an item over it is alone', () => {
    for (const [sizes, budget, parts] of [
      [[], 10, []],
      [[3], 10, [[0, 1]]],
      [[3, 4, 3], 10, [[0, 3]]],
      [
        [3, 4, 4],
        10,
        [
          [0, 2],
          [2, 3],
        ],
      ],
      [
        [20, 1, 1],
        10,
        [
          [0, 1],
          [1, 3],
        ],
      ],
      [
        [1, 20, 1],
        10,
        [
          [0, 1],
          [1, 2],
          [2, 3],
        ],
      ],
      [[0, 0, 0], 0, [[0, 3]]],
    ] as const) {
      assert.deepEqual(
        partsOf(sizes, budget).map(({ first, end }) => [first, end]),
        parts,
        `${sizes} in ${budget}`,
      );
    }
  });

  test('merging the parts equals one search over every space', () => {
    const WORDS = ['alpha', 'beta', 'gamma', 'delta'];
    const page = fc.record({
      title: fc.constantFrom(...WORDS),
      words: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }),
    });
    let run = 0;
    fc.assert(
      fc.property(
        fc.array(fc.array(page, { maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...WORDS, 'al', 'beta gamma'),
        fc.nat(6),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        (spaces, text, offset, limit, budget) => {
          run++;
          const keys = spaces.map((pages, s) => {
            const key = `space${s}\u0000merge-${run}`;
            const input = pages.map((p, i) => ({
              id: `p${i}`,
              title: p.title,
              description: '',
              path: `p${i}`,
              ancestors: [],
              markdown: p.words.join(' '),
            }));
            assert.equal(addPages({ key, batch: 0, batches: 1, pages: input }), true);
            return key;
          });
          const whole = find({ keys, text, offset, limit });
          const parts = partsOf(
            spaces.map(() => 1),
            budget,
          ).map(({ first, end }) => {
            const part = find({
              keys: keys.slice(first, end),
              text,
              offset: 0,
              limit: offset + limit,
            });
            assert.ok('pages' in part);
            return { first, ...part };
          });
          assert.deepEqual(mergeParts(parts, offset, limit), whole);
        },
      ),
      { numRuns: 200 },
    );
  });
});
