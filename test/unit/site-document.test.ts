import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SiteSectionRow, SiteSpaceRow } from '../../src/db/schema.js';
import { siteDocumentOf, type VariantInfo } from '../../src/modules/site-git-sync/site-document.js';

const at = '2026-01-01T00:00:00.000Z';
const section = (
  id: string,
  path: string,
  position: number,
  git_key: string | null = null,
): SiteSectionRow => ({
  id,
  site_id: 's',
  title: `Section ${path}`,
  localized_title: null,
  description: null,
  localized_description: null,
  icon: null,
  draft: 0,
  position,
  parent_group_id: null,
  git_key,
  created_at: at,
  updated_at: at,
  path,
  is_default: position === 1 ? 1 : 0,
});
const variant = (
  id: string,
  path: string,
  sectionId: string | null,
  extra: Partial<VariantInfo> = {},
): VariantInfo => ({
  row: {
    id,
    site_id: 's',
    space_id: `space-${id}`,
    path,
    is_default: 1,
    position: 1,
    created_at: at,
    override: null,
    override_version: 0,
    override_updated_at: null,
    condition: null,
    title: null,
    hidden: 0,
    section_id: sectionId,
    git_key: null,
    localized_title: null,
    draft: 0,
  } as SiteSpaceRow,
  spaceTitle: `Space ${id}`,
  language: null,
  kept: undefined,
  empty: false,
  ...extra,
});

const cases: {
  name: string;
  sections: SiteSectionRow[];
  variants: VariantInfo[];
  projectDirectory?: string;
  directories: Record<string, string | undefined>;
  keys?: Record<string, string>;
}[] = [
  {
    name: 'no sections: the variant path below the project directory; keys from paths',
    sections: [],
    variants: [variant('a', 'en', null), variant('b', 'fr', null)],
    projectDirectory: 'site',
    directories: { a: 'site/en', b: 'site/fr' },
    keys: { a: 'en', b: 'fr' },
  },
  {
    name: 'sections: section/variant, keys section-variant',
    sections: [section('x', 'api', 1)],
    variants: [variant('a', 'v1', 'x')],
    directories: { a: 'api/v1' },
    keys: { x: 'api', a: 'api-v1' },
  },
  {
    name: 'a made directory never inside a kept one: section-variant instead',
    sections: [section('x', 'docs', 1)],
    variants: [variant('a', 'en', 'x', { kept: 'docs' }), variant('b', 'fr', 'x')],
    directories: { a: 'docs', b: 'docs-fr' },
  },
  {
    name: 'an empty space never imported: null, no directory',
    sections: [section('x', 'docs', 1)],
    variants: [variant('a', 'en', 'x', { empty: true })],
    directories: { a: undefined },
  },
  {
    name: 'two variants kept on one directory: the second gets its own',
    sections: [],
    variants: [
      variant('a', 'en', null, { kept: 'content' }),
      variant('b', 'de', null, { kept: 'content' }),
    ],
    directories: { a: 'content', b: 'de' },
  },
  {
    name: 'a stored key is kept; a made key never takes a used one',
    sections: [section('x', 'api', 1, 'api'), section('y', 'api-v1', 2)],
    variants: [variant('a', 'v1', 'x'), variant('b', 'z', 'y')],
    directories: { a: 'api/v1', b: 'api-v1/z' },
    keys: { a: 'api-v1', y: 'api-v1-2' },
  },
];

for (const c of cases) {
  test(`siteDocumentOf: ${c.name}`, () => {
    const doc = siteDocumentOf({
      title: 'Site',
      rows: { sections: c.sections, groups: [], links: [] },
      variants: c.variants,
      projectDirectory: c.projectDirectory ?? '',
    });
    for (const [id, dir] of Object.entries(c.directories)) {
      assert.equal(doc.directories.get(id), dir, id);
    }
    for (const [id, key] of Object.entries(c.keys ?? {}))
      assert.equal(doc.newKeys.get(id), key, id);
    const text = JSON.stringify(doc.document);
    if (Object.values(c.directories).includes(undefined)) assert.match(text, /"directory":null/);
  });
}
