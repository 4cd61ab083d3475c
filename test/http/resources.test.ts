import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const ID = /^[a-zA-Z0-9_-]+$/;

async function newSpace(title = 'Guide'): Promise<Record<string, unknown>> {
  return expectStatus(
    await t.request({ method: 'POST', url: `/v1/orgs/${t.orgId}/spaces`, payload: { title } }),
    201,
  );
}

describe('GET /v1/user and organizations', () => {
  test('GET /v1/user answers the token owner', async () => {
    const user = expectStatus(await t.request({ method: 'GET', url: '/v1/user' }), 200);
    assert.deepEqual(user, {
      object: 'user',
      id: t.userId,
      displayName: 'Owner',
      urls: { location: `http://livery.test/v1/users/${t.userId}` },
    });
  });

  test('GET /v1/orgs lists the organizations of the user, paginated', async () => {
    for (let i = 0; i < 3; i++) {
      const other = await t.services.identity.createOrganizationWithOwner({
        title: `Org ${i}`,
        ownerName: 'X',
      });
      await t.db
        .insertInto('memberships')
        .values({
          organization_id: other.organization.id,
          user_id: t.userId,
          role: 'read',
          joined_at: new Date().toISOString(),
        })
        .execute();
    }
    const first = expectStatus(
      await t.request({ method: 'GET', url: '/v1/orgs?limit=2' }),
      200,
    ) as {
      items: Record<string, unknown>[];
      next?: { page: string };
      count: number;
    };
    assert.equal(first.items.length, 2);
    assert.equal(first.count, 4);
    assert.ok(first.next?.page);
    const second = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs?limit=2&page=${first.next?.page}` }),
      200,
    ) as { items: Record<string, unknown>[]; next?: unknown };
    assert.equal(second.items.length, 2);
    assert.equal(second.next, undefined, 'no next on the last page');
    const ids = [...first.items, ...second.items].map((o) => o.id);
    assert.equal(new Set(ids).size, 4);
    const readOnly = [...first.items, ...second.items].find((o) => o.id !== t.orgId) as {
      permissions: { admin: boolean; view: boolean };
    };
    assert.equal(readOnly.permissions.admin, false);
    assert.equal(readOnly.permissions.view, true);
  });

  test('GET /v1/orgs/{organizationId} has every required field of GitBook 0.130', async () => {
    const org = expectStatus(await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}` }), 200);
    for (const field of [
      'object',
      'id',
      'plan',
      'title',
      'createdAt',
      'inviteLinks',
      'type',
      'emailDomains',
      'urls',
      'trial',
      'permissions',
    ]) {
      assert.ok(field in org, field);
    }
    assert.equal(org.object, 'organization');
    assert.equal(org.title, 'Test organization');
    assert.deepEqual(org.urls, {
      location: `http://livery.test/v1/orgs/${t.orgId}`,
      app: `http://livery.test/v1/orgs/${t.orgId}`,
    });
    assert.equal((org.permissions as { admin: boolean }).admin, true);
  });
});

