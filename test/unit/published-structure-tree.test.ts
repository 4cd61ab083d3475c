import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { structureTree } from '../../src/modules/published/structure.js';

describe('the structure tree', () => {
  const node = (id: string, position: number, parent: string | null = null) => ({
    id,
    title: `T ${id}`,
    localized_title: null,
    description: null,
    localized_description: null,
    icon: null,
    draft: 0,
    position,
    parent_group_id: parent,
  });
  test('siblings ordered by position across the three tables, groups holding their children', () => {
    const tree = structureTree(
      [
        { ...node('s1', 2), path: 's1', is_default: 1, localized_title: '{"fr":"S un"}' },
        { ...node('s2', 0, 'g1'), path: 's2', is_default: 0 },
        { ...node('s3', 0, 'g2'), path: 's3', is_default: 0 },
      ],
      [node('g1', 0), node('g2', 1, 'g1')],
      [{ ...node('l1', 1), url: 'https://x.test/', localized_title: 'not json' }],
    );
    const shape = (items: typeof tree): unknown =>
      items.map((item) => (item.kind === 'group' ? { [item.id]: shape(item.children) } : item.id));
    assert.deepEqual(shape(tree), [{ g1: ['s2', { g2: ['s3'] }] }, 'l1', 's1']);
    const s1 = tree[2];
    assert.ok(s1?.kind === 'section');
    assert.deepEqual(s1.localizedTitle, { fr: 'S un' });
    assert.equal(tree[1]?.localizedTitle, undefined, 'an unreadable localized title is left out');
  });

  test('a group in a cycle is left out rather than looping', () => {
    const tree = structureTree([], [node('a', 0, 'b'), node('b', 0, 'a')], []);
    assert.deepEqual(tree, []);
  });
});
