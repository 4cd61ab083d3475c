/**
 * The official client of GitBook 0.202 (`gitbook-api-0202`) against a listening Livery: a space's
 * and an organization's search (searchSpaceContent, searchOrganizationContent, paginated with the
 * client's own `page`), and URL resolution (getPublishedContentByUrl, getContentByUrl) of the
 * URLs those results and the published site give (docs/search.md, docs/api.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';
import { publishChanges } from '../helpers/insights.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

describe('the official 0.202 client against Livery: search and URL resolution', () => {
  test('searchSpaceContent, searchOrganizationContent, getContentByUrl, getPublishedContentByUrl', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Client handbook' });
    await publishChanges(t, space.id, [
      {
        operation: 'insert_page',
        title: 'Install',
        document: { markdown: 'Install it.\n\n## Upgrade\n\nInstall again.' },
      },
      { operation: 'insert_page', title: 'Usage', document: { markdown: 'After the install.' } },
    ]);

    // The space's live content, before any site publishes it.
    const { data: first } = await api.spaces.searchSpaceContent(space.id, {
      query: 'install',
      limit: 1,
    });
    assert.equal(first.count, 2);
    assert.deepEqual(
      first.items.map((p) => [p.rank, p.title, p.path]),
      [[1, 'Install', 'install']],
    );
    const { data: second } = await api.spaces.searchSpaceContent(space.id, {
      query: 'install',
      limit: 1,
      page: first.next?.page ?? '',
    });
    assert.deepEqual(
      second.items.map((p) => [p.rank, p.title]),
      [[2, 'Usage']],
    );
    assert.equal(second.next, undefined);

    const { data: org } = await api.orgs.searchOrganizationContent(t.orgId, { query: 'upgrade' });
    assert.deepEqual(
      org.items.map((s) => [s.type, s.id, s.title, s.pages.map((p) => p.sections?.[0]?.path)]),
      [['space', space.id, 'Client handbook', ['install#upgrade']]],
    );

    // A result's urls.app names its page.
    const app = first.items[0]?.urls.app ?? '';
    const { data: named } = await api.urls.getContentByUrl({ url: app });
    assert.ok('space' in named);
    assert.equal(named.space.id, space.id);
    assert.equal(named.page?.title, 'Install');

    // Published, its page's URL resolves both ways.
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Client docs',
      spaces: [space.id],
    });
    await api.orgs.publishSite(t.orgId, site.id);
    const address = (await api.orgs.getSiteById(t.orgId, site.id)).data.urls.published ?? '';
    const published = `${address}/install`;
    const { data: lookup } = await api.urls.getPublishedContentByUrl({ url: published });
    assert.ok('space' in lookup);
    assert.deepEqual([lookup.space, lookup.site, lookup.pathname], [space.id, site.id, 'install']);
    const { data: fromSite } = await api.urls.getContentByUrl({ url: published });
    assert.ok('space' in fromSite);
    assert.equal(fromSite.page?.id, named.page?.id);

    // Refusals come back as the client's errors, in GitBook's envelope.
    const blank = await failure0202(api.spaces.searchSpaceContent(space.id, { query: ' ' }));
    assert.equal(blank.code, 400);
    assert.match(blank.message, /querystring\.query/);
    const nowhere = await failure0202(
      api.urls.getContentByUrl({ url: 'https://example.com/nothing' }),
    );
    assert.equal(nowhere.code, 404);
    const gone = await failure0202(api.urls.getPublishedContentByUrl({ url: `${address}-nope` }));
    assert.equal(gone.code, 404);
  });
});
