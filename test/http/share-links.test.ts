import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type { ShareLinkSchema } from '../../src/modules/share-links/schemas.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import type { ListOf } from '../helpers/schemas.js';

/**
 * Site share links, site-keyed (`/v1/orgs/{org}/sites/{site}/share-links`): listing and its
 * pagination, creation (the key shown once, only its hash stored), the key's lifecycle through
 * `shareLinks.verify`, renaming, and every refused request leaving the links as they were.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type ShareLink = Static<typeof ShareLinkSchema>;
type ShareLinkList = ListOf<typeof ShareLinkSchema>;

const KEY = /^[A-Za-z0-9_-]{32,}$/;

const list = async (f: SiteFixture, query = '') =>
  expectStatus(
    await t.request({ method: 'GET', url: `${f.base}/share-links${query}` }),
    200,
  ) as ShareLinkList;

const create = async (f: SiteFixture, name: string) => {
  const res = await t.request({ method: 'POST', url: `${f.base}/share-links`, payload: { name } });
  const link = expectStatus(res, 201) as ShareLink;
  const key = new URL(link.urls.published as string).searchParams.get('share') as string;
  return { link, key, res };
};

const patch = (f: SiteFixture, id: string, payload: unknown) =>
  t.request({
    method: 'PATCH',
    url: `${f.base}/share-links/${id}`,
    payload: payload as object,
  });

const remove = (f: SiteFixture, id: string) =>
  t.request({ method: 'DELETE', url: `${f.base}/share-links/${id}` });

/** Runs a request that must fail with `status`, and checks that the site's links are unchanged. */
async function refused(
  f: SiteFixture,
  send: () => Promise<LightMyRequestResponse>,
  status: number,
): Promise<string> {
  const before = await list(f);
  const message = expectError(await send(), status);
  assert.deepEqual(await list(f), before, 'a refused request changes nothing');
  return message;
}

describe('listSiteShareLinks', () => {
  test('an empty list, then the links in creation order, without their keys', async () => {
    const f = await createSite(t, 1);
    assert.deepEqual(await list(f), { items: [], count: 0 });
    const made = [];
    for (const name of ['first', 'second', 'third']) made.push(await create(f, name));
    const all = await list(f);
    assert.equal(all.count, 3);
    assert.equal(all.next, undefined);
    // Creation order (links made in the same millisecond are ordered by id).
    const createdAts = all.items.map((l) => l.createdAt);
    assert.deepEqual(createdAts, [...createdAts].sort());
    const byName = (a: ShareLink, b: ShareLink) => (a.name ?? '').localeCompare(b.name ?? '');
    assert.deepEqual(
      [...all.items].sort(byName),
      made.map((m) => ({ ...m.link, urls: {} })).sort(byName),
      'the links as created, their keys left out',
    );
    const text = JSON.stringify(all);
    for (const { key } of made) assert.ok(!text.includes(key), 'no key in the list');
  });

  test('limit=1 pages through every link once, following next.page; count is the total', async () => {
    const f = await createSite(t, 1);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(f, `link ${i}`)).link.id);
    const seen: string[] = [];
    let query = '?limit=1';
    for (let pages = 0; pages < 10; pages++) {
      const page = await list(f, query);
      assert.equal(page.count, 3);
      assert.equal(page.items.length, 1);
      seen.push(...page.items.map((l) => l.id));
      if (page.next === undefined) break;
      assert.equal(typeof page.next.page, 'string');
      query = `?limit=1&page=${encodeURIComponent(page.next.page)}`;
    }
    const whole = (await list(f)).items.map((l) => l.id);
    assert.deepEqual([...whole].sort(), [...ids].sort());
    assert.deepEqual(seen, whole, 'every link once, in the order of the whole list');
    const two = await list(f, '?limit=2');
    assert.deepEqual(
      two.items.map((l) => l.id),
      whole.slice(0, 2),
    );
    assert.ok(two.next);
  });

  test('a page cursor this list did not issue and an invalid limit are 400s', async () => {
    const f = await createSite(t, 1);
    await create(f, 'one');
    expectError(await t.request({ method: 'GET', url: `${f.base}/share-links?page=nope` }), 400);
    expectError(await t.request({ method: 'GET', url: `${f.base}/share-links?limit=0` }), 400);
    expectError(await t.request({ method: 'GET', url: `${f.base}/share-links?limit=1001` }), 400);
  });

  test('the links of one site are not listed in another', async () => {
    const a = await createSite(t, 1);
    const b = await createSite(t, 1);
    await create(a, 'of a');
    assert.deepEqual(await list(b), { items: [], count: 0 });
    assert.equal((await list(a)).count, 1);
  });
});

