import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  CustomizationLocale,
  clientFailure,
  GitBookAPI,
  type GitBookClient,
  listenWithClient,
} from '../helpers/gitbook.js';

/**
 * Every operation of the core issue driven through the official client `@gitbook/api@0.130.0`
 * against a listening Livery: what a GitBook user's code does after changing only the endpoint.
 */
let t: TestContext;
let api: GitBookClient;
let endpoint: string;

before(async () => {
  t = await createTestApp();
  ({ api, endpoint } = await listenWithClient(t));
});
after(async () => t.close());

const failure = clientFailure;

describe('the official client against Livery', () => {
  test('every operation, field by field', async () => {
    const { data: user } = await api.user.getAuthenticatedUser();
    assert.equal(user.object, 'user');
    assert.equal(user.id, t.userId);
    assert.equal(user.displayName, 'Owner');

    const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 10 });
    assert.deepEqual(
      orgs.items.map((o) => o.id),
      [t.orgId],
    );
    const { data: org } = await api.orgs.getOrganizationById(t.orgId);
    assert.equal(org.title, 'Test organization');
    assert.equal(org.urls.location, `http://livery.test/v1/orgs/${t.orgId}`);

    const created = await api.orgs.createSpace(t.orgId, { title: 'English' });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('location'), created.data.urls.location);
    const { data: space } = await api.spaces.getSpaceById(created.data.id);
    assert.deepEqual(space, created.data);
    const { data: german } = await api.orgs.createSpace(t.orgId, { title: 'Deutsch' });

    // createSite with no body: the client sends Content-Type: application/json and nothing else.
    const createWithoutBody = api.orgs.createSite as (
      org: string,
    ) => ReturnType<typeof api.orgs.createSite>;
    const { data: bare } = await createWithoutBody(t.orgId);
    assert.equal(bare.title, 'Untitled site');
    const siteResponse = await api.orgs.createSite(t.orgId, { title: 'Docs', spaces: [space.id] });
    assert.equal(siteResponse.status, 201);
    const site = siteResponse.data;
    assert.equal(site.siteSpaces, 1);
    assert.deepEqual((await api.orgs.getSiteById(t.orgId, site.id)).data, site);
    const { data: sites } = await api.orgs.listSites(t.orgId, { limit: 1 });
    assert.equal(sites.items.length, 1);
    assert.ok(sites.next?.page);
    const { data: rest } = await api.orgs.listSites(t.orgId, { page: sites.next?.page });
    assert.deepEqual(
      [...sites.items, ...rest.items].map((s) => s.id).sort(),
      [bare.id, site.id].sort(),
    );

    const added = await api.orgs.addSpaceToSite(t.orgId, site.id, { spaceId: german.id });
    assert.equal(added.status, 201);
    assert.equal(added.data.space.id, german.id);
    assert.equal(added.data.default, false);
    const { data: variants } = await api.orgs.listSiteSpaces(t.orgId, site.id, { default: false });
    assert.deepEqual(
      variants.items.map((s) => s.id),
      [added.data.id],
    );

    const { data: defaults } = await api.orgs.getSiteCustomizationById(t.orgId, site.id);
    assert.deepEqual({ ...defaults }, DEFAULT_SETTINGS); // (a copy: deepEqual narrows its argument)
    // The client's SiteCustomizationSettings type requires the 0.130 fields; the read object has them.
    const { data: stored } = await api.orgs.updateSiteCustomizationById(t.orgId, site.id, {
      ...defaults,
      title: 'Livery docs',
      styling: { ...defaults.styling, primaryColor: { light: '#123456', dark: '#abcdef' } },
    });
    assert.equal(stored.title, 'Livery docs');
    assert.deepEqual(stored.styling.primaryColor, { light: '#123456', dark: '#abcdef' });

    const { data: effective } = await api.orgs.overrideSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      added.data.id,
      {
        title: 'Deutsche Doku',
        internationalization: { locale: CustomizationLocale.De },
        favicon: { emoji: '🇩🇪' },
      },
    );
    assert.equal(effective.title, 'Deutsche Doku');
    assert.equal(effective.internationalization.locale, 'de');
    assert.deepEqual(effective.favicon, { emoji: '🇩🇪' });
    assert.deepEqual(
      effective.styling.primaryColor,
      stored.styling.primaryColor,
      'site value kept',
    );
    const { data: read } = await api.orgs.getSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      added.data.id,
      {
        unmasked: true,
      },
    );
    assert.deepEqual(read, effective);

    const untitled = await api.orgs.overrideSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      added.data.id,
      {
        title: null,
      },
    );
    assert.equal(untitled.data.title, undefined);

    const removed = await api.orgs.deleteSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      added.data.id,
    );
    assert.equal(removed.status, 205);
    const again = await api.orgs.deleteSiteSpaceCustomizationById(t.orgId, site.id, added.data.id);
    assert.equal(again.status, 204);
    const { data: back } = await api.orgs.getSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      added.data.id,
    );
    assert.deepEqual(back, stored);
  });

  test("GitBookAPIError carries Livery's status and message", async () => {
    const { data: site } = await api.orgs.createSite(t.orgId, { spaces: 'empty' });
    const { data: list } = await api.orgs.listSiteSpaces(t.orgId, site.id);
    const siteSpaceId = list.items[0]?.id ?? '';

    const invalid = await failure(
      api.orgs.overrideSiteSpaceCustomizationById(t.orgId, site.id, siteSpaceId, {
        styling: { primaryColor: { light: 'blue', dark: '#000' } },
      }),
    );
    assert.equal(invalid.code, 400);
    assert.match(invalid.errorMessage, /^body\.styling\.primaryColor\.light must be a hex color/);

    const missing = await failure(api.orgs.getSiteById(t.orgId, 'site_nope'));
    assert.equal(missing.code, 404);
    assert.equal(missing.errorMessage, 'No site found with id "site_nope"');

    const stranger = new GitBookAPI({ authToken: 'gb_not-a-token-of-this-server', endpoint });
    const unauthorized = await failure(stranger.user.getAuthenticatedUser());
    assert.equal(unauthorized.code, 401);
    assert.match(unauthorized.errorMessage, /unknown, expired or has been revoked/);
  });
});
