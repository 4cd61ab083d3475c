/**
 * The official client of GitBook 0.202 drives a round trip of the site-redirects operations
 * against a listening Livery (docs/sites.md, "Redirects"), asserting the values that come back,
 * with code typed against 0.202.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  failure0202,
  recordingClient,
  SiteRedirectOrderBy,
} from '../helpers/gitbook-0202.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';

let t: TestContext;
let api: Api0202;
let site: PublishedSite;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
  site = await publishedSite(t, 'client-moves');
});
after(async () => t.close());

describe('the official 0.202 client against Livery: site redirects', () => {
  test('create, bulk upsert and publish, list, resolve, update, delete; a loop refused', async () => {
    const [main] = site.siteSpaceIds as [string];
    const { data: made } = await api.orgs.createSiteRedirect(t.orgId, site.siteId, {
      source: '/old/*',
      captureWildcard: true,
      destination: { kind: 'external', url: 'https://example.com/new' },
    });
    assert.equal(made.object, 'site-redirect');
    assert.equal(made.source, '/old/*');
    assert.equal(made.captureWildcard, true);
    assert.equal(made.draft, false);

    const { data: bulk } = await api.orgs.bulkUpsertSiteRedirects(t.orgId, site.siteId, {
      redirects: [
        {
          source: '/start',
          intent: 'draft',
          permanent: true,
          destination: { kind: 'site-page', siteSpaceId: main, pageId: site.tree.intro },
        },
        { source: '/start', intent: 'publish' },
        { source: '/gone', destination: null },
      ],
    });
    assert.deepEqual(
      bulk.results.map((r) => [r.status, r.source, r.draft]),
      [
        ['created', '/start', true],
        ['published', '/start', false],
        ['deleted', '/gone', false],
      ],
    );

    const { data: listed } = await api.orgs.listSiteRedirects(t.orgId, site.siteId, {
      orderBy: SiteRedirectOrderBy.Source,
    });
    assert.deepEqual(
      listed.items.map((r) => [r.source, r.permanent]),
      [
        ['/old/*', false],
        ['/start', true],
      ],
    );

    const { data: resolved } = await api.orgs.getSiteRedirectBySource(t.orgId, site.siteId, {
      source: '/old/a/b',
    });
    assert.equal(resolved.redirect.id, made.id);
    assert.equal(resolved.target, 'https://example.com/new/a/b');

    const { data: updated } = await api.orgs.updateSiteRedirectById(t.orgId, site.siteId, made.id, {
      permanent: true,
    });
    assert.equal(updated.permanent, true);
    assert.ok(updated.updatedAt);

    const own = (path: string) => `http://livery.test/s/client-moves${path}`;
    await api.orgs.createSiteRedirect(t.orgId, site.siteId, {
      source: '/loop-a',
      destination: { kind: 'external', url: own('/loop-b') },
    });
    const loop = await failure0202(
      api.orgs.createSiteRedirect(t.orgId, site.siteId, {
        source: '/loop-b',
        destination: { kind: 'external', url: own('/loop-a') },
      }),
    );
    assert.equal(loop.code, 400);
    assert.match(loop.message, /body\.destination: makes a redirect loop/);

    const deleted = await api.orgs.deleteSiteRedirectById(t.orgId, site.siteId, made.id);
    assert.equal(deleted.status, 205);
    const again = await api.orgs.deleteSiteRedirectById(t.orgId, site.siteId, made.id);
    assert.equal(again.status, 204);
  });
});
