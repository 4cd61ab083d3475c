import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type { ShareLinkSchema } from '../../src/modules/share-links/schemas.js';
import type { SiteSchema } from '../../src/modules/sites/schemas.js';
import type { SpaceSchema } from '../../src/modules/spaces/schemas.js';
import { signVisitorToken } from '../../src/modules/visitor-auth/jwt.js';
import type { PublishingAuthSchema } from '../../src/modules/visitor-auth/schemas.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';

/**
 * The deprecated space-keyed forms of share links, visitor authentication and publishing
 * (`/v1/spaces/{spaceId}/…`, `PATCH /v1/spaces/{spaceId}` with visibility/published). They act on
 * the one site showing the space, answer 409 naming the site-keyed path when no site or several do,
 * and every answer, errors included, carries `Deprecation` and `Link` (deprecation explanation +
 * successor-version). The site-keyed forms carry neither.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const DEPRECATION = '@1753833600';
const DOCS_LINK =
  '<http://livery.test/docs/deprecations#space-keyed-publishing-share-links-and-visitor-authentication>; rel="deprecation"; type="text/markdown"';
/** The successor of a request whose site (and organization) were not resolved. */
const TEMPLATE = 'http://livery.test/v1/orgs/%7BorganizationId%7D/sites/%7BsiteId%7D';

type ShareLink = Static<typeof ShareLinkSchema>;
type PublishingAuth = Static<typeof PublishingAuthSchema>;
type Site = Static<typeof SiteSchema>;
type Space = Static<typeof SpaceSchema>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const siteUrl = (siteId: string) => `http://livery.test/v1/orgs/${t.orgId}/sites/${siteId}`;
/** The successor when the organization is known but no single site is. */
const orgTemplate = () => `http://livery.test/v1/orgs/${t.orgId}/sites/%7BsiteId%7D`;

function expectDeprecated(res: LightMyRequestResponse, successor: string): void {
  assert.equal(res.headers.deprecation, DEPRECATION, `Deprecation on ${res.statusCode}`);
  const link = res.headers.link;
  assert.ok(Array.isArray(link), `two Link values: ${JSON.stringify(link)}`);
  assert.deepEqual(link, [DOCS_LINK, `<${successor}>; rel="successor-version"`]);
}

function expectNotDeprecated(res: LightMyRequestResponse): void {
  assert.equal(res.headers.deprecation, undefined, `no Deprecation on ${res.statusCode}`);
  assert.equal(res.headers.link, undefined, `no Link on ${res.statusCode}`);
}

