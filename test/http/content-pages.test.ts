/**
 * Revisions and pages over HTTP (docs/content.md, issue 6): a space's current revision, revisions
 * by id (immutable history, merge revisions), page trees, pages by id (format=markdown|document)
 * and by path (encoded or raw, renames, moves, Unicode slugs), the same reads through a change
 * request and through an older revision, and who may read them.
 *
 * Content is built the way an integration builds it: a change request, change lists, a merge.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMigrator } from '../../src/db/migrate.js';
import { up } from '../../src/db/migrations/0009_missing_initial_revisions.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import {
  applyChanges,
  type ChangeRequestBody,
  crUrl,
  doc,
  flatten,
  insertPage,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
  type PageBody,
  type RevisionBody,
  rawGet,
  spaceUrl,
} from '../helpers/content.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const INSTALL_MARKDOWN = '# Install\n\nRun the installer.\n\n- Download it\n- Run it\n';

/** A space whose content was built in one change request and merged. */
interface Docs {
  spaceId: string;
  /** The space's empty first revision. */
  initialRevision: string;
  /** The change request that built the content (merged). */
  cr: ChangeRequestBody;
  /** Its last revision before the merge. */
  crRevision: string;
  /** The merge revision: the space's current one. */
  revision: string;
  ids: {
    gettingStarted: string;
    install: string;
    reference: string;
    api: string;
    errors: string;
    link: string;
    uber: string;
    cjk: string;
  };
}

/**
 * getting-started              Getting started (document, slug derived from the title)
 *   getting-started/install    Install
 * reference                    Reference (group)
 *   reference/api              API
 *     reference/api/errors     Errors (slug derived)
 * (no path)                    GitHub (link)
 * über-uns                     Über uns
 * 入门                          入门指南
 */
async function buildDocs(): Promise<Docs> {
  const space = await newSpace(t, 'Product docs');
  const cr = await openChangeRequest(t, space.id, 'First content');
  const add = (change: Record<string, unknown>) => insertPage(t, space.id, cr.id, change);
  const gettingStarted = await add(doc('Getting started'));
  const install = await add({
    title: 'Install',
    slug: 'install',
    into: gettingStarted,
    document: { markdown: INSTALL_MARKDOWN },
  });
  const reference = await add({ type: 'group', title: 'Reference', slug: 'reference' });
  const api = await add(doc('API', { slug: 'api', into: reference }));
  const errors = await add(doc('Errors', { into: api }));
  const link = await add({
    type: 'link',
    title: 'GitHub',
    target: { kind: 'url', url: 'https://github.com/example/docs' },
  });
  const uber = await add(doc('Über uns', { slug: 'über-uns' }));
  const cjk = await add(doc('入门指南', { slug: '入门' }));
  const before = expectStatus(
    await t.request({ method: 'GET', url: crUrl(space.id, cr.id) }),
    200,
  ) as ChangeRequestBody;
  const merged = await mergeChangeRequest(t, space.id, cr.id);
  assert.equal(merged.result, 'merge');
  return {
    spaceId: space.id,
    initialRevision: space.revision,
    cr,
    crRevision: before.revision,
    revision: merged.revision,
    ids: { gettingStarted, install, reference, api, errors, link, uber, cjk },
  };
}

const get = (url: string, token?: string) =>
  t.request({
    method: 'GET',
    url,
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
  });
const getOk = async <T = Record<string, unknown>>(url: string) =>
  expectStatus(await get(url), 200) as T;
const pagesAt = async (url: string) => (await getOk<{ pages: PageBody[] }>(url)).pages;
const find = (pages: PageBody[], id: string) => {
  const page = flatten(pages).find((p) => p.id === id);
  assert.ok(page, `page ${id} in the tree`);
  return page;
};

