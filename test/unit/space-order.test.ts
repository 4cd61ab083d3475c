import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveKeys, spacePosition } from '../../src/modules/spaces/order.js';

/** The keys a move deals out (src/modules/spaces/order.ts). */
const spaces = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, position: `k${i}` }));
const order = (changed: { id: string; position: string }[]) => {
  const keys = new Map(spaces.map((s) => [s.id, s.position]));
  for (const c of changed) keys.set(c.id, c.position);
  return [...keys]
    .sort((x, y) => (x[1] < y[1] ? -1 : 1))
    .map(([id]) => id)
    .join('');
};

test('moveKeys: the new order, with the existing keys, only those that change', () => {
  const cases: [string, string, 'before' | 'after', string, number][] = [
    ['c', 'a', 'before', 'cabd', 3],
    ['a', 'd', 'after', 'bcda', 4],
    ['b', 'c', 'after', 'acbd', 2],
    ['d', 'c', 'before', 'abdc', 2],
    ['a', 'b', 'before', 'abcd', 0],
    ['b', 'a', 'after', 'abcd', 0],
    ['d', 'c', 'after', 'abcd', 0],
  ];
  for (const [moved, target, side, expected, changes] of cases) {
    const changed = moveKeys(spaces, moved, target, side);
    assert.equal(order(changed), expected, `${moved} ${side} ${target}`);
    assert.equal(changed.length, changes, `${moved} ${side} ${target}`);
  }
});

test('moveKeys refuses spaces not listed; spacePosition sorts by creation, then id', () => {
  assert.throws(() => moveKeys(spaces, 'x', 'a', 'before'));
  assert.throws(() => moveKeys(spaces, 'a', 'x', 'before'));
  assert.ok(
    spacePosition('2026-01-01T00:00:00.000Z', 'z') < spacePosition('2026-01-02T00:00:00.000Z', 'a'),
  );
});
