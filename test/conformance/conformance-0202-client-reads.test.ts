/**
 * The official client of GitBook 0.202 drives GitBook's other reads (issue 30, item 8) against a
 * listening Livery, with code typed against 0.202: a page's meta links in the space's current
 * revision, a document by its id, what a revision changed, a site's publishing preview.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  failure0202,
  type GitBook0202,
  recordingClient,
} from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

/** A page's `documentId` (0.130's field, which Livery still sends; its page id). */
const documentIdOf = (page: object) => (page as { documentId: string }).documentId;

/** The page changes as `type id`. */
const pageChanges = (changes: GitBook0202.RevisionSemanticChange[]) =>
  changes.map((change) => `${change.type} ${'page' in change ? change.page.id : '?'}`);

describe("the official 0.202 client against Livery: a space's other reads", () => {
  test('meta links, documents by id and semantic changes', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Reads' });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Pages' });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', title: 'Intro', slug: 'intro', document: { markdown: 'Hi.' } },
        { operation: 'insert_page', title: 'Usage', slug: 'usage', document: { markdown: 'Go.' } },
      ],
    });
    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    const { data: tree } = await api.spaces.listPages(space.id);
    const [intro, usage] = tree.pages as GitBook0202.RevisionPageDocument[];
    assert.ok(intro && usage);

    const { data: links } = await api.spaces.listSpacePageMetaLinks(space.id, intro.id);
    assert.deepEqual(links, { alternates: [] });

    const { data: document } = await api.spaces.getDocumentById(space.id, documentIdOf(intro), {
      schema: 'current' as never,
    });
    assert.equal(document.object, 'document');
    assert.match(JSON.stringify(document), /Hi\./);
    const missing = await failure0202(api.spaces.getDocumentById(space.id, 'nothing'));
    assert.equal(missing.code, 404);

    const { data: created } = await api.spaces.getRevisionSemanticChanges(
      space.id,
      merged.revision,
    );
    assert.deepEqual(pageChanges(created.changes), [
      `page_created ${intro.id}`,
      `page_created ${usage.id}`,
    ]);
    assert.equal(created.mergedFrom?.id, cr.id);

    const { data: next } = await api.spaces.createChangeRequest(space.id, { subject: 'Rename' });
    await api.spaces.updateChangeRequestContent(space.id, next.id, {
      changes: [
        { operation: 'update_page', page: usage.id, title: 'Using it' },
        { operation: 'update_page', page: intro.id, into: usage.id },
      ],
    });
    const { data: second } = await api.spaces.mergeChangeRequest(space.id, next.id);
    const { data: changed } = await api.spaces.getRevisionSemanticChanges(
      space.id,
      second.revision,
      { limit: 1 },
    );
    assert.deepEqual(pageChanges(changed.changes), [`page_edited ${usage.id}`]);
    assert.equal(changed.more, 1);
    const [edit] = changed.changes;
    assert.ok(edit?.type === 'page_edited');
    assert.deepEqual(edit.attributes, { title: { before: 'Usage', after: 'Using it' } });
    const bad = await failure0202(
      api.spaces.getRevisionSemanticChanges(space.id, second.revision, { limit: 0 }),
    );
    assert.equal(bad.code, 400);
    assert.match(bad.message, /querystring\.limit/);
  });

  test("a site's publishing preview: a URL that opens the unpublished site", async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Previewed' });
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Previewed',
      spaces: [space.id],
    });
    const { data: preview } = await api.orgs.getSitePublishingPreviewById(t.orgId, site.id, {
      draft: true,
    });
    const url = new URL(preview.url);
    assert.match(url.searchParams.get('preview') ?? '', /^[0-9]+\.[A-Za-z0-9_-]{43}$/);
    const opened = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    assert.equal(opened.statusCode, 302, opened.body);
    const refused = await failure0202(
      api.orgs.getSitePublishingPreviewById(t.orgId, site.id, {
        target: 'https://elsewhere.test/',
      }),
    );
    assert.equal(refused.code, 400);
    assert.match(refused.message, /querystring\.target/);
  });
});
