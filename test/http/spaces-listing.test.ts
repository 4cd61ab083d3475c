import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type { MemberSpaceSchema, SpaceSchema } from '../../src/modules/spaces/schemas.js';
import { SpaceTrashSweep } from '../../src/modules/spaces/trash.js';
import { SpaceTrashRepository } from '../../src/modules/spaces/trash-repository.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { publishChanges, spaceWithTree } from '../helpers/insights.js';
import type { ListOfItems } from '../helpers/schemas.js';

/**
 * Listing and deleting spaces (issue 6): listSpacesInOrganizationById, listSpacesForUser
 * (`/v1/users/{userId}/spaces`, `me` allowed), deleteSpaceById (205, or 409 while a site shows
 * the space), the removed /v1/owners/{ownerId}/spaces (410 with successor links), and the Space
 * object's revision.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Space = Static<typeof SpaceSchema>;
type MemberSpace = Static<typeof MemberSpaceSchema>;

const as = (token: string, options: InjectOptions): Promise<LightMyRequestResponse> =>
  t.app.inject({
    ...options,
    headers: { authorization: `Bearer ${token}`, ...(options.headers ?? {}) },
  });

/** A new organization with its owner (role admin) and the owner's token. */
async function newOrganization(title: string) {
  const created = await t.services.identity.createOrganizationWithOwner({
    title,
    ownerName: `${title} owner`,
  });
  return { orgId: created.organization.id, userId: created.user.id, token: created.token };
}

/** A new user, member of `orgId` with `role`, and a token of theirs. */
async function newMember(orgId: string, role: string, name = `${role} member`) {
  const user = await t.services.identity.createUser({ displayName: name });
  await t.services.identity.setMemberRole(orgId, user.id, role);
  const { token } = await t.services.identity.createToken(user.id, { label: 'tests' });
  return { userId: user.id, token };
}

/**
 * `n` spaces created one after the other through the API, their ids in creation order. The
 * short pause gives each a later creation time than the one before, so "oldest first" is an
 * order the test knows rather than a tie broken by ids.
 */
async function createSpaces(token: string, orgId: string, n: number, prefix = 'Space') {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0) await sleep(3);
    const response = await as(token, {
      method: 'POST',
      url: `/v1/orgs/${orgId}/spaces`,
      payload: { title: `${prefix} ${i}` },
    });
    ids.push(expectStatus(response, 201).id as string);
  }
  return ids;
}

/** Every page of a list, following next.page; the pages as answered. */
async function walk<T>(token: string, url: string, limit: number): Promise<ListOfItems<T>[]> {
  const pages: ListOfItems<T>[] = [];
  let cursor: string | undefined;
  do {
    const query = `limit=${limit}${cursor === undefined ? '' : `&page=${encodeURIComponent(cursor)}`}`;
    const page = expectStatus(
      await as(token, { method: 'GET', url: `${url}?${query}` }),
      200,
    ) as ListOfItems<T>;
    pages.push(page);
    cursor = page.next?.page;
    assert.ok(pages.length <= 20, 'the walk ends');
  } while (cursor !== undefined);
  return pages;
}

