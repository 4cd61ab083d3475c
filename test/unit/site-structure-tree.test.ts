/**
 * The pure rules of a site's structure (src/modules/sites/structure/tree.ts): where a move puts a
 * node, how deep groups nest, which placements make a cycle, the reading order of sections.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SiteSectionGroupRow, SiteSectionRow } from '../../src/db/schema.js';
import {
  childrenOf,
  groupPlacementProblem,
  makesCycle,
  placeAmong,
  type StructureRows,
  sectionsInOrder,
} from '../../src/modules/sites/structure/tree.js';

const node = (id: string, position: number, parent: string | null) => ({
  id,
  site_id: 'site',
  title: id,
  localized_title: null,
  description: null,
  localized_description: null,
  icon: null,
  draft: 0,
  position,
  parent_group_id: parent,
  git_key: null,
  created_at: '',
  updated_at: '',
});
const group = (id: string, position: number, parent: string | null): SiteSectionGroupRow =>
  node(id, position, parent);
const section = (id: string, position: number, parent: string | null): SiteSectionRow => ({
  ...node(id, position, parent),
  path: id,
  is_default: 0,
});

// Root: A, G (B, H (C)), D; H is nested in G.
const rows: StructureRows = {
  sections: [
    section('A', 1, null),
    section('B', 1, 'G'),
    section('C', 1, 'H'),
    section('D', 3, null),
  ],
  groups: [group('G', 2, null), group('H', 2, 'G'), group('K', 4, null)],
  links: [],
};

describe('placeAmong', () => {
  const cases: [
    string,
    string[],
    string,
    Parameters<typeof placeAmong>[2],
    string[] | undefined,
  ][] = [
    ['last', ['a', 'b'], 'x', 'end', ['a', 'b', 'x']],
    ['before the first', ['a', 'b'], 'x', { before: 'a' }, ['x', 'a', 'b']],
    ['after the last', ['a', 'b'], 'x', { after: 'b' }, ['a', 'b', 'x']],
    ['a sibling moves within', ['a', 'b', 'c'], 'c', { before: 'a' }, ['c', 'a', 'b']],
    ['after itself is no place', ['a', 'b'], 'a', { after: 'a' }, undefined],
    ['an unknown reference', ['a', 'b'], 'x', { before: 'z' }, undefined],
  ];
  for (const [name, siblings, moved, placement, expected] of cases) {
    test(name, () => assert.deepEqual(placeAmong(siblings, moved, placement), expected));
  }
});

describe('groups', () => {
  test('a cycle: into itself or one of its groups', () => {
    assert.equal(makesCycle(rows.groups, 'G', 'G'), true);
    assert.equal(makesCycle(rows.groups, 'G', 'H'), true);
    assert.equal(makesCycle(rows.groups, 'H', 'G'), false);
    assert.equal(makesCycle(rows.groups, 'K', 'G'), false);
  });

  const cases: [string, string | undefined, string | null, RegExp | undefined][] = [
    ['any group may sit at the root', 'H', null, undefined],
    ['a new group in a root group', undefined, 'G', undefined],
    ['a new group in a nested group', undefined, 'H', /nest one level/],
    ['a group into its own group', 'G', 'H', /into itself/],
    ['a group holding groups into another', 'G', 'K', /holds groups/],
    ['a group without groups into a root group', 'K', 'G', undefined],
  ];
  for (const [name, id, parent, problem] of cases) {
    test(name, () => {
      const found = groupPlacementProblem(rows.groups, id, parent);
      if (problem === undefined) assert.equal(found, undefined);
      else assert.match(found ?? '', problem);
    });
  }
});

describe('order', () => {
  test('children of the root and of a group, by position across kinds', () => {
    assert.deepEqual(
      childrenOf(rows, null).map((n) => n.row.id),
      ['A', 'G', 'D', 'K'],
    );
    assert.deepEqual(
      childrenOf(rows, 'G').map((n) => n.row.id),
      ['B', 'H'],
    );
  });

  test('sections in reading order, through groups', () => {
    assert.deepEqual(
      sectionsInOrder(rows).map((s) => s.id),
      ['A', 'B', 'C', 'D'],
    );
  });
});
