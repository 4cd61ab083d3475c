/**
 * The site lifecycle driven through the official client `@gitbook/api@0.130.0` against a
 * listening Livery (docs/sites.md), like test/conformance/conformance.test.ts does for the core operations.
 *
 * operationIds covered:
 *   listSites (filters space, title, published, type, limit), getSiteById, updateSiteById,
 *   publishSite, unpublishSite, deleteSiteById,
 *   listSiteSpaces (default true / false), updateSiteSpaceById, deleteSiteSpaceById,
 *   listSiteShareLinks, createSiteShareLink, updateSiteShareLinkById, deleteSiteShareLinkById,
 *   getSitePublishingAuthById, updateSitePublishingAuthById, regenerateSitePublishingAuthById,
 *   updateSpaceById (title, emoji);
 *   and, to set up: createSpace, createSite, addSpaceToSite, getSpaceById.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Site, SiteType } from '../../node_modules/@gitbook/api/dist/client.js';
import { signVisitorToken } from '../../src/modules/visitor-auth/jwt.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { clientFailure, type GitBookClient, listenWithClient } from '../helpers/gitbook.js';

let t: TestContext;
let api: GitBookClient;

before(async () => {
  t = await createTestApp();
  ({ api } = await listenWithClient(t));
});
after(async () => t.close());

const failure = clientFailure;

/** publishSite's declared answer also allows GitBook's Stripe checkout; Livery answers a Site. */
function asSite(data: Site | { type: 'checkout' }): Site {
  assert.equal((data as Site).object, 'site');
  return data as Site;
}

async function newSpace(title: string): Promise<string> {
  const { data } = await api.orgs.createSpace(t.orgId, { title });
  return data.id;
}

const sorted = (ids: string[]) => [...ids].sort();
const ids = (items: { id: string }[]) => sorted(items.map((item) => item.id));
const siteLocation = (siteId: string) => `http://livery.test/v1/orgs/${t.orgId}/sites/${siteId}`;