describe('listSpacesInOrganizationById', () => {
  test('paginated oldest first: next.page walks every space once, count on every page', async () => {
    const org = await newOrganization('Listing');
    const ids = await createSpaces(org.token, org.orgId, 5);
    const url = `/v1/orgs/${org.orgId}/spaces`;

    const pages = await walk<Space>(org.token, url, 2);
    assert.deepEqual(
      pages.map((page) => page.items.length),
      [2, 2, 1],
    );
    for (const page of pages) assert.equal(page.count, 5);
    assert.equal(pages[2]?.next, undefined, 'no next on the last page');
    const items = pages.flatMap((page) => page.items);
    assert.deepEqual(
      items.map((space) => space.id),
      ids,
      'oldest first, each once',
    );
    assert.deepEqual(
      items.map((space) => space.title),
      ['Space 0', 'Space 1', 'Space 2', 'Space 3', 'Space 4'],
    );
    for (const [i, space] of items.entries()) {
      assert.equal(space.object, 'space');
      assert.equal(space.organization, org.orgId);
      assert.equal(typeof space.revision, 'string');
      if (i > 0) assert.ok(space.createdAt > (items[i - 1] as Space).createdAt);
    }

    const exact = await walk<Space>(org.token, url, 5);
    assert.equal(exact.length, 1, 'a page holding exactly the rest has no next');
    const all = expectStatus(
      await as(org.token, { method: 'GET', url }),
      200,
    ) as ListOfItems<Space>;
    assert.deepEqual(all, exact[0], 'the default limit covers them all');

    // Another organization's spaces are not listed.
    const other = await newOrganization('Elsewhere');
    await createSpaces(other.token, other.orgId, 1, 'Foreign');
    const again = expectStatus(
      await as(org.token, { method: 'GET', url }),
      200,
    ) as ListOfItems<Space>;
    assert.deepEqual(
      again.items.map((space) => space.id),
      ids,
    );
  });

  test('a read member lists them (with their own permissions); a non-member gets a 404; a guest a 403', async () => {
    const org = await newOrganization('Readers');
    const ids = await createSpaces(org.token, org.orgId, 2);
    const url = `/v1/orgs/${org.orgId}/spaces`;
    const reader = await newMember(org.orgId, 'read');
    const listed = expectStatus(
      await as(reader.token, { method: 'GET', url }),
      200,
    ) as ListOfItems<Space>;
    assert.deepEqual(
      listed.items.map((space) => space.id),
      ids,
    );
    assert.equal(listed.count, 2);
    for (const space of listed.items) {
      assert.equal(space.permissions.view, true);
      assert.equal(space.permissions.edit, false);
      assert.equal(space.permissions.admin, false);
    }
    const owners = expectStatus(
      await as(org.token, { method: 'GET', url }),
      200,
    ) as ListOfItems<Space>;
    assert.equal(owners.items[0]?.permissions.admin, true);

    const stranger = await newOrganization('Strangers');
    assert.match(
      expectError(await as(stranger.token, { method: 'GET', url }), 404),
      new RegExp(org.orgId),
    );
    expectError(await as(org.token, { method: 'GET', url: '/v1/orgs/org_nope/spaces' }), 404);
    const guest = await newMember(org.orgId, 'guest');
    expectError(await as(guest.token, { method: 'GET', url }), 403);
  });

  test('limit outside 1..1000 or a cursor this list did not issue is a 400', async () => {
    const url = `/v1/orgs/${t.orgId}/spaces`;
    for (const query of ['limit=0', 'limit=1001', 'limit=-1', 'limit=two']) {
      assert.match(
        expectError(await t.request({ method: 'GET', url: `${url}?${query}` }), 400),
        /limit/,
        query,
      );
    }
    const notCursors = [
      'garbage',
      Buffer.from(JSON.stringify({ a: 1 })).toString('base64url'),
      Buffer.from(JSON.stringify(['x'])).toString('base64url'),
    ];
    for (const page of notCursors) {
      assert.match(
        expectError(await t.request({ method: 'GET', url: `${url}?page=${page}` }), 400),
        /page/,
        page,
      );
    }
  });
});

