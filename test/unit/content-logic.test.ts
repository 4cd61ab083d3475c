import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/errors.js';
import {
  type AppliedChanges,
  applyChanges,
  type PageChange,
} from '../../src/modules/content/changes.js';
import { mergeTrees } from '../../src/modules/content/merge.js';
import {
  findById,
  findByPath,
  joinPath,
  MAX_SLUG,
  normalizePath,
  type StoredPage,
  slugProblem,
  subtreeIds,
  type Tree,
  walk,
} from '../../src/modules/content/tree.js';

const AT = '2024-01-01T00:00:00.000Z';
const LATER = '2024-02-01T00:00:00.000Z';

/** Deterministic ids: `${prefix}0`, `${prefix}1`, … in insertion order. */
const ids = (prefix: string) => {
  let n = 0;
  return () => `${prefix}${n++}`;
};

const apply = (tree: Tree, changes: PageChange[], prefix = 'n', at = LATER): AppliedChanges =>
  applyChanges(tree, changes, at, ids(prefix));

const insert = (title: string, extra: Partial<PageChange> = {}): PageChange => ({
  operation: 'insert_page',
  title,
  document: { markdown: `# ${title}` },
  ...extra,
});

/**
 * The base tree used by most rows (ids b0…b6):
 *   b0 Getting started   getting-started
 *     b1 Install         getting-started/install
 *       b2 Linux         getting-started/install/linux
 *     b3 Configure       getting-started/configure
 *   b4 Reference (group) reference
 *     b5 API             reference/api
 *   b6 GitHub (link)
 */
const BASE_CHANGES: PageChange[] = [
  insert('Getting started'),
  insert('Install', { into: 'b0' }),
  insert('Linux', { into: 'b1' }),
  insert('Configure', { into: 'b0' }),
  { operation: 'insert_page', type: 'group', title: 'Reference' },
  insert('API', { into: 'b4' }),
  {
    operation: 'insert_page',
    type: 'link',
    title: 'GitHub',
    target: { kind: 'url', url: 'https://github.com' },
  },
];
const base = (): Tree => applyChanges([], BASE_CHANGES, AT, ids('b')).tree;

/** Every titled page's path, keyed by id (links have ''). */
const pathsOf = (tree: Tree): Record<string, string> =>
  Object.fromEntries([...walk(tree)].map(({ page, path }) => [page.id, path]));

const idsAt = (pages: Tree) => pages.map((p) => p.id);

const mustFind = (tree: Tree, id: string) => {
  const found = findById(tree, id);
  assert.ok(found, `page ${id} is in the tree`);
  return found;
};

/** Asserts that `fn` throws an AppError with `status` whose message contains every fragment. */
function expectAppError(fn: () => unknown, status: number, ...fragments: (string | RegExp)[]) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.equal(error.statusCode, status, error.message);
    for (const fragment of fragments) {
      if (typeof fragment === 'string') {
        assert.ok(
          error.message.includes(fragment),
          `${JSON.stringify(error.message)} names ${fragment}`,
        );
      } else assert.match(error.message, fragment);
    }
    return true;
  });
}