const send = (method: Method, url: string, payload?: unknown) =>
  t.request({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

async function newSpace(title = 'Loose'): Promise<string> {
  const res = await send('POST', `/v1/orgs/${t.orgId}/spaces`, { title });
  return expectStatus(res, 201).id as string;
}

async function newSiteWith(spaceIds: string[]): Promise<string> {
  const res = await send('POST', `/v1/orgs/${t.orgId}/sites`, { title: 'Also', spaces: spaceIds });
  return expectStatus(res, 201).id as string;
}

const getSite = async (siteId: string) =>
  expectStatus(await send('GET', `/v1/orgs/${t.orgId}/sites/${siteId}`), 200) as Site;
const getSpace = async (spaceId: string) =>
  expectStatus(await send('GET', `/v1/spaces/${spaceId}`), 200) as Space;
const siteLinks = async (f: SiteFixture) =>
  (
    expectStatus(await send('GET', `${f.base}/share-links`), 200) as {
      items: ShareLink[];
      count: number;
    }
  ).items;

/** Row counts of everything a space-keyed request could write. */
async function counts() {
  const count = async (table: 'site_share_links' | 'site_publishing_auth' | 'site_events') =>
    (await t.db.selectFrom(table).select('site_id').execute()).length;
  return {
    shareLinks: await count('site_share_links'),
    publishingAuth: await count('site_publishing_auth'),
    events: await count('site_events'),
  };
}

/** Every space-keyed operation, with a valid body, and its site-keyed path after the site. */
const operations = (spaceId: string): [Method, string, unknown, string][] => [
  ['GET', `/v1/spaces/${spaceId}/share-links`, undefined, '/share-links'],
  ['POST', `/v1/spaces/${spaceId}/share-links`, { name: 'x' }, '/share-links'],
  ['PATCH', `/v1/spaces/${spaceId}/share-links/shl_x`, { active: false }, '/share-links/shl_x'],
  ['DELETE', `/v1/spaces/${spaceId}/share-links/shl_x`, undefined, '/share-links/shl_x'],
  ['GET', `/v1/spaces/${spaceId}/publishing/auth`, undefined, '/publishing/auth'],
  [
    'PATCH',
    `/v1/spaces/${spaceId}/publishing/auth`,
    { backend: 'custom', fallbackURL: 'https://example.com/login' },
    '/publishing/auth',
  ],
  [
    'POST',
    `/v1/spaces/${spaceId}/publishing/auth/regenerate`,
    undefined,
    '/publishing/auth/regenerate',
  ],
  ['PATCH', `/v1/spaces/${spaceId}`, { published: true }, ''],
  ['PATCH', `/v1/spaces/${spaceId}`, { visibility: 'unlisted' }, ''],
  ['PATCH', `/v1/spaces/${spaceId}`, { visibility: 'share-link', title: 'Changed' }, ''],
];

describe('a space shown by exactly one site', () => {
  test('share links: list, create, update, delete act on that site, deprecated', async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const site = siteUrl(f.siteId);
    const base = `/v1/spaces/${space}/share-links`;

    const empty = await send('GET', base);
    assert.deepEqual(expectStatus(empty, 200), { items: [], count: 0 });
    expectDeprecated(empty, `${site}/share-links`);

    const created = await send('POST', base, { name: 'Via space' });
    const link = expectStatus(created, 201) as ShareLink;
    expectDeprecated(created, `${site}/share-links`);
    assert.equal(created.headers.location, `${site}/share-links/${link.id}`);
    assert.equal(link.object, 'share-link');
    assert.equal(link.name, 'Via space');
    assert.equal(link.active, true);
    const key = new URL(link.urls.published as string).searchParams.get('share') as string;
    assert.equal(link.urls.published, `http://livery.test/s/${f.siteId}?share=${key}`);
    assert.match(key, /^[A-Za-z0-9_-]{32,}$/);
    assert.equal(await t.services.shareLinks.verify(f.siteId, key), true);

    // Visible in the site-keyed list, and the space-keyed one.
    assert.deepEqual(await siteLinks(f), [{ ...link, urls: {} }]);
    const listed = await send('GET', base);
    assert.deepEqual(expectStatus(listed, 200), { items: [{ ...link, urls: {} }], count: 1 });
    expectDeprecated(listed, `${site}/share-links`);

    const updated = await send('PATCH', `${base}/${link.id}`, { active: false, name: 'Off' });
    assert.deepEqual(expectStatus(updated, 200), {
      ...link,
      name: 'Off',
      active: false,
      urls: {},
    });
    expectDeprecated(updated, `${site}/share-links/${link.id}`);
    assert.equal(await t.services.shareLinks.verify(f.siteId, key), false);
    assert.equal((await siteLinks(f))[0]?.name, 'Off');

    const deleted = await send('DELETE', `${base}/${link.id}`);
    assert.equal(deleted.statusCode, 205);
    expectDeprecated(deleted, `${site}/share-links/${link.id}`);
    assert.deepEqual(await siteLinks(f), []);
    const again = await send('DELETE', `${base}/${link.id}`);
    assert.equal(again.statusCode, 204);
    expectDeprecated(again, `${site}/share-links/${link.id}`);

    // A link made site-keyed is managed through the space too.
    const siteKeyed = expectStatus(
      await send('POST', `${f.base}/share-links`, { name: 'Site-keyed' }),
      201,
    ) as ShareLink;
    const renamed = await send('PATCH', `${base}/${siteKeyed.id}`, { name: 'Renamed' });
    assert.equal((expectStatus(renamed, 200) as ShareLink).name, 'Renamed');
    assert.deepEqual(
      (await siteLinks(f)).map((l) => l.name),
      ['Renamed'],
    );
  });

  test('share links: 400 and 404 answers are deprecated too, name the site and change nothing', async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const base = `/v1/spaces/${space}/share-links`;
    const link = expectStatus(await send('POST', base, { name: 'Kept' }), 201) as ShareLink;
    const before = await siteLinks(f);

    const tooLong = await send('POST', base, { name: 'n'.repeat(51) });
    assert.match(expectError(tooLong, 400), /name/);
    expectDeprecated(tooLong, `${siteUrl(f.siteId)}/share-links`);

    const emptyPatch = await send('PATCH', `${base}/${link.id}`, {});
    expectError(emptyPatch, 400);
    expectDeprecated(emptyPatch, `${siteUrl(f.siteId)}/share-links/${link.id}`);

    const unknownField = await send('PATCH', `${base}/${link.id}`, { colour: 'red' });
    assert.match(expectError(unknownField, 400), /colour/);
    expectDeprecated(unknownField, `${siteUrl(f.siteId)}/share-links/${link.id}`);

    const unknownLink = await send('PATCH', `${base}/shl_nope`, { name: 'x' });
    assert.match(expectError(unknownLink, 404), /shl_nope/);
    expectDeprecated(unknownLink, `${siteUrl(f.siteId)}/share-links/shl_nope`);

    const notJson = await t.request({
      method: 'POST',
      url: base,
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(notJson, 415);
    expectDeprecated(notJson, `${siteUrl(f.siteId)}/share-links`);

    assert.deepEqual(await siteLinks(f), before);
  });

  test('publishing auth: get, update, regenerate act on that site, deprecated', async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const site = siteUrl(f.siteId);
    const path = `/v1/spaces/${space}/publishing/auth`;
    const siteKeyed = async () =>
      expectStatus(await send('GET', `${f.base}/publishing/auth`), 200) as PublishingAuth;

    const first = await send('GET', path);
    const auth = expectStatus(first, 200) as PublishingAuth;
    expectDeprecated(first, `${site}/publishing/auth`);
    assert.equal(auth.object, 'publishing-auth');
    assert.equal(auth.backend, 'custom');
    assert.ok(auth.privateKey.length >= 32);
    assert.deepEqual(await siteKeyed(), auth, 'the site-keyed settings are the same');

    const patched = await send('PATCH', path, {
      backend: 'custom',
      fallbackURL: 'https://example.com/login',
    });
    assert.deepEqual(expectStatus(patched, 200), {
      ...auth,
      fallbackURL: 'https://example.com/login',
    });
    expectDeprecated(patched, `${site}/publishing/auth`);
    assert.equal((await siteKeyed()).fallbackURL, 'https://example.com/login');

    const invalid = await send('PATCH', path, { backend: 'custom', fallbackURL: 'not a url' });
    assert.match(expectError(invalid, 400), /fallbackURL/);
    expectDeprecated(invalid, `${site}/publishing/auth`);
    // Refused by the service, once the site is resolved: the successor is the concrete one.
    const integration = await send('PATCH', path, { backend: 'integration' });
    assert.match(expectError(integration, 400), /body\.backend/);
    expectDeprecated(integration, `${site}/publishing/auth`);
    assert.equal((await siteKeyed()).fallbackURL, 'https://example.com/login');

    const oldToken = signVisitorToken(
      { aud: f.siteId, exp: Math.floor(Date.now() / 1000) + 300 },
      auth.privateKey,
    );
    await t.services.publishingAuth.verify(f.siteId, oldToken);
    const regenerated = await send('POST', `${path}/regenerate`);
    const renewed = expectStatus(regenerated, 200) as PublishingAuth;
    expectDeprecated(regenerated, `${site}/publishing/auth/regenerate`);
    assert.notEqual(renewed.privateKey, auth.privateKey);
    assert.equal(renewed.fallbackURL, 'https://example.com/login');
    assert.deepEqual(await siteKeyed(), renewed);
    await assert.rejects(t.services.publishingAuth.verify(f.siteId, oldToken));
  });

  test('PATCH /v1/spaces/{spaceId} with visibility and published changes the one site', async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const site = siteUrl(f.siteId);
    const before = await getSite(f.siteId);
    assert.equal(before.published, false);
    assert.notEqual(before.visibility, 'unlisted');
    const spaceBefore = await getSpace(space);

    const visibility = await send('PATCH', `/v1/spaces/${space}`, { visibility: 'unlisted' });
    const answered = expectStatus(visibility, 200) as Space;
    expectDeprecated(visibility, site);
    assert.equal(answered.object, 'space');
    assert.equal(answered.id, space);
    assert.equal(answered.title, spaceBefore.title);
    assert.equal((await getSite(f.siteId)).visibility, 'unlisted');
    assert.equal((await getSite(f.siteId)).published, false);

    const published = await send('PATCH', `/v1/spaces/${space}`, { published: true });
    expectStatus(published, 200);
    expectDeprecated(published, site);
    assert.equal((await getSite(f.siteId)).published, true);

    const both = await send('PATCH', `/v1/spaces/${space}`, {
      published: false,
      visibility: 'share-link',
      title: 'Renamed with the site',
    });
    assert.equal((expectStatus(both, 200) as Space).title, 'Renamed with the site');
    expectDeprecated(both, site);
    const after = await getSite(f.siteId);
    assert.equal(after.published, false);
    assert.equal(after.visibility, 'share-link');
    assert.equal((await getSpace(space)).title, 'Renamed with the site');

    // The site's history records what changed and who changed it.
    const events = await t.db
      .selectFrom('site_events')
      .selectAll()
      .where('site_id', '=', f.siteId)
      .execute();
    assert.ok(events.every((e) => e.actor_user_id === t.userId));
    assert.deepEqual(
      events.map((e) => [e.field, e.old_value, e.new_value].join(' ')).sort(),
      [
        'published false true',
        'published true false',
        `visibility ${before.visibility} unlisted`,
        'visibility unlisted share-link',
      ].sort(),
    );
  });

  test('PATCH /v1/spaces/{spaceId} with invalid site fields: 400, deprecated, nothing changed', async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const site = await getSite(f.siteId);
    const spaceBefore = await getSpace(space);
    for (const payload of [
      { visibility: 'secret' },
      { published: 'yes' },
      { visibility: 'public', title: 'n'.repeat(51) },
      { published: true, owner: 'me' },
    ]) {
      const res = await send('PATCH', `/v1/spaces/${space}`, payload);
      expectError(res, 400);
      expectDeprecated(res, siteUrl(f.siteId));
    }
    assert.deepEqual(await getSite(f.siteId), site);
    assert.deepEqual(await getSpace(space), spaceBefore);
  });
});