describe('listSpacesForUser', () => {
  test('the user’s spaces in the organizations the caller shares with them, with the user’s role', async () => {
    const a = await newOrganization('Shared');
    const user = await newMember(a.orgId, 'edit', 'Ursula');
    const [a1, a2] = await createSpaces(a.token, a.orgId, 2, 'Shared');
    // A second organization the user belongs to and the caller (a's owner) does not.
    const b = await newOrganization('Private to B');
    await t.services.identity.setMemberRole(b.orgId, user.userId, 'read');
    await sleep(3);
    const [b1] = await createSpaces(b.token, b.orgId, 1, 'B');
    assert.ok(a1 && a2 && b1);

    const seenByCaller = expectStatus(
      await as(a.token, { method: 'GET', url: `/v1/users/${user.userId}/spaces` }),
      200,
    ) as ListOfItems<MemberSpace>;
    assert.deepEqual(
      seenByCaller.items.map((item) => [item.space.id, item.permission]),
      [
        [a1, 'edit'],
        [a2, 'edit'],
      ],
      "B's space is not listed: the caller is not in B",
    );
    assert.equal(seenByCaller.count, 2);
    for (const { space } of seenByCaller.items) {
      assert.equal(space.object, 'space');
      assert.equal(space.organization, a.orgId);
      assert.equal(space.permissions.edit, true, "the user's permissions");
      assert.equal(space.permissions.admin, false);
    }

    const mine = expectStatus(
      await as(user.token, { method: 'GET', url: '/v1/users/me/spaces' }),
      200,
    ) as ListOfItems<MemberSpace>;
    assert.deepEqual(
      mine.items.map((item) => [item.space.id, item.permission]),
      [
        [a1, 'edit'],
        [a2, 'edit'],
        [b1, 'read'],
      ],
    );
    assert.equal(mine.count, 3);
    const byOwnId = expectStatus(
      await as(user.token, { method: 'GET', url: `/v1/users/${user.userId}/spaces` }),
      200,
    );
    assert.deepEqual(byOwnId, mine, 'me is the caller');

    const ownersOwn = expectStatus(
      await as(a.token, { method: 'GET', url: '/v1/users/me/spaces' }),
      200,
    ) as ListOfItems<MemberSpace>;
    assert.deepEqual(
      ownersOwn.items.map((item) => [item.space.id, item.permission]),
      [
        [a1, 'admin'],
        [a2, 'admin'],
      ],
    );
    const seenFromB = expectStatus(
      await as(b.token, { method: 'GET', url: `/v1/users/${user.userId}/spaces` }),
      200,
    ) as ListOfItems<MemberSpace>;
    assert.deepEqual(
      seenFromB.items.map((item) => [item.space.id, item.permission]),
      [[b1, 'read']],
    );

    // Pagination walks the same list.
    const pages = await walk<MemberSpace>(user.token, '/v1/users/me/spaces', 2);
    assert.deepEqual(
      pages.map((page) => page.items.length),
      [2, 1],
    );
    assert.deepEqual(
      pages.flatMap((page) => page.items),
      mine.items,
    );
    for (const page of pages) assert.equal(page.count, 3);
    expectError(await as(user.token, { method: 'GET', url: '/v1/users/me/spaces?limit=0' }), 400);
    expectError(
      await as(user.token, { method: 'GET', url: '/v1/users/me/spaces?page=garbage' }),
      400,
    );
  });

  test('a user who shares no organization with the caller is a 404', async () => {
    const a = await newOrganization('Alone A');
    const b = await newOrganization('Alone B');
    await createSpaces(b.token, b.orgId, 1);
    const message = expectError(
      await as(a.token, { method: 'GET', url: `/v1/users/${b.userId}/spaces` }),
      404,
    );
    assert.match(message, new RegExp(b.userId));
    const loner = await t.services.identity.createUser({ displayName: 'No organization' });
    expectError(await as(a.token, { method: 'GET', url: `/v1/users/${loner.id}/spaces` }), 404);
    expectError(await as(a.token, { method: 'GET', url: '/v1/users/user_nope/spaces' }), 404);
  });

  test('a guest member gets no spaces of that organization', async () => {
    const a = await newOrganization('Guests');
    const [space] = await createSpaces(a.token, a.orgId, 1);
    const guest = await newMember(a.orgId, 'guest', 'Gwen');
    const empty = { items: [], count: 0 };
    assert.deepEqual(
      expectStatus(
        await as(a.token, { method: 'GET', url: `/v1/users/${guest.userId}/spaces` }),
        200,
      ),
      empty,
      'the guest shares the organization (not a 404) but gets none of its spaces',
    );
    assert.deepEqual(
      expectStatus(await as(guest.token, { method: 'GET', url: '/v1/users/me/spaces' }), 200),
      empty,
    );

    // Promoted through the members API the spaces appear; made a guest again (role null) they go.
    const member = `/v1/orgs/${a.orgId}/members/${guest.userId}`;
    expectStatus(
      await as(a.token, { method: 'PATCH', url: member, payload: { role: 'read' } }),
      200,
    );
    const promoted = expectStatus(
      await as(guest.token, { method: 'GET', url: '/v1/users/me/spaces' }),
      200,
    ) as ListOfItems<MemberSpace>;
    assert.deepEqual(
      promoted.items.map((item) => [item.space.id, item.permission]),
      [[space, 'read']],
    );
    expectStatus(await as(a.token, { method: 'PATCH', url: member, payload: { role: null } }), 200);
    assert.deepEqual(
      expectStatus(await as(guest.token, { method: 'GET', url: '/v1/users/me/spaces' }), 200),
      empty,
    );
  });
});