describe('createSiteShareLink', () => {
  test('201 with Location, the link, and its key in urls.published: once', async () => {
    const f = await createSite(t, 1);
    const { link, key, res } = await create(f, 'Reviewers');
    assert.equal(
      res.headers.location,
      `http://livery.test/v1/orgs/${t.orgId}/sites/${f.siteId}/share-links/${link.id}`,
    );
    assert.deepEqual(Object.keys(link).sort(), [
      'active',
      'createdAt',
      'id',
      'name',
      'object',
      'urls',
    ]);
    assert.equal(link.object, 'share-link');
    assert.equal(typeof link.id, 'string');
    assert.ok(link.id.length > 0);
    assert.equal(link.name, 'Reviewers');
    assert.equal(link.active, true);
    assert.ok(!Number.isNaN(Date.parse(link.createdAt)), 'createdAt is a date-time');
    assert.equal(new Date(link.createdAt).toISOString(), link.createdAt);
    assert.deepEqual(Object.keys(link.urls), ['published']);
    assert.equal(link.urls.published, `http://livery.test/s/${f.siteId}?share=${key}`);
    assert.match(key, KEY);
    assert.ok(Buffer.from(key, 'base64url').length * 8 >= 128, 'at least 128 bits');

    // Never shown again.
    const listed = await list(f);
    assert.deepEqual(listed.items[0]?.urls, {});
    assert.ok(!JSON.stringify(listed).includes(key));
    const renamed = expectStatus(await patch(f, link.id, { name: 'Renamed' }), 200) as ShareLink;
    assert.deepEqual(renamed.urls, {});
  });

  test('every link gets its own key', async () => {
    const f = await createSite(t, 1);
    const keys = new Set<string>();
    for (let i = 0; i < 5; i++) keys.add((await create(f, 'same name')).key);
    assert.equal(keys.size, 5);
  });

  test('/openapi.json says where urls.published is absent, and why (issue 16)', async () => {
    const spec = expectStatus(await t.request({ method: 'GET', url: '/openapi.json' }), 200) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const base = '/v1/orgs/{organizationId}/sites/{siteId}/share-links';
    for (const [path, method, status] of [
      [base, 'get', '200'],
      [`${base}/{shareLinkId}`, 'patch', '200'],
    ] as const) {
      const answer = JSON.stringify(spec.paths[path]?.[method]?.responses[status]);
      assert.match(answer, /listings and updates answer `urls: \{\}`/, `${method} ${path}`);
      assert.match(answer, /only a hash of the secret key/, `${method} ${path}`);
    }
  });

  test('the database stores only a hash of the key', async () => {
    const f = await createSite(t, 1);
    const { link, key } = await create(f, 'Hashed');
    const rows = await t.db
      .selectFrom('site_share_links')
      .selectAll()
      .where('site_id', '=', f.siteId)
      .execute();
    assert.equal(rows.length, 1);
    const row = rows[0] as Record<string, unknown>;
    assert.equal(row.id, link.id);
    assert.equal(typeof row.key_hash, 'string');
    assert.notEqual(row.key_hash, key);
    assert.match(row.key_hash as string, /^[0-9a-f]{64}$/);
    for (const [column, value] of Object.entries(row)) {
      assert.ok(!String(value).includes(key), `the key appears in column ${column}`);
    }
  });

  test('Idempotency-Key is not honoured (its stored answer would keep the key): no table holds the key', async () => {
    const f = await createSite(t, 1);
    const headers = { 'idempotency-key': `share-${f.siteId}` };
    const post = () =>
      t.request({
        method: 'POST',
        url: `${f.base}/share-links`,
        payload: { name: 'Retried' },
        headers,
      });
    const first = expectStatus(await post(), 201) as ShareLink;
    const key = new URL(first.urls.published as string).searchParams.get('share') as string;
    assert.match(key, KEY);
    const retry = await post();
    assert.equal(retry.headers['idempotent-replayed'], undefined);
    const second = expectStatus(retry, 201) as ShareLink;
    assert.notEqual(second.id, first.id, 'a retry is a new link with a new key');
    assert.notEqual(second.urls.published, first.urls.published);
    assert.equal((await list(f)).count, 2);
    // "Livery stores only its SHA-256" (docs/sites.md): no stored response holds it either.
    for (const table of ['site_share_links', 'idempotency_keys'] as const) {
      const rows = (await t.db.selectFrom(table).selectAll().execute()) as Record<
        string,
        unknown
      >[];
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          assert.ok(!String(value).includes(key), `the key is stored in ${table}.${column}`);
        }
      }
    }
  });

  test('urls.published uses the site basename when it has one', async () => {
    const f = await createSite(t, 1);
    const basename = `docs-${f.siteId.slice(-6).toLowerCase()}`;
    expectStatus(await t.request({ method: 'PATCH', url: f.base, payload: { basename } }), 200);
    const { link, key } = await create(f, 'With basename');
    assert.equal(link.urls.published, `http://livery.test/s/${basename}?share=${key}`);
    assert.equal(await t.services.shareLinks.verify(f.siteId, key), true);
  });

  test('an empty name is allowed; 50 characters are, 51 are not', async () => {
    const f = await createSite(t, 1);
    const { link } = await create(f, '');
    assert.equal(link.name, '');
    assert.equal((await list(f)).items[0]?.name, '');
    const fifty = 'n'.repeat(50);
    assert.equal((await create(f, fifty)).link.name, fifty);
    const message = await refused(
      f,
      () =>
        t.request({
          method: 'POST',
          url: `${f.base}/share-links`,
          payload: { name: 'n'.repeat(51) },
        }),
      400,
    );
    assert.match(message, /name/);
  });

  test('a missing name, an unknown field, a non-string name: 400, nothing created', async () => {
    const f = await createSite(t, 1);
    const post = (payload: unknown) => () =>
      t.request({ method: 'POST', url: `${f.base}/share-links`, payload: payload as object });
    assert.match(await refused(f, post({}), 400), /name/);
    assert.match(await refused(f, post({ name: 'x', expires: 3 }), 400), /expires/);
    assert.match(await refused(f, post({ name: 42 }), 400), /name/);
    assert.match(await refused(f, post({ name: null }), 400), /name/);
    assert.equal((await list(f)).count, 0);
  });

  test('a body that is not JSON is a 415, nothing created', async () => {
    const f = await createSite(t, 1);
    await refused(
      f,
      () =>
        t.request({
          method: 'POST',
          url: `${f.base}/share-links`,
          payload: 'name=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      415,
    );
    await refused(
      f,
      () =>
        t.request({
          method: 'POST',
          url: `${f.base}/share-links`,
          payload: '{"name": ',
          headers: { 'content-type': 'application/json' },
        }),
      400,
    );
    assert.equal((await list(f)).count, 0);
  });
});