describe("PATCH /v1/spaces/{spaceId} with only the space's own fields", () => {
  test('title, emoji, editMode live update the space; emoji null clears it; not deprecated', async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const site = await getSite(f.siteId);

    const titled = await send('PATCH', `/v1/spaces/${space}`, { title: 'New title' });
    assert.equal((expectStatus(titled, 200) as Space).title, 'New title');
    expectNotDeprecated(titled);

    const emoji = await send('PATCH', `/v1/spaces/${space}`, { emoji: '📘', editMode: 'live' });
    const withEmoji = expectStatus(emoji, 200) as Space;
    assert.equal(withEmoji.emoji, '📘');
    assert.equal(withEmoji.editMode, 'live');
    assert.equal(withEmoji.title, 'New title');
    expectNotDeprecated(emoji);
    assert.deepEqual(await getSpace(space), withEmoji);

    const cleared = await send('PATCH', `/v1/spaces/${space}`, { emoji: null });
    const noEmoji = expectStatus(cleared, 200) as Space;
    assert.equal(noEmoji.emoji, '');
    expectNotDeprecated(cleared);
    assert.equal((await getSpace(space)).emoji, '');

    // Livery never locks a space: "locked" is refused, with nothing of the request applied; "live"
    // unlocks a space an earlier Livery stored as locked.
    const locked = await send('PATCH', `/v1/spaces/${space}`, {
      editMode: 'locked',
      title: 'Locked',
    });
    assert.match(expectError(locked, 400), /^body\.editMode: Livery has no locked spaces/);
    assert.equal((await getSpace(space)).title, 'New title');
    await t.db.updateTable('spaces').set({ edit_mode: 'locked' }).where('id', '=', space).execute();
    const live = await send('PATCH', `/v1/spaces/${space}`, { editMode: 'live' });
    assert.equal((expectStatus(live, 200) as Space).editMode, 'live');
    expectNotDeprecated(live);

    const invalid = await send('PATCH', `/v1/spaces/${space}`, { title: 'n'.repeat(51) });
    expectError(invalid, 400);
    expectNotDeprecated(invalid);

    const unknown = await send('PATCH', '/v1/spaces/nope', { title: 'x' });
    expectError(unknown, 404);
    expectNotDeprecated(unknown);

    assert.deepEqual(await getSite(f.siteId), site, 'the site is untouched');
  });

  test('a space in no site or in two sites is updated all the same (no 409)', async () => {
    const loose = await newSpace();
    const res = await send('PATCH', `/v1/spaces/${loose}`, { title: 'Loose, renamed' });
    assert.equal((expectStatus(res, 200) as Space).title, 'Loose, renamed');
    expectNotDeprecated(res);

    const shared = await newSpace();
    await newSiteWith([shared]);
    await newSiteWith([shared]);
    const sharedRes = await send('PATCH', `/v1/spaces/${shared}`, { emoji: '🚀' });
    assert.equal((expectStatus(sharedRes, 200) as Space).emoji, '🚀');
    expectNotDeprecated(sharedRes);
  });
});

