/**
 * The official client of GitBook 0.202 (`gitbook-api-0202`) drives a round trip of every in-scope
 * site, site-space, share-link and visitor-auth operation against a listening Livery, asserting
 * the values that come back, with code typed against 0.202 (issue 14, part 5). The other areas:
 * test/conformance-0202-client-{customization,org,content}.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  CLIENT_ROUND_TRIPS,
  failure0202,
  type GitBook0202,
  MemberRole,
  recordingClient,
} from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;
let called: Set<string>;

before(async () => {
  t = await createTestApp();
  ({ api, called } = await recordingClient(t));
});
after(async () => t.close());

async function newSite(
  title: string,
): Promise<{ site: GitBook0202.Site; space: GitBook0202.Space }> {
  const { data: space } = await api.orgs.createSpace(t.orgId, { title });
  const { data: site } = await api.orgs.createSite(t.orgId, { title, spaces: [space.id] });
  return { site, space };
}

describe('the official 0.202 client against Livery: sites', () => {
  test('createSite, getSiteById, listSites, updateSiteById, publishSite, unpublishSite, deleteSiteById', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Product' });
    const created = await api.orgs.createSite(t.orgId, {
      title: 'Product docs',
      spaces: [space.id],
    });
    assert.equal(created.status, 201);
    const site = created.data;
    assert.equal(site.object, 'site');
    assert.equal(site.title, 'Product docs');
    assert.equal(site.siteSpaces, 1);
    assert.equal(site.published, false);
    assert.equal(site.permissions.admin, true, 'the owner administers the site');
    assert.equal(site.permissions.view, true);
    assert.equal(site.appliedType, site.type);
    assert.equal(site.defaultLevel, 'inherit');
    assert.match(site.urls.preview, /^https?:\/\//);
    assert.equal(site.urls.location, `http://livery.test/v1/orgs/${t.orgId}/sites/${site.id}`);
    assert.deepEqual((await api.orgs.getSiteById(t.orgId, site.id)).data, site);

    const { data: list } = await api.orgs.listSites(t.orgId, { space: space.id });
    assert.deepEqual(
      list.items.map((s) => [s.id, s.permissions.admin]),
      [[site.id, true]],
    );

    const { data: renamed } = await api.orgs.updateSiteById(t.orgId, site.id, {
      title: 'Renamed docs',
    });
    assert.equal(renamed.title, 'Renamed docs');
    assert.equal(renamed.permissions.admin, true);

    const published = await api.orgs.publishSite(t.orgId, site.id);
    assert.equal(published.status, 200);
    assert.ok('object' in published.data, 'a site, not a checkout session');
    assert.equal(published.data.published, true);
    const { data: unpublished } = await api.orgs.unpublishSite(t.orgId, site.id);
    assert.equal(unpublished.published, false);

    assert.equal((await api.orgs.deleteSiteById(t.orgId, site.id)).status, 205);
    assert.equal((await api.orgs.deleteSiteById(t.orgId, site.id)).status, 204);
    const gone = await failure0202(api.orgs.getSiteById(t.orgId, site.id));
    assert.equal(gone.code, 404);
  });

  test('addSpaceToSite, listSiteSpaces, updateSiteSpaceById, deleteSiteSpaceById', async () => {
    const { site, space } = await newSite('Variants');
    const { data: german } = await api.orgs.createSpace(t.orgId, { title: 'Deutsch' });
    const added = await api.orgs.addSpaceToSite(t.orgId, site.id, { spaceId: german.id });
    assert.equal(added.status, 201);
    const variant = added.data;
    assert.equal(variant.space.id, german.id);
    assert.equal(variant.default, false);
    assert.equal(variant.draft, false);
    assert.equal(variant.path, 'deutsch');

    const { data: all } = await api.orgs.listSiteSpaces(t.orgId, site.id);
    assert.deepEqual(
      all.items.map((s) => [s.space.id, s.default, s.draft]),
      [
        [space.id, true, false],
        [german.id, false, false],
      ],
    );
    const { data: defaults } = await api.orgs.listSiteSpaces(t.orgId, site.id, { default: true });
    assert.deepEqual(
      defaults.items.map((s) => s.space.id),
      [space.id],
    );

    const { data: moved } = await api.orgs.updateSiteSpaceById(t.orgId, site.id, variant.id, {
      path: 'de',
    });
    assert.equal(moved.path, 'de');
    assert.equal(moved.draft, false);

    assert.equal((await api.orgs.deleteSiteSpaceById(t.orgId, site.id, variant.id)).status, 205);
    assert.equal((await api.orgs.deleteSiteSpaceById(t.orgId, site.id, variant.id)).status, 204);
  });

  test('createSiteShareLink, listSiteShareLinks, updateSiteShareLinkById, deleteSiteShareLinkById', async () => {
    const { site } = await newSite('Shared');
    const created = await api.orgs.createSiteShareLink(t.orgId, site.id, { name: 'Reviewers' });
    assert.equal(created.status, 201);
    const link = created.data;
    assert.equal(link.object, 'share-link');
    assert.equal(link.name, 'Reviewers');
    assert.equal(link.active, true);
    const { data: links } = await api.orgs.listSiteShareLinks(t.orgId, site.id);
    assert.deepEqual(
      links.items.map((l) => [l.id, l.name]),
      [[link.id, 'Reviewers']],
    );
    const { data: paused } = await api.orgs.updateSiteShareLinkById(t.orgId, site.id, link.id, {
      active: false,
    });
    assert.equal(paused.active, false);
    assert.equal(paused.name, 'Reviewers');
    assert.equal((await api.orgs.deleteSiteShareLinkById(t.orgId, site.id, link.id)).status, 205);
    assert.equal((await api.orgs.deleteSiteShareLinkById(t.orgId, site.id, link.id)).status, 204);
  });

  test('getSitePublishingAuthById, updateSitePublishingAuthById, regenerateSitePublishingAuthById', async () => {
    const { site } = await newSite('Private');
    const { data: auth } = await api.orgs.getSitePublishingAuthById(t.orgId, site.id);
    assert.equal(auth.object, 'publishing-auth');
    assert.equal(auth.backend, 'custom');
    const { data: updated } = await api.orgs.updateSitePublishingAuthById(t.orgId, site.id, {
      backend: 'custom',
      fallbackURL: 'https://example.com/login',
    });
    assert.equal(updated.fallbackURL, 'https://example.com/login');
    assert.equal(updated.privateKey, auth.privateKey);
    const { data: regenerated } = await api.orgs.regenerateSitePublishingAuthById(t.orgId, site.id);
    assert.notEqual(regenerated.privateKey, auth.privateKey);
    assert.equal(regenerated.fallbackURL, 'https://example.com/login');
  });

  test('what 0.202 adds to the inputs: the implemented fields, and what Livery is accepted', async () => {
    const { site, space } = await newSite('Inputs');
    // What is true of Livery is accepted and changes nothing.
    const { data: same } = await api.orgs.updateSiteById(t.orgId, site.id, {
      defaultLevel: 'inherit',
      adaptiveContent: { enabled: false },
      styleguide: null,
    });
    assert.equal(same.defaultLevel, 'inherit');
    assert.equal(same.title, 'Inputs');
    // Anything else is a 400 naming the field and what Livery lacks; nothing changes.
    const levelled = await failure0202(
      api.orgs.updateSiteById(t.orgId, site.id, { defaultLevel: MemberRole.Read, title: 'Nope' }),
    );
    assert.equal(levelled.code, 400);
    assert.match(levelled.message, /body\.defaultLevel: Livery has no access levels/);
    assert.equal((await api.orgs.getSiteById(t.orgId, site.id)).data.title, 'Inputs');

    // A new space made for the site, titled by the variant's own title; a variant of an existing
    // space with a title of its own, accepted as live with its space's own home page.
    const blank = await api.orgs.addSpaceToSite(t.orgId, site.id, {
      spaceId: null,
      title: 'Blank slate',
    });
    assert.equal(blank.status, 201);
    assert.equal(blank.data.title, 'Blank slate');
    assert.equal(blank.data.space.title, 'Blank slate');
    assert.notEqual(blank.data.space.id, space.id);
    assert.equal(blank.data.path, 'blank-slate');
    const { data: own } = await api.orgs.addSpaceToSite(t.orgId, site.id, {
      spaceId: space.id,
      title: 'Inputs, again',
      draft: false,
      pageId: null,
    });
    assert.equal(own.title, 'Inputs, again');
    assert.equal(own.space.title, 'Inputs');
    assert.equal(own.draft, false);
    assert.equal(own.hidden, false);
    // Drafts exist since sections (issue 29): a draft variant, never the default.
    const { data: draft } = await api.orgs.addSpaceToSite(t.orgId, site.id, {
      spaceId: space.id,
      draft: true,
    });
    assert.equal(draft.draft, true);
    assert.equal(draft.default, false);

    // hidden: stored and answered in every form; false shows the variant again.
    const { data: hidden } = await api.orgs.updateSiteSpaceById(t.orgId, site.id, own.id, {
      hidden: true,
      draft: false,
      pageId: null,
    });
    assert.equal(hidden.hidden, true);
    const { data: listed } = await api.orgs.listSiteSpaces(t.orgId, site.id);
    assert.deepEqual(
      listed.items.map((v) => [v.title, v.hidden]),
      [
        ['Inputs', false],
        ['Blank slate', false],
        ['Inputs, again', true],
        ['Inputs', false],
      ],
    );
    const { data: shown } = await api.orgs.updateSiteSpaceById(t.orgId, site.id, own.id, {
      hidden: false,
    });
    assert.equal(shown.hidden, false);

    // logoutURL: stored and answered; null removes it, leaving it out keeps it.
    const { data: auth } = await api.orgs.updateSitePublishingAuthById(t.orgId, site.id, {
      backend: 'custom',
      logoutURL: 'https://example.com/logout',
    });
    assert.equal(auth.logoutURL, 'https://example.com/logout');
    const { data: kept } = await api.orgs.updateSitePublishingAuthById(t.orgId, site.id, {
      backend: 'custom',
      fallbackURL: 'https://example.com/login',
    });
    assert.equal(kept.logoutURL, 'https://example.com/logout');
    assert.equal(
      (await api.orgs.getSitePublishingAuthById(t.orgId, site.id)).data.logoutURL,
      'https://example.com/logout',
    );
    const { data: unset } = await api.orgs.updateSitePublishingAuthById(t.orgId, site.id, {
      backend: 'custom',
      logoutURL: null,
    });
    assert.equal(unset.logoutURL, undefined);
  });

  test('getPublishedContentSite through the client, as the renderer reads it: compressed on the wire, the same JSON', async () => {
    const { site } = await newSite('Renderer read');
    await api.orgs.publishSite(t.orgId, site.id);
    const read = await api.orgs.getPublishedContentSite(t.orgId, site.id);
    assert.equal(read.status, 200);
    // Node's fetch asks for gzip (and br from Node 22): the view is kept compressed, the client
    // decodes it.
    const coding = String(read.headers.get('content-encoding'));
    assert.match(coding, /^(gzip|br)$/);
    assert.match(String(read.headers.get('etag')), new RegExp(`^"[\\w-]{22}-${coding}"$`));
    assert.equal(read.data.object, 'published-content-site');
    assert.equal(read.data.site.id, site.id);
    const again = await api.orgs.getPublishedContentSite(t.orgId, site.id);
    assert.deepEqual(again.data, read.data);
  });

  test('every in-scope site operation went through the 0.202 client', () => {
    const missing = CLIENT_ROUND_TRIPS.sites.filter((id) => !called.has(id));
    assert.deepEqual(missing, []);
  });
});
