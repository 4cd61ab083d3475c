import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredPage, Tree } from '../../src/modules/content/tree.js';
import {
  breadcrumbs,
  neighbours,
  pageHref,
  readingOrder,
  resolveLink,
  sidebar,
} from '../../src/modules/published/rendering/navigation.js';

const AT = '2026-01-01T00:00:00.000Z';
const page = (id: string, fields: Partial<StoredPage> = {}, pages: Tree = []): StoredPage => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug: id,
  createdAt: AT,
  updatedAt: AT,
  pages,
  ...fields,
});

// intro › (child, secret [hidden] › under-secret); guides [group] › (install, über-uns);
// a link to https://example.test; a link to the page "install"; last.
const TREE: Tree = [
  page('intro', {}, [page('child'), page('secret', { hidden: true }, [page('under-secret')])]),
  page('guides', { type: 'group', title: 'Guides' }, [page('install'), page('über-uns')]),
  page('ext', {
    type: 'link',
    title: 'Website',
    target: { kind: 'url', url: 'https://example.test' },
  }),
  page('to-install', {
    type: 'link',
    title: 'Install it',
    target: { kind: 'page', page: 'install' },
  }),
  page('last'),
];
for (const link of TREE.filter((p) => p.type === 'link')) delete link.slug;
const BASE = '/s/acme/de/';

describe('published navigation', () => {
  test('pageHref percent-encodes each segment and keeps the slashes', () => {
    assert.equal(pageHref(BASE, 'guides/über-uns'), '/s/acme/de/guides/%C3%BCber-uns');
    assert.equal(pageHref('/s/x/', 'a b/c?d'), '/s/x/a%20b/c%3Fd');
  });

  test('the sidebar: hidden pages left out, hrefs by path, groups without one, links followed', () => {
    const entries = sidebar(TREE, BASE, 'install');
    assert.deepEqual(
      entries.map((e) => [e.title, e.kind, e.href ?? null, e.open]),
      [
        ['INTRO', 'document', '/s/acme/de/intro', false],
        ['Guides', 'group', null, true],
        ['Website', 'link', 'https://example.test', false],
        ['Install it', 'link', '/s/acme/de/guides/install', false],
        ['LAST', 'document', '/s/acme/de/last', false],
      ],
    );
    assert.deepEqual(
      entries[0]?.children.map((e) => e.title),
      ['CHILD'],
      'the hidden page and its children are not listed',
    );
    const install = entries[1]?.children[0];
    assert.equal(install?.active, true);
    assert.equal(install?.href, '/s/acme/de/guides/install');
  });

  test('reading order: documents depth first, hidden ones and those below them left out', () => {
    assert.deepEqual(
      readingOrder(TREE, BASE).map((e) => e.id),
      ['intro', 'child', 'install', 'über-uns', 'last'],
    );
  });

  const rows: [string, string | undefined, string | undefined][] = [
    ['intro', undefined, 'child'],
    ['child', 'intro', 'install'],
    ['über-uns', 'install', 'last'],
    ['last', 'über-uns', undefined],
  ];
  for (const [current, previous, next] of rows) {
    test(`previous/next of ${current}`, () => {
      const found = neighbours(TREE, BASE, current);
      assert.equal(found.previous?.title, previous?.toUpperCase());
      assert.equal(found.next?.title, next?.toUpperCase());
      if (next !== undefined) assert.match(found.next?.href ?? '', /^\/s\/acme\/de\//);
    });
  }

  test('a hidden page has no neighbours (it is outside the reading order)', () => {
    assert.deepEqual(neighbours(TREE, BASE, 'secret'), {});
  });

  test('breadcrumbs: ancestors outermost first, groups without an address', () => {
    assert.deepEqual(breadcrumbs(TREE, BASE, 'under-secret'), [
      { title: 'INTRO', href: '/s/acme/de/intro' },
      { title: 'SECRET', href: '/s/acme/de/intro/secret' },
    ]);
    assert.deepEqual(breadcrumbs(TREE, BASE, 'install'), [{ title: 'Guides' }]);
    assert.deepEqual(breadcrumbs(TREE, BASE, 'intro'), []);
  });
});

describe('resolveLink: customization link targets', () => {
  const context = {
    tree: TREE,
    base: BASE,
    spaceId: 'space-de',
    spaceBases: new Map([
      ['space-de', '/s/acme/de/'],
      ['space-en', '/s/acme/'],
    ]),
  };
  const rows: [string, Record<string, unknown>, string | undefined][] = [
    [
      'an https URL, as is',
      { kind: 'url', url: 'https://example.test/a?b' },
      'https://example.test/a?b',
    ],
    ['a mailto URL', { kind: 'url', url: 'mailto:docs@example.test' }, 'mailto:docs@example.test'],
    ['a javascript: URL is refused', { kind: 'url', url: 'javascript:alert(1)' }, undefined],
    ['a data: URL is refused', { kind: 'url', url: 'data:text/html,x' }, undefined],
    ['a page, by its path', { kind: 'page', page: 'über-uns' }, '/s/acme/de/guides/%C3%BCber-uns'],
    [
      'a page of this space named explicitly',
      { kind: 'page', page: 'intro', space: 'space-de' },
      '/s/acme/de/intro',
    ],
    ['a page of another space', { kind: 'page', page: 'intro', space: 'space-en' }, undefined],
    ['a page not in the revision', { kind: 'page', page: 'gone' }, undefined],
    [
      'an anchor on a page',
      { kind: 'anchor', page: 'install', anchor: 'step 2' },
      '/s/acme/de/guides/install#step%202',
    ],
    ['an anchor on the current page', { kind: 'anchor', anchor: 'top' }, '#top'],
    ['a space this site shows', { kind: 'space', space: 'space-en' }, '/s/acme/'],
    ['a space this site does not show', { kind: 'space', space: 'elsewhere' }, undefined],
    ['a file (Livery stores none)', { kind: 'file', file: 'f1' }, undefined],
    ['a user', { kind: 'user', user: 'u1' }, undefined],
    ['an OpenAPI spec', { kind: 'openapi', spec: 'petstore' }, undefined],
  ];
  for (const [what, ref, expected] of rows) {
    test(what, () => assert.equal(resolveLink(ref as never, context), expected));
  }
});
