/**
 * GitBook conformance (issue 14): revisions and pages, in their three forms (the space's current
 * revision, a change request's, a revision by id), each response judged against the response
 * schemas of GitBook 0.202 and 0.130. The tree holds every page type Livery has: a group, a
 * document with a child document, and a link.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  applyChanges,
  changeRequestPages,
  crUrl,
  doc,
  flatten,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
  type PageBody,
  spacePages,
  spaceUrl,
} from '../helpers/content.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';

let t: TestContext;
let c: Conformance;
let spaceId: string;
let revision: string;
let openCr: string;
let pages: PageBody[];

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
  spaceId = (await newSpace(t, 'Manual')).id;
  const cr = await openChangeRequest(t, spaceId, 'First pages');
  // `type` and `target` are Livery's extension of insert_page (docs/content.md).
  await applyChanges(t, spaceId, cr.id, [
    { operation: 'insert_page', type: 'group', title: 'Guides', slug: 'guides' },
    {
      operation: 'insert_page',
      type: 'link',
      title: 'Website',
      target: { kind: 'url', url: 'https://example.com/' },
    },
  ]);
  const guides = (await changeRequestPages(t, spaceId, cr.id))[0];
  assert.ok(guides);
  await applyChanges(t, spaceId, cr.id, [
    {
      operation: 'insert_page',
      ...doc('Install', {
        slug: 'install',
        into: guides.id,
        emoji: '🚀',
        description: 'How to install',
      }),
    },
  ]);
  const installed = flatten(await changeRequestPages(t, spaceId, cr.id)).find(
    (p) => p.title === 'Install',
  );
  assert.ok(installed);
  await applyChanges(t, spaceId, cr.id, [
    { operation: 'insert_page', ...doc('Upgrade', { slug: 'upgrade', into: installed.id }) },
  ]);
  revision = (await mergeChangeRequest(t, spaceId, cr.id)).revision;
  const next = await openChangeRequest(t, spaceId, 'More pages');
  await applyChanges(t, spaceId, next.id, [
    { operation: 'insert_page', ...doc('FAQ', { slug: 'faq' }) },
  ]);
  openCr = next.id;
  pages = flatten(await spacePages(t, spaceId));
});
after(async () => t.close());

const pageId = (title: string) => pages.find((p) => p.title === title)?.id ?? 'missing';

describe('GitBook conformance: revisions and pages', () => {
  test("the space's current revision: content, pages, a page by id and by path", async () => {
    const space = spaceUrl(spaceId);
    const current = await c.call(
      'getCurrentRevision',
      { method: 'GET', url: `${space}/content` },
      { status: 200 },
    );
    await c.call('listPages', { method: 'GET', url: `${space}/content/pages` }, { status: 200 });
    for (const title of ['Guides', 'Install', 'Upgrade', 'Website']) {
      await c.call(
        'getPageById',
        { method: 'GET', url: `${space}/content/page/${pageId(title)}` },
        { status: 200 },
      );
    }
    for (const format of ['markdown', 'document']) {
      const url = `${space}/content/page/${pageId('Install')}?format=${format}`;
      await c.call('getPageById', { method: 'GET', url }, { status: 200 });
    }
    await c.call(
      'getPageByPath',
      { method: 'GET', url: `${space}/content/path/guides/install` },
      { status: 200 },
    );
    await c.call(
      'getPageByPath',
      { method: 'GET', url: `${space}/content/path/guides%2Finstall%2Fupgrade?format=markdown` },
      { status: 200 },
    );
    await c.call(
      'getPageByPath',
      { method: 'GET', url: `${space}/content/path/guides` },
      { status: 200 },
    );
    c.check(() => assert.equal(JSON.parse(current.body).id, revision));
    c.assertConforms();
  });

  test("a change request's content: revision, pages, a page by id and by path", async () => {
    const cr = crUrl(spaceId, openCr);
    await c.call(
      'getRevisionOfChangeRequestById',
      { method: 'GET', url: `${cr}/content` },
      { status: 200 },
    );
    const list = await c.call(
      'listPagesInChangeRequest',
      { method: 'GET', url: `${cr}/content/pages` },
      { status: 200 },
    );
    await c.call(
      'getPageInChangeRequestById',
      { method: 'GET', url: `${cr}/content/page/${pageId('Install')}?format=document` },
      { status: 200 },
    );
    await c.call(
      'getPageInChangeRequestByPath',
      { method: 'GET', url: `${cr}/content/path/faq` },
      { status: 200 },
    );
    const titles = (JSON.parse(list.body).pages as PageBody[]).map((p) => p.title);
    c.check(() => assert.deepEqual(titles, ['Guides', 'Website', 'FAQ']));
    c.assertConforms();
  });

  test('a revision by id: revision, pages, a page by id and by path', async () => {
    const rev = `${spaceUrl(spaceId)}/revisions/${revision}`;
    await c.call('getRevisionById', { method: 'GET', url: rev }, { status: 200 });
    await c.call(
      'listPagesInRevisionById',
      { method: 'GET', url: `${rev}/pages` },
      { status: 200 },
    );
    await c.call(
      'getPageInRevisionById',
      { method: 'GET', url: `${rev}/page/${pageId('Website')}` },
      { status: 200 },
    );
    const byPath = await c.call(
      'getPageInRevisionByPath',
      { method: 'GET', url: `${rev}/path/guides/install/upgrade?format=markdown` },
      { status: 200 },
    );
    c.check(() => assert.match(String(JSON.parse(byPath.body).markdown), /Upgrade/));
    const document = await c.call(
      'getPageDocumentInRevisionById',
      { method: 'GET', url: `${rev}/page/${pageId('Install')}/document?evaluated=true` },
      { status: 200 },
    );
    // The page's first heading is its title: left out of its document.
    c.check(() =>
      assert.deepEqual(
        JSON.parse(document.body).nodes[0].nodes[0].leaves[0].text,
        'About Install.',
      ),
    );
    // Its 404s (a group, a link, an unknown page) are in no spec: test/http/documents-route.test.ts.
    c.assertConforms();
  });

  test("GitBook's other reads of a space: meta links, a document by id, a revision's changes", async () => {
    const space = spaceUrl(spaceId);
    await c.call(
      'listSpacePageMetaLinks',
      { method: 'GET', url: `${space}/content/page/${pageId('Install')}/meta-links` },
      { status: 200 },
    );
    const document = await c.call(
      'getDocumentById',
      { method: 'GET', url: `${space}/documents/${pageId('Install')}?schema=current` },
      { status: 200 },
    );
    c.check(() => assert.equal(JSON.parse(document.body).object, 'document'));
    // The first merge created every page (with the change request it merged); the space's
    // first, empty revision changed nothing; `limit` leaves `more`.
    const created = await c.call(
      'getRevisionSemanticChanges',
      { method: 'GET', url: `${space}/revisions/${revision}/changes?limit=2` },
      { status: 200 },
    );
    c.check(() => {
      const body = JSON.parse(created.body);
      assert.deepEqual(
        body.changes.map((change: { type: string }) => change.type),
        ['page_created', 'page_created'],
      );
      assert.equal(body.more, 2);
      assert.equal(body.mergedFrom.object, 'change-request');
    });
    const { parents } = JSON.parse(
      (await t.request({ method: 'GET', url: `${space}/revisions/${revision}` })).body,
    ) as { parents: string[] };
    await c.call(
      'getRevisionSemanticChanges',
      { method: 'GET', url: `${space}/revisions/${parents[0]}/changes` },
      { status: 200 },
    );
    // Their 400s and 404s are in no spec: test/http/revision-reads.test.ts.
    c.assertConforms();
  });

  test('summary: every operation of the area judged, with its statuses', () => {
    console.log(c.report('revisions and pages'));
    assertCoverage(c, 'pages');
  });
});