describe('a new space', () => {
  test('its current revision is empty, is the space’s `revision`, and is a revision by id', async () => {
    const space = await newSpace(t);
    const got = await getOk<{ revision: string }>(spaceUrl(space.id));
    assert.equal(got.revision, space.revision);

    const current = await getOk<RevisionBody>(`${spaceUrl(space.id)}/content`);
    assert.equal(current.object, 'revision');
    assert.equal(current.id, space.revision);
    assert.deepEqual(current.pages, []);
    assert.deepEqual(current.parents, []);
    assert.equal(current.mergedFrom, undefined);

    assert.deepEqual(await getOk(`${spaceUrl(space.id)}/content/pages`), { pages: [] });

    const byId = await getOk<RevisionBody>(`${spaceUrl(space.id)}/revisions/${space.revision}`);
    assert.deepEqual(byId, current);
    assert.deepEqual(await getOk(`${spaceUrl(space.id)}/revisions/${space.revision}/pages`), {
      pages: [],
    });
  });

  test('a space made with its site (spaces: "empty") has its empty revision too', async () => {
    const site = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Made with a space', spaces: 'empty' },
      }),
      201,
    );
    const variants = expectStatus(
      await t.request({ url: `/v1/orgs/${t.orgId}/sites/${site.id}/site-spaces` }),
      200,
    ).items as { space: { id: string; revision: string } }[];
    const space = variants[0]?.space;
    assert.ok(space !== undefined);
    const current = await getOk<RevisionBody>(`${spaceUrl(space.id)}/content`);
    assert.equal(current.id, space.revision);
    assert.deepEqual(current.pages, []);
  });

  test('migration 0009 gives a space without its initial revision that revision', async () => {
    const space = await newSpace(t, 'Repaired');
    await t.db.deleteFrom('revisions').where('space_id', '=', space.id).execute();
    // 0009 writes revisions as they were stored then (a whole tree in `pages`, before 0015).
    const migrator = await createMigrator(t.db);
    assert.equal((await migrator.migrateTo('0014_studio_sessions')).error, undefined);
    await up(t.db as never);
    await up(t.db as never); // idempotent
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const current = await getOk<RevisionBody>(`${spaceUrl(space.id)}/content`);
    assert.equal(current.id, space.revision);
    assert.deepEqual(current.pages, []);
  });

  test('an unknown revision id is a 404 naming it', async () => {
    const space = await newSpace(t);
    for (const suffix of ['', '/pages', '/page/somepage', '/path/some-page']) {
      const message = expectError(
        await get(`${spaceUrl(space.id)}/revisions/rev_unknown${suffix}`),
        404,
      );
      assert.match(message, /rev_unknown/, suffix);
    }
  });

  test('a revision of another space is a 404, though it exists', async () => {
    const mine = await newSpace(t, 'Mine');
    const other = await buildDocs();
    for (const revision of [other.initialRevision, other.revision]) {
      for (const suffix of ['', '/pages', `/page/${other.ids.install}`, '/path/getting-started']) {
        expectError(await get(`${spaceUrl(mine.id)}/revisions/${revision}${suffix}`), 404);
      }
      // …while the space it belongs to answers it.
      await getOk(`${spaceUrl(other.spaceId)}/revisions/${revision}`);
    }
  });

  test('an unknown space is a 404', async () => {
    expectError(await get(`${spaceUrl('space_unknown')}/content`), 404);
    expectError(await get(`${spaceUrl('space_unknown')}/content/pages`), 404);
  });
});