describe('spaces', () => {
  test('createSpace → 201 + Location; getSpaceById answers the same object', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: { title: 'Handbook', emoji: '📘' },
    });
    const space = expectStatus(res, 201);
    assert.match(String(space.id), ID);
    assert.equal(res.headers.location, `http://livery.test/v1/spaces/${String(space.id)}`);
    assert.equal(space.object, 'space');
    assert.equal(space.title, 'Handbook');
    assert.equal(space.emoji, '📘');
    assert.equal(space.organization, t.orgId);
    assert.equal(typeof space.revision, 'string');
    const got = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${String(space.id)}` }),
      200,
    );
    assert.deepEqual(got, space);
  });

  test('createSpace without a body (as the official client sends it)', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(expectStatus(res, 201).title, 'Untitled');
  });

  test('unknown space → 404; bad title → 400', async () => {
    assert.match(
      expectError(await t.request({ method: 'GET', url: '/v1/spaces/nope' }), 404),
      /space/,
    );
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: { title: 'x'.repeat(51) },
    });
    assert.match(expectError(res, 400), /^body\.title must be at most 50/);
  });
});

describe('sites and site-spaces', () => {
  test('createSite with no body → 201 + Location, a complete Site', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      headers: { 'content-type': 'application/json' },
    });
    const site = expectStatus(res, 201);
    assert.match(String(site.id), ID);
    assert.equal(
      res.headers.location,
      `http://livery.test/v1/orgs/${t.orgId}/sites/${String(site.id)}`,
    );
    assert.deepEqual(
      { ...site, createdAt: 'x' },
      {
        object: 'site',
        id: site.id,
        type: 'basic',
        appliedType: 'basic',
        title: 'Untitled site',
        visibility: 'public',
        defaultLevel: 'inherit',
        // The owner is an admin: every right Livery has (docs/api.md, "Records").
        permissions: {
          view: true,
          access: true,
          edit: true,
          create: true,
          admin: true,
          installIntegration: false,
          viewAdaptiveSchema: false,
          editAdaptiveSchema: false,
        },
        published: false,
        siteSpaces: 0,
        createdAt: 'x',
        agentsContext: 'included',
        features: [],
        urls: {
          location: res.headers.location,
          app: res.headers.location,
          preview: `http://livery.test/s/${String(site.id)}`,
        },
      },
    );
    const got = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites/${String(site.id)}` }),
      200,
    );
    assert.deepEqual(got, site);
  });

  test('createSite with spaces: site-spaces in order, the first is the default, paths unique', async () => {
    const a = await newSpace('Guide');
    const b = await newSpace('Guide');
    const site = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Two', type: 'premium', visibility: 'unlisted', spaces: [a.id, b.id] },
      }),
      201,
    );
    assert.equal(site.siteSpaces, 2);
    assert.equal(site.type, 'premium');
    const list = expectStatus(
      await t.request({
        method: 'GET',
        url: `/v1/orgs/${t.orgId}/sites/${String(site.id)}/site-spaces`,
      }),
      200,
    ) as { items: Record<string, unknown>[]; count: number };
    assert.equal(list.count, 2);
    assert.deepEqual(
      list.items.map((s) => [(s.space as { id: string }).id, s.path, s.default]),
      [
        [a.id, 'guide', true],
        [b.id, 'guide-2', false],
      ],
    );
    const defaults = expectStatus(
      await t.request({
        method: 'GET',
        url: `/v1/orgs/${t.orgId}/sites/${String(site.id)}/site-spaces?default=true`,
      }),
      200,
    ) as { items: { id: string }[] };
    assert.deepEqual(
      defaults.items.map((s) => s.id),
      [list.items[0]?.id],
    );

    const pageUrl = `/v1/orgs/${t.orgId}/sites/${String(site.id)}/site-spaces?limit=1`;
    const first = expectStatus(await t.request({ method: 'GET', url: pageUrl }), 200) as {
      items: { id: string }[];
      next?: { page: string };
    };
    const second = expectStatus(
      await t.request({ method: 'GET', url: `${pageUrl}&page=${first.next?.page}` }),
      200,
    ) as { items: { id: string }[]; next?: unknown };
    assert.deepEqual(
      [...first.items, ...second.items].map((s) => s.id),
      list.items.map((s) => s.id),
    );
    assert.equal(second.next, undefined);
  });

  test('createSite with spaces: "empty" creates a space; "sample" and foreign spaces are 400', async () => {
    const empty = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Fresh', spaces: 'empty' },
      }),
      201,
    );
    assert.equal(empty.siteSpaces, 1);
    const sample = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { spaces: 'sample' },
    });
    assert.match(expectError(sample, 400), /"sample"/);
    const unknown = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { spaces: ['nope'] },
    });
    assert.match(expectError(unknown, 400), /^body\.spaces\[0\]: no space "nope"/);
  });

  test('addSpaceToSite → 201 + Location; a space of another organization → 400', async () => {
    const site = expectStatus(
      await t.request({ method: 'POST', url: `/v1/orgs/${t.orgId}/sites`, payload: {} }),
      201,
    );
    const base = `/v1/orgs/${t.orgId}/sites/${String(site.id)}/site-spaces`;
    const space = await newSpace('Reference');
    const res = await t.request({ method: 'POST', url: base, payload: { spaceId: space.id } });
    const siteSpace = expectStatus(res, 201);
    assert.match(String(siteSpace.id), ID);
    assert.equal(siteSpace.object, 'site-space');
    assert.equal(siteSpace.default, true, 'the first added is the default');
    assert.equal(siteSpace.path, 'reference');
    assert.equal(siteSpace.title, 'Reference');
    // Shown by a site, the space now has a language: the site's (default) locale.
    assert.deepEqual(siteSpace.space, { ...space, language: 'en' });
    assert.equal(res.headers.location, `http://livery.test${base}/${String(siteSpace.id)}`);

    const second = expectStatus(
      await t.request({ method: 'POST', url: base, payload: { spaceId: space.id } }),
      201,
    );
    assert.equal(second.default, false);
    assert.equal(second.path, 'reference-2');

    const foreign = await t.services.identity.createOrganizationWithOwner({
      title: 'Foreign',
      ownerName: 'F',
    });
    const foreignSpace = await t.services.spaces.create(foreign.organization.id, 'admin', {
      title: 'Theirs',
    });
    const cross = await t.request({
      method: 'POST',
      url: base,
      payload: { spaceId: foreignSpace.id },
    });
    assert.match(expectError(cross, 400), /^body\.spaceId: no space/);
    assert.match(
      expectError(await t.request({ method: 'POST', url: base, payload: {} }), 400),
      /^body\.spaceId is required/,
    );
  });

  test('parallel addSpaceToSite: one default, unique paths', async () => {
    const site = expectStatus(
      await t.request({ method: 'POST', url: `/v1/orgs/${t.orgId}/sites`, payload: {} }),
      201,
    );
    const base = `/v1/orgs/${t.orgId}/sites/${String(site.id)}/site-spaces`;
    const space = await newSpace('Same');
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request({ method: 'POST', url: base, payload: { spaceId: space.id } }),
      ),
    );
    const created = results.map((r) => expectStatus(r, 201));
    assert.equal(created.filter((s) => s.default === true).length, 1);
    assert.equal(new Set(created.map((s) => s.path)).size, 8);
  });

  test('listSites: pagination and filters', async () => {
    const { orgId } = t;
    const org = await t.services.identity.createOrganizationWithOwner({
      title: 'Lister',
      ownerName: 'L',
    });
    const headers = { authorization: `Bearer ${org.token}` };
    const base = `/v1/orgs/${org.organization.id}/sites`;
    const space = await t.services.spaces.create(org.organization.id, 'admin', { title: 'S' });
    const make = (payload: object) => t.app.inject({ method: 'POST', url: base, headers, payload });
    expectStatus(await make({ title: 'Alpha docs', type: 'basic' }), 201);
    expectStatus(await make({ title: 'Beta 100%_done', type: 'premium', spaces: [space.id] }), 201);
    expectStatus(await make({ title: 'Gamma DOCS', type: 'ultimate' }), 201);
    const list = async (query: string) =>
      expectStatus(await t.app.inject({ method: 'GET', url: `${base}${query}`, headers }), 200) as {
        items: { title: string }[];
        next?: { page: string };
        count: number;
      };
    const titles = async (query: string) => (await list(query)).items.map((s) => s.title);

    assert.deepEqual(await titles(''), ['Alpha docs', 'Beta 100%_done', 'Gamma DOCS']);
    assert.deepEqual(await titles('?title=docs'), ['Alpha docs', 'Gamma DOCS'], 'case-insensitive');
    assert.deepEqual(await titles('?title=100%25_'), ['Beta 100%_done'], '% and _ are literal');
    assert.deepEqual(await titles('?title=0%25'), ['Beta 100%_done']);
    assert.deepEqual(await titles('?type=premium&type=ultimate'), ['Beta 100%_done', 'Gamma DOCS']);
    assert.deepEqual(await titles(`?space=${space.id}`), ['Beta 100%_done']);
    assert.deepEqual(await titles('?published=false'), [
      'Alpha docs',
      'Beta 100%_done',
      'Gamma DOCS',
    ]);
    assert.deepEqual(await titles('?published=true'), []);
    const bad = await t.app.inject({ method: 'GET', url: `${base}?type=gold`, headers });
    assert.match(expectError(bad, 400), /^querystring\.type\[0\] must be one of/);

    const page1 = await list('?limit=2');
    assert.equal(page1.count, 3);
    const page2 = await list(`?limit=2&page=${page1.next?.page}`);
    assert.deepEqual(
      [...page1.items, ...page2.items].map((s) => s.title),
      await titles(''),
    );
    assert.equal(page2.next, undefined);
    assert.notEqual(orgId, org.organization.id);
  });
});