describe('a share link key', () => {
  test('opens its site while active, not another site, not after deletion', async () => {
    const f = await createSite(t, 1);
    const other = await createSite(t, 1);
    const { link, key } = await create(f, 'Lifecycle');
    const verify = (siteId = f.siteId, k = key) => t.services.shareLinks.verify(siteId, k);
    assert.equal(await verify(), true, 'after create');
    assert.equal(await verify(other.siteId), false, "another site's id");
    assert.equal(await verify(f.siteId, `${key}x`), false, 'another key');
    assert.equal(await verify(f.siteId, ''), false, 'an empty key');

    const off = expectStatus(await patch(f, link.id, { active: false }), 200) as ShareLink;
    assert.equal(off.active, false);
    assert.equal(off.name, 'Lifecycle', 'the name is kept');
    assert.equal((await list(f)).items[0]?.active, false);
    assert.equal(await verify(), false, 'after active: false');

    const on = expectStatus(await patch(f, link.id, { active: true }), 200) as ShareLink;
    assert.equal(on.active, true);
    assert.equal(await verify(), true, 'after active: true');

    const deleted = await remove(f, link.id);
    assert.equal(deleted.statusCode, 205);
    assert.equal(deleted.body, '');
    assert.equal(await verify(), false, 'after delete');
    assert.deepEqual(await list(f), { items: [], count: 0 });
    const again = await remove(f, link.id);
    assert.equal(again.statusCode, 204);
    assert.equal(again.body, '');
    assert.equal(await verify(), false);
  });

  test("deactivating or deleting one link leaves the site's other links working", async () => {
    const f = await createSite(t, 1);
    const a = await create(f, 'a');
    const b = await create(f, 'b');
    expectStatus(await patch(f, a.link.id, { active: false }), 200);
    assert.equal(await t.services.shareLinks.verify(f.siteId, a.key), false);
    assert.equal(await t.services.shareLinks.verify(f.siteId, b.key), true);
    assert.equal((await remove(f, a.link.id)).statusCode, 205);
    assert.equal(await t.services.shareLinks.verify(f.siteId, b.key), true);
    assert.deepEqual(
      (await list(f)).items.map((l) => l.id),
      [b.link.id],
    );
  });
});