describe('content built through a change request', () => {
  let docs: Docs;
  before(async () => {
    docs = await buildDocs();
  });

  test('the tree: types, kinds, slugs, paths on documents and groups, none on links, nested pages', async () => {
    const pages = await pagesAt(`${spaceUrl(docs.spaceId)}/content/pages`);
    assert.deepEqual(
      pages.map((p) => p.title),
      ['Getting started', 'Reference', 'GitHub', 'Über uns', '入门指南'],
    );
    const [gettingStarted, reference, link, uber, cjk] = pages as [
      PageBody,
      PageBody,
      PageBody,
      PageBody,
      PageBody,
    ];

    assert.equal(gettingStarted.id, docs.ids.gettingStarted);
    assert.equal(gettingStarted.type, 'document');
    assert.equal(gettingStarted.kind, 'sheet');
    assert.equal(gettingStarted.slug, 'getting-started', 'derived from the title');
    assert.equal(gettingStarted.path, 'getting-started');
    assert.equal(gettingStarted.pages?.length, 1);
    const install = gettingStarted.pages?.[0] as PageBody;
    assert.equal(install.id, docs.ids.install);
    assert.equal(install.title, 'Install');
    assert.equal(install.type, 'document');
    assert.equal(install.kind, 'sheet');
    assert.equal(install.slug, 'install');
    assert.equal(install.path, 'getting-started/install');
    assert.deepEqual(install.pages, []);

    assert.equal(reference.id, docs.ids.reference);
    assert.equal(reference.type, 'group');
    assert.equal(reference.kind, 'group');
    assert.equal(reference.slug, 'reference');
    assert.equal(reference.path, 'reference');
    assert.equal(reference.urls, undefined, 'groups have no document');
    assert.equal(reference.documentId, undefined);
    const api = reference.pages?.[0] as PageBody;
    assert.equal(api.id, docs.ids.api);
    assert.equal(api.path, 'reference/api');
    const errors = api.pages?.[0] as PageBody;
    assert.equal(errors.id, docs.ids.errors);
    assert.equal(errors.slug, 'errors');
    assert.equal(errors.path, 'reference/api/errors');
    assert.equal(errors.kind, 'sheet');

    assert.equal(link.id, docs.ids.link);
    assert.equal(link.type, 'link');
    assert.equal(link.kind, 'link');
    assert.equal('slug' in link, false, 'a link has no slug');
    assert.equal('path' in link, false, 'a link has no path');
    assert.deepEqual(link.target, { kind: 'url', url: 'https://github.com/example/docs' });
    assert.equal(link.href, 'https://github.com/example/docs');

    assert.equal(uber.slug, 'über-uns');
    assert.equal(uber.path, 'über-uns');
    assert.equal(cjk.slug, '入门');
    assert.equal(cjk.path, '入门');

    // Documents carry GitBook's urls.app, layout and documentId; trees carry no bodies.
    for (const page of flatten(pages).filter((p) => p.type === 'document')) {
      assert.equal(page.documentId, page.id, page.title);
      assert.equal(typeof page.layout, 'object', page.title);
      assert.ok(page.layout !== null);
      assert.equal(typeof page.urls?.app, 'string', page.title);
      assert.ok(page.urls?.app.endsWith(`/content/page/${page.id}`), page.urls?.app);
      assert.ok(URL.canParse(page.urls?.app ?? ''), page.urls?.app);
      assert.equal(page.markdown, undefined);
      assert.equal(page.document, undefined);
    }

    // The current revision holds the same tree.
    const current = await getOk<RevisionBody>(`${spaceUrl(docs.spaceId)}/content`);
    assert.equal(current.id, docs.revision);
    assert.deepEqual(current.pages, pages);
  });

  test('getPageById with format=markdown answers the Markdown as stored', async () => {
    const page = await getOk<PageBody>(
      `${spaceUrl(docs.spaceId)}/content/page/${docs.ids.install}?format=markdown`,
    );
    assert.equal(page.id, docs.ids.install);
    assert.equal(page.path, 'getting-started/install');
    assert.equal(page.markdown, INSTALL_MARKDOWN);
    assert.equal(page.document, undefined);
  });

  test('getPageById with format=document answers a JSON document, the title heading left out', async () => {
    const page = await getOk<PageBody>(
      `${spaceUrl(docs.spaceId)}/content/page/${docs.ids.install}?format=document`,
    );
    assert.equal(page.markdown, undefined);
    const document = page.document;
    assert.ok(document, 'a document');
    assert.equal(document.object, 'document');
    assert.ok(Array.isArray(document.nodes));
    const types = document.nodes.map((node) => node.type);
    // `# Install` is the page's title: GitBook shows it once, as the title (docs/content.md).
    assert.deepEqual(types, ['paragraph', 'list-unordered']);
    for (const node of document.nodes) assert.equal(node.object, 'block');
    assert.match(JSON.stringify(document.nodes[0]), /"text":"Run the installer."/);
  });

  test('getPageById without format answers neither body; a group and a link by id too', async () => {
    const page = await getOk<PageBody>(
      `${spaceUrl(docs.spaceId)}/content/page/${docs.ids.install}`,
    );
    assert.equal(page.id, docs.ids.install);
    assert.equal(page.path, 'getting-started/install');
    assert.equal('markdown' in page, false);
    assert.equal('document' in page, false);

    const group = await getOk<PageBody>(
      `${spaceUrl(docs.spaceId)}/content/page/${docs.ids.reference}`,
    );
    assert.equal(group.type, 'group');
    assert.equal(group.path, 'reference');
    assert.equal(group.pages?.[0]?.path, 'reference/api', 'children keep their full paths');

    const nested = await getOk<PageBody>(
      `${spaceUrl(docs.spaceId)}/content/page/${docs.ids.errors}`,
    );
    assert.equal(nested.path, 'reference/api/errors', 'a page by id knows its ancestors');

    const link = await getOk<PageBody>(`${spaceUrl(docs.spaceId)}/content/page/${docs.ids.link}`);
    assert.equal(link.type, 'link');
    assert.equal('path' in link, false);
  });

  test('getPageById: an unknown page is a 404 naming it; an unknown format is a 400', async () => {
    const message = expectError(
      await get(`${spaceUrl(docs.spaceId)}/content/page/page_unknown`),
      404,
    );
    assert.match(message, /page_unknown/);
    expectError(
      await get(`${spaceUrl(docs.spaceId)}/content/page/${docs.ids.install}?format=html`),
      400,
    );
  });
});