describe('the successor-version link', () => {
  test('percent-encodes a path parameter, so the link names the same resource', async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const site = siteUrl(f.siteId);
    // The share link id as the client sent it (encoded) and as the successor must carry it.
    for (const [sent, expected] of [
      ['a%20b', 'a%20b'],
      ['a%25b', 'a%25b'],
      ['a%23b', 'a%23b'],
      ['a%3Fb', 'a%3Fb'],
      ['a%2Fb', 'a%2Fb'],
    ]) {
      const res = await send('PATCH', `/v1/spaces/${space}/share-links/${sent}`, { name: 'x' });
      expectError(res, 404);
      expectDeprecated(res, `${site}/share-links/${expected}`);
    }
  });
});

describe('a space no site shows: 409', () => {
  test('every space-keyed operation answers 409 naming the site-keyed path, and writes nothing', async () => {
    const space = await newSpace('Alone');
    const spaceBefore = await getSpace(space);
    const before = await counts();
    for (const [method, url, payload, rest] of operations(space)) {
      const res = await send(method, url, payload);
      const message = expectError(res, 409);
      assert.match(message, /no site shows this space/, `${method} ${url}`);
      assert.ok(
        message.includes(`/v1/orgs/${t.orgId}/sites/{siteId}${rest}`),
        `${method} ${url} names the site-keyed path: ${message}`,
      );
      expectDeprecated(res, `${orgTemplate()}${rest}`);
    }
    assert.deepEqual(await counts(), before);
    assert.deepEqual(await getSpace(space), spaceBefore, 'the title was not changed either');
  });
});

