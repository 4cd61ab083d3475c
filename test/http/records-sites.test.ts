/**
 * GitBook 0.202's fields of sites, site-spaces and spaces over HTTP (docs/api.md, "Records:
 * GitBook 0.202's fields"): permissions from the caller's role, a space's language from the
 * locale of the variants showing it, and the "none" values of what Livery does not have.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OrgRole } from '../../src/modules/access/permissions.js';
import { createSite, createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { applyChanges, client0202, doc, newSpace, openChangeRequest } from '../helpers/content.js';
import { listenWithClient } from '../helpers/gitbook.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Json = Record<string, unknown> & { items?: Json[] };
const get = async (url: string): Promise<Json> =>
  expectStatus(await t.request({ method: 'GET', url }), 200) as Json;

const NOTHING_LIVERY_LACKS = {
  installIntegration: false,
  viewAdaptiveSchema: false,
  editAdaptiveSchema: false,
};

describe('Site', () => {
  test('permissions follow the role that reads the site, and match what the role may do', async () => {
    const { siteId, base } = await createSite(t, 1);
    const expected: [OrgRole, Record<string, boolean>][] = [
      ['read', { view: true, access: true, edit: false, create: false, admin: false }],
      ['comment', { view: true, access: true, edit: false, create: false, admin: false }],
      ['edit', { view: true, access: true, edit: true, create: false, admin: false }],
      ['create', { view: true, access: true, edit: true, create: false, admin: false }],
      ['admin', { view: true, access: true, edit: true, create: true, admin: true }],
    ];
    for (const [role, flags] of expected) {
      const member = await memberWithRole(t, role);
      const site = expectStatus(await requestAs(t, member, { method: 'GET', url: base }), 200);
      assert.deepEqual(site.permissions, { ...flags, ...NOTHING_LIVERY_LACKS }, role);
      const listed = expectStatus(
        await requestAs(t, member, { method: 'GET', url: `/v1/orgs/${t.orgId}/sites` }),
        200,
      ) as Json;
      const inList = listed.items?.find((item) => item.id === siteId);
      assert.deepEqual(inList?.permissions, site.permissions, `${role}: the list says the same`);
      // admin: true exactly when the role may change the site.
      const patch = await requestAs(t, member, {
        method: 'PATCH',
        url: base,
        payload: { title: `Docs by ${role}` },
      });
      assert.equal(patch.statusCode, flags.admin ? 200 : 403, role);
    }
  });

  test('appliedType is the type; defaultLevel is inherit; urls.preview opens the site for a member, published or not', async () => {
    const space = await newSpace(t, 'Handbook');
    const cr = await openChangeRequest(t, space.id);
    await applyChanges(t, space.id, cr.id, [{ operation: 'insert_page', ...doc('Welcome') }]);
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`,
      }),
      200,
    );
    const created = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Premium docs', type: 'premium', spaces: [space.id] },
      }),
      201,
    );
    assert.equal(created.appliedType, 'premium');
    assert.equal(created.defaultLevel, 'inherit');
    const base = `/v1/orgs/${t.orgId}/sites/${String(created.id)}`;
    const renamed = expectStatus(
      await t.request({ method: 'PATCH', url: base, payload: { basename: 'handbook' } }),
      200,
    ) as { urls: Record<string, string> };
    assert.equal(renamed.urls.preview, 'http://livery.test/s/handbook');
    assert.equal(renamed.urls.published, undefined, 'not published');

    // The preview address answers a member's token while the site is unpublished, nobody else.
    const page = await t.request({ method: 'GET', url: '/s/handbook/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Welcome/);
    assert.equal((await t.app.inject({ method: 'GET', url: '/s/handbook/' })).statusCode, 404);

    const live = expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200) as {
      urls: Record<string, string>;
    };
    assert.equal(live.urls.preview, live.urls.published);
  });
});

describe('SiteSpace and Space', () => {
  test('site-spaces are never drafts; spaces inherit merge rules and install no integration', async () => {
    const { base, siteSpaceIds, spaceIds } = await createSite(t, 2);
    const listed = (await get(`${base}/site-spaces`)).items ?? [];
    assert.deepEqual(
      listed.map((item) => item.draft),
      [false, false],
    );
    const added = expectStatus(
      await t.request({
        method: 'POST',
        url: `${base}/site-spaces`,
        payload: { spaceId: spaceIds[0] },
      }),
      201,
    );
    assert.equal(added.draft, false);
    const changed = expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${base}/site-spaces/${siteSpaceIds[1]}`,
        payload: { path: 'second' },
      }),
      200,
    );
    assert.equal(changed.draft, false);

    const space = (await get(`/v1/spaces/${spaceIds[0]}`)) as {
      mergeRules: unknown;
      permissions: Record<string, boolean>;
    };
    assert.deepEqual(space.mergeRules, { type: 'inherit' });
    assert.equal(space.permissions.installIntegration, false);
  });

  test('Space.permissions follow the role, true exactly for what the role may do, false for what Livery lacks', async () => {
    const { spaceIds } = await createSite(t, 1);
    const url = `/v1/spaces/${spaceIds[0]}`;
    const lacking = {
      viewInviteLinks: false,
      comment: false,
      review: false,
      installIntegration: false,
    };
    const expected: [OrgRole, Record<string, boolean>][] = [
      ['read', { view: true, access: true, admin: false, edit: false, merge: false }],
      ['comment', { view: true, access: true, admin: false, edit: false, merge: false }],
      ['review', { view: true, access: true, admin: false, edit: false, merge: true }],
      ['edit', { view: true, access: true, admin: false, edit: true, merge: true }],
      ['admin', { view: true, access: true, admin: true, edit: true, merge: true }],
    ];
    for (const [role, flags] of expected) {
      const member = await memberWithRole(t, role);
      const space = expectStatus(await requestAs(t, member, { method: 'GET', url }), 200);
      // triggerGitSync: importing from Git needs what editing does (docs/git-sync.md).
      assert.deepEqual(
        space.permissions,
        { ...flags, triggerGitSync: flags.edit === true, ...lacking },
        role,
      );
      // edit: true exactly when the role may open a change request.
      const opened = await requestAs(t, member, {
        method: 'POST',
        url: `${url}/change-requests`,
        payload: {},
      });
      assert.equal(opened.statusCode, flags.edit ? 201 : 403, role);
    }
  });

  test("a site-space's space counts its change requests", async () => {
    const { base, spaceIds } = await createSite(t, 1);
    await openChangeRequest(t, spaceIds[0] as string);
    const [variant] = (await get(`${base}/site-spaces`)).items ?? [];
    const space = variant?.space as Record<string, number>;
    assert.equal(space.changeRequests, 1);
    assert.equal(space.changeRequestsOpen, 1);
  });
});

describe('Space.language', () => {
  test('is the locale of the variants showing the space, when they agree on one', async () => {
    const { base, siteSpaceIds, spaceIds } = await createSite(t, 2);
    const [first, second] = spaceIds as [string, string];
    const languageOf = async (spaceId: string) => (await get(`/v1/spaces/${spaceId}`)).language;

    const alone = await newSpace(t, 'Shown by no site');
    assert.equal(await languageOf(alone.id), undefined, 'no site shows it: no language');
    assert.equal(await languageOf(first), 'en', 'a site never customized: the default locale');

    // The second variant's override: German.
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${base}/site-spaces/${siteSpaceIds[1]}/customization`,
        payload: { internationalization: { locale: 'de' } },
      }),
      200,
    );
    assert.equal(await languageOf(first), 'en');
    assert.equal(await languageOf(second), 'de');

    // The site's own setting: French, for every variant without an override of its own.
    const settings = await get(`${base}/customization`);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${base}/customization`,
        payload: { ...settings, internationalization: { locale: 'fr' } },
      }),
      200,
    );
    assert.equal(await languageOf(first), 'fr');
    assert.equal(await languageOf(second), 'de');

    // Every form that shows the space says the same.
    const inOrg = (await get(`/v1/orgs/${t.orgId}/spaces?limit=1000`)).items ?? [];
    assert.deepEqual(
      [first, second, alone.id].map((id) => inOrg.find((s) => s.id === id)?.language),
      ['fr', 'de', undefined],
    );
    const variants = (await get(`${base}/site-spaces`)).items ?? [];
    assert.deepEqual(
      variants.map((v) => (v.space as Json).language),
      ['fr', 'de'],
    );
    const memberSpaces =
      (await get(`/v1/orgs/${t.orgId}/members/${t.userId}/spaces?limit=1000`)).items ?? [];
    const secondOfMember = memberSpaces.find((m) => (m.space as Json).id === second);
    assert.equal((secondOfMember?.space as Json | undefined)?.language, 'de');

    // Without its override, the second variant reads in the site's French.
    expectStatus(
      await t.request({
        method: 'DELETE',
        url: `${base}/site-spaces/${siteSpaceIds[1]}/customization`,
      }),
      205,
    );
    assert.equal(await languageOf(second), 'fr');

    // Shown by a second site in English too: two languages, so none.
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'English mirror', spaces: [first] },
      }),
      201,
    );
    assert.equal(await languageOf(first), undefined);
  });
});

describe("GitBook 0.202's official client", () => {
  test('reads site.permissions.admin and space.language as typed', async () => {
    const { siteId, base, siteSpaceIds, spaceIds } = await createSite(t, 1);
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${base}/site-spaces/${siteSpaceIds[0]}/customization`,
        payload: { internationalization: { locale: 'ja' } },
      }),
      200,
    );
    const { endpoint } = await listenWithClient(t);
    const api = client0202(t, endpoint);
    const { data: site } = await api.orgs.getSiteById(t.orgId, siteId);
    assert.equal(site.permissions.admin, true);
    assert.equal(site.appliedType, site.type);
    const { data: space } = await api.spaces.getSpaceById(spaceIds[0] as string);
    assert.equal(space.language, 'ja');
    assert.equal(space.mergeRules.type, 'inherit');
  });
});