describe('getPageByPath', () => {
  let docs: Docs;
  before(async () => {
    docs = await buildDocs();
  });

  /** `sent` goes in the URL after …/content/path/ exactly as written. */
  const rows: { rule: string; sent: string; page: keyof Docs['ids']; path: string }[] = [
    {
      rule: 'a top-level document',
      sent: 'getting-started',
      page: 'gettingStarted',
      path: 'getting-started',
    },
    {
      rule: 'nested, URL-encoded (getting-started%2Finstall)',
      sent: 'getting-started%2Finstall',
      page: 'install',
      path: 'getting-started/install',
    },
    {
      rule: 'nested, raw slashes (getting-started/install)',
      sent: 'getting-started/install',
      page: 'install',
      path: 'getting-started/install',
    },
    {
      rule: 'three levels, raw (reference/api/errors)',
      sent: 'reference/api/errors',
      page: 'errors',
      path: 'reference/api/errors',
    },
    {
      rule: 'three levels, encoded (reference%2Fapi%2Ferrors)',
      sent: 'reference%2Fapi%2Ferrors',
      page: 'errors',
      path: 'reference/api/errors',
    },
    { rule: 'a group', sent: 'reference', page: 'reference', path: 'reference' },
    {
      rule: 'a leading encoded slash',
      sent: '%2Fgetting-started%2Finstall',
      page: 'install',
      path: 'getting-started/install',
    },
    {
      rule: 'a trailing encoded slash',
      sent: 'getting-started%2Finstall%2F',
      page: 'install',
      path: 'getting-started/install',
    },
    {
      rule: 'a trailing raw slash',
      sent: 'getting-started/install/',
      page: 'install',
      path: 'getting-started/install',
    },
    {
      rule: 'a leading raw slash (…/path//getting-started/install)',
      sent: '/getting-started/install',
      page: 'install',
      path: 'getting-started/install',
    },
    {
      rule: 'a Latin slug with an umlaut, percent-encoded (encodeURIComponent)',
      sent: encodeURIComponent('über-uns'),
      page: 'uber',
      path: 'über-uns',
    },
    {
      rule: 'a Latin slug with an umlaut, unencoded in the URL (fetch and inject encode it)',
      sent: 'über-uns',
      page: 'uber',
      path: 'über-uns',
    },
    {
      rule: 'the same slug in decomposed form (NFD), percent-encoded',
      sent: encodeURIComponent('über-uns'.normalize('NFD')),
      page: 'uber',
      path: 'über-uns',
    },
    {
      rule: 'a CJK slug, percent-encoded (encodeURIComponent)',
      sent: encodeURIComponent('入门'),
      page: 'cjk',
      path: '入门',
    },
    {
      rule: 'a CJK slug, unencoded in the URL (fetch and inject encode it)',
      sent: '入门',
      page: 'cjk',
      path: '入门',
    },
  ];
  for (const row of rows) {
    test(`resolves: ${row.rule}`, async () => {
      const page = await getOk<PageBody>(`${spaceUrl(docs.spaceId)}/content/path/${row.sent}`);
      assert.equal(page.id, docs.ids[row.page]);
      assert.equal(page.path, row.path);
    });
  }

  test('over a socket: percent-encoded UTF-8 resolves; raw UTF-8 bytes are not valid HTTP (400)', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const cases: [string, keyof Docs['ids']][] = [
      [encodeURIComponent('über-uns'), 'uber'],
      [encodeURIComponent('入门'), 'cjk'],
      ['reference/api/errors', 'errors'],
      ['getting-started%2Finstall', 'install'],
    ];
    for (const [sent, id] of cases) {
      const response = await rawGet(t, `${spaceUrl(docs.spaceId)}/content/path/${sent}`);
      assert.equal(response.status, 200, `${sent}: ${response.body}`);
      assert.equal((JSON.parse(response.body) as PageBody).id, docs.ids[id], sent);
    }
    // A request-target is ASCII (RFC 9112 §3.2): Node's parser refuses raw UTF-8 before any
    // route runs, and the answer is still an error envelope.
    for (const sent of ['über-uns', '入门']) {
      const response = await rawGet(t, `${spaceUrl(docs.spaceId)}/content/path/${sent}`);
      assert.equal(response.status, 400, response.body);
      const body = JSON.parse(response.body) as { error: { code: number; message: string } };
      assert.equal(body.error.code, 400);
    }
  });

  test('encoded and raw forms answer the very same page', async () => {
    const encoded = await get(`${spaceUrl(docs.spaceId)}/content/path/getting-started%2Finstall`);
    const raw = await get(`${spaceUrl(docs.spaceId)}/content/path/getting-started/install`);
    assert.deepEqual(expectStatus(encoded, 200), expectStatus(raw, 200));
    const byId = await getOk(`${spaceUrl(docs.spaceId)}/content/page/${docs.ids.install}`);
    assert.deepEqual(expectStatus(raw, 200), byId);
  });

  test('format=markdown and format=document work by path too', async () => {
    const markdown = await getOk<PageBody>(
      `${spaceUrl(docs.spaceId)}/content/path/getting-started%2Finstall?format=markdown`,
    );
    assert.equal(markdown.markdown, INSTALL_MARKDOWN);
    const document = await getOk<PageBody>(
      `${spaceUrl(docs.spaceId)}/content/path/getting-started/install?format=document`,
    );
    assert.equal(document.document?.object, 'document');
    assert.equal(document.document?.nodes[0]?.type, 'paragraph');
  });

  const missing: { rule: string; sent: string; named: string }[] = [
    { rule: 'an unknown path', sent: 'nope%2Fmissing', named: 'nope/missing' },
    { rule: 'an unknown raw path', sent: 'nope/missing', named: 'nope/missing' },
    { rule: 'a child slug without its parent', sent: 'install', named: 'install' },
    { rule: 'a link page’s title', sent: 'GitHub', named: 'GitHub' },
    { rule: 'a link page’s title, slugified', sent: 'github', named: 'github' },
    { rule: 'a path one level too deep', sent: 'getting-started/install/x', named: 'x' },
  ];
  for (const row of missing) {
    test(`404 naming the path: ${row.rule}`, async () => {
      const message = expectError(
        await get(`${spaceUrl(docs.spaceId)}/content/path/${row.sent}`),
        404,
      );
      assert.ok(message.includes(row.named), message);
    });
  }

  test('404 names a Unicode path decoded, not percent-encoded', async () => {
    const message = expectError(
      await get(`${spaceUrl(docs.spaceId)}/content/path/${encodeURIComponent('über-alles')}`),
      404,
    );
    assert.ok(message.includes('über-alles'), message);
  });
});

