import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defaultVariantOf,
  locatePage,
  type SectionedVariantAddress,
} from '../../src/modules/published/access/address.js';
import { structureTree } from '../../src/modules/published/structure.js';

const guides = { id: 'sec-guides', path: 'guides', isDefault: true };
const api = { id: 'sec-api', path: 'api', isDefault: false };
const drafty = { id: 'sec-draft', path: 'soon', isDefault: false, draft: true };
const variants: SectionedVariantAddress[] = [
  { id: 'g-en', path: 'en', isDefault: true, section: guides },
  { id: 'g-fr', path: 'fr', isDefault: false, section: guides },
  { id: 'a-v2', path: 'v2', isDefault: true, section: api },
  { id: 'a-v1', path: 'v1', isDefault: false, section: api },
  { id: 'a-v0', path: 'v0', isDefault: false, section: api, draft: true },
  { id: 's-1', path: 'one', isDefault: true, section: drafty },
];

const at = (path: string) => {
  const located = locatePage(path.split('/').filter(Boolean), variants);
  if (located === undefined) return 'none';
  return located.kind === 'page'
    ? `${located.variant.id} ${located.pagePath}`
    : `redirect ${located.pagePath}`;
};

describe('addresses in a site with sections', () => {
  test('table: section path, then variant path, then page path', () => {
    const table: [string, string][] = [
      ['', 'g-en '],
      ['intro/setup', 'g-en intro/setup'],
      ['fr', 'g-fr '],
      ['fr/intro', 'g-fr intro'],
      ['en/intro', 'redirect intro'], // the default section's default variant: at the root
      ['guides', 'redirect '], // the default section's own path
      ['guides/fr/x', 'redirect fr/x'],
      ['api', 'a-v2 '],
      ['api/ref/users', 'a-v2 ref/users'],
      ['api/v1/ref', 'a-v1 ref'],
      ['api/v2/ref', 'redirect api/ref'], // a section's default variant: at the section's address
      ['api/v0/ref', 'a-v2 v0/ref'], // a draft variant is not served: read as a page path
      ['soon', 'g-en soon'], // a draft section neither
      ['v1', 'g-en v1'], // another section's variant path means nothing at the root
    ];
    for (const [path, expected] of table) assert.equal(at(path), expected, path);
  });

  test("the site opens on its default section's default variant", () => {
    assert.equal(defaultVariantOf(variants)?.id, 'g-en');
    assert.equal(defaultVariantOf([...variants].reverse())?.id, 'g-en');
  });

  test('a site without sections reads as before', () => {
    const plain = [
      { id: 'a', path: 'a', isDefault: true },
      { id: 'b', path: 'b', isDefault: false },
    ];
    const located = locatePage(['b', 'page'], plain);
    assert.deepEqual(located, { kind: 'page', variant: plain[1], pagePath: 'page' });
  });
});

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