describe('a space two sites show: 409', () => {
  test('every space-keyed operation answers 409 naming both sites, and writes nothing', async () => {
    const space = await newSpace('Shared');
    const first = await newSiteWith([space]);
    const second = await newSiteWith([space]);
    const sites = [await getSite(first), await getSite(second)];
    const spaceBefore = await getSpace(space);
    const before = await counts();
    for (const [method, url, payload, rest] of operations(space)) {
      const res = await send(method, url, payload);
      const message = expectError(res, 409);
      assert.match(message, /2 sites show this space/, `${method} ${url}`);
      assert.ok(message.includes(first), `${method} ${url} names ${first}: ${message}`);
      assert.ok(message.includes(second), `${method} ${url} names ${second}: ${message}`);
      assert.ok(
        message.includes(`/v1/orgs/${t.orgId}/sites/{siteId}${rest}`),
        `${method} ${url} names the site-keyed path: ${message}`,
      );
      expectDeprecated(res, `${orgTemplate()}${rest}`);
    }
    assert.deepEqual(await counts(), before);
    assert.deepEqual([await getSite(first), await getSite(second)], sites);
    assert.deepEqual(await getSpace(space), spaceBefore);
  });

  test('once one of the sites no longer shows it, the space acts on the other', async () => {
    const space = await newSpace('Shared, then not');
    await newSiteWith([space]);
    const kept = await newSiteWith([space]);
    expectError(await send('GET', `/v1/spaces/${space}/share-links`), 409);
    const showing = await t.services.sites.sitesShowingSpace(space);
    assert.equal(showing.length, 2);
    const removed = showing.find((s) => s.id !== kept)?.id as string;
    const deleted = await send('DELETE', `/v1/orgs/${t.orgId}/sites/${removed}`);
    assert.equal(deleted.statusCode, 205);
    const res = await send('POST', `/v1/spaces/${space}/share-links`, { name: 'now fine' });
    expectStatus(res, 201);
    expectDeprecated(res, `${siteUrl(kept)}/share-links`);
  });
});