describe('paths follow renames and moves', () => {
  test('renaming a parent’s slug changes every descendant’s path; the old paths are 404', async () => {
    const docs = await buildDocs();
    const cr = await openChangeRequest(t, docs.spaceId, 'Rename');
    await applyChanges(t, docs.spaceId, cr.id, [
      { operation: 'update_page', page: docs.ids.reference, slug: 'ref' },
    ]);
    await mergeChangeRequest(t, docs.spaceId, cr.id);

    const base = `${spaceUrl(docs.spaceId)}/content/path`;
    const renamed: [string, string][] = [
      ['ref', docs.ids.reference],
      ['ref/api', docs.ids.api],
      ['ref/api/errors', docs.ids.errors],
    ];
    for (const [path, id] of renamed) {
      const page = await getOk<PageBody>(`${base}/${path}`);
      assert.equal(page.id, id, path);
      assert.equal(page.path, path);
      assert.equal(
        (await getOk<PageBody>(`${base}/${encodeURIComponent(path)}`)).id,
        id,
        `${path} encoded`,
      );
    }
    for (const old of ['reference', 'reference/api', 'reference/api/errors']) {
      const message = expectError(await get(`${base}/${old}`), 404);
      assert.ok(message.includes(old), message);
    }

    const pages = await pagesAt(`${spaceUrl(docs.spaceId)}/content/pages`);
    assert.equal(find(pages, docs.ids.reference).slug, 'ref');
    assert.equal(find(pages, docs.ids.api).path, 'ref/api');
    assert.equal(find(pages, docs.ids.errors).path, 'ref/api/errors');
    assert.equal(find(pages, docs.ids.install).path, 'getting-started/install', 'unrelated');
  });

  test('renaming a nested document’s slug changes its children’s paths', async () => {
    const docs = await buildDocs();
    const cr = await openChangeRequest(t, docs.spaceId, 'Rename nested');
    await applyChanges(t, docs.spaceId, cr.id, [
      { operation: 'update_page', page: docs.ids.api, slug: 'rest-api' },
    ]);
    await mergeChangeRequest(t, docs.spaceId, cr.id);
    const base = `${spaceUrl(docs.spaceId)}/content/path`;
    assert.equal((await getOk<PageBody>(`${base}/reference/rest-api/errors`)).id, docs.ids.errors);
    expectError(await get(`${base}/reference/api/errors`), 404);
    expectError(await get(`${base}/reference/api`), 404);
    assert.equal((await getOk<PageBody>(`${base}/reference`)).id, docs.ids.reference);
  });

  test('a page moved into another parent, and to the top level (into: null), has its new path', async () => {
    const docs = await buildDocs();
    const cr = await openChangeRequest(t, docs.spaceId, 'Move');
    await applyChanges(t, docs.spaceId, cr.id, [
      { operation: 'update_page', page: docs.ids.errors, into: docs.ids.gettingStarted },
      { operation: 'update_page', page: docs.ids.install, into: null },
    ]);
    await mergeChangeRequest(t, docs.spaceId, cr.id);

    const base = `${spaceUrl(docs.spaceId)}/content/path`;
    const errors = await getOk<PageBody>(`${base}/getting-started%2Ferrors`);
    assert.equal(errors.id, docs.ids.errors);
    assert.equal(errors.path, 'getting-started/errors');
    expectError(await get(`${base}/reference/api/errors`), 404);

    const install = await getOk<PageBody>(`${base}/install`);
    assert.equal(install.id, docs.ids.install);
    assert.equal(install.path, 'install');
    expectError(await get(`${base}/getting-started/install`), 404);

    const pages = await pagesAt(`${spaceUrl(docs.spaceId)}/content/pages`);
    assert.deepEqual(
      pages.map((p) => p.id),
      [
        docs.ids.gettingStarted,
        docs.ids.reference,
        docs.ids.link,
        docs.ids.uber,
        docs.ids.cjk,
        docs.ids.install,
      ],
      'into: null appends at the top level',
    );
    assert.deepEqual(
      find(pages, docs.ids.gettingStarted).pages?.map((p) => p.id),
      [docs.ids.errors],
    );
    assert.deepEqual(find(pages, docs.ids.api).pages, []);
  });
});