describe('slugs', () => {
  const derived: { rule: string; title: string; slug: string }[] = [
    { rule: 'lowercased, spaces become dashes', title: 'Getting Started', slug: 'getting-started' },
    { rule: 'punctuation collapses to one dash', title: '  Hello, World!!  ', slug: 'hello-world' },
    { rule: 'accents are stripped', title: 'Café Déjà Vu', slug: 'cafe-deja-vu' },
    { rule: 'digits are kept', title: 'Version 2.0 (beta)', slug: 'version-2-0-beta' },
    { rule: 'a title of only emoji falls back', title: '🎉🎉', slug: 'page' },
    { rule: 'a non-Latin title falls back to an ASCII slug', title: '日本語', slug: 'page' },
    {
      rule: 'a slash in a title is not a path separator',
      title: 'A/B testing',
      slug: 'a-b-testing',
    },
  ];
  for (const row of derived) {
    test(`derived from the title: ${row.rule}`, () => {
      const { tree } = apply([], [insert(row.title)]);
      assert.equal(tree[0]?.slug, row.slug);
      assert.equal(tree[0]?.title, row.title);
    });
  }

  test('a derived slug is at most 100 characters of a-z, 0-9 and "-", with no trailing dash', () => {
    const title = `${'Word '.repeat(19)}Überlange Überschrift mit vielen Wörtern`;
    const { tree } = apply([], [insert(title)]);
    const slug = tree[0]?.slug ?? '';
    assert.ok(slug.length <= MAX_SLUG, `${slug.length} characters`);
    assert.match(slug, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test('a missing title comes from the leading Markdown heading, else "Untitled"', () => {
    const { tree } = apply(
      [],
      [
        { operation: 'insert_page', document: { markdown: '\n# From the heading #\n\nBody' } },
        { operation: 'insert_page', document: { markdown: 'No heading' } },
      ],
    );
    assert.deepEqual(
      tree.map((p) => [p.title, p.slug]),
      [
        ['From the heading', 'from-the-heading'],
        ['Untitled', 'untitled'],
      ],
    );
  });

  test('a derived clash among siblings gets a numeric suffix', () => {
    const { tree } = apply([], [insert('Install'), insert('install'), insert('INSTALL!')]);
    assert.deepEqual(
      tree.map((p) => p.slug),
      ['install', 'install-2', 'install-3'],
    );
  });

  test('the suffix of a 100-character derived slug stays within 100 characters', () => {
    const title = 'x'.repeat(120);
    const { tree } = apply([], [insert(title), insert(title)]);
    assert.equal(tree[0]?.slug, 'x'.repeat(MAX_SLUG));
    assert.equal(tree[1]?.slug, `${'x'.repeat(MAX_SLUG - 2)}-2`);
  });

  test('a derived slug also steps around an explicit one', () => {
    const { tree } = apply([], [insert('Other', { slug: 'install' }), insert('Install')]);
    assert.deepEqual(
      tree.map((p) => p.slug),
      ['install', 'install-2'],
    );
  });

  test('slugs only clash among siblings: the same title under two parents keeps one slug', () => {
    const { tree } = apply(base(), [
      insert('Setup', { into: 'b0' }),
      insert('Setup', { into: 'b4' }),
    ]);
    const paths = pathsOf(tree);
    assert.equal(paths.n0, 'getting-started/setup');
    assert.equal(paths.n1, 'reference/setup');
  });

  test('an explicit slug already taken by a sibling is a 409 naming the change', () => {
    expectAppError(
      () => apply(base(), [insert('A'), insert('Setup', { into: 'b0', slug: 'install' })]),
      409,
      /^changes\[1\]\.slug/,
      '"install"',
      'b1',
    );
  });

  test('an explicit slug clash is found across Unicode normalisation forms', () => {
    const nfc = 'über-uns';
    const nfd = nfc.normalize('NFD');
    assert.notEqual(nfc, nfd);
    expectAppError(
      () => apply([], [insert('A', { slug: nfc }), insert('B', { slug: nfd })]),
      409,
      /^changes\[1\]/,
    );
  });

  test('renaming a page to a sibling’s slug is a 409; to its own slug is fine', () => {
    expectAppError(
      () => apply(base(), [{ operation: 'update_page', page: 'b3', slug: 'install' }]),
      409,
      /^changes\[0\]\.slug/,
    );
    const { tree } = apply(base(), [{ operation: 'update_page', page: 'b1', slug: 'install' }]);
    assert.equal(pathsOf(tree).b2, 'getting-started/install/linux');
  });

  const badSlugs: { rule: string; slug: string }[] = [
    { rule: 'a slash', slug: 'a/b' },
    { rule: 'over 100 characters', slug: 'x'.repeat(MAX_SLUG + 1) },
    { rule: 'empty', slug: '' },
    { rule: 'a dot-segment', slug: '..' },
    { rule: 'a space', slug: 'two words' },
    { rule: 'a question mark', slug: 'what?' },
  ];
  for (const row of badSlugs) {
    test(`an explicit slug with ${row.rule} is a 400`, () => {
      expectAppError(
        () => apply([], [insert('A', { slug: row.slug })]),
        400,
        /^changes\[0\]\.slug: /,
      );
      expectAppError(
        () => apply(base(), [{ operation: 'update_page', page: 'b1', slug: row.slug }]),
        400,
        /^changes\[0\]\.slug: /,
      );
    });
  }

  const goodSlugs = [
    'über-uns',
    '日本語',
    'x'.repeat(MAX_SLUG),
    'v1.2_final',
    '日'.repeat(MAX_SLUG),
  ];
  for (const slug of goodSlugs) {
    test(`an explicit slug ${JSON.stringify(slug.length > 20 ? `${slug.slice(0, 8)}…` : slug)} is accepted as given`, () => {
      assert.equal(slugProblem(slug), undefined);
      const { tree } = apply([], [insert('A', { slug })]);
      assert.equal(tree[0]?.slug, slug);
      assert.equal(findByPath(tree, slug)?.page.id, 'n0');
    });
  }

  test('an explicit slug given in NFD is stored in NFC', () => {
    const { tree } = apply([], [insert('A', { slug: 'über-uns'.normalize('NFD') })]);
    assert.equal(tree[0]?.slug, 'über-uns'.normalize('NFC'));
  });

  test('slugProblem counts characters, not UTF-16 units', () => {
    assert.equal(
      slugProblem('😀'.repeat(10)),
      'may contain only letters, digits, "-", "_" and "."',
    );
    assert.equal(slugProblem('𝒜'.repeat(MAX_SLUG)), undefined);
    assert.notEqual(slugProblem('𝒜'.repeat(MAX_SLUG + 1)), undefined);
  });
});

describe('paths', () => {
  test('a page’s path is its ancestors’ slugs and its own', () => {
    const { tree } = apply(
      [],
      [
        insert('A', { slug: 'a' }),
        insert('B', { slug: 'b', into: 'n0' }),
        insert('C', { slug: 'c', into: 'n1' }),
      ],
    );
    assert.deepEqual(pathsOf(tree), { n0: 'a', n1: 'a/b', n2: 'a/b/c' });
    assert.equal(findByPath(tree, 'a/b/c')?.page.id, 'n2');
    assert.equal(findByPath(tree, 'a/b/c')?.parent?.id, 'n1');
  });

  test('the base tree', () => {
    assert.deepEqual(pathsOf(base()), {
      b0: 'getting-started',
      b1: 'getting-started/install',
      b2: 'getting-started/install/linux',
      b3: 'getting-started/configure',
      b4: 'reference',
      b5: 'reference/api',
      b6: '',
    });
  });

  test('renaming a parent’s slug changes every descendant’s path', () => {
    const { tree } = apply(base(), [{ operation: 'update_page', page: 'b0', slug: 'start' }]);
    assert.deepEqual(pathsOf(tree), {
      ...pathsOf(base()),
      b0: 'start',
      b1: 'start/install',
      b2: 'start/install/linux',
      b3: 'start/configure',
    });
    assert.equal(findByPath(tree, 'getting-started/install'), undefined);
  });

  test('changing only the title keeps the slug', () => {
    const { tree } = apply(base(), [
      { operation: 'update_page', page: 'b1', title: 'Installation' },
    ]);
    assert.equal(mustFind(tree, 'b1').page.title, 'Installation');
    assert.deepEqual(pathsOf(tree), pathsOf(base()));
  });

  const moves: {
    rule: string;
    change: PageChange;
    paths: Record<string, string>;
    order?: [string | null, string[]];
  }[] = [
    {
      rule: 'into another parent: the page and its descendants follow',
      change: { operation: 'update_page', page: 'b1', into: 'b4' },
      paths: { b1: 'reference/install', b2: 'reference/install/linux' },
      order: ['b4', ['b5', 'b1']],
    },
    {
      rule: 'into another parent at an index',
      change: { operation: 'update_page', page: 'b1', into: 'b4', at: 0 },
      paths: { b1: 'reference/install', b2: 'reference/install/linux' },
      order: ['b4', ['b1', 'b5']],
    },
    {
      rule: 'into: null moves to the top level, at the end',
      change: { operation: 'update_page', page: 'b1', into: null },
      paths: { b1: 'install', b2: 'install/linux' },
      order: [null, ['b0', 'b4', 'b6', 'b1']],
    },
    {
      rule: 'into: null with at: 0 moves to the top level, first',
      change: { operation: 'update_page', page: 'b2', into: null, at: 0 },
      paths: { b2: 'linux' },
      order: [null, ['b2', 'b0', 'b4', 'b6']],
    },
    {
      rule: 'at alone reorders among the same siblings, paths unchanged',
      change: { operation: 'update_page', page: 'b3', at: 0 },
      paths: {},
      order: ['b0', ['b3', 'b1']],
    },
    {
      rule: 'an at past the end means the end',
      change: { operation: 'update_page', page: 'b0', at: 99 },
      paths: {},
      order: [null, ['b4', 'b6', 'b0']],
    },
    {
      rule: 'a move and a new slug in one change',
      change: { operation: 'update_page', page: 'b1', into: 'b4', slug: 'setup' },
      paths: { b1: 'reference/setup', b2: 'reference/setup/linux' },
    },
  ];
  for (const row of moves) {
    test(`moving a page: ${row.rule}`, () => {
      const { tree } = apply(base(), [row.change]);
      assert.deepEqual(pathsOf(tree), { ...pathsOf(base()), ...row.paths });
      if (row.order) {
        const [parent, expected] = row.order;
        const children = parent === null ? tree : mustFind(tree, parent).page.pages;
        assert.deepEqual(idsAt(children), expected);
      }
      for (const [id, path] of Object.entries(row.paths)) {
        assert.equal(findByPath(tree, path)?.page.id, id);
      }
    });
  }

  const lookups: { rule: string; path: string; id: string | undefined }[] = [
    { rule: 'exact', path: 'getting-started/install', id: 'b1' },
    { rule: 'leading slash', path: '/getting-started/install', id: 'b1' },
    { rule: 'trailing slash', path: 'getting-started/install/', id: 'b1' },
    { rule: 'both, repeated', path: '//getting-started/install//', id: 'b1' },
    { rule: 'a group', path: 'reference', id: 'b4' },
    { rule: 'unknown path', path: 'getting-started/nope', id: undefined },
    { rule: 'a prefix of a slug is not a match', path: 'getting-start', id: undefined },
    { rule: 'empty path', path: '', id: undefined },
    { rule: 'only slashes', path: '///', id: undefined },
    { rule: 'slugs are case-sensitive', path: 'Getting-Started', id: undefined },
  ];
  for (const row of lookups) {
    test(`findByPath: ${row.rule}`, () => {
      assert.equal(findByPath(base(), row.path)?.page.id, row.id);
    });
  }

  test('findByPath matches across NFC and NFD', () => {
    const nfc = 'über-uns';
    const nfd = nfc.normalize('NFD');
    const { tree } = apply(
      [],
      [insert('Über uns', { slug: nfc }), insert('Café', { slug: 'café', into: 'n0' })],
    );
    for (const path of [`${nfc}/café`, `${nfd}/café`.normalize('NFD'), `/${nfd}/café/`]) {
      assert.equal(findByPath(tree, path)?.page.id, 'n1', JSON.stringify(path));
    }
    assert.equal(normalizePath(`/${nfd}/`), nfc);
  });

  test('findByPath also finds a slug stored in NFD (a tree not written by applyChanges)', () => {
    const page = (id: string, slug: string, pages: StoredPage[] = []): StoredPage => ({
      id,
      type: 'document',
      title: id,
      slug,
      createdAt: AT,
      updatedAt: AT,
      pages,
    });
    const tree = [page('x', 'über'.normalize('NFD'), [page('y', 'café'.normalize('NFD'))])];
    assert.equal(findByPath(tree, 'über/café'.normalize('NFC'))?.page.id, 'y');
  });

  test('link pages have no path and no slug, and findByPath never returns them', () => {
    const tree = base();
    const link = mustFind(tree, 'b6');
    assert.equal(link.path, '');
    assert.equal(link.page.slug, undefined);
    assert.equal(findByPath(tree, 'github'), undefined);
    for (const { page, path } of walk(tree)) {
      if (path !== '') assert.notEqual(findByPath(tree, path)?.page.type, 'link', page.id);
    }
  });

  test('joinPath and subtreeIds', () => {
    assert.equal(joinPath('', 'a'), 'a');
    assert.equal(joinPath('a/b', 'c'), 'a/b/c');
    assert.deepEqual(subtreeIds(mustFind(base(), 'b0').page), ['b0', 'b1', 'b2', 'b3']);
  });
});

describe('applyChanges: invalid change lists', () => {
  test('a page deleted earlier in the list: 400 naming both changes', () => {
    expectAppError(
      () =>
        apply(base(), [
          { operation: 'delete_page', page: 'b1' },
          { operation: 'update_page', page: 'b1', title: 'X' },
        ]),
      400,
      /^changes\[1\]/,
      'changes[0]',
      '"b1"',
    );
  });

  test('a descendant of a page deleted earlier: 400 naming both changes', () => {
    expectAppError(
      () =>
        apply(base(), [
          insert('First'),
          { operation: 'delete_page', page: 'b0' },
          insert('Child', { into: 'b2' }),
        ]),
      400,
      /^changes\[2\]\.into/,
      'changes[1]',
      '"b2"',
    );
  });

  test('a page deleted twice: 400 naming the first deletion', () => {
    expectAppError(
      () =>
        apply(base(), [
          { operation: 'delete_page', page: 'b5' },
          { operation: 'delete_page', page: 'b5' },
        ]),
      400,
      /^changes\[1\]\.page/,
      'changes[0]',
    );
  });

  const rows: { rule: string; changes: PageChange[]; status?: number; message: RegExp }[] = [
    {
      rule: 'an unknown page',
      changes: [{ operation: 'update_page', page: 'nope', title: 'X' }],
      message: /^changes\[0\]\.page: .*"nope"/,
    },
    {
      rule: 'update_page without page',
      changes: [{ operation: 'update_page', title: 'X' }],
      message: /^changes\[0\]\.page/,
    },
    {
      rule: 'delete_page without page',
      changes: [insert('ok'), { operation: 'delete_page' }],
      message: /^changes\[1\]\.page/,
    },
    {
      rule: 'insert into an unknown page',
      changes: [insert('X', { into: 'nope' })],
      message: /^changes\[0\]\.into/,
    },
    {
      rule: 'a document inserted without a document',
      changes: [{ operation: 'insert_page', title: 'X' }],
      message: /^changes\[0\]\.document/,
    },
    {
      rule: 'moving a page into itself',
      changes: [{ operation: 'update_page', page: 'b0', into: 'b0' }],
      message: /^changes\[0\]\.into: .*itself/,
    },
    {
      rule: 'moving a page into its child',
      changes: [{ operation: 'update_page', page: 'b0', into: 'b1' }],
      message: /^changes\[0\]\.into: .*descendants/,
    },
    {
      rule: 'moving a page into its grandchild',
      changes: [{ operation: 'update_page', page: 'b0', into: 'b2' }],
      message: /^changes\[0\]\.into: .*descendants/,
    },
    {
      rule: 'a group inserted below the top level',
      changes: [{ operation: 'insert_page', type: 'group', title: 'G', into: 'b0' }],
      message: /^changes\[0\]\.into: group/,
    },
    {
      rule: 'a group inserted into another group',
      changes: [{ operation: 'insert_page', type: 'group', title: 'G', into: 'b4' }],
      message: /^changes\[0\]\.into: group/,
    },
    {
      rule: 'a group moved below the top level',
      changes: [{ operation: 'update_page', page: 'b4', into: 'b0' }],
      message: /^changes\[0\]\.into: group/,
    },
    {
      rule: 'a page inserted into a link',
      changes: [insert('X', { into: 'b6' })],
      message: /^changes\[0\]\.into: a link/,
    },
    {
      rule: 'a page moved into a link',
      changes: [{ operation: 'update_page', page: 'b3', into: 'b6' }],
      message: /^changes\[0\]\.into: a link/,
    },
    {
      rule: 'a link without a target',
      changes: [{ operation: 'insert_page', type: 'link', title: 'L' }],
      message: /^changes\[0\]\.target/,
    },
    ...[
      'ftp://example.com',
      'javascript:alert(1)',
      'example.com',
      '//example.com',
      '',
      'http:/x',
    ].map((url) => ({
      rule: `a link to ${JSON.stringify(url)}`,
      changes: [
        {
          operation: 'insert_page',
          type: 'link',
          title: 'L',
          target: { kind: 'url', url },
        } as PageChange,
      ],
      message: /^changes\[0\]\.target\.url: .*http\(s\)/,
    })),
    {
      rule: 'a link retargeted to a non-http URL',
      changes: [
        { operation: 'update_page', page: 'b6', target: { kind: 'url', url: 'mailto:a@b.c' } },
      ],
      message: /^changes\[0\]\.target\.url/,
    },
    {
      rule: 'a link to an unknown page',
      changes: [
        {
          operation: 'insert_page',
          type: 'link',
          title: 'L',
          target: { kind: 'page', page: 'nope' },
        },
      ],
      message: /^changes\[0\]\.target\.page/,
    },
    {
      rule: 'a target on a document',
      changes: [
        { operation: 'update_page', page: 'b1', target: { kind: 'url', url: 'https://x.test' } },
      ],
      message: /^changes\[0\]\.target/,
    },
    {
      rule: 'a document on a link',
      changes: [{ operation: 'update_page', page: 'b6', document: { markdown: 'x' } }],
      message: /^changes\[0\]\.document/,
    },
    {
      rule: 'a structured (non-Markdown) document',
      changes: [{ operation: 'update_page', page: 'b1', document: { document: { nodes: [] } } }],
      message: /^changes\[0\]\.document/,
    },
    {
      rule: 'changing a page’s type',
      changes: [{ operation: 'update_page', page: 'b1', type: 'group' }],
      message: /^changes\[0\]\.type/,
    },
  ];
  for (const row of rows) {
    test(`${row.rule}: ${row.status ?? 400}`, () => {
      expectAppError(() => apply(base(), row.changes), row.status ?? 400, row.message);
    });
  }

  test('links: an http(s) URL or an existing page is accepted', () => {
    const { tree } = apply(base(), [
      {
        operation: 'insert_page',
        type: 'link',
        title: 'A',
        target: { kind: 'url', url: 'http://a.test' },
      },
      {
        operation: 'insert_page',
        type: 'link',
        title: 'B',
        target: { kind: 'url', url: 'HTTPS://B.TEST/x' },
      },
      { operation: 'insert_page', type: 'link', title: 'C', target: { kind: 'page', page: 'b2' } },
    ]);
    assert.deepEqual(
      tree.slice(-3).map((p) => p.target),
      [
        { kind: 'url', url: 'http://a.test' },
        { kind: 'url', url: 'HTTPS://B.TEST/x' },
        { kind: 'page', page: 'b2' },
      ],
    );
    assert.ok(tree.slice(-3).every((p) => p.slug === undefined && p.markdown === undefined));
  });

  test('the input tree is never mutated, whether the list applies or throws', () => {
    const tree = base();
    const snapshot = structuredClone(tree);
    const good = apply(tree, [
      { operation: 'update_page', page: 'b0', slug: 'start', title: 'Start', emoji: '🚀' },
      { operation: 'update_page', page: 'b1', into: 'b4', at: 0 },
      { operation: 'delete_page', page: 'b3' },
      insert('New', { into: 'b0', at: 0 }),
      { operation: 'update_page', page: 'b6', target: { kind: 'url', url: 'https://gitlab.com' } },
    ]);
    assert.deepEqual(tree, snapshot);
    good.tree[0]?.pages.push(good.tree[1] as StoredPage);
    (good.tree[0] as StoredPage).title = 'changed after the fact';
    assert.deepEqual(tree, snapshot, 'the result shares no objects with the input');

    const failing: PageChange[][] = [
      [
        { operation: 'update_page', page: 'b0', title: 'T' },
        { operation: 'delete_page', page: 'b1' },
        { operation: 'update_page', page: 'b2' },
      ],
      [
        { operation: 'update_page', page: 'b1', into: 'b4' },
        { operation: 'update_page', page: 'b0', into: 'b3' },
        insert('X', { into: 'b6' }),
      ],
      [{ operation: 'update_page', page: 'b0', into: 'b2' }],
      [insert('X', { at: 0 }), { operation: 'update_page', page: 'b3', slug: 'install' }],
    ];
    for (const changes of failing) {
      assert.throws(() => apply(tree, changes), AppError);
      assert.deepEqual(tree, snapshot, JSON.stringify(changes));
    }
  });

  test('only the first bad change is reported', () => {
    expectAppError(
      () =>
        apply(base(), [
          insert('ok'),
          { operation: 'update_page', page: 'nope' },
          { operation: 'update_page', page: 'b3', slug: 'install' },
        ]),
      400,
      /^changes\[1\]\.page/,
    );
  });
});

describe('applyChanges: fields and timestamps', () => {
  test('insert sets both timestamps to `at`; update bumps only updatedAt', () => {
    const tree = base();
    assert.equal(mustFind(tree, 'b1').page.createdAt, AT);
    const { tree: after } = apply(tree, [
      { operation: 'update_page', page: 'b1', title: 'X' },
      insert('New'),
    ]);
    assert.equal(mustFind(after, 'b1').page.createdAt, AT);
    assert.equal(mustFind(after, 'b1').page.updatedAt, LATER);
    assert.equal(mustFind(after, 'b3').page.updatedAt, AT);
    assert.equal(mustFind(after, 'n0').page.createdAt, LATER);
  });

  test('empty emoji and description remove them; hidden is kept as given', () => {
    const { tree } = apply(base(), [
      {
        operation: 'update_page',
        page: 'b1',
        emoji: '📦',
        description: 'How to install',
        hidden: true,
      },
    ]);
    assert.deepEqual(
      (({ emoji, description, hidden }) => ({ emoji, description, hidden }))(
        mustFind(tree, 'b1').page,
      ),
      { emoji: '📦', description: 'How to install', hidden: true },
    );
    const { tree: cleared } = apply(tree, [
      { operation: 'update_page', page: 'b1', emoji: '', description: '', hidden: false },
    ]);
    const page = mustFind(cleared, 'b1').page;
    assert.equal('emoji' in page, false);
    assert.equal('description' in page, false);
    assert.equal(page.hidden, false);
  });

  test('a document’s Markdown is replaced; {} means an empty document', () => {
    const { tree } = apply(base(), [
      { operation: 'update_page', page: 'b1', document: { markdown: '# New body' } },
      { operation: 'update_page', page: 'b3', document: {} },
    ]);
    assert.equal(mustFind(tree, 'b1').page.markdown, '# New body');
    assert.equal(mustFind(tree, 'b3').page.markdown, '');
  });

  test('an empty change list returns an equal tree and touches nothing', () => {
    const result = apply(base(), []);
    assert.deepEqual(result.tree, base());
    assert.equal(result.touched.size, 0);
  });
});

describe('applyChanges: the touched set', () => {
  const rows: { rule: string; changes: PageChange[]; touched: string[] }[] = [
    {
      rule: 'an insert adds the new page',
      changes: [insert('New', { into: 'b1' })],
      touched: ['n0'],
    },
    {
      rule: 'an update adds the page (not its parent or children)',
      changes: [{ operation: 'update_page', page: 'b1', title: 'X' }],
      touched: ['b1'],
    },
    {
      rule: 'a move adds only the moved page',
      changes: [{ operation: 'update_page', page: 'b1', into: 'b4' }],
      touched: ['b1'],
    },
    {
      rule: 'a delete adds the page and every descendant',
      changes: [{ operation: 'delete_page', page: 'b0' }],
      touched: ['b0', 'b1', 'b2', 'b3'],
    },
    {
      rule: 'a page inserted then deleted in one list is still touched',
      changes: [insert('Tmp', { into: 'b5' }), { operation: 'delete_page', page: 'b5' }],
      touched: ['n0', 'b5'],
    },
    {
      rule: 'several changes accumulate',
      changes: [
        insert('A'),
        insert('B', { into: 'n0' }),
        { operation: 'update_page', page: 'b6', title: 'Repo' },
        { operation: 'delete_page', page: 'b4' },
      ],
      touched: ['n0', 'n1', 'b6', 'b4', 'b5'],
    },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const { touched } = apply(base(), row.changes);
      assert.deepEqual([...touched].sort(), [...row.touched].sort());
    });
  }
});

describe('mergeTrees', () => {
  /** A change request (`ours`) and the space (`theirs`), each base plus its own change list. */
  const merge = (oursChanges: PageChange[], theirsChanges: PageChange[]) => {
    const ours = apply(base(), oursChanges, 'o');
    const theirs = apply(base(), theirsChanges, 't');
    return mergeTrees({
      ours: ours.tree,
      oursTouched: ours.touched,
      theirs: theirs.tree,
      theirsTouched: theirs.touched,
    });
  };
  const mergedTree = (result: ReturnType<typeof mergeTrees>): Tree => {
    assert.equal(result.conflicts, undefined, JSON.stringify(result.conflicts));
    assert.ok('tree' in result);
    return result.tree;
  };
  const conflictPages = (result: ReturnType<typeof mergeTrees>): string[] => {
    assert.ok(result.conflicts, 'a conflict is reported');
    return result.conflicts.map((c) => c.page).sort();
  };

  test('different pages touched on each side: a clean merge with both edits', () => {
    const tree = mergedTree(
      merge(
        [
          {
            operation: 'update_page',
            page: 'b1',
            title: 'Installation',
            document: { markdown: 'ours' },
          },
        ],
        [{ operation: 'update_page', page: 'b5', title: 'API reference', slug: 'api-ref' }],
      ),
    );
    assert.equal(mustFind(tree, 'b1').page.title, 'Installation');
    assert.equal(mustFind(tree, 'b1').page.markdown, 'ours');
    assert.equal(mustFind(tree, 'b5').page.title, 'API reference');
    assert.equal(findByPath(tree, 'reference/api-ref')?.page.id, 'b5');
    assert.deepEqual(Object.keys(pathsOf(tree)).sort(), Object.keys(pathsOf(base())).sort());
  });

  test('inserts, moves and deletes on different pages combine', () => {
    const tree = mergedTree(
      merge(
        [insert('Windows', { into: 'b1' }), { operation: 'delete_page', page: 'b5' }],
        [{ operation: 'update_page', page: 'b3', into: 'b4' }, insert('Changelog')],
      ),
    );
    assert.deepEqual(pathsOf(tree), {
      b0: 'getting-started',
      b1: 'getting-started/install',
      b2: 'getting-started/install/linux',
      o0: 'getting-started/install/windows',
      b4: 'reference',
      b3: 'reference/configure',
      b6: '',
      t0: 'changelog',
    });
  });

  test('the same page changed differently on both sides: a conflict naming it', () => {
    const result = merge(
      [{ operation: 'update_page', page: 'b1', title: 'Ours' }],
      [{ operation: 'update_page', page: 'b1', title: 'Theirs' }],
    );
    assert.deepEqual(conflictPages(result), ['b1']);
    assert.ok(result.conflicts?.[0]?.reason);
    assert.ok(result.conflicts?.[0]?.title);
  });

  test('edited on one side, deleted on the other: a conflict', () => {
    assert.ok(
      conflictPages(
        merge(
          [{ operation: 'update_page', page: 'b2', title: 'Ours' }],
          [{ operation: 'delete_page', page: 'b1' }],
        ),
      ).includes('b2'),
    );
  });

  test('the same page moved to different parents: a conflict', () => {
    assert.deepEqual(
      conflictPages(
        merge(
          [{ operation: 'update_page', page: 'b3', into: 'b4' }],
          [{ operation: 'update_page', page: 'b3', into: null }],
        ),
      ),
      ['b3'],
    );
  });

  test('the identical change on both sides is not a conflict', () => {
    const change: PageChange = { operation: 'update_page', page: 'b1', title: 'Same', emoji: '📦' };
    const tree = mergedTree(merge([change], [change]));
    assert.equal(mustFind(tree, 'b1').page.title, 'Same');
    assert.equal(mustFind(tree, 'b1').page.emoji, '📦');
  });

  test('the same page deleted on both sides is not a conflict', () => {
    const tree = mergedTree(
      merge([{ operation: 'delete_page', page: 'b1' }], [{ operation: 'delete_page', page: 'b1' }]),
    );
    assert.equal(findById(tree, 'b1'), undefined);
    assert.equal(findById(tree, 'b2'), undefined);
  });

  test('ours adds a child under a page theirs deleted: a conflict', () => {
    const result = merge(
      [insert('Windows', { into: 'b1' })],
      [{ operation: 'delete_page', page: 'b1' }],
    );
    assert.ok(conflictPages(result).includes('o0'));
    assert.match(result.conflicts?.find((c) => c.page === 'o0')?.reason ?? '', /"b1"/);
  });

  test('theirs adds a child under a page ours deleted: a conflict', () => {
    const result = merge(
      [{ operation: 'delete_page', page: 'b1' }],
      [insert('Windows', { into: 'b1' })],
    );
    assert.ok(conflictPages(result).includes('t0'));
  });

  test('both sides add a sibling with the same slug: a conflict', () => {
    assert.equal(
      conflictPages(merge([insert('FAQ', { into: 'b0' })], [insert('FAQ', { into: 'b0' })])).length,
      1,
    );
    assert.equal(
      conflictPages(merge([insert('One', { slug: 'faq' })], [insert('Two', { slug: 'faq' })]))
        .length,
      1,
    );
  });

  test('a move on one side into a slug the other side took: a conflict', () => {
    assert.equal(
      conflictPages(
        merge(
          [{ operation: 'update_page', page: 'b3', into: 'b4' }],
          [{ operation: 'update_page', page: 'b5', slug: 'configure' }],
        ),
      ).length,
      1,
    );
  });

  test('pages moved into each other on the two sides: a conflict', () => {
    const result = merge(
      [{ operation: 'update_page', page: 'b3', into: 'b1' }],
      [{ operation: 'update_page', page: 'b1', into: 'b3' }],
    );
    const pages = conflictPages(result);
    assert.ok(pages.includes('b1') && pages.includes('b3'), pages.join(', '));
    assert.match(result.conflicts?.[0]?.reason ?? '', /moved into each other/);
  });

  test('order: a page ours inserted at index 0 comes first', () => {
    const tree = mergedTree(merge([insert('Welcome', { at: 0 })], [insert('Changelog')]));
    assert.deepEqual(idsAt(tree), ['o0', 'b0', 'b4', 'b6', 't0']);
    const nested = mergedTree(
      merge([insert('First', { into: 'b0', at: 0 })], [insert('Last', { into: 'b0' })]),
    );
    assert.deepEqual(idsAt(mustFind(nested, 'b0').page.pages), ['o0', 'b1', 'b3', 't0']);
  });

  test('neither input is mutated by a merge', () => {
    const ours = apply(
      base(),
      [insert('A', { at: 0 }), { operation: 'delete_page', page: 'b5' }],
      'o',
    );
    const theirs = apply(base(), [{ operation: 'update_page', page: 'b1', title: 'T' }], 't');
    const before = structuredClone({ ours: ours.tree, theirs: theirs.tree });
    mergedTree(
      mergeTrees({
        ours: ours.tree,
        oursTouched: ours.touched,
        theirs: theirs.tree,
        theirsTouched: theirs.touched,
      }),
    );
    assert.deepEqual({ ours: ours.tree, theirs: theirs.tree }, before);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const TITLES = [
  'Install',
  'install',
  'Intro',
  'Café',
  'Über uns',
  '日本語',
  '',
  '   ',
  'A/B',
  'x'.repeat(120),
  'FAQ?',
];
const SLUGS = ['install', 'intro', 'über-uns', 'über-uns'.normalize('NFD'), '日本語', 'a.b', 'faq'];

/** A change without the keys whose value is undefined (the types use exactOptionalPropertyTypes). */
const definedOnly = (fields: { [K in keyof PageChange]?: PageChange[K] | undefined }): PageChange =>
  Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as unknown as PageChange;

/** Checks what every tree written by applyChanges must satisfy. */
function checkInvariants(tree: Tree): void {
  const pathOf = new Map<string, string>();
  const seenIds = new Set<string>();
  for (const { page, path, parent, siblings } of walk(tree)) {
    assert.ok(!seenIds.has(page.id), `id ${page.id} appears once`);
    seenIds.add(page.id);
    const parentPath = parent === undefined ? '' : (pathOf.get(parent.id) ?? '');
    if (page.type === 'link') {
      assert.equal(page.slug, undefined);
      assert.equal(path, '');
      assert.equal(page.pages.length, 0, 'links hold no pages');
      assert.match(
        page.target?.kind === 'url' ? (page.target.url ?? '') : 'https://',
        /^https?:\/\//i,
      );
    } else {
      const slug = page.slug ?? '';
      assert.equal(slugProblem(slug), undefined, `${JSON.stringify(slug)} is a valid slug`);
      assert.equal(slug, slug.normalize('NFC'));
      assert.equal(path, joinPath(parentPath, slug), 'path = parent path + "/" + slug');
      assert.equal(findByPath(tree, path)?.page.id, page.id, `findByPath(${JSON.stringify(path)})`);
    }
    if (page.type === 'group') assert.equal(parent, undefined, 'groups are at the top level');
    const slugs = siblings.flatMap((s) => (s.slug === undefined ? [] : [s.slug.normalize('NFC')]));
    assert.equal(
      new Set(slugs).size,
      slugs.length,
      `sibling slugs are unique: ${slugs.join(', ')}`,
    );
    pathOf.set(page.id, path);
  }
}

describe('properties of applyChanges and mergeTrees', () => {
  /** One insert: where (an index into the pages so far, or the top level), what, and how. */
  const insertSpec = fc.record({
    parent: fc.option(fc.nat(), { nil: undefined }),
    title: fc.constantFrom(...TITLES),
    slug: fc.option(fc.constantFrom(...SLUGS), { nil: undefined, freq: 3 }),
    at: fc.option(fc.nat({ max: 6 }), { nil: undefined }),
    type: fc.constantFrom('document', 'document', 'document', 'group', 'link'),
  });

  test('random valid inserts: every path is its parent’s path + "/" + slug; sibling slugs are unique', () => {
    fc.assert(
      fc.property(fc.array(insertSpec, { maxLength: 30 }), (specs) => {
        const changes: PageChange[] = [];
        const containers: string[] = []; // ids of pages that may hold others (documents)
        const siblingSlugs = new Map<string | null, Set<string>>();
        for (const [i, spec] of specs.entries()) {
          const into =
            spec.parent === undefined || containers.length === 0
              ? null
              : (containers[spec.parent % containers.length] as string);
          const type = into !== null && spec.type === 'group' ? 'document' : spec.type;
          const taken = siblingSlugs.get(into) ?? new Set<string>();
          siblingSlugs.set(into, taken);
          const change = definedOnly({
            operation: 'insert_page',
            type,
            title: spec.title,
            into,
            at: spec.at,
          });
          if (type === 'document') change.document = { markdown: `body ${i}` };
          if (type === 'link') change.target = { kind: 'url', url: `https://x.test/${i}` };
          // An explicit slug only where valid: a clash would (rightly) be a 409.
          if (
            type !== 'link' &&
            spec.slug !== undefined &&
            !taken.has(spec.slug.normalize('NFC'))
          ) {
            change.slug = spec.slug;
          }
          changes.push(change);
          const result = applyChanges([], changes, AT, ids('p'));
          const slug = mustFind(result.tree, `p${i}`).page.slug;
          if (slug !== undefined) taken.add(slug);
          if (type === 'document') containers.push(`p${i}`);
        }
        const { tree, touched } = applyChanges([], changes, AT, ids('p'));
        checkInvariants(tree);
        assert.equal(touched.size, changes.length);
        assert.equal([...walk(tree)].length, changes.length);
        for (const { page } of walk(tree)) {
          if (page.type !== 'link' && changes[Number(page.id.slice(1))]?.slug === undefined) {
            const derived = page.slug ?? '';
            assert.match(derived, /^[a-z0-9]+(-[a-z0-9]+)*$/, 'a derived slug is ASCII');
            assert.ok(derived.length <= MAX_SLUG);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  /** Any change at all, valid or not, over the base pages and the pages the list inserts. */
  const POOL = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'n0', 'n1', 'n2', 'n3', 'missing'];
  const anyChange: fc.Arbitrary<PageChange> = fc.oneof(
    insertSpec.map(
      (spec): PageChange =>
        definedOnly({
          operation: 'insert_page',
          type: spec.type,
          title: spec.title,
          slug: spec.slug,
          at: spec.at,
          into: spec.parent === undefined ? null : POOL[spec.parent % POOL.length],
          ...(spec.type === 'document' ? { document: { markdown: 'x' } } : {}),
          ...(spec.type === 'link' ? { target: { kind: 'url', url: 'https://x.test' } } : {}),
        }),
    ),
    fc.record(
      {
        operation: fc.constant('update_page' as const),
        page: fc.constantFrom(...POOL),
        title: fc.constantFrom(...TITLES),
        slug: fc.constantFrom(...SLUGS),
        into: fc.option(fc.constantFrom(...POOL), { nil: null }),
        at: fc.nat({ max: 6 }),
      },
      { requiredKeys: ['operation', 'page'] },
    ),
    fc.record({ operation: fc.constant('delete_page' as const), page: fc.constantFrom(...POOL) }),
  );

  test('any change list: an AppError naming changes[i] with the input untouched, or a well-formed tree', () => {
    fc.assert(
      fc.property(fc.array(anyChange, { maxLength: 12 }), (changes) => {
        const tree = base();
        const snapshot = structuredClone(tree);
        let result: AppliedChanges | undefined;
        try {
          result = apply(tree, changes);
        } catch (error) {
          assert.ok(error instanceof AppError, String(error));
          assert.ok([400, 409].includes(error.statusCode));
          const index = Number(/^changes\[(\d+)\]/.exec(error.message)?.[1]);
          assert.ok(index >= 0 && index < changes.length, error.message);
          // Everything before the bad change applies on its own.
          apply(tree, changes.slice(0, index));
        }
        assert.deepEqual(tree, snapshot);
        if (result !== undefined) {
          checkInvariants(result.tree);
          const before = new Set([...walk(tree)].map((l) => l.page.id));
          const after = new Set([...walk(result.tree)].map((l) => l.page.id));
          for (const id of before)
            if (!after.has(id)) assert.ok(result.touched.has(id), `deleted ${id} is touched`);
          for (const id of after)
            if (!before.has(id)) assert.ok(result.touched.has(id), `inserted ${id} is touched`);
        }
      }),
      { numRuns: 1000 },
    );
  });

  /** A change list that applies to the base tree: any random list, keeping only the changes that apply. */
  const validChanges = (prefix: string) =>
    fc.array(anyChange, { maxLength: 10 }).map((changes) => {
      const kept: PageChange[] = [];
      for (const change of changes) {
        const renamed: PageChange = { ...change };
        for (const key of ['page', 'into'] as const) {
          const value = renamed[key];
          if (typeof value === 'string' && value.startsWith('n'))
            renamed[key] = `${prefix}${value.slice(1)}`;
        }
        try {
          apply(base(), [...kept, renamed], prefix);
          kept.push(renamed);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
        }
      }
      return kept;
    });

  test('merging a change request into an untouched space gives the change request’s tree', () => {
    fc.assert(
      fc.property(validChanges('o'), (changes) => {
        const ours = apply(base(), changes, 'o');
        const result = mergeTrees({
          ours: ours.tree,
          oursTouched: ours.touched,
          theirs: base(),
          theirsTouched: new Set(),
        });
        assert.equal(result.conflicts, undefined, JSON.stringify(result.conflicts));
        assert.deepEqual(result.tree, ours.tree);
      }),
      { numRuns: 300 },
    );
  });

  test('merging an untouched change request into a changed space gives the space’s tree', () => {
    fc.assert(
      fc.property(validChanges('t'), (changes) => {
        const theirs = apply(base(), changes, 't');
        const result = mergeTrees({
          ours: base(),
          oursTouched: new Set(),
          theirs: theirs.tree,
          theirsTouched: theirs.touched,
        });
        assert.equal(result.conflicts, undefined, JSON.stringify(result.conflicts));
        assert.deepEqual(result.tree, theirs.tree);
      }),
      { numRuns: 300 },
    );
  });

  test('a clean merge of two random sides is well formed and keeps each side’s own pages', () => {
    fc.assert(
      fc.property(validChanges('o'), validChanges('t'), (oursChanges, theirsChanges) => {
        const ours = apply(base(), oursChanges, 'o');
        const theirs = apply(base(), theirsChanges, 't');
        const result = mergeTrees({
          ours: ours.tree,
          oursTouched: ours.touched,
          theirs: theirs.tree,
          theirsTouched: theirs.touched,
        });
        if (result.conflicts !== undefined) {
          assert.ok(result.conflicts.length > 0);
          return;
        }
        checkInvariants(result.tree);
        for (const id of ours.touched) {
          const mine = findById(ours.tree, id);
          const merged = findById(result.tree, id);
          assert.equal(
            merged === undefined,
            mine === undefined,
            `ours’ ${id} is kept as ours has it`,
          );
          if (mine && merged) assert.equal(merged.page.title, mine.page.title);
        }
        for (const id of theirs.touched) {
          if (ours.touched.has(id)) continue;
          const other = findById(theirs.tree, id);
          const merged = findById(result.tree, id);
          assert.equal(
            merged === undefined,
            other === undefined,
            `theirs’ ${id} is kept as theirs has it`,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