describe('unknown and foreign spaces: 404, deprecated', () => {
  test('an unknown space is a 404 for every space-keyed operation, with a template successor', async () => {
    const before = await counts();
    for (const [method, url, payload, rest] of operations('nope')) {
      const res = await send(method, url, payload);
      assert.match(expectError(res, 404), /nope/, `${method} ${url}`);
      expectDeprecated(res, `${TEMPLATE}${rest}`);
    }
    assert.deepEqual(await counts(), before);
  });

  test('without a token: 401, deprecated', async () => {
    const f = await createSite(t, 1);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/spaces/${f.spaceIds[0]}/share-links`,
    });
    expectError(res, 401);
    expectDeprecated(res, `${TEMPLATE}/share-links`);
  });

  test("another organization's member gets a 404 and changes nothing", async () => {
    const f = await createSite(t, 1);
    const space = f.spaceIds[0] as string;
    const link = expectStatus(
      await send('POST', `${f.base}/share-links`, { name: 'Mine' }),
      201,
    ) as ShareLink;
    const key = new URL(link.urls.published as string).searchParams.get('share') as string;
    const auth = expectStatus(await send('GET', `${f.base}/publishing/auth`), 200);
    const site = await getSite(f.siteId);
    const spaceBefore = await getSpace(space);
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'O',
    });
    const ops: [Method, string, unknown, string][] = [
      ...operations(space),
      [
        'PATCH',
        `/v1/spaces/${space}/share-links/${link.id}`,
        { active: false },
        `/share-links/${link.id}`,
      ],
      [
        'DELETE',
        `/v1/spaces/${space}/share-links/${link.id}`,
        undefined,
        `/share-links/${link.id}`,
      ],
    ];
    for (const [method, url, payload, rest] of ops) {
      const res = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${other.token}` },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expectError(res, 404);
      expectDeprecated(res, `${TEMPLATE}${rest}`);
      assert.ok(!res.body.includes(f.siteId), 'the site is not revealed');
    }
    assert.deepEqual(await siteLinks(f), [{ ...link, urls: {} }]);
    assert.equal(await t.services.shareLinks.verify(f.siteId, key), true);
    assert.deepEqual(expectStatus(await send('GET', `${f.base}/publishing/auth`), 200), auth);
    assert.deepEqual(await getSite(f.siteId), site);
    assert.deepEqual(await getSpace(space), spaceBefore);
  });
});