describe('reads through a change request', () => {
  test('the change request sees its own unmerged pages; the space does not', async () => {
    const docs = await buildDocs();
    const cr = await openChangeRequest(t, docs.spaceId, 'Drafts');
    const draft = await insertPage(t, docs.spaceId, cr.id, {
      title: 'Draft notes',
      into: docs.ids.gettingStarted,
      document: { markdown: '# Draft notes\n\nNot yet.\n' },
    });
    await applyChanges(t, docs.spaceId, cr.id, [
      { operation: 'update_page', page: docs.ids.install, title: 'Installation' },
    ]);
    const space = spaceUrl(docs.spaceId);

    for (const ref of [cr.id, String(cr.number)]) {
      const crBase = `${crUrl(docs.spaceId, ref)}/content`;
      const pages = await pagesAt(`${crBase}/pages`);
      const found = find(pages, draft);
      assert.equal(found.path, 'getting-started/draft-notes');
      assert.equal(find(pages, docs.ids.install).title, 'Installation');

      for (const sent of ['getting-started/draft-notes', 'getting-started%2Fdraft-notes']) {
        const byPath = await getOk<PageBody>(`${crBase}/path/${sent}`);
        assert.equal(byPath.id, draft, sent);
      }
      const byId = await getOk<PageBody>(`${crBase}/page/${draft}?format=markdown`);
      assert.equal(byId.markdown, '# Draft notes\n\nNot yet.\n');
      assert.equal(byId.path, 'getting-started/draft-notes');

      const revision = await getOk<RevisionBody>(crBase);
      const crNow = await getOk<ChangeRequestBody>(crUrl(docs.spaceId, ref));
      assert.equal(revision.id, crNow.revision, 'getRevisionOfChangeRequestById');
      assert.equal(revision.type, 'edits');
      assert.deepEqual(revision.pages, pages);
    }

    // The space does not see it.
    const spacePages = await pagesAt(`${space}/content/pages`);
    assert.equal(
      flatten(spacePages).some((p) => p.id === draft),
      false,
    );
    assert.equal(find(spacePages, docs.ids.install).title, 'Install');
    expectError(await get(`${space}/content/page/${draft}`), 404);
    const message = expectError(
      await get(`${space}/content/path/getting-started/draft-notes`),
      404,
    );
    assert.ok(message.includes('getting-started/draft-notes'), message);
    assert.equal(
      (await getOk<PageBody>(`${space}/content/path/getting-started/install`)).title,
      'Install',
    );
  });

  test('an unknown change request is a 404; an unknown path in one names the path', async () => {
    const docs = await buildDocs();
    for (const suffix of ['', '/pages', `/page/${docs.ids.install}`, '/path/getting-started']) {
      const message = expectError(
        await get(`${crUrl(docs.spaceId, 'cr_unknown')}/content${suffix}`),
        404,
      );
      assert.match(message, /cr_unknown/, suffix);
    }
    const cr = await openChangeRequest(t, docs.spaceId);
    const message = expectError(
      await get(`${crUrl(docs.spaceId, cr.id)}/content/path/nowhere%2Fhere`),
      404,
    );
    assert.ok(message.includes('nowhere/here'), message);
  });

  test('a merged change request still reads its own content', async () => {
    const docs = await buildDocs();
    const pages = await pagesAt(`${crUrl(docs.spaceId, docs.cr.id)}/content/pages`);
    assert.equal(find(pages, docs.ids.errors).path, 'reference/api/errors');
    const page = await getOk<PageBody>(
      `${crUrl(docs.spaceId, docs.cr.number)}/content/path/reference/api/errors`,
    );
    assert.equal(page.id, docs.ids.errors);
  });
});

