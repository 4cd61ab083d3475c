import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Static } from 'typebox';
import type { SiteSchema, SiteSpaceSchema } from '../../src/modules/sites/schemas.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';

/**
 * Sites and site-spaces, complete (issue 4 §1–2): getSiteById, updateSiteById, deleteSiteById,
 * publishSite, unpublishSite, updateSiteSpaceById, deleteSiteSpaceById, listSiteSpaces' default
 * filter; every failure changes nothing (read back), deletion leaves no row behind.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Site = Static<typeof SiteSchema>;
type SiteSpace = Static<typeof SiteSpaceSchema>;

const getSite = async (base: string) =>
  expectStatus(await t.request({ method: 'GET', url: base }), 200) as Site;
const patchSite = (base: string, payload: unknown) =>
  t.request({ method: 'PATCH', url: base, payload: payload as object });
const siteSpaces = async (base: string, query = '') =>
  (
    expectStatus(await t.request({ method: 'GET', url: `${base}/site-spaces${query}` }), 200) as {
      items: SiteSpace[];
      count: number;
    }
  ).items;

describe('getSiteById / updateSiteById', () => {
  test('GET answers the site; an unknown site or another organization’s site is a 404', async () => {
    const f = await createSite(t, 1);
    const site = await getSite(f.base);
    assert.equal(site.id, f.siteId);
    assert.equal(site.siteSpaces, 1);
    assert.equal(site.urls.published, undefined, 'not published yet');
    const message = expectError(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites/site_nope` }),
      404,
    );
    assert.match(message, /site_nope/);
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'O',
    });
    const foreign = await t.app.inject({
      method: 'GET',
      url: f.base,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expectError(foreign, 404);
  });

  test('PATCH changes title, visibility, basename, agentsContext, proxy (null removes it)', async () => {
    const f = await createSite(t, 1);
    const patched = expectStatus(
      await patchSite(f.base, {
        title: 'Renamed',
        visibility: 'unlisted',
        basename: 'renamed-docs',
        agentsContext: 'excluded',
        proxy: 'company.com/docs',
      }),
      200,
    ) as Site;
    assert.equal(patched.title, 'Renamed');
    assert.equal(patched.visibility, 'unlisted');
    assert.equal(patched.basename, 'renamed-docs');
    assert.equal(patched.agentsContext, 'excluded');
    assert.deepEqual(patched.proxy, {
      origin: 'company.com/docs',
      target: 'http://livery.test/s/renamed-docs',
    });
    assert.deepEqual(await getSite(f.base), patched, 'stored');
    const removed = expectStatus(await patchSite(f.base, { proxy: null }), 200) as Site;
    assert.equal(removed.proxy, undefined);
    assert.equal(removed.title, 'Renamed', 'absent fields are unchanged');
    const empty = expectStatus(await patchSite(f.base, {}), 200) as Site;
    assert.deepEqual(empty, removed, 'an empty PATCH changes nothing');
  });

  test('each visibility value is accepted and recorded with who and when', async () => {
    const f = await createSite(t, 1);
    for (const visibility of ['share-link', 'visitor-auth', 'public', 'unlisted']) {
      const site = expectStatus(await patchSite(f.base, { visibility }), 200) as Site;
      assert.equal(site.visibility, visibility);
    }
    expectStatus(await patchSite(f.base, { visibility: 'unlisted' }), 200); // no change: no record
    const history = await t.services.sites.history(f.siteId);
    assert.deepEqual(
      history.map((e) => [e.field, e.old_value, e.new_value, e.actor_user_id]),
      [
        ['visibility', 'public', 'share-link', t.userId],
        ['visibility', 'share-link', 'visitor-auth', t.userId],
        ['visibility', 'visitor-auth', 'public', t.userId],
        ['visibility', 'public', 'unlisted', t.userId],
      ],
    );
    for (const event of history) assert.ok(!Number.isNaN(Date.parse(event.at)));
  });

  test('bad input: 400 naming the field, and nothing changes', async () => {
    const f = await createSite(t, 2);
    expectStatus(await patchSite(f.base, { title: 'Before', basename: 'before' }), 200);
    const before = await getSite(f.base);
    const cases: [unknown, RegExp][] = [
      [{ visibility: 'secret' }, /body\.visibility/],
      [{ visibility: 'public', title: 'x' }, /body\.title/],
      [{ title: 'ok title', basename: 'has/slash' }, /body\.basename/],
      [{ basename: 'site_abc' }, /body\.basename/],
      [{ basename: '' }, /body\.basename/],
      [{ proxy: 'not a proxy' }, /body\.proxy/],
      [{ proxy: 42 }, /body\.proxy/],
      [{ published: true }, /published/],
      [{ adaptiveContent: { enabled: true } }, /adaptiveContent/],
      [{ title: 'Fine title', defaultSiteSpace: 'sitesp_unknown' }, /body\.defaultSiteSpace/],
      [{ agentsContext: 'maybe' }, /body\.agentsContext/],
    ];
    for (const [payload, message] of cases) {
      const response = await patchSite(f.base, payload);
      assert.match(expectError(response, 400), message, JSON.stringify(payload));
      assert.deepEqual(await getSite(f.base), before, `unchanged after ${JSON.stringify(payload)}`);
    }
    assert.equal((await t.services.sites.history(f.siteId)).length, 0);
  });

  test('a basename is one site’s: another site asking for it gets a 409 and changes nothing', async () => {
    const a = await createSite(t, 1);
    const b = await createSite(t, 1);
    expectStatus(await patchSite(a.base, { basename: 'taken' }), 200);
    const before = await getSite(b.base);
    const message = expectError(
      await patchSite(b.base, { basename: 'taken', title: 'Changed' }),
      409,
    );
    assert.match(message, /basename/);
    assert.deepEqual(await getSite(b.base), before);
    expectStatus(await patchSite(a.base, { basename: 'taken' }), 200); // its own: fine
  });

  test('defaultSiteSpace moves the default; exactly one site-space is the default', async () => {
    const f = await createSite(t, 3);
    const [first, second] = f.siteSpaceIds;
    assert.ok(first !== undefined && second !== undefined);
    assert.deepEqual(
      (await siteSpaces(f.base, '?default=true')).map((s) => s.id),
      [first],
    );
    expectStatus(await patchSite(f.base, { defaultSiteSpace: second }), 200);
    const all = await siteSpaces(f.base);
    assert.deepEqual(
      all.filter((s) => s.default).map((s) => s.id),
      [second],
    );
    assert.deepEqual(
      (await siteSpaces(f.base, '?default=false')).map((s) => s.id),
      f.siteSpaceIds.filter((id) => id !== second),
    );
    // A site-space of another site is not this site's.
    const other = await createSite(t, 1);
    const message = expectError(
      await patchSite(f.base, { defaultSiteSpace: other.siteSpaceIds[0] }),
      400,
    );
    assert.match(message, /body\.defaultSiteSpace/);
    assert.deepEqual(
      (await siteSpaces(f.base, '?default=true')).map((s) => s.id),
      [second],
    );
  });
});

describe('publishSite / unpublishSite', () => {
  test('publish: published, urls.published from PUBLIC_URL + basename or id; idempotent', async () => {
    const f = await createSite(t, 2);
    const site = expectStatus(
      await t.request({ method: 'POST', url: `${f.base}/publish` }),
      200,
    ) as Site;
    assert.equal(site.published, true);
    assert.equal(site.urls.published, `http://livery.test/s/${f.siteId}`);
    const again = expectStatus(
      await t.request({ method: 'POST', url: `${f.base}/publish` }),
      200,
    ) as Site;
    assert.deepEqual(again, site);
    const named = expectStatus(await patchSite(f.base, { basename: 'guide' }), 200) as Site;
    assert.equal(named.urls.published, 'http://livery.test/s/guide');

    const variants = await siteSpaces(f.base);
    assert.deepEqual(
      variants.map((v) => v.urls.published),
      variants.map((v) =>
        v.default ? 'http://livery.test/s/guide' : `http://livery.test/s/guide/${v.path}`,
      ),
    );

    const list = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites?published=true` }),
      200,
    ) as { items: Site[] };
    assert.ok(list.items.some((s) => s.id === f.siteId));

    const down = expectStatus(
      await t.request({ method: 'POST', url: `${f.base}/unpublish` }),
      200,
    ) as Site;
    assert.equal(down.published, false);
    assert.equal(down.urls.published, undefined);
    assert.equal((await siteSpaces(f.base))[0]?.urls.published, undefined);
    expectStatus(await t.request({ method: 'POST', url: `${f.base}/unpublish` }), 200);

    const history = await t.services.sites.history(f.siteId);
    assert.deepEqual(
      history.map((e) => [e.field, e.new_value, e.actor_user_id]),
      [
        ['published', 'true', t.userId],
        ['published', 'false', t.userId],
      ],
      'one record per change, none for the idempotent repeats',
    );
  });

  test('PUBLIC_URL sets the published address', async () => {
    const other = await createTestApp({ PUBLIC_URL: 'https://docs.example.com/' });
    try {
      const f = await createSite(other, 1);
      const site = expectStatus(
        await other.request({ method: 'POST', url: `${f.base}/publish` }),
        200,
      ) as Site;
      assert.equal(site.urls.published, `https://docs.example.com/${f.siteId}`);
    } finally {
      await other.close();
    }
  });

  test('a site without site-space cannot be published: 400 saying why, nothing changes', async () => {
    const created = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Empty' },
      }),
      201,
    ) as Site;
    const base = `/v1/orgs/${t.orgId}/sites/${created.id}`;
    const message = expectError(await t.request({ method: 'POST', url: `${base}/publish` }), 400);
    assert.match(message, /no site-space/);
    assert.equal((await getSite(base)).published, false);
    expectError(
      await t.request({ method: 'POST', url: `/v1/orgs/${t.orgId}/sites/site_nope/publish` }),
      404,
    );
  });
});

describe('updateSiteSpaceById / deleteSiteSpaceById', () => {
  test('PATCH path, hidden and spaceId; condition null removes one an earlier Livery stored', async () => {
    const f = await createSite(t, 2);
    const [id] = f.siteSpaceIds;
    const url = `${f.base}/site-spaces/${id}`;
    // Livery no longer takes conditions; one stored by an earlier version is still answered.
    await t.db
      .updateTable('site_spaces')
      .set({ condition: 'visitor.claims.lang == "fr"' })
      .where('id', '=', id as string)
      .execute();
    const patched = expectStatus(
      await t.request({ method: 'PATCH', url, payload: { path: 'fr', hidden: true } }),
      200,
    ) as SiteSpace;
    assert.equal(patched.path, 'fr');
    assert.equal(patched.hidden, true);
    assert.equal(patched.condition, 'visitor.claims.lang == "fr"');
    const space = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/spaces`,
        payload: { title: 'Français' },
      }),
      201,
    ) as { id: string };
    const moved = expectStatus(
      await t.request({ method: 'PATCH', url, payload: { spaceId: space.id, condition: null } }),
      200,
    ) as SiteSpace;
    assert.equal(moved.space.id, space.id);
    assert.equal(moved.title, 'Français');
    assert.equal(moved.condition, undefined);
    assert.equal(moved.path, 'fr', 'absent fields unchanged');
    assert.equal(moved.hidden, true, 'absent fields unchanged');
    assert.deepEqual(
      (await siteSpaces(f.base)).find((s) => s.id === id),
      moved,
    );
  });

  test('errors: path taken → 409, unknown site-space → 404, bad fields → 400; nothing changes', async () => {
    const f = await createSite(t, 2);
    const [first, second] = f.siteSpaceIds;
    const before = await siteSpaces(f.base);
    const taken = before.find((s) => s.id === second)?.path;
    const patch = (id: string | undefined, payload: unknown) =>
      t.request({
        method: 'PATCH',
        url: `${f.base}/site-spaces/${id}`,
        payload: payload as object,
      });
    assert.match(expectError(await patch(first, { path: taken, hidden: true }), 409), /body\.path/);
    assert.match(expectError(await patch('sitesp_nope', { path: 'x' }), 404), /sitesp_nope/);
    const foreign = await t.services.identity.createOrganizationWithOwner({
      title: 'F',
      ownerName: 'F',
    });
    const foreignSpace = await t.services.spaces.create(foreign.organization.id, 'admin', {});
    const cases: [unknown, RegExp][] = [
      [{ path: '' }, /body\.path/],
      [{ path: 'a/b' }, /body\.path/],
      [{ path: 'x'.repeat(101) }, /body\.path/],
      [{ condition: '' }, /body\.condition/],
      [{ condition: 'x'.repeat(1025) }, /body\.condition/],
      [{ spaceId: foreignSpace.id }, /body\.spaceId/],
      [{ spaceId: 'nope', path: 'new-path' }, /body\.spaceId/],
      [{ hidden: 'yes' }, /body\.hidden/],
      // What Livery does not have: refused, with nothing else of the request applied.
      [{ condition: 'visitor.claims.beta', path: 'new-path' }, /^body\.condition: Livery has no /],
      [
        { draft: true, hidden: true },
        /^body\.draft: a site's or section's default site-space is never a draft/,
      ],
      [{ pageId: 'page1', path: 'new-path' }, /^body\.pageId: Livery has no custom home pages/],
    ];
    for (const [payload, message] of cases) {
      assert.match(expectError(await patch(first, payload), 400), message, JSON.stringify(payload));
    }
    assert.deepEqual(await siteSpaces(f.base), before, 'nothing changed');
  });

  test('DELETE: 205 then 204; deleting the default promotes the first remaining one', async () => {
    const f = await createSite(t, 3);
    const [first, second, third] = f.siteSpaceIds;
    const del = (id: string | undefined) =>
      t.request({ method: 'DELETE', url: `${f.base}/site-spaces/${id}` });
    const deleted = await del(first);
    assert.equal(deleted.statusCode, 205);
    assert.equal(deleted.body, '');
    assert.equal((await del(first)).statusCode, 204);
    assert.deepEqual(
      (await siteSpaces(f.base)).map((s) => [s.id, s.default]),
      [
        [second, true],
        [third, false],
      ],
    );
    assert.equal((await getSite(f.base)).siteSpaces, 2);
    assert.equal((await del(third)).statusCode, 205);
    assert.equal((await del(second)).statusCode, 205);
    assert.deepEqual(await siteSpaces(f.base), []);
    expectError(
      await t.request({
        method: 'DELETE',
        url: `/v1/orgs/${t.orgId}/sites/site_nope/site-spaces/x`,
      }),
      404,
    );
    // The spaces themselves remain.
    for (const spaceId of f.spaceIds) {
      expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}` }), 200);
    }
  });
});

describe('deleteSiteById', () => {
  test('205 then 204; the site’s rows are all gone, other sites and the spaces untouched', async () => {
    const keep = await createSite(t, 1);
    const f = await createSite(t, 2);
    // Give the site one of everything that belongs to it.
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${f.base}/customization`,
        payload: { title: 'Custom' },
      }),
      200,
    );
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization`,
        payload: { title: 'Variant' },
      }),
      200,
    );
    expectStatus(
      await t.request({ method: 'POST', url: `${f.base}/share-links`, payload: { name: 'a' } }),
      201,
    );
    expectStatus(await t.request({ method: 'GET', url: `${f.base}/publishing/auth` }), 200);
    expectStatus(await t.request({ method: 'POST', url: `${f.base}/publish` }), 200);

    const rows = async (siteId: string) => {
      const count = async (
        table:
          | 'sites'
          | 'site_spaces'
          | 'site_share_links'
          | 'site_publishing_auth'
          | 'site_events',
      ) => {
        const column = table === 'sites' ? 'id' : 'site_id';
        const row = await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', siteId)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      };
      return {
        sites: await count('sites'),
        site_spaces: await count('site_spaces'),
        site_share_links: await count('site_share_links'),
        site_publishing_auth: await count('site_publishing_auth'),
        site_events: await count('site_events'),
      };
    };
    assert.deepEqual(await rows(f.siteId), {
      sites: 1,
      site_spaces: 2,
      site_share_links: 1,
      site_publishing_auth: 1,
      site_events: 1,
    });
    const keptBefore = await rows(keep.siteId);

    const deleted = await t.request({ method: 'DELETE', url: f.base });
    assert.equal(deleted.statusCode, 205);
    assert.equal(deleted.body, '');
    assert.deepEqual(await rows(f.siteId), {
      sites: 0,
      site_spaces: 0,
      site_share_links: 0,
      site_publishing_auth: 0,
      site_events: 0,
    });
    assert.deepEqual(await rows(keep.siteId), keptBefore);
    assert.equal((await t.request({ method: 'DELETE', url: f.base })).statusCode, 204);
    expectError(await t.request({ method: 'GET', url: f.base }), 404);
    expectError(await t.request({ method: 'GET', url: `${f.base}/customization` }), 404);
    for (const spaceId of f.spaceIds) {
      expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}` }), 200);
    }
    // Another organization's DELETE of this id is a 204 too: it never existed there.
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'D',
      ownerName: 'D',
    });
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/v1/orgs/${other.organization.id}/sites/${keep.siteId}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    assert.equal(foreign.statusCode, 204);
    assert.equal((await getSite(keep.base)).id, keep.siteId);
  });
});