describe('updateSiteShareLinkById', () => {
  test('{name} renames and leaves active as it was; both at once work too', async () => {
    const f = await createSite(t, 1);
    const { link, key } = await create(f, 'Old');
    const renamed = expectStatus(await patch(f, link.id, { name: 'New' }), 200) as ShareLink;
    assert.deepEqual(renamed, { ...link, name: 'New', urls: {} });
    assert.deepEqual((await list(f)).items, [renamed]);
    assert.equal(await t.services.shareLinks.verify(f.siteId, key), true, 'the key still works');

    const both = expectStatus(
      await patch(f, link.id, { name: '', active: false }),
      200,
    ) as ShareLink;
    assert.equal(both.name, '');
    assert.equal(both.active, false);
    assert.deepEqual((await list(f)).items, [both]);
  });

  test('{}, an unknown field, a 51-character name, a non-boolean active: 400, nothing changed', async () => {
    const f = await createSite(t, 1);
    const { link, key } = await create(f, 'Stable');
    const send = (payload: unknown) => () => patch(f, link.id, payload);
    await refused(f, send({}), 400);
    assert.match(await refused(f, send({ name: 'x', colour: 'red' }), 400), /colour/);
    assert.match(await refused(f, send({ name: 'n'.repeat(51) }), 400), /name/);
    assert.match(await refused(f, send({ active: 'no' }), 400), /active/);
    assert.match(await refused(f, send({ active: null }), 400), /active/);
    await refused(
      f,
      () =>
        t.request({
          method: 'PATCH',
          url: `${f.base}/share-links/${link.id}`,
          payload: 'active=false',
          headers: { 'content-type': 'text/plain' },
        }),
      415,
    );
    assert.equal(await t.services.shareLinks.verify(f.siteId, key), true);
    assert.deepEqual((await list(f)).items, [{ ...link, urls: {} }]);
  });

  test('an unknown share link is a 404 naming it; so is a link of another site', async () => {
    const f = await createSite(t, 1);
    const other = await createSite(t, 1);
    const { link, key } = await create(other, 'Elsewhere');
    const message = await refused(f, () => patch(f, 'shl_nope', { name: 'x' }), 404);
    assert.match(message, /shl_nope/);
    await refused(f, () => patch(f, link.id, { active: false }), 404);
    // Deleting it through the wrong site deletes nothing.
    assert.equal((await remove(f, link.id)).statusCode, 204);
    assert.equal(await t.services.shareLinks.verify(other.siteId, key), true);
    assert.deepEqual((await list(other)).items, [{ ...link, urls: {} }]);
  });
});

describe('share links of an unknown or foreign site', () => {
  test('an unknown site is a 404 naming it for every operation, and nothing is stored', async () => {
    const base = `/v1/orgs/${t.orgId}/sites/site_unknown/share-links`;
    const count = async () =>
      (await t.db.selectFrom('site_share_links').select('id').execute()).length;
    const rowsBefore = await count();
    for (const [method, url, payload] of [
      ['GET', base, undefined],
      ['POST', base, { name: 'x' }],
      ['PATCH', `${base}/shl_x`, { name: 'x' }],
      ['DELETE', `${base}/shl_x`, undefined],
    ] as const) {
      const res = await t.request({ method, url, ...(payload ? { payload } : {}) });
      assert.match(expectError(res, 404), /site_unknown/, `${method} ${url}`);
    }
    assert.equal(await count(), rowsBefore);
  });

  test("another organization's member gets a 404 and changes nothing", async () => {
    const f = await createSite(t, 1);
    const { link, key } = await create(f, 'Mine');
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'O',
    });
    const headers = { authorization: `Bearer ${other.token}` };
    const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    await refused(f, () => send('GET', `${f.base}/share-links`), 404);
    await refused(f, () => send('POST', `${f.base}/share-links`, { name: 'x' }), 404);
    await refused(
      f,
      () => send('PATCH', `${f.base}/share-links/${link.id}`, { active: false }),
      404,
    );
    await refused(f, () => send('DELETE', `${f.base}/share-links/${link.id}`), 404);
    assert.equal(await t.services.shareLinks.verify(f.siteId, key), true);
  });

  test('without a token: 401', async () => {
    const f = await createSite(t, 1);
    const res = await t.app.inject({ method: 'GET', url: `${f.base}/share-links` });
    expectError(res, 401);
  });
});