describe('the site lifecycle through the official client', () => {
  test('listSites filters: space, title, published, type (repeated keys), limit', async () => {
    const english = await newSpace('English');
    const alone = await newSpace('Alone');
    const premium = 'premium' as SiteType;
    const basic = 'basic' as SiteType;
    const { data: docs } = await api.orgs.createSite(t.orgId, {
      title: 'Filterable product docs',
      type: premium,
      spaces: [english],
    });
    const { data: handbook } = await api.orgs.createSite(t.orgId, {
      title: 'Filterable handbook',
      spaces: [alone],
    });
    const { data: ultimate } = await api.orgs.createSite(t.orgId, {
      title: 'Filterable ultimate',
      type: 'ultimate' as SiteType,
      spaces: [alone],
    });
    const all = [docs.id, handbook.id, ultimate.id];

    const bySpace = await api.orgs.listSites(t.orgId, { space: english });
    assert.equal(bySpace.status, 200);
    assert.deepEqual(ids(bySpace.data.items), [docs.id]);
    assert.equal(bySpace.data.count, 1);
    assert.deepEqual(
      ids((await api.orgs.listSites(t.orgId, { space: alone })).data.items),
      sorted([handbook.id, ultimate.id]),
    );

    // title: a case-insensitive substring.
    const byTitle = await api.orgs.listSites(t.orgId, { title: 'FILTERABLE' });
    assert.deepEqual(ids(byTitle.data.items), sorted(all));
    assert.equal(byTitle.data.count, 3);
    assert.deepEqual(ids((await api.orgs.listSites(t.orgId, { title: 'handbook' })).data.items), [
      handbook.id,
    ]);

    // type: one value, then two (the client sends `type=premium&type=ultimate`).
    assert.deepEqual(
      ids((await api.orgs.listSites(t.orgId, { title: 'Filterable', type: [premium] })).data.items),
      [docs.id],
    );
    assert.deepEqual(
      ids(
        (
          await api.orgs.listSites(t.orgId, {
            title: 'Filterable',
            type: [premium, 'ultimate' as SiteType],
          })
        ).data.items,
      ),
      sorted([docs.id, ultimate.id]),
    );
    assert.deepEqual(
      ids((await api.orgs.listSites(t.orgId, { title: 'Filterable', type: [basic] })).data.items),
      [handbook.id],
    );

    // published: none yet, then the one just published.
    const unpublished = await api.orgs.listSites(t.orgId, {
      title: 'Filterable',
      published: false,
    });
    assert.deepEqual(ids(unpublished.data.items), sorted(all));
    const none = await api.orgs.listSites(t.orgId, { title: 'Filterable', published: true });
    assert.deepEqual(none.data.items, []);
    assert.equal(none.data.count, 0);
    await api.orgs.publishSite(t.orgId, handbook.id);
    assert.deepEqual(
      ids((await api.orgs.listSites(t.orgId, { title: 'Filterable', published: true })).data.items),
      [handbook.id],
    );
    assert.deepEqual(
      ids(
        (await api.orgs.listSites(t.orgId, { title: 'Filterable', published: false })).data.items,
      ),
      sorted([docs.id, ultimate.id]),
    );

    // limit pages through the filtered list, in creation order.
    const first = await api.orgs.listSites(t.orgId, { title: 'Filterable', limit: 2 });
    assert.deepEqual(
      first.data.items.map((s) => s.id),
      [docs.id, handbook.id],
    );
    assert.equal(first.data.count, 3);
    const page = first.data.next?.page;
    assert.ok(page);
    const second = await api.orgs.listSites(t.orgId, { title: 'Filterable', limit: 2, page });
    assert.deepEqual(
      second.data.items.map((s) => s.id),
      [ultimate.id],
    );
    assert.equal(second.data.next, undefined);
  });

  test('getSiteById, updateSiteById, publishSite, unpublishSite', async () => {
    const english = await newSpace('English');
    const german = await newSpace('Deutsch');
    const created = await api.orgs.createSite(t.orgId, {
      title: 'Product docs',
      spaces: [english, german],
    });
    assert.equal(created.status, 201);
    const siteId = created.data.id;

    const got = await api.orgs.getSiteById(t.orgId, siteId);
    assert.equal(got.status, 200);
    const site = got.data;
    assert.equal(site.object, 'site');
    assert.equal(site.id, siteId);
    assert.equal(site.title, 'Product docs');
    assert.equal(site.type, 'basic');
    assert.equal(site.visibility, 'public');
    assert.equal(site.published, false);
    assert.equal(site.siteSpaces, 2);
    assert.equal(site.basename, undefined);
    assert.equal(site.proxy, undefined);
    // urls.preview (GitBook 0.202): where a member's token opens the site, published or not.
    assert.deepEqual(site.urls, {
      location: siteLocation(siteId),
      app: siteLocation(siteId),
      preview: `http://livery.test/s/${siteId}`,
    });

    const { data: variants } = await api.orgs.listSiteSpaces(t.orgId, siteId);
    const [englishVariant, germanVariant] = variants.items;
    assert.ok(englishVariant && germanVariant);
    assert.equal(englishVariant.default, true, 'the first site-space added is the default');
    assert.equal(germanVariant.default, false);

    // title, visibility, basename and defaultSiteSpace in one request.
    const updated = await api.orgs.updateSiteById(t.orgId, siteId, {
      title: 'Product documentation',
      visibility: 'unlisted' as Site['visibility'],
      basename: 'product',
      defaultSiteSpace: germanVariant.id,
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.data.title, 'Product documentation');
    assert.equal(updated.data.visibility, 'unlisted');
    assert.equal(updated.data.basename, 'product');
    assert.equal(updated.data.published, false);
    assert.equal(updated.data.urls.published, undefined);
    assert.deepEqual((await api.orgs.getSiteById(t.orgId, siteId)).data, updated.data);

    const defaults = await api.orgs.listSiteSpaces(t.orgId, siteId, { default: true });
    assert.deepEqual(
      defaults.data.items.map((s) => s.id),
      [germanVariant.id],
    );
    assert.equal(defaults.data.items[0]?.default, true);
    const others = await api.orgs.listSiteSpaces(t.orgId, siteId, { default: false });
    assert.deepEqual(
      others.data.items.map((s) => s.id),
      [englishVariant.id],
    );
    assert.equal(others.data.items[0]?.default, false);

    // Each of the four visibilities is accepted.
    for (const visibility of ['public', 'share-link', 'visitor-auth', 'unlisted']) {
      const { data } = await api.orgs.updateSiteById(t.orgId, siteId, {
        visibility: visibility as Site['visibility'],
      });
      assert.equal(data.visibility, visibility);
    }

    // proxy: a string, presented as {origin, target}; then null removes it.
    const proxied = await api.orgs.updateSiteById(t.orgId, siteId, { proxy: 'company.com/docs' });
    assert.deepEqual(proxied.data.proxy, {
      origin: 'company.com/docs',
      target: 'http://livery.test/s/product',
    });
    const unproxied = await api.orgs.updateSiteById(t.orgId, siteId, { proxy: null });
    assert.equal(unproxied.data.proxy, undefined);
    assert.equal((await api.orgs.getSiteById(t.orgId, siteId)).data.proxy, undefined);

    // publishSite: urls.published is PUBLIC_URL + basename; publishing again changes nothing.
    const published = await api.orgs.publishSite(t.orgId, siteId);
    assert.equal(published.status, 200);
    const live = asSite(published.data);
    assert.equal(live.published, true);
    assert.equal(live.urls.published, 'http://livery.test/s/product');
    assert.equal(live.urls.location, siteLocation(siteId));
    const again = asSite((await api.orgs.publishSite(t.orgId, siteId)).data);
    assert.deepEqual(again, live);

    // The default site-space is served at the site's root, the others at /<path>.
    const { data: liveVariants } = await api.orgs.listSiteSpaces(t.orgId, siteId);
    for (const variant of liveVariants.items) {
      assert.equal(
        variant.urls.published,
        variant.default
          ? 'http://livery.test/s/product'
          : `http://livery.test/s/product/${variant.path}`,
      );
    }

    // unpublishSite: urls.published disappears, from the site and its site-spaces; idempotent.
    const unpublished = await api.orgs.unpublishSite(t.orgId, siteId);
    assert.equal(unpublished.status, 200);
    assert.equal(unpublished.data.published, false);
    assert.equal(unpublished.data.urls.published, undefined);
    assert.equal('published' in unpublished.data.urls, false);
    const twice = await api.orgs.unpublishSite(t.orgId, siteId);
    assert.deepEqual(twice.data, unpublished.data);
    for (const variant of (await api.orgs.listSiteSpaces(t.orgId, siteId)).data.items) {
      assert.equal(variant.urls.published, undefined);
    }

    // Without a basename, the published URL ends with the site's id.
    const { data: plain } = await api.orgs.createSite(t.orgId, { spaces: [english] });
    const plainLive = asSite((await api.orgs.publishSite(t.orgId, plain.id)).data);
    assert.equal(plainLive.urls.published, `http://livery.test/s/${plain.id}`);

    // Every change of published and visibility is recorded, with who and when (not in the API).
    const history = await t.services.sites.history(siteId);
    assert.deepEqual(
      history.map((e) => [e.field, e.old_value, e.new_value]),
      [
        ['visibility', 'public', 'unlisted'],
        ['visibility', 'unlisted', 'public'],
        ['visibility', 'public', 'share-link'],
        ['visibility', 'share-link', 'visitor-auth'],
        ['visibility', 'visitor-auth', 'unlisted'],
        ['published', 'false', 'true'],
        ['published', 'true', 'false'],
      ],
    );
    for (const event of history) {
      assert.equal(event.actor_user_id, t.userId);
      assert.ok(!Number.isNaN(Date.parse(event.at)));
    }
  });

  test('updateSiteSpaceById and deleteSiteSpaceById', async () => {
    const english = await newSpace('English');
    const german = await newSpace('Deutsch');
    const french = await newSpace('Francais');
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Variants',
      spaces: [english, german],
    });
    const added = await api.orgs.addSpaceToSite(t.orgId, site.id, { spaceId: french });
    assert.equal(added.status, 201);
    const { data: list } = await api.orgs.listSiteSpaces(t.orgId, site.id);
    assert.deepEqual(
      list.items.map((s) => [s.path, s.default]),
      [
        ['english', true],
        ['deutsch', false],
        ['francais', false],
      ],
    );
    const [englishVariant, germanVariant, frenchVariant] = list.items;
    assert.ok(englishVariant && germanVariant && frenchVariant);
    const location = `${siteLocation(site.id)}/site-spaces/${germanVariant.id}`;

    // path; a condition is refused (Livery has no conditional site-spaces) and changes nothing.
    const refused = await failure(
      api.orgs.updateSiteSpaceById(t.orgId, site.id, germanVariant.id, {
        path: 'de',
        condition: 'visitor.claims.language == "de"',
      }),
    );
    assert.equal(refused.code, 400);
    assert.match(refused.message, /body\.condition: Livery has no conditional site-spaces/);
    const changed = await api.orgs.updateSiteSpaceById(t.orgId, site.id, germanVariant.id, {
      path: 'de',
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.data.object, 'site-space');
    assert.equal(changed.data.id, germanVariant.id);
    assert.equal(changed.data.path, 'de');
    assert.equal('condition' in changed.data, false);
    assert.equal(changed.data.default, false);
    assert.equal(changed.data.space.id, german);
    assert.equal(changed.data.title, 'Deutsch');
    assert.deepEqual(changed.data.urls, { location });

    // condition: null is what Livery is: accepted; the path stays.
    const unconditioned = await api.orgs.updateSiteSpaceById(t.orgId, site.id, germanVariant.id, {
      condition: null,
    });
    assert.equal('condition' in unconditioned.data, false);
    assert.equal(unconditioned.data.path, 'de');

    // spaceId: the site-space shows another space of the organization.
    const swapped = await api.orgs.updateSiteSpaceById(t.orgId, site.id, germanVariant.id, {
      spaceId: french,
    });
    assert.equal(swapped.data.space.id, french);
    assert.equal(swapped.data.title, 'Francais');
    assert.equal(swapped.data.path, 'de');
    const { data: reread } = await api.orgs.listSiteSpaces(t.orgId, site.id, { default: false });
    assert.deepEqual(
      reread.items.find((s) => s.id === germanVariant.id),
      swapped.data,
    );

    // Deleting the default makes the first remaining one (by position) the default.
    const deleted = await api.orgs.deleteSiteSpaceById(t.orgId, site.id, englishVariant.id);
    assert.equal(deleted.status, 205);
    const deletedAgain = await api.orgs.deleteSiteSpaceById(t.orgId, site.id, englishVariant.id);
    assert.equal(deletedAgain.status, 204);
    const { data: promoted } = await api.orgs.listSiteSpaces(t.orgId, site.id, { default: true });
    assert.deepEqual(
      promoted.items.map((s) => s.id),
      [germanVariant.id],
    );
    assert.equal((await api.orgs.getSiteById(t.orgId, site.id)).data.siteSpaces, 2);
    // The space itself remains.
    assert.equal((await api.spaces.getSpaceById(english)).data.id, english);
  });

  test('share links: create, list, update, delete', async () => {
    const space = await newSpace('Shared');
    const { data: site } = await api.orgs.createSite(t.orgId, { title: 'Shared', spaces: [space] });
    await api.orgs.updateSiteById(t.orgId, site.id, {
      basename: 'shared',
      visibility: 'share-link' as Site['visibility'],
    });

    const created = await api.orgs.createSiteShareLink(t.orgId, site.id, { name: 'Reviewers' });
    assert.equal(created.status, 201);
    const link = created.data;
    assert.equal(link.object, 'share-link');
    assert.match(link.id, /^[a-zA-Z0-9_-]+$/);
    assert.equal(link.name, 'Reviewers');
    assert.equal(link.active, true);
    assert.ok(!Number.isNaN(Date.parse(link.createdAt)));
    assert.equal(
      created.headers.get('location'),
      `${siteLocation(site.id)}/share-links/${link.id}`,
    );
    const published = link.urls.published ?? '';
    const match = /^http:\/\/livery\.test\/s\/shared\?share=([A-Za-z0-9_-]{32})$/.exec(published);
    assert.ok(match, `urls.published: ${published}`);
    const key = match[1] ?? '';
    assert.equal(await t.services.shareLinks.verify(site.id, key), true);

    // The key is never shown again: the list answers urls {}.
    const listed = await api.orgs.listSiteShareLinks(t.orgId, site.id);
    assert.equal(listed.status, 200);
    assert.equal(listed.data.count, 1);
    assert.deepEqual(listed.data.items, [{ ...link, urls: {} }]);

    const renamed = await api.orgs.updateSiteShareLinkById(t.orgId, site.id, link.id, {
      name: 'Former reviewers',
      active: false,
    });
    assert.equal(renamed.status, 200);
    assert.deepEqual(renamed.data, {
      ...link,
      name: 'Former reviewers',
      active: false,
      urls: {},
    });
    assert.equal(await t.services.shareLinks.verify(site.id, key), false, 'deactivated at once');
    const reactivated = await api.orgs.updateSiteShareLinkById(t.orgId, site.id, link.id, {
      active: true,
    });
    assert.equal(reactivated.data.active, true);
    assert.equal(reactivated.data.name, 'Former reviewers');
    assert.equal(await t.services.shareLinks.verify(site.id, key), true);

    const deleted = await api.orgs.deleteSiteShareLinkById(t.orgId, site.id, link.id);
    assert.equal(deleted.status, 205);
    const deletedAgain = await api.orgs.deleteSiteShareLinkById(t.orgId, site.id, link.id);
    assert.equal(deletedAgain.status, 204);
    assert.equal(await t.services.shareLinks.verify(site.id, key), false, 'deleted at once');
    const { data: empty } = await api.orgs.listSiteShareLinks(t.orgId, site.id);
    assert.deepEqual(empty.items, []);
    assert.equal(empty.count, 0);
  });

  test('visitor authentication: get, update, regenerate', async () => {
    const space = await newSpace('Private');
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Private',
      spaces: [space],
    });

    // Created on first read: backend custom, a 256-bit key; the same on the next read.
    const first = await api.orgs.getSitePublishingAuthById(t.orgId, site.id);
    assert.equal(first.status, 200);
    assert.equal(first.data.object, 'publishing-auth');
    assert.equal(first.data.backend, 'custom');
    assert.match(first.data.privateKey, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(first.data.fallbackURL, undefined);
    const key = first.data.privateKey;
    assert.deepEqual((await api.orgs.getSitePublishingAuthById(t.orgId, site.id)).data, first.data);

    const withFallback = await api.orgs.updateSitePublishingAuthById(t.orgId, site.id, {
      backend: 'custom',
      fallbackURL: 'https://example.com/login',
    });
    assert.equal(withFallback.status, 200);
    assert.deepEqual(withFallback.data, {
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: key,
      fallbackURL: 'https://example.com/login',
    });
    // fallbackURL absent: unchanged.
    const unchanged = await api.orgs.updateSitePublishingAuthById(t.orgId, site.id, {
      backend: 'custom',
    });
    assert.equal(unchanged.data.fallbackURL, 'https://example.com/login');
    // fallbackURL null: removed.
    const withoutFallback = await api.orgs.updateSitePublishingAuthById(t.orgId, site.id, {
      backend: 'custom',
      fallbackURL: null,
    });
    assert.deepEqual(withoutFallback.data, {
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: key,
    });

    // A token signed with the key verifies; after regenerate, only the new key's tokens do.
    const claims = { aud: site.id, exp: Math.floor(Date.now() / 1000) + 300 };
    const oldToken = signVisitorToken(claims, key);
    assert.equal((await t.services.publishingAuth.verify(site.id, oldToken)).aud, site.id);
    const regenerated = await api.orgs.regenerateSitePublishingAuthById(t.orgId, site.id);
    assert.equal(regenerated.status, 200);
    assert.equal(regenerated.data.object, 'publishing-auth');
    assert.equal(regenerated.data.backend, 'custom');
    assert.match(regenerated.data.privateKey, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(regenerated.data.privateKey, key);
    assert.deepEqual(
      (await api.orgs.getSitePublishingAuthById(t.orgId, site.id)).data,
      regenerated.data,
    );
    await assert.rejects(t.services.publishingAuth.verify(site.id, oldToken), {
      name: 'VisitorTokenError',
      reason: 'signature',
    });
    const newToken = signVisitorToken(claims, regenerated.data.privateKey);
    assert.equal((await t.services.publishingAuth.verify(site.id, newToken)).aud, site.id);

    // Livery has no integrations.
    const integration = await failure(
      api.orgs.updateSitePublishingAuthById(t.orgId, site.id, { backend: 'integration' }),
    );
    assert.equal(integration.code, 400);
    assert.match(integration.errorMessage, /no integrations/);
  });

  test('deleteSiteById removes the site and what belongs to it, not its spaces', async () => {
    const space = await newSpace('Kept');
    const { data: site } = await api.orgs.createSite(t.orgId, { title: 'Doomed', spaces: [space] });
    await api.orgs.updateSiteById(t.orgId, site.id, { visibility: 'unlisted' as never });
    await api.orgs.publishSite(t.orgId, site.id);
    await api.orgs.createSiteShareLink(t.orgId, site.id, { name: 'Link' });
    await api.orgs.getSitePublishingAuthById(t.orgId, site.id);

    const deleted = await api.orgs.deleteSiteById(t.orgId, site.id);
    assert.equal(deleted.status, 205);
    const deletedAgain = await api.orgs.deleteSiteById(t.orgId, site.id);
    assert.equal(deletedAgain.status, 204);

    const gone = await failure(api.orgs.getSiteById(t.orgId, site.id));
    assert.equal(gone.code, 404);
    assert.equal((await failure(api.orgs.listSiteShareLinks(t.orgId, site.id))).code, 404);
    assert.equal((await failure(api.orgs.listSiteSpaces(t.orgId, site.id))).code, 404);
    for (const table of [
      'site_spaces',
      'site_share_links',
      'site_publishing_auth',
      'site_events',
    ] as const) {
      const rows = await t.db
        .selectFrom(table)
        .select('site_id')
        .where('site_id', '=', site.id)
        .execute();
      assert.deepEqual(rows, [], `${table} rows of the deleted site`);
    }
    const { data: kept } = await api.spaces.getSpaceById(space);
    assert.equal(kept.id, space);
    assert.equal(kept.title, 'Kept');
  });

  test('updateSpaceById: title and emoji', async () => {
    const space = await newSpace('Before');
    const updated = await api.spaces.updateSpaceById(space, { title: 'After', emoji: '📘' });
    assert.equal(updated.status, 200);
    assert.equal(updated.data.object, 'space');
    assert.equal(updated.data.id, space);
    assert.equal(updated.data.title, 'After');
    assert.equal(updated.data.emoji, '📘');
    assert.equal(updated.data.visibility, 'private');
    assert.deepEqual((await api.spaces.getSpaceById(space)).data, updated.data);
    const cleared = await api.spaces.updateSpaceById(space, { emoji: null });
    assert.equal(cleared.data.emoji, '');
    assert.equal(cleared.data.title, 'After');
    // Not deprecated without visibility or published.
    assert.equal(cleared.headers.get('deprecation'), null);
  });

  test('errors surface as GitBookAPIError with the right status', async () => {
    const english = await newSpace('English');
    const german = await newSpace('Deutsch');
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Errors',
      spaces: [english, german],
    });

    const visibility = await failure(
      api.orgs.updateSiteById(t.orgId, site.id, { visibility: 'secret' as never }),
    );
    assert.equal(visibility.code, 400);
    assert.match(visibility.errorMessage, /visibility/);

    const { data: variants } = await api.orgs.listSiteSpaces(t.orgId, site.id);
    const [first, second] = variants.items;
    assert.ok(first && second);
    const taken = await failure(
      api.orgs.updateSiteSpaceById(t.orgId, site.id, second.id, { path: first.path }),
    );
    assert.equal(taken.code, 409);
    assert.match(taken.errorMessage, /already the path/);
    assert.equal(
      (await api.orgs.listSiteSpaces(t.orgId, site.id)).data.items[1]?.path,
      second.path,
      'nothing changed',
    );

    const unknownLink = await failure(
      api.orgs.updateSiteShareLinkById(t.orgId, site.id, 'shl_nope', { name: 'x' }),
    );
    assert.equal(unknownLink.code, 404);

    const { data: empty } = await api.orgs.createSite(t.orgId, { title: 'Nothing yet' });
    const unpublishable = await failure(api.orgs.publishSite(t.orgId, empty.id));
    assert.equal(unpublishable.code, 400);
    assert.match(unpublishable.errorMessage, /no site-space/);
    assert.equal((await api.orgs.getSiteById(t.orgId, empty.id)).data.published, false);

    // A basename is unique across the Livery instance.
    await api.orgs.updateSiteById(t.orgId, site.id, { basename: 'errors' });
    const basename = await failure(
      api.orgs.updateSiteById(t.orgId, empty.id, { basename: 'errors', title: 'Renamed' }),
    );
    assert.equal(basename.code, 409);
    assert.equal(
      (await api.orgs.getSiteById(t.orgId, empty.id)).data.title,
      'Nothing yet',
      'all or nothing',
    );
  });
});