describe('deleteSpaceById', () => {
  const stored = async (spaceId: string) => {
    const count = async (
      table:
        | 'revisions'
        | 'page_nodes'
        | 'page_bodies'
        | 'change_requests'
        | 'page_feedbacks'
        | 'page_view_days',
    ) =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('space_id', '=', spaceId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      // Live ones: a deleted space is in the trash until purged (test/http/space-trash.test.ts).
      spaces: (
        await t.db
          .selectFrom('spaces')
          .select('id')
          .where('id', '=', spaceId)
          .where('deleted_at', 'is', null)
          .execute()
      ).length,
      revisions: await count('revisions'),
      nodes: await count('page_nodes'),
      bodies: await count('page_bodies'),
      changeRequests: await count('change_requests'),
      feedbacks: await count('page_feedbacks'),
      views: await count('page_view_days'),
    };
  };

  test('205, then the space is gone; purged, its revisions and their pages, change requests and insights go too', async () => {
    const s = await spaceWithTree(t, 'Doomed');
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `/v1/spaces/${s.spaceId}/pages/${s.intro}/feedbacks/v1`,
        payload: { rating: 'good' },
      }),
      201,
    );
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${s.spaceId}/insights/track_view`,
        payload: { pageId: s.intro },
      }),
      204,
    );
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${s.spaceId}/change-requests`,
        payload: { subject: 'Open one' },
      }),
      201,
    );
    const revision = (
      expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}` }), 200) as Space
    ).revision;
    const before = await stored(s.spaceId);
    assert.equal(before.spaces, 1);
    assert.ok(before.revisions > 0 && before.changeRequests === 3);
    assert.ok(before.nodes > 0 && before.bodies > 0, 'its pages are stored as nodes and bodies');
    assert.deepEqual([before.feedbacks, before.views], [1, 1]);

    const deleted = await t.request({ method: 'DELETE', url: `/v1/spaces/${s.spaceId}` });
    assert.equal(deleted.statusCode, 205, deleted.body);
    assert.equal(deleted.body, '');

    for (const url of [
      `/v1/spaces/${s.spaceId}`,
      `/v1/spaces/${s.spaceId}/content`,
      `/v1/spaces/${s.spaceId}/revisions/${revision}`,
      `/v1/spaces/${s.spaceId}/insights/content`,
    ]) {
      assert.match(expectError(await t.request({ method: 'GET', url }), 404), /space/, url);
    }
    // GitBook's "Space did not exist".
    const again = await t.request({ method: 'DELETE', url: `/v1/spaces/${s.spaceId}` });
    assert.equal(again.statusCode, 204, again.body);
    assert.equal(again.body, '');
    // In the trash, everything is kept for a restore; the purge, 7 days on, takes it all.
    assert.deepEqual(await stored(s.spaceId), { ...before, spaces: 0 });
    const later = () => Date.now() + 8 * 24 * 60 * 60 * 1000;
    // At least this one: the file's other tests may have deleted spaces too.
    assert.ok((await new SpaceTrashSweep(new SpaceTrashRepository(t.db), later).sweep()) >= 1);
    assert.deepEqual(await stored(s.spaceId), {
      spaces: 0,
      revisions: 0,
      nodes: 0,
      bodies: 0,
      changeRequests: 0,
      feedbacks: 0,
      views: 0,
    });
    const listed = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/spaces?limit=1000` }),
      200,
    ) as ListOfItems<Space>;
    assert.ok(!listed.items.some((space) => space.id === s.spaceId));
  });

  test('a space a site shows is a 409 naming the site; nothing is deleted; without the site-space it goes', async () => {
    const s = await spaceWithTree(t, 'Shown');
    const makeSite = async (title: string) => {
      const site = await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title, spaces: [s.spaceId] },
      });
      const siteId = expectStatus(site, 201).id as string;
      const base = `/v1/orgs/${t.orgId}/sites/${siteId}`;
      const list = expectStatus(
        await t.request({ method: 'GET', url: `${base}/site-spaces` }),
        200,
      ) as ListOfItems<{ id: string }>;
      return { siteId, base, siteSpaceId: list.items[0]?.id as string };
    };
    const handbook = await makeSite('Handbook');
    const before = await stored(s.spaceId);

    const refused = await t.request({ method: 'DELETE', url: `/v1/spaces/${s.spaceId}` });
    const message = expectError(refused, 409);
    assert.match(message, /Handbook/);
    assert.match(message, new RegExp(handbook.siteId));
    assert.deepEqual(await stored(s.spaceId), before, 'nothing is deleted');
    expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}` }), 200);
    expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/content` }), 200);
    const stillShown = expectStatus(
      await t.request({ method: 'GET', url: `${handbook.base}/site-spaces` }),
      200,
    ) as ListOfItems<{ space: { id: string } }>;
    assert.equal(stillShown.items[0]?.space.id, s.spaceId);

    // Shown by two sites, both are named.
    const manual = await makeSite('Manual');
    const both = expectError(
      await t.request({ method: 'DELETE', url: `/v1/spaces/${s.spaceId}` }),
      409,
    );
    for (const part of ['Handbook', handbook.siteId, 'Manual', manual.siteId]) {
      assert.ok(both.includes(part), `${both} names ${part}`);
    }

    for (const site of [handbook, manual]) {
      const removed = await t.request({
        method: 'DELETE',
        url: `${site.base}/site-spaces/${site.siteSpaceId}`,
      });
      assert.equal(removed.statusCode, 205, removed.body);
    }
    const deleted = await t.request({ method: 'DELETE', url: `/v1/spaces/${s.spaceId}` });
    assert.equal(deleted.statusCode, 205, deleted.body);
    expectError(await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}` }), 404);
    assert.equal((await stored(s.spaceId)).spaces, 0);
  });

  test('role edit is a 403; a non-member gets the 204 of a space that does not exist; the space stays', async () => {
    const [spaceId] = await createSpaces(t.token, t.orgId, 1, 'Kept');
    assert.ok(spaceId);
    const url = `/v1/spaces/${spaceId}`;
    for (const role of ['edit', 'create', 'read']) {
      const member = await newMember(t.orgId, role);
      const message = expectError(await as(member.token, { method: 'DELETE', url }), 403);
      assert.match(message, /admin/, role);
    }
    // Another organization's space and no space at all answer alike: nothing tells them apart.
    const stranger = await newOrganization('Not a member');
    const answer = async (target: string) => {
      const response = await as(stranger.token, { method: 'DELETE', url: target });
      const {
        date: _date,
        'x-request-id': _id,
        'x-ratelimit-remaining': _left,
        'x-ratelimit-reset': _reset,
        ...headers
      } = response.headers;
      return { status: response.statusCode, body: response.body, headers };
    };
    const foreign = await answer(url);
    assert.equal(foreign.status, 204);
    assert.equal(foreign.body, '');
    assert.deepEqual(foreign, await answer('/v1/spaces/space_doesnotexist'));
    assert.deepEqual(foreign, await answer(`/v1/spaces/${spaceId}x`));
    expectStatus(await t.request({ method: 'GET', url }), 200);
    assert.equal((await stored(spaceId)).spaces, 1);

    // A token without the operation's scope is refused whatever the space: the scope does not
    // depend on it.
    const { token: readOnly } = await t.services.identity.createToken(stranger.userId, {
      label: 'read only',
      scopes: ['space:read'],
    });
    for (const target of [url, '/v1/spaces/space_doesnotexist']) {
      assert.match(
        expectError(await as(readOnly, { method: 'DELETE', url: target }), 403),
        /space:write/,
      );
    }
    assert.equal((await stored(spaceId)).spaces, 1);
  });
});

describe('/v1/owners/{ownerId}/spaces is gone', () => {
  const successor = (path: string) =>
    new RegExp(
      `<http://livery\\.test${path.replace(/[{}]/g, '\\$&')}>;\\s*rel="successor-version"`,
    );
  const ORGS = successor('/v1/orgs/%7BorganizationId%7D/spaces');
  const USERS = successor('/v1/users/%7BuserId%7D/spaces');

  const check = (response: LightMyRequestResponse, label: string) => {
    const message = expectError(response, 410);
    assert.match(message, /\/v1\/orgs\/\{organizationId\}\/spaces/, label);
    const link = String(response.headers.link ?? '');
    assert.match(link, ORGS, `${label}: ${link}`);
    assert.match(link, USERS, `${label}: ${link}`);
  };

  test('every method answers 410 with the error envelope and successor-version links', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const ownerId of [t.orgId, t.userId, 'anyone']) {
        const url = `/v1/owners/${ownerId}/spaces`;
        check(await t.request({ method, url }), `${method} ${ownerId}`);
        if (method !== 'GET' && method !== 'DELETE') {
          check(
            await t.request({ method, url, payload: { title: 'New space' } }),
            `${method} with a body`,
          );
        }
      }
    }
    // Nothing was created by the POST/PUT with a body.
    const listed = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/spaces?limit=1000` }),
      200,
    ) as ListOfItems<Space>;
    assert.ok(!listed.items.some((space) => space.title === 'New space'));
  });

  test('without an Authorization header it is a 410 too', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: `/v1/owners/${t.orgId}/spaces` });
      check(response, `${method} anonymous`);
    }
  });

  test('/openapi.json marks GET deprecated and documents the 410', async () => {
    const doc = expectStatus(await t.app.inject({ method: 'GET', url: '/openapi.json' }), 200) as {
      paths: Record<string, Record<string, { deprecated?: boolean; responses?: object }>>;
    };
    const get = doc.paths['/v1/owners/{ownerId}/spaces']?.get;
    assert.ok(get, 'GET /v1/owners/{ownerId}/spaces is documented');
    assert.equal(get.deprecated, true);
    assert.ok(get.responses && '410' in get.responses, 'documents a 410 response');
  });
});

describe('the Space object’s revision', () => {
  test('createSpace: the new space’s revision is readable; after a merge it moves and both stay readable', async () => {
    const response = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: { title: 'Fresh' },
    });
    const space = expectStatus(response, 201) as Space;
    assert.equal(typeof space.revision, 'string');
    assert.ok(space.revision.length > 0);
    const revisionUrl = (revision: string) => `/v1/spaces/${space.id}/revisions/${revision}`;
    const initial = expectStatus(
      await t.request({ method: 'GET', url: revisionUrl(space.revision) }),
      200,
    );
    assert.equal(initial.object, 'revision');
    assert.equal(initial.id, space.revision);
    assert.deepEqual(initial.pages, []);
    const current = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${space.id}/content` }),
      200,
    );
    assert.equal(current.id, space.revision, 'the current revision');

    await publishChanges(t, space.id, [
      { operation: 'insert_page', title: 'Hello', document: { markdown: 'Hello' } },
    ]);
    const moved = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${space.id}` }),
      200,
    ) as Space;
    assert.notEqual(moved.revision, space.revision);
    const merged = expectStatus(
      await t.request({ method: 'GET', url: revisionUrl(moved.revision) }),
      200,
    ) as { id: string; pages: { title: string }[] };
    assert.equal(merged.id, moved.revision);
    assert.deepEqual(
      merged.pages.map((page) => page.title),
      ['Hello'],
    );
    const listed = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/spaces?limit=1000` }),
      200,
    ) as ListOfItems<Space>;
    assert.equal(listed.items.find((item) => item.id === space.id)?.revision, moved.revision);
    expectStatus(await t.request({ method: 'GET', url: revisionUrl(space.revision) }), 200);
    expectError(await t.request({ method: 'GET', url: revisionUrl('rev_nope') }), 404);
  });
});