describe('the site-keyed forms are not deprecated', () => {
  test('no Deprecation or Link header on their answers, errors included', async () => {
    const f = await createSite(t, 1);
    const answers: LightMyRequestResponse[] = [];
    const add = async (method: Method, url: string, payload?: unknown) => {
      const res = await send(method, url, payload);
      answers.push(res);
      return res;
    };
    await add('GET', `${f.base}/share-links`);
    const created = await add('POST', `${f.base}/share-links`, { name: 'x' });
    const id = (expectStatus(created, 201) as ShareLink).id;
    await add('PATCH', `${f.base}/share-links/${id}`, { active: false });
    await add('PATCH', `${f.base}/share-links/${id}`, {});
    await add('PATCH', `${f.base}/share-links/shl_nope`, { name: 'x' });
    await add('DELETE', `${f.base}/share-links/${id}`);
    await add('DELETE', `${f.base}/share-links/${id}`);
    await add('GET', `${f.base}/publishing/auth`);
    await add('PATCH', `${f.base}/publishing/auth`, { backend: 'custom' });
    await add('PATCH', `${f.base}/publishing/auth`, { backend: 'integration' });
    await add('POST', `${f.base}/publishing/auth/regenerate`);
    await add('GET', `/v1/orgs/${t.orgId}/sites/site_nope/share-links`);
    await add('PATCH', f.base, { visibility: 'unlisted' });
    assert.deepEqual(
      answers.map((res) => res.statusCode),
      [200, 201, 200, 400, 404, 205, 204, 200, 200, 400, 200, 404, 200],
    );
    for (const res of answers) expectNotDeprecated(res);
  });

  test('the deprecation link points at a section of docs/deprecations that exists', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/deprecations' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /^## Space-keyed publishing, share links and visitor authentication$/m);
  });
});

describe('GET /openapi.json', () => {
  type Operation = {
    operationId?: string;
    deprecated?: boolean;
    requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  };

  async function operationsById(): Promise<{
    ops: Map<string, Operation>;
    doc: { components?: { schemas?: Record<string, unknown> } };
  }> {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = expectStatus(res, 200) as {
      paths: Record<string, Record<string, Operation>>;
      components?: { schemas?: Record<string, unknown> };
    };
    const ops = new Map<string, Operation>();
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (typeof op === 'object' && op !== null && typeof op.operationId === 'string') {
          ops.set(op.operationId, op);
        }
      }
    }
    return { ops, doc };
  }

  test('the space-keyed operations are deprecated; their site-keyed twins are not', async () => {
    const { ops } = await operationsById();
    for (const [spaceKeyed, siteKeyed] of [
      ['listSpaceShareLinks', 'listSiteShareLinks'],
      ['createSpaceShareLink', 'createSiteShareLink'],
      ['updateSpaceShareLinkById', 'updateSiteShareLinkById'],
      ['deleteSpaceShareLinkById', 'deleteSiteShareLinkById'],
      ['getSpacePublishingAuthById', 'getSitePublishingAuthById'],
      ['updateSpacePublishingAuthById', 'updateSitePublishingAuthById'],
      ['regenerateSpacePublishingAuthById', 'regenerateSitePublishingAuthById'],
    ] as const) {
      assert.equal(ops.get(spaceKeyed)?.deprecated, true, `${spaceKeyed} is deprecated`);
      const twin = ops.get(siteKeyed);
      assert.ok(twin, `${siteKeyed} exists`);
      assert.notEqual(twin.deprecated, true, `${siteKeyed} is not deprecated`);
    }
  });

  test("updateSpaceById is not deprecated, but its body's visibility and published are", async () => {
    const { ops, doc } = await operationsById();
    const op = ops.get('updateSpaceById');
    assert.ok(op);
    assert.notEqual(op.deprecated, true);
    let schema = op.requestBody?.content['application/json']?.schema as Record<string, unknown>;
    assert.ok(schema, 'a JSON request body');
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').at(-1) as string;
      schema = doc.components?.schemas?.[name] as Record<string, unknown>;
    }
    const properties = schema.properties as Record<string, { deprecated?: boolean }>;
    assert.equal(properties.visibility?.deprecated, true);
    assert.equal(properties.published?.deprecated, true);
    for (const own of ['title', 'emoji', 'editMode']) {
      assert.ok(properties[own], `${own} is a property`);
      assert.notEqual(properties[own]?.deprecated, true, `${own} is not deprecated`);
    }
  });
});