describe('revisions are immutable history', () => {
  test('an older revision still shows the old content after a later merge', async () => {
    const docs = await buildDocs();
    const cr = await openChangeRequest(t, docs.spaceId, 'Second edit');
    await applyChanges(t, docs.spaceId, cr.id, [
      {
        operation: 'update_page',
        page: docs.ids.install,
        title: 'Installation',
        document: { markdown: '# Installation\n\nNew text.\n' },
      },
      { operation: 'update_page', page: docs.ids.gettingStarted, slug: 'start' },
      { operation: 'delete_page', page: docs.ids.uber },
    ]);
    const second = await mergeChangeRequest(t, docs.spaceId, cr.id);
    assert.notEqual(second.revision, docs.revision);

    const space = spaceUrl(docs.spaceId);
    const old = `${space}/revisions/${docs.revision}`;

    // The old revision: old titles, old paths, the deleted page.
    const oldPages = await pagesAt(`${old}/pages`);
    assert.equal(find(oldPages, docs.ids.install).title, 'Install');
    assert.equal(find(oldPages, docs.ids.install).path, 'getting-started/install');
    assert.equal(find(oldPages, docs.ids.uber).path, 'über-uns');
    for (const sent of ['getting-started/install', 'getting-started%2Finstall']) {
      const page = await getOk<PageBody>(`${old}/path/${sent}?format=markdown`);
      assert.equal(page.id, docs.ids.install, sent);
      assert.equal(page.title, 'Install');
      assert.equal(page.markdown, INSTALL_MARKDOWN);
    }
    assert.equal(
      (await getOk<PageBody>(`${old}/path/${encodeURIComponent('über-uns')}`)).id,
      docs.ids.uber,
    );
    const oldUber = await getOk<PageBody>(`${old}/page/${docs.ids.uber}?format=markdown`);
    assert.equal(oldUber.markdown, '# Über uns\n\nAbout Über uns.\n');
    expectError(await get(`${old}/path/start/install`), 404);
    const oldRevision = await getOk<RevisionBody>(old);
    assert.deepEqual(oldRevision.pages, oldPages);

    // The current content: the new ones.
    const current = await getOk<PageBody>(`${space}/content/path/start/install?format=markdown`);
    assert.equal(current.id, docs.ids.install);
    assert.equal(current.title, 'Installation');
    assert.equal(current.markdown, '# Installation\n\nNew text.\n');
    expectError(await get(`${space}/content/page/${docs.ids.uber}`), 404);
    expectError(await get(`${space}/content/path/getting-started/install`), 404);

    // The new revision by id is the current one; the first revision is still empty.
    const newer = `${space}/revisions/${second.revision}`;
    assert.deepEqual(await pagesAt(`${newer}/pages`), await pagesAt(`${space}/content/pages`));
    const message = expectError(await get(`${newer}/path/getting-started%2Finstall`), 404);
    assert.ok(message.includes('getting-started/install'), message);
    expectError(await get(`${newer}/page/${docs.ids.uber}`), 404);
    assert.deepEqual(await pagesAt(`${space}/revisions/${docs.initialRevision}/pages`), []);
  });

  test('a merge revision: type merge, parents [previous space revision, CR revision], mergedFrom the merged change request', async () => {
    const docs = await buildDocs();
    const space = spaceUrl(docs.spaceId);
    assert.equal((await getOk<{ revision: string }>(space)).revision, docs.revision);
    assert.equal((await getOk<RevisionBody>(`${space}/content`)).id, docs.revision);

    const merge = await getOk<RevisionBody>(`${space}/revisions/${docs.revision}`);
    assert.equal(merge.object, 'revision');
    assert.equal(merge.id, docs.revision);
    assert.equal(merge.type, 'merge');
    assert.deepEqual(merge.parents, [docs.initialRevision, docs.crRevision]);
    const from = merge.mergedFrom;
    assert.ok(from, 'mergedFrom');
    assert.equal(from.object, 'change-request');
    assert.equal(from.id, docs.cr.id);
    assert.equal(from.number, docs.cr.number);
    assert.equal(from.status, 'merged');
    assert.equal(from.revisionMerged, docs.revision);
    assert.equal(from.subject, 'First content');

    // The change request's own last revision is an edit of its previous one, merged from nothing.
    const edits = await getOk<RevisionBody>(`${space}/revisions/${docs.crRevision}`);
    assert.equal(edits.type, 'edits');
    assert.equal(edits.parents.length, 1);
    assert.equal(edits.mergedFrom, undefined);
    assert.deepEqual(edits.pages, merge.pages, 'a merge onto an unchanged space keeps the tree');

    // A second merge is parented on the first.
    const cr = await openChangeRequest(t, docs.spaceId, 'More');
    const updated = await applyChanges(t, docs.spaceId, cr.id, [
      { operation: 'insert_page', ...doc('Changelog') },
    ]);
    const second = await mergeChangeRequest(t, docs.spaceId, cr.id);
    const again = await getOk<RevisionBody>(`${space}/revisions/${second.revision}`);
    assert.equal(again.type, 'merge');
    assert.deepEqual(again.parents, [docs.revision, updated.revision]);
    assert.equal(again.mergedFrom?.id, cr.id);
    assert.equal(again.mergedFrom?.status, 'merged');
    assert.equal((await getOk<{ revision: string }>(space)).revision, second.revision);
  });
});

describe('who may read content', () => {
  let docs: Docs;
  before(async () => {
    docs = await buildDocs();
  });

  const reads = (d: Docs) => [
    `${spaceUrl(d.spaceId)}/content`,
    `${spaceUrl(d.spaceId)}/content/pages`,
    `${spaceUrl(d.spaceId)}/content/page/${d.ids.install}?format=markdown`,
    `${spaceUrl(d.spaceId)}/content/path/getting-started%2Finstall`,
    `${spaceUrl(d.spaceId)}/content/path/getting-started/install`,
    `${spaceUrl(d.spaceId)}/revisions/${d.revision}`,
    `${spaceUrl(d.spaceId)}/revisions/${d.revision}/pages`,
    `${spaceUrl(d.spaceId)}/revisions/${d.revision}/page/${d.ids.install}`,
    `${spaceUrl(d.spaceId)}/revisions/${d.revision}/path/reference/api`,
    `${crUrl(d.spaceId, d.cr.id)}/content`,
    `${crUrl(d.spaceId, d.cr.id)}/content/pages`,
    `${crUrl(d.spaceId, d.cr.id)}/content/page/${d.ids.install}`,
    `${crUrl(d.spaceId, d.cr.id)}/content/path/reference/api`,
  ];

  test('a non-member gets 404 for every read of a space’s content', async () => {
    const stranger = await t.services.identity.createUser({
      displayName: 'Stranger',
      email: 'stranger@example.com',
    });
    const { token } = await t.services.identity.createToken(stranger.id, { label: 'stranger' });
    for (const url of reads(docs)) {
      expectError(await get(url, token), 404);
    }
    // Another organization's owner likewise.
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Elsewhere',
      ownerName: 'Else',
    });
    for (const url of reads(docs)) {
      expectError(await get(url, other.token), 404);
    }
  });

  test('a member with role read reads the same content as the owner, and cannot write', async () => {
    const reader = await t.services.identity.createUser({
      displayName: 'Reader',
      email: 'reader@example.com',
    });
    await t.services.identity.setMemberRole(t.orgId, reader.id, 'read');
    const { token } = await t.services.identity.createToken(reader.id, { label: 'reader' });
    for (const url of reads(docs)) {
      const asReader = expectStatus(await get(url, token), 200);
      assert.deepEqual(asReader, expectStatus(await get(url), 200), url);
    }
    expectError(
      await t.request({
        method: 'POST',
        url: `${spaceUrl(docs.spaceId)}/change-requests`,
        payload: { subject: 'Nope' },
        headers: { authorization: `Bearer ${token}` },
      }),
      403,
    );
  });
});
