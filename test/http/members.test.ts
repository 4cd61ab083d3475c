/**
 * Organization members through HTTP (docs/members.md, src/modules/members/): listing with its
 * filters, sorts and pages; one member; changing roles (null = guest); removing; a member's
 * spaces; getUserById; who may call them; isolation between organizations; the official client.
 *
 * An organization always keeps an admin: demoting or removing the last one is a 409, also when
 * two admins demote each other at once. Every refused request changes nothing: each is followed
 * by a read-back.
 */
import assert from 'node:assert/strict';
import { describe, type TestContext as NodeTestContext, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type { MemberRole } from '../../node_modules/@gitbook/api/dist/client.js';
import type { UserSchema } from '../../src/modules/identity/schemas.js';
import { MEMBER_ROLES } from '../../src/modules/identity/schemas.js';
import type { MemberSchema } from '../../src/modules/members/schemas.js';
import type { SpaceSchema } from '../../src/modules/spaces/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { clientFailure, GitBookAPI, listenWithClient } from '../helpers/gitbook.js';
import type { ListOfItems } from '../helpers/schemas.js';

type Role = (typeof MEMBER_ROLES)[number];

type UserJson = Static<typeof UserSchema>;
type MemberJson = Static<typeof MemberSchema>;

type SpaceJson = Static<typeof SpaceSchema>;

interface Person {
  id: string;
  token: string;
  displayName: string;
  email?: string;
}

/** A role as the official client types it (an enum of the same strings). */
const clientRole = (role: string) => role as MemberRole;

/** A fresh app for one test, closed when the test ends. */
async function freshApp(c: NodeTestContext): Promise<TestContext> {
  const t = await createTestApp();
  c.after(() => t.close());
  return t;
}

/** A new user, made a member of `orgId` with `role` (`guest` for a guest), with a token. */
async function addMember(
  t: TestContext,
  role: Role | 'guest',
  user: { displayName?: string; email?: string } = {},
  orgId = t.orgId,
): Promise<Person> {
  const displayName = user.displayName ?? `Member ${role}`;
  const created = await t.services.identity.createUser({
    displayName,
    ...(user.email === undefined ? {} : { email: user.email }),
  });
  await t.services.identity.setMemberRole(orgId, created.id, role);
  const { token } = await t.services.identity.createToken(created.id, { label: 'test' });
  return {
    id: created.id,
    token,
    displayName,
    ...(user.email === undefined ? {} : { email: user.email }),
  };
}

/** Sends a request with another token. */
function as(t: TestContext, token: string, options: InjectOptions) {
  return t.request({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${token}` },
  });
}

const membersUrl = (t: TestContext, orgId = t.orgId) => `/v1/orgs/${orgId}/members`;
const memberUrl = (t: TestContext, userId: string, orgId = t.orgId) =>
  `${membersUrl(t, orgId)}/${encodeURIComponent(userId)}`;

function json<T>(response: LightMyRequestResponse, status = 200): T {
  return expectStatus(response, status) as unknown as T;
}

async function list(t: TestContext, query = '', orgId = t.orgId): Promise<ListOfItems<MemberJson>> {
  return json(await t.request({ method: 'GET', url: `${membersUrl(t, orgId)}${query}` }));
}

/** Every member of the organization as `id → role` (null for guests), read with `token`. */
async function roles(
  t: TestContext,
  orgId = t.orgId,
  token = t.token,
): Promise<Record<string, string | null>> {
  const response = await as(t, token, { method: 'GET', url: `${membersUrl(t, orgId)}?limit=1000` });
  const { items, next } = json<ListOfItems<MemberJson>>(response);
  assert.equal(next, undefined);
  return Object.fromEntries(items.map((m) => [m.id, m.role]));
}

async function createSpace(t: TestContext, title: string, orgId = t.orgId): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: `/v1/orgs/${orgId}/spaces`,
    payload: { title },
  });
  return json<SpaceJson>(response, 201).id;
}

/** All pages of a list, following `next.page` with `limit`, asserting the count on each page. */
async function walk<T>(
  fetch: (query: string) => Promise<ListOfItems<T>>,
  query: string,
  limit: number,
): Promise<T[]> {
  const seen: T[] = [];
  let page: string | undefined;
  let expectedCount: number | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const separator = query === '' ? '?' : '&';
    const pageQuery = `${query}${separator}limit=${limit}${page === undefined ? '' : `&page=${encodeURIComponent(page)}`}`;
    const result = await fetch(pageQuery.startsWith('?') ? pageQuery : `?${pageQuery}`);
    assert.ok(result.items.length <= limit);
    expectedCount ??= result.count;
    assert.equal(result.count, expectedCount, 'count is the same on every page');
    seen.push(...result.items);
    if (result.next === undefined) {
      assert.equal(seen.length, expectedCount, 'the pages hold count items');
      return seen;
    }
    assert.equal(result.items.length, limit, 'only the last page is short');
    page = result.next.page;
  }
  assert.fail('more pages than expected');
}

const byKeyThenId =
  (key: (m: MemberJson) => string, descending: boolean) => (a: MemberJson, b: MemberJson) => {
    const ka = key(a);
    const kb = key(b);
    const order = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return descending ? -order : order;
  };

const ids = (items: { id: string }[]) => items.map((item) => item.id);
const sorted = (values: string[]) => [...values].sort();

/** The same message shape with the id taken out. */
const withoutId = (message: string, id: string) => message.replaceAll(id, '<id>');

describe('listing members', () => {
  test('every member, with each field of the member object', async (c) => {
    const t = await freshApp(c);
    const spaceCount = 3;
    for (let i = 0; i < spaceCount; i++) await createSpace(t, `Space ${i}`);
    // Sites without spaces (the body is optional), so that the space count stays as made.
    const siteCount = 2;
    for (let i = 0; i < siteCount; i++) {
      expectStatus(await t.request({ method: 'POST', url: `/v1/orgs/${t.orgId}/sites` }), 201);
    }
    const people: Record<string, Person> = {};
    for (const role of MEMBER_ROLES.filter((r) => r !== 'admin')) {
      people[role] = await addMember(t, role, {
        displayName: `The ${role} member`,
        email: `${role}@example.com`,
      });
    }
    people.guest = await addMember(t, 'guest', { displayName: 'A guest' });

    const result = await list(t);
    assert.equal(result.count, 7);
    assert.equal(result.items.length, 7);
    assert.equal(result.next, undefined);
    const byId = new Map(result.items.map((m) => [m.id, m]));
    assert.equal(byId.size, 7);

    const expected: [string, string, string | null, string | undefined][] = [
      [t.userId, 'Owner', 'admin', undefined],
      ...Object.entries(people).map(
        ([role, p]): [string, string, string | null, string | undefined] => [
          p.id,
          p.displayName,
          role === 'guest' ? null : role,
          p.email,
        ],
      ),
    ];
    for (const [id, displayName, role, email] of expected) {
      const member = byId.get(id);
      assert.ok(member, `member ${id} is listed`);
      const { joinedAt, lastSeenAt, ...rest } = member;
      assert.deepEqual(rest, {
        object: 'member',
        id,
        role,
        user: {
          object: 'user',
          id,
          displayName,
          ...(email === undefined ? {} : { email }),
          urls: { location: `http://livery.test/v1/users/${id}` },
        },
        disabled: false,
        sso: false,
        spaces: role === null ? 0 : spaceCount,
        teams: 0,
        // GitBook 0.202: every site of the organization for a role, none for a guest.
        sites: role === null ? 0 : siteCount,
      });
      assert.ok(!Number.isNaN(Date.parse(joinedAt)), joinedAt);
      if (id === t.userId) {
        // The owner's token made these requests: they have been seen.
        assert.ok(lastSeenAt !== undefined && !Number.isNaN(Date.parse(lastSeenAt)));
      } else {
        assert.equal(lastSeenAt, undefined, 'a member whose tokens were never used');
        assert.ok(!('lastSeenAt' in member));
      }
    }

    // One member reads the same as in the list.
    for (const member of result.items) {
      const one = json<MemberJson>(
        await t.request({ method: 'GET', url: memberUrl(t, member.id) }),
      );
      const { lastSeenAt: _a, ...a } = one;
      const { lastSeenAt: _b, ...b } = member;
      assert.deepEqual(a, b);
    }
  });

  test('role filter: each role and guest; an unknown role (owner) is a 400 naming querystring.role', async (c) => {
    const t = await freshApp(c);
    const people = new Map<string, string[]>([['admin', [t.userId]]]);
    for (const role of [...MEMBER_ROLES, 'guest'] as const) {
      const count = role === 'edit' ? 2 : 1;
      for (let i = 0; i < count; i++) {
        const p = await addMember(t, role, { displayName: `${role} ${i}` });
        people.set(role, [...(people.get(role) ?? []), p.id]);
      }
    }
    for (const role of [...MEMBER_ROLES, 'guest']) {
      const result = await list(t, `?role=${role}`);
      const expected = people.get(role) ?? [];
      assert.deepEqual(sorted(ids(result.items)), sorted(expected), role);
      assert.equal(result.count, expected.length, role);
      for (const member of result.items) assert.equal(member.role, role === 'guest' ? null : role);
    }
    const before = await roles(t);
    for (const bad of ['owner', 'ADMIN', '']) {
      const message = expectError(
        await t.request({ method: 'GET', url: `${membersUrl(t)}?role=${bad}` }),
        400,
      );
      assert.match(message, /querystring\.role/, message);
    }
    const message = expectError(
      await t.request({ method: 'GET', url: `${membersUrl(t)}?sort=name` }),
      400,
    );
    assert.match(message, /querystring\.sort/);
    expectError(await t.request({ method: 'GET', url: `${membersUrl(t)}?order=up` }), 400);
    expectError(await t.request({ method: 'GET', url: `${membersUrl(t)}?limit=0` }), 400);
    expectError(await t.request({ method: 'GET', url: `${membersUrl(t)}?page=nonsense` }), 400);
    assert.deepEqual(await roles(t), before);
  });

  test('search: case-insensitive on displayName and email; % and _ are literal', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'edit', {
      displayName: 'Ada Lovelace',
      email: 'countess@analytical.example',
    });
    const grace = await addMember(t, 'read', {
      displayName: 'Grace Hopper',
      email: 'grace@navy.example',
    });
    const percent = await addMember(t, 'comment', { displayName: '100% Coverage' });
    const underscore = await addMember(t, 'guest', {
      displayName: 'snake_case',
      email: 'x_y@example.com',
    });
    const noEmail = await addMember(t, 'review', { displayName: 'Nameless Reviewer' });

    const search = async (text: string, extra = '') =>
      list(t, `?search=${encodeURIComponent(text)}${extra}`);
    const expectFound = async (text: string, expected: string[], extra = '') => {
      const result = await search(text, extra);
      assert.deepEqual(sorted(ids(result.items)), sorted(expected), `search ${text}`);
      assert.equal(result.count, expected.length, `count of search ${text}`);
    };

    await expectFound('lovelace', [ada.id]);
    await expectFound('LOVELACE', [ada.id]);
    await expectFound('aDa lOvE', [ada.id]);
    // email, not only the display name
    await expectFound('COUNTESS', [ada.id]);
    await expectFound('navy.example', [grace.id]);
    // both
    await expectFound('grace', [grace.id]);
    await expectFound('.example', [ada.id, grace.id]);
    // % and _ are matched literally, not as LIKE wildcards
    await expectFound('%', [percent.id]);
    await expectFound('0% c', [percent.id]);
    await expectFound('_', [underscore.id]);
    await expectFound('e_c', [underscore.id]);
    await expectFound('x_y@', [underscore.id]);
    await expectFound('a%e', []);
    await expectFound('\\', []);
    await expectFound('nobody at all', []);
    // The owner, without an email, by name; members without email are searchable by name.
    await expectFound('owner', [t.userId]);
    await expectFound('nameless', [noEmail.id]);
    // search combines with role
    await expectFound('e', [grace.id], '&role=read');
    await expectFound('example', [], '&role=admin');
    // too long a search is a 400 naming querystring.search
    const message = expectError(
      await t.request({ method: 'GET', url: `${membersUrl(t)}?search=${'a'.repeat(257)}` }),
      400,
    );
    assert.match(message, /querystring\.search/);
  });

  test('search ignores case beyond ASCII, and finds a name written exactly as stored', async (c) => {
    const t = await freshApp(c);
    const elodie = await addMember(t, 'read', {
      displayName: 'Élodie Ünal',
      email: 'ÉLO@ÜBER.EXAMPLE',
    });
    await addMember(t, 'read', { displayName: 'Elodie Unal', email: 'elo@uber.example' });
    for (const text of ['Élodie', 'Élodie Ünal', 'élodie', 'ÉLODIE', 'ünal', 'ÜNAL', 'élo@über']) {
      const result = await list(t, `?search=${encodeURIComponent(text)}`);
      assert.deepEqual(ids(result.items), [elodie.id], `search ${text}`);
      assert.equal(result.count, 1, `count of search ${text}`);
    }
  });

  test('sort: joinedAt desc by default, order=asc reverses; lastSeenAt lists only members seen', async (c) => {
    const t = await freshApp(c);
    const people: Person[] = [];
    for (let i = 0; i < 5; i++) {
      people.push(await addMember(t, i % 2 === 0 ? 'read' : 'edit', { displayName: `P${i}` }));
      // distinct join times in most cases; ties are ordered by id
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const all = [t.userId, ...ids(people)];

    const byDefault = await list(t);
    assert.deepEqual(sorted(ids(byDefault.items)), sorted(all));
    const joinedDesc = [...byDefault.items].sort(byKeyThenId((m) => m.joinedAt, true));
    assert.deepEqual(ids(byDefault.items), ids(joinedDesc), 'joinedAt, newest first');
    // The last member to join comes first, the owner (who joined first) last.
    assert.equal(byDefault.items[0]?.id, people[4]?.id);
    assert.equal(byDefault.items.at(-1)?.id, t.userId);
    assert.deepEqual(ids((await list(t, '?sort=joinedAt')).items), ids(joinedDesc));
    assert.deepEqual(ids((await list(t, '?sort=joinedAt&order=desc')).items), ids(joinedDesc));
    assert.deepEqual(ids((await list(t, '?order=desc')).items), ids(joinedDesc));
    const asc = await list(t, '?order=asc');
    assert.deepEqual(ids(asc.items), ids(joinedDesc).reverse());
    assert.deepEqual(ids((await list(t, '?sort=joinedAt&order=asc')).items), ids(asc.items));

    // Only P1, P3 and P0 use their tokens (in that order); the owner has been seen too.
    const seen = [people[1], people[3], people[0]] as Person[];
    for (const p of seen) {
      expectStatus(await as(t, p.token, { method: 'GET', url: '/v1/user' }), 200);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const seenIds = [t.userId, ...ids(seen)];
    const bySeen = await list(t, '?sort=lastSeenAt');
    assert.deepEqual(sorted(ids(bySeen.items)), sorted(seenIds));
    assert.equal(bySeen.count, seenIds.length);
    for (const member of bySeen.items) {
      assert.ok(member.lastSeenAt !== undefined, `${member.id} has lastSeenAt`);
      assert.ok(!Number.isNaN(Date.parse(member.lastSeenAt)));
    }
    const seenDesc = [...bySeen.items].sort(byKeyThenId((m) => m.lastSeenAt ?? '', true));
    assert.deepEqual(ids(bySeen.items), ids(seenDesc), 'lastSeenAt, most recent first');
    // P0 used its token last.
    assert.equal(bySeen.items[0]?.id, people[0]?.id);
    const seenAsc = await list(t, '?sort=lastSeenAt&order=asc');
    assert.deepEqual(ids(seenAsc.items), ids(seenDesc).reverse());
    assert.equal(seenAsc.count, seenIds.length);

    // lastSeenAt filters combine with role and search.
    const readSeen = await list(t, '?sort=lastSeenAt&role=read');
    assert.deepEqual(sorted(ids(readSeen.items)), sorted([people[0]?.id ?? '']));
    assert.equal(readSeen.count, 1);
    const searched = await list(t, '?sort=lastSeenAt&search=p3');
    assert.deepEqual(ids(searched.items), [people[3]?.id]);

    // The unsorted list still lists everyone; members never seen have no lastSeenAt.
    for (const member of (await list(t)).items) {
      assert.equal(member.lastSeenAt !== undefined, seenIds.includes(member.id), member.id);
    }
  });

  test('pagination: limit=1 walks every member once, both orders and both sorts', async (c) => {
    const t = await freshApp(c);
    const people: Person[] = [];
    for (let i = 0; i < 6; i++) {
      // Same-millisecond join times are likely here: the id must break ties without repeats.
      people.push(await addMember(t, i === 5 ? 'guest' : 'read', { displayName: `Page ${i}` }));
    }
    for (const p of people.slice(0, 4)) {
      expectStatus(await as(t, p.token, { method: 'GET', url: '/v1/user' }), 200);
    }
    const all = [t.userId, ...ids(people)];
    const fetch = (query: string) => list(t, query);
    for (const [query, expected] of [
      ['', all],
      ['?order=asc', all],
      ['?order=desc', all],
      ['?sort=lastSeenAt', [t.userId, ...ids(people.slice(0, 4))]],
      ['?sort=lastSeenAt&order=asc', [t.userId, ...ids(people.slice(0, 4))]],
      ['?role=read', ids(people.slice(0, 5))],
      ['?role=read&order=asc', ids(people.slice(0, 5))],
      ['?search=page&order=asc', ids(people)],
    ] as const) {
      const full = await list(t, query);
      assert.equal(full.next, undefined);
      for (const limit of [1, 2, 4]) {
        const walked = await walk(fetch, query.replace(/^\?/, ''), limit);
        const walkedIds = ids(walked);
        assert.equal(new Set(walkedIds).size, walkedIds.length, `no repeats: ${query} ${limit}`);
        assert.deepEqual(sorted(walkedIds), sorted([...expected]), `${query} limit ${limit}`);
        assert.deepEqual(walkedIds, ids(full.items), `pages keep the order: ${query} ${limit}`);
      }
    }
    // limit=1: the first page has a next page and the total count.
    const first = await list(t, '?limit=1');
    assert.equal(first.items.length, 1);
    assert.equal(first.count, all.length);
    assert.ok(first.next?.page);
    // A member joining between pages neither repeats nor shifts the walk (keyset cursors).
    const page1 = await list(t, '?limit=3&order=asc');
    const late = await addMember(t, 'read', { displayName: 'Late' });
    const page2 = await list(t, `?limit=10&order=asc&page=${page1.next?.page}`);
    assert.deepEqual(
      [...ids(page1.items), ...ids(page2.items)],
      [...ids((await list(t, '?order=asc')).items)],
    );
    assert.equal(page2.items.at(-1)?.id, late.id);
  });
});

describe('one member', () => {
  test('GET a member: 200; an unknown user or a non-member is a 404 naming the id', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'comment', { displayName: 'Ada', email: 'ada@example.com' });
    const member = json<MemberJson>(await t.request({ method: 'GET', url: memberUrl(t, ada.id) }));
    assert.equal(member.object, 'member');
    assert.equal(member.id, ada.id);
    assert.equal(member.role, 'comment');
    assert.deepEqual(member.user, {
      object: 'user',
      id: ada.id,
      displayName: 'Ada',
      email: 'ada@example.com',
      urls: { location: `http://livery.test/v1/users/${ada.id}` },
    });
    const self = json<MemberJson>(await t.request({ method: 'GET', url: memberUrl(t, t.userId) }));
    assert.equal(self.role, 'admin');
    assert.ok(self.lastSeenAt);

    const outsider = await t.services.identity.createUser({ displayName: 'Outsider' });
    for (const id of ['nobody', outsider.id]) {
      const message = expectError(await t.request({ method: 'GET', url: memberUrl(t, id) }), 404);
      assert.ok(message.includes(JSON.stringify(id)), message);
      assert.equal(withoutId(message, id), 'No member found with id "<id>"');
    }
  });
});

describe('changing roles', () => {
  test('PATCH sets each role; null makes a guest; {} changes nothing', async (c) => {
    const t = await freshApp(c);
    await createSpace(t, 'One');
    await createSpace(t, 'Two');
    const ada = await addMember(t, 'read', { displayName: 'Ada' });
    const patch = (payload: unknown) =>
      t.request({ method: 'PATCH', url: memberUrl(t, ada.id), payload: payload as object });
    for (const role of [...MEMBER_ROLES, 'read'] as const) {
      const member = json<MemberJson>(await patch({ role }));
      assert.equal(member.id, ada.id);
      assert.equal(member.role, role);
      assert.equal(member.spaces, 2);
      assert.equal(
        json<MemberJson>(await t.request({ method: 'GET', url: memberUrl(t, ada.id) })).role,
        role,
      );
      // The new role is what the member's token now has.
      const org = json<{ permissions: { admin: boolean } }>(
        await as(t, ada.token, { method: 'GET', url: `/v1/orgs/${t.orgId}` }),
      );
      assert.equal(org.permissions.admin, role === 'admin');
    }
    const guest = json<MemberJson>(await patch({ role: null }));
    assert.equal(guest.role, null);
    assert.equal(guest.spaces, 0);
    assert.equal(guest.user.id, ada.id);
    assert.deepEqual(ids((await list(t, '?role=guest')).items), [ada.id]);
    // A guest is still a member: the organization answers their token.
    expectStatus(await as(t, ada.token, { method: 'GET', url: `/v1/orgs/${t.orgId}` }), 200);
    // null again: still a guest
    assert.equal(json<MemberJson>(await patch({ role: null })).role, null);

    const before = await roles(t);
    const unchanged = json<MemberJson>(await patch({}));
    assert.equal(unchanged.role, null);
    assert.equal(unchanged.spaces, 0);
    assert.deepEqual(await roles(t), before);

    const back = json<MemberJson>(await patch({ role: 'edit' }));
    assert.equal(back.role, 'edit');
    assert.equal(back.spaces, 2);
    assert.deepEqual(json<MemberJson>(await patch({})).role, 'edit');
    // The owner can set their own role to admin again (no change, not a demotion).
    assert.equal(
      json<MemberJson>(
        await t.request({
          method: 'PATCH',
          url: memberUrl(t, t.userId),
          payload: { role: 'admin' },
        }),
      ).role,
      'admin',
    );
  });

  test('PATCH refusals: role owner or unknown field (400), unknown member (404); nothing changes', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'edit', { displayName: 'Ada' });
    const outsider = await t.services.identity.createUser({ displayName: 'Outsider' });
    const before = await roles(t);
    const patch = (userId: string, payload: unknown, headers?: Record<string, string>) =>
      t.request({
        method: 'PATCH',
        url: memberUrl(t, userId),
        payload: payload as string,
        ...(headers === undefined ? {} : { headers }),
      });

    for (const role of ['owner', 'guest', 'Admin', '', 3, true, ['read'], { role: 'read' }]) {
      const message = expectError(await patch(ada.id, { role }), 400);
      assert.match(message, /body\.role/, `${JSON.stringify(role)}: ${message}`);
    }
    const unknownField = expectError(await patch(ada.id, { role: 'read', team: 'x' }), 400);
    assert.match(unknownField, /body\.team/);
    assert.match(unknownField, /not a known field/);
    expectError(await patch(ada.id, { disabled: true }), 400);
    expectError(await patch(ada.id, ['read']), 400);
    expectError(await patch(ada.id, 'read', { 'content-type': 'application/json' }), 400);
    expectError(await patch(ada.id, '{"role":', { 'content-type': 'application/json' }), 400);
    assert.deepEqual(await roles(t), before);

    for (const id of ['nobody', outsider.id]) {
      const message = expectError(await patch(id, { role: 'read' }), 404);
      assert.equal(withoutId(message, id), 'No member found with id "<id>"');
      expectError(await patch(id, { role: null }), 404);
      // Without a role nothing would change, but the member must still exist.
      expectError(await patch(id, {}), 404);
    }
    assert.deepEqual(await roles(t), before);
    // The outsider did not become a member.
    expectError(await t.request({ method: 'GET', url: memberUrl(t, outsider.id) }), 404);
  });

  test('the last admin cannot be demoted (409); with two admins one can be', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'edit', { displayName: 'Ada' });
    for (const role of [...MEMBER_ROLES.filter((r) => r !== 'admin'), null]) {
      const message = expectError(
        await t.request({ method: 'PATCH', url: memberUrl(t, t.userId), payload: { role } }),
        409,
      );
      assert.match(message, /last admin/, message);
      assert.ok(message.includes(t.userId), message);
    }
    assert.deepEqual(await roles(t), { [t.userId]: 'admin', [ada.id]: 'edit' });

    // A second admin: now the owner can step down, and then the second is the last admin.
    json<MemberJson>(
      await t.request({ method: 'PATCH', url: memberUrl(t, ada.id), payload: { role: 'admin' } }),
    );
    const demoted = json<MemberJson>(
      await t.request({ method: 'PATCH', url: memberUrl(t, t.userId), payload: { role: 'read' } }),
    );
    assert.equal(demoted.role, 'read');
    assert.deepEqual(await roles(t), { [t.userId]: 'read', [ada.id]: 'admin' });
    // The owner is no longer an admin: their PATCH is a 403 now.
    expectError(
      await t.request({ method: 'PATCH', url: memberUrl(t, ada.id), payload: { role: 'read' } }),
      403,
    );
    // Ada, the last admin, cannot demote herself.
    const message = expectError(
      await as(t, ada.token, {
        method: 'PATCH',
        url: memberUrl(t, ada.id),
        payload: { role: null },
      }),
      409,
    );
    assert.match(message, /last admin/);
    assert.deepEqual(await roles(t), { [t.userId]: 'read', [ada.id]: 'admin' });
  });

  test('two admins demoting or removing each other at once: exactly one succeeds, one admin remains', async (c) => {
    const t = await freshApp(c);
    // The org's only admin, and their token; each round races them against a new second admin.
    let current: Person = { id: t.userId, token: t.token, displayName: 'Owner' };
    type Move = { method: 'PATCH'; role: string | null } | { method: 'DELETE' };
    const demote = (role: string | null): Move => ({ method: 'PATCH', role });
    const remove: Move = { method: 'DELETE' };
    // Each round: [what the current admin does to the new one, what the new one does to them].
    const rounds: [Move, Move][] = [
      [demote('edit'), demote('edit')],
      [demote(null), demote(null)],
      [remove, remove],
      [demote('read'), remove],
      [remove, demote('comment')],
      [demote('create'), demote(null)],
    ];
    const succeeded = (move: Move) => (move.method === 'PATCH' ? 200 : 205);
    let conflicts = 0;
    for (const [round, moves] of [...rounds, ...rounds, ...rounds].entries()) {
      const other = await addMember(t, 'admin', { displayName: `Admin ${round}` });
      const before = await roles(t, t.orgId, current.token);
      assert.equal(Object.values(before).filter((r) => r === 'admin').length, 2);
      const race = (caller: Person, target: Person, move: Move) =>
        as(t, caller.token, {
          method: move.method,
          url: memberUrl(t, target.id),
          ...(move.method === 'PATCH' ? { payload: { role: move.role } } : {}),
        });
      const responses = await Promise.all([
        race(current, other, moves[0]),
        race(other, current, moves[1]),
      ]);
      const detail = `round ${round}:\n${responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')}`;
      const firstWon = responses[0]?.statusCode === succeeded(moves[0]);
      const secondWon = responses[1]?.statusCode === succeeded(moves[1]);
      assert.ok(firstWon !== secondWon, `exactly one succeeds: ${detail}`);
      const winner = firstWon ? current : other;
      const loser = firstWon ? other : current;
      const move = firstWon ? moves[0] : moves[1];
      const refused = responses[firstWon ? 1 : 0];
      assert.ok(refused);
      if (refused.statusCode === 409) {
        // Both changes reached the transaction: the second saw the last admin.
        conflicts += 1;
        assert.match(expectError(refused, 409), /last admin/, detail);
      } else if (move.method === 'PATCH') {
        // The winner's change committed before the loser's request was authenticated: the loser
        // was no longer an admin (a guest is a member without role).
        assert.match(expectError(refused, 403), /needs the admin role/, detail);
      } else {
        // ... or no longer a member at all.
        assert.match(expectError(refused, 404), /No organization found/, detail);
      }

      // Read back: one admin remains, the winner; the loser has the new role (or is gone).
      const after = await roles(t, t.orgId, winner.token);
      const admins = Object.entries(after).filter(([, r]) => r === 'admin');
      assert.deepEqual(admins, [[winner.id, 'admin']], JSON.stringify(after));
      const expected = { ...before };
      if (move.method === 'PATCH') expected[loser.id] = move.role;
      else delete expected[loser.id];
      assert.deepEqual(after, expected, 'the winning change only');
      current = winner;
    }
    // Requests sent together nearly always both reach the check: the race was exercised.
    assert.ok(conflicts > 0, 'at least one round ended in a 409');
  });
});

describe('removing members', () => {
  test('DELETE: 205, then 204; the member is gone and their token gets 404 here', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'edit', { displayName: 'Ada' });
    const grace = await addMember(t, 'read', { displayName: 'Grace' });
    expectStatus(await as(t, ada.token, { method: 'GET', url: membersUrl(t) }), 200);

    const removed = await t.request({ method: 'DELETE', url: memberUrl(t, ada.id) });
    assert.equal(removed.statusCode, 205, removed.body);
    assert.equal(removed.body, '');
    assert.deepEqual(await roles(t), { [t.userId]: 'admin', [grace.id]: 'read' });
    expectError(await t.request({ method: 'GET', url: memberUrl(t, ada.id) }), 404);
    const again = await t.request({ method: 'DELETE', url: memberUrl(t, ada.id) });
    assert.equal(again.statusCode, 204, again.body);
    assert.equal(again.body, '');
    const never = await t.request({ method: 'DELETE', url: memberUrl(t, 'nobody') });
    assert.equal(never.statusCode, 204);
    assert.deepEqual(await roles(t), { [t.userId]: 'admin', [grace.id]: 'read' });

    // Ada is now a stranger to the organization: the 404 of an organization that does not exist.
    for (const url of [`/v1/orgs/${t.orgId}`, membersUrl(t), memberUrl(t, grace.id)]) {
      const message = expectError(await as(t, ada.token, { method: 'GET', url }), 404);
      assert.equal(withoutId(message, t.orgId), 'No organization found with id "<id>"');
    }
    // Her user and token still exist.
    expectStatus(await as(t, ada.token, { method: 'GET', url: '/v1/user' }), 200);
    // The organization's users no longer see her.
    expectError(await t.request({ method: 'GET', url: `/v1/users/${ada.id}` }), 404);
    // A removed member can be added back.
    await t.services.identity.setMemberRole(t.orgId, ada.id, 'comment');
    expectStatus(await as(t, ada.token, { method: 'GET', url: membersUrl(t) }), 200);
  });

  test('the same member removed several times at once: one 205, the others 204', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'edit', { displayName: 'Ada' });
    const grace = await addMember(t, 'admin', { displayName: 'Grace' });
    const responses = await Promise.all([
      t.request({ method: 'DELETE', url: memberUrl(t, ada.id) }),
      as(t, grace.token, { method: 'DELETE', url: memberUrl(t, ada.id) }),
      t.request({ method: 'DELETE', url: memberUrl(t, ada.id) }),
    ]);
    assert.deepEqual(responses.map((r) => r.statusCode).sort(), [204, 204, 205]);
    assert.deepEqual(await roles(t), { [t.userId]: 'admin', [grace.id]: 'admin' });
  });

  test('DELETE of the last admin is a 409, also by themselves; nothing changes', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'create', { displayName: 'Ada' });
    const before = await roles(t);
    const message = expectError(
      await t.request({ method: 'DELETE', url: memberUrl(t, t.userId) }),
      409,
    );
    assert.match(message, /last admin/);
    assert.match(message, /removed/);
    assert.deepEqual(await roles(t), before);
    expectStatus(await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}` }), 200);

    // With a second admin the owner may leave (removing themselves).
    json(
      await t.request({ method: 'PATCH', url: memberUrl(t, ada.id), payload: { role: 'admin' } }),
    );
    const left = await t.request({ method: 'DELETE', url: memberUrl(t, t.userId) });
    assert.equal(left.statusCode, 205, left.body);
    expectError(await t.request({ method: 'GET', url: membersUrl(t) }), 404);
    const after = json<ListOfItems<MemberJson>>(
      await as(t, ada.token, { method: 'GET', url: membersUrl(t) }),
    );
    assert.deepEqual(
      after.items.map((m) => [m.id, m.role]),
      [[ada.id, 'admin']],
    );
    const last = expectError(
      await as(t, ada.token, { method: 'DELETE', url: memberUrl(t, ada.id) }),
      409,
    );
    assert.match(last, /last admin/);
    assert.equal(
      json<ListOfItems<MemberJson>>(await as(t, ada.token, { method: 'GET', url: membersUrl(t) }))
        .count,
      1,
    );
  });

  test('removing a member of two organizations ends only that membership', async (c) => {
    const t = await freshApp(c);
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other organization',
      ownerName: 'Other owner',
    });
    const ada = await addMember(t, 'edit', { displayName: 'Ada', email: 'ada@example.com' });
    await t.services.identity.setMemberRole(other.organization.id, ada.id, 'read');
    const secondToken = (await t.services.identity.createToken(ada.id, { label: 'second' })).token;
    const otherRoles = await roles(t, other.organization.id).catch(() => undefined);
    // (the test app's owner is not in the other organization)
    assert.equal(otherRoles, undefined);
    const otherBefore = json<ListOfItems<MemberJson>>(
      await as(t, other.token, { method: 'GET', url: membersUrl(t, other.organization.id) }),
    );
    assert.equal(otherBefore.count, 2);

    const removed = await t.request({ method: 'DELETE', url: memberUrl(t, ada.id) });
    assert.equal(removed.statusCode, 205, removed.body);

    for (const token of [ada.token, secondToken]) {
      expectError(await as(t, token, { method: 'GET', url: `/v1/orgs/${t.orgId}` }), 404);
      expectError(await as(t, token, { method: 'GET', url: membersUrl(t) }), 404);
      expectStatus(
        await as(t, token, { method: 'GET', url: `/v1/orgs/${other.organization.id}` }),
        200,
      );
      const theirs = json<ListOfItems<MemberJson>>(
        await as(t, token, { method: 'GET', url: membersUrl(t, other.organization.id) }),
      );
      assert.deepEqual(sorted(ids(theirs.items)), sorted([other.user.id, ada.id]));
      const self = json<UserJson>(await as(t, token, { method: 'GET', url: '/v1/user' }));
      assert.equal(self.id, ada.id);
      assert.equal(self.email, 'ada@example.com');
      json(await as(t, token, { method: 'GET', url: `/v1/users/${ada.id}` }));
      const orgs = json<ListOfItems<{ id: string }>>(
        await as(t, token, { method: 'GET', url: '/v1/orgs' }),
      );
      assert.deepEqual(ids(orgs.items), [other.organization.id]);
    }
    // Her membership of the other organization is untouched.
    const otherAfter = json<MemberJson>(
      await as(t, other.token, { method: 'GET', url: memberUrl(t, ada.id, other.organization.id) }),
    );
    assert.equal(otherAfter.role, 'read');
    // Her tokens were not revoked.
    const tokens = json<ListOfItems<{ id: string }>>(
      await as(t, ada.token, { method: 'GET', url: '/v1/user/tokens' }),
    );
    assert.equal(tokens.items.length, 2);
  });
});

describe("a member's spaces", () => {
  test("the organization's spaces with the member's role as permission; guests none", async (c) => {
    const t = await freshApp(c);
    const spaceIds: string[] = [];
    for (let i = 0; i < 4; i++) spaceIds.push(await createSpace(t, `Space ${i}`));
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other organization',
      ownerName: 'Other owner',
    });
    // A space of another organization is never listed.
    json(
      await as(t, other.token, {
        method: 'POST',
        url: `/v1/orgs/${other.organization.id}/spaces`,
        payload: { title: 'Elsewhere' },
      }),
      201,
    );
    const spacesOf = (userId: string, query = '') =>
      t.request({ method: 'GET', url: `${memberUrl(t, userId)}/spaces${query}` });

    const people = new Map<string, Person>();
    for (const role of MEMBER_ROLES) people.set(role, await addMember(t, role));
    for (const [role, person] of people) {
      const result = json<ListOfItems<{ permission: string; space: SpaceJson }>>(
        await spacesOf(person.id),
      );
      assert.equal(result.count, 4, role);
      assert.deepEqual(sorted(result.items.map((i) => i.space.id)), sorted(spaceIds), role);
      for (const item of result.items) {
        assert.deepEqual(Object.keys(item).sort(), ['permission', 'space']);
        assert.equal(item.permission, role);
        assert.equal(item.space.object, 'space');
        assert.equal(item.space.organization, t.orgId);
      }
      // As many as the member's `spaces` count.
      assert.equal(
        json<MemberJson>(await t.request({ method: 'GET', url: memberUrl(t, person.id) })).spaces,
        4,
      );
    }
    const owner = json<ListOfItems<{ permission: string }>>(await spacesOf(t.userId));
    assert.ok(owner.items.every((i) => i.permission === 'admin'));

    const guest = await addMember(t, 'guest');
    assert.deepEqual(json(await spacesOf(guest.id)), { items: [], count: 0 });
    assert.deepEqual(json(await spacesOf(guest.id, '?limit=1')), { items: [], count: 0 });
    // A member made a guest loses them; made a member again gets them back.
    const reader = people.get('read') as Person;
    json(
      await t.request({ method: 'PATCH', url: memberUrl(t, reader.id), payload: { role: null } }),
    );
    assert.deepEqual(json(await spacesOf(reader.id)), { items: [], count: 0 });
    json(
      await t.request({
        method: 'PATCH',
        url: memberUrl(t, reader.id),
        payload: { role: 'comment' },
      }),
    );
    const back = json<ListOfItems<{ permission: string }>>(await spacesOf(reader.id));
    assert.equal(back.count, 4);
    assert.ok(back.items.every((i) => i.permission === 'comment'));

    // Pagination: limit=1 walks every space once.
    const editor = people.get('edit') as Person;
    const walked = await walk(
      async (query) =>
        json<ListOfItems<{ permission: string; space: SpaceJson }>>(
          await spacesOf(editor.id, query),
        ),
      '',
      1,
    );
    assert.deepEqual(sorted(walked.map((i) => i.space.id)), sorted(spaceIds));
    assert.equal(new Set(walked.map((i) => i.space.id)).size, 4);
    expectError(await spacesOf(editor.id, '?limit=0'), 400);
    expectError(await spacesOf(editor.id, '?page=garbage'), 400);

    // A member reads their own and others' spaces (read role suffices).
    json(await as(t, reader.token, { method: 'GET', url: `${memberUrl(t, editor.id)}/spaces` }));

    // Unknown member, or a user of another organization only: 404 naming the id.
    for (const id of ['nobody', other.user.id]) {
      const message = expectError(await spacesOf(id), 404);
      assert.equal(withoutId(message, id), 'No member found with id "<id>"');
    }
  });
});

describe('users', () => {
  test('GET /v1/users/{id}: users sharing an organization, and oneself; others are a 404', async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'guest', { displayName: 'Ada', email: 'ada@example.com' });
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other organization',
      ownerName: 'Other owner',
    });
    const loner = await t.services.identity.createUser({ displayName: 'Loner' });

    const user = json<UserJson>(await t.request({ method: 'GET', url: `/v1/users/${ada.id}` }));
    assert.deepEqual(user, {
      object: 'user',
      id: ada.id,
      displayName: 'Ada',
      email: 'ada@example.com',
      urls: { location: `http://livery.test/v1/users/${ada.id}` },
    });
    // The same user as in the member object.
    const member = json<MemberJson>(await t.request({ method: 'GET', url: memberUrl(t, ada.id) }));
    assert.deepEqual(member.user, user);
    // A guest sees the others too, and themselves.
    const owner = json<UserJson>(
      await as(t, ada.token, { method: 'GET', url: `/v1/users/${t.userId}` }),
    );
    assert.equal(owner.displayName, 'Owner');
    json(await as(t, ada.token, { method: 'GET', url: `/v1/users/${ada.id}` }));
    // One's own id: also for a user in no organization.
    const self = json<UserJson>(await t.request({ method: 'GET', url: `/v1/users/${t.userId}` }));
    assert.deepEqual(self, json(await t.request({ method: 'GET', url: '/v1/user' })));
    const lonerToken = (await t.services.identity.createToken(loner.id, { label: 'x' })).token;
    assert.equal(
      json<UserJson>(await as(t, lonerToken, { method: 'GET', url: `/v1/users/${loner.id}` })).id,
      loner.id,
    );
    expectError(await as(t, lonerToken, { method: 'GET', url: `/v1/users/${t.userId}` }), 404);

    // Users of other organizations, a user in none, and ids that exist nowhere: one 404 shape.
    const shapes = new Set<string>();
    for (const id of [other.user.id, loner.id, 'nobody', 'AAAAAAAAAAAAAAAAAAAA']) {
      const response = await t.request({ method: 'GET', url: `/v1/users/${id}` });
      const message = expectError(response, 404);
      shapes.add(withoutId(message, id));
      shapes.add(withoutId(response.body, id));
    }
    assert.deepEqual([...shapes].sort(), [
      'No user found with id "<id>"',
      '{"error":{"code":404,"message":"No user found with id \\"<id>\\""}}',
    ]);
    // Once a member of both, they see each other; removed again, not.
    await t.services.identity.setMemberRole(t.orgId, other.user.id, 'read');
    json(await t.request({ method: 'GET', url: `/v1/users/${other.user.id}` }));
    json(await as(t, other.token, { method: 'GET', url: `/v1/users/${t.userId}` }));
    assert.equal(
      (await t.request({ method: 'DELETE', url: memberUrl(t, other.user.id) })).statusCode,
      205,
    );
    expectError(await t.request({ method: 'GET', url: `/v1/users/${other.user.id}` }), 404);
    expectError(await as(t, other.token, { method: 'GET', url: `/v1/users/${t.userId}` }), 404);
  });
});

describe('who may call the members operations', () => {
  test('a read member lists and reads members but gets 403 naming admin on PATCH and DELETE', async (c) => {
    const t = await freshApp(c);
    await createSpace(t, 'One');
    const reader = await addMember(t, 'read', { displayName: 'Reader' });
    const ada = await addMember(t, 'edit', { displayName: 'Ada' });
    const read = (options: InjectOptions) => as(t, reader.token, options);

    const listed = json<ListOfItems<MemberJson>>(await read({ method: 'GET', url: membersUrl(t) }));
    assert.equal(listed.count, 3);
    json(await read({ method: 'GET', url: `${membersUrl(t)}?role=edit&search=ada` }));
    assert.equal(
      json<MemberJson>(await read({ method: 'GET', url: memberUrl(t, ada.id) })).role,
      'edit',
    );
    json(await read({ method: 'GET', url: `${memberUrl(t, ada.id)}/spaces` }));
    json(await read({ method: 'GET', url: `/v1/users/${ada.id}` }));

    const before = await roles(t);
    for (const [method, target, payload] of [
      ['PATCH', ada.id, { role: 'admin' }],
      ['PATCH', reader.id, { role: 'admin' }],
      ['PATCH', ada.id, { role: 'owner' }], // refused before the body is validated
      ['PATCH', 'nobody', { role: 'read' }],
      ['DELETE', ada.id, undefined],
      ['DELETE', reader.id, undefined],
      ['DELETE', t.userId, undefined],
    ] as const) {
      const response = await read({
        method,
        url: memberUrl(t, target),
        ...(payload === undefined ? {} : { payload }),
      });
      const message = expectError(response, 403);
      assert.match(message, /needs the admin role/, message);
      assert.match(message, /your role is read/, message);
    }
    assert.deepEqual(await roles(t), before);

    // A guest may not even list the members (read is the minimum).
    const guest = await addMember(t, 'guest');
    const message = expectError(
      await as(t, guest.token, { method: 'GET', url: membersUrl(t) }),
      403,
    );
    assert.match(message, /needs the read role/);
    expectError(await as(t, guest.token, { method: 'GET', url: memberUrl(t, ada.id) }), 403);
    expectError(
      await as(t, guest.token, { method: 'GET', url: `${memberUrl(t, ada.id)}/spaces` }),
      403,
    );
  });

  test("a non-member (another organization's owner) gets 404 on every members route", async (c) => {
    const t = await freshApp(c);
    const ada = await addMember(t, 'edit', { displayName: 'Ada' });
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other organization',
      ownerName: 'Other owner',
    });
    const before = await roles(t);
    const requests: InjectOptions[] = [
      { method: 'GET', url: membersUrl(t) },
      { method: 'GET', url: `${membersUrl(t)}?role=owner` },
      { method: 'GET', url: memberUrl(t, ada.id) },
      { method: 'GET', url: memberUrl(t, t.userId) },
      { method: 'GET', url: memberUrl(t, 'nobody') },
      { method: 'PATCH', url: memberUrl(t, ada.id), payload: { role: 'admin' } },
      { method: 'PATCH', url: memberUrl(t, t.userId), payload: { role: null } },
      { method: 'PATCH', url: memberUrl(t, ada.id), payload: { role: 'owner' } },
      { method: 'PATCH', url: memberUrl(t, other.user.id), payload: { role: 'admin' } },
      { method: 'DELETE', url: memberUrl(t, ada.id) },
      { method: 'DELETE', url: memberUrl(t, t.userId) },
      { method: 'DELETE', url: memberUrl(t, 'nobody') },
      { method: 'GET', url: `${memberUrl(t, ada.id)}/spaces` },
      { method: 'GET', url: `${memberUrl(t, ada.id)}/spaces?limit=0` },
    ];
    const messages = new Set<string>();
    for (const options of requests) {
      messages.add(expectError(await as(t, other.token, options), 404));
    }
    assert.deepEqual([...messages], [`No organization found with id "${t.orgId}"`]);
    // The same 404 as for an organization that does not exist.
    const missing = expectError(
      await as(t, other.token, { method: 'GET', url: membersUrl(t, 'org_missing') }),
      404,
    );
    assert.equal(missing, 'No organization found with id "org_missing"');
    assert.deepEqual(await roles(t), before);
    // And the intruder did not become a member.
    expectError(await t.request({ method: 'GET', url: memberUrl(t, other.user.id) }), 404);
  });
});

describe('isolation between organizations', () => {
  test("org B's admin cannot read or change org A's members; A's path does not reach B's users", async (c) => {
    const t = await freshApp(c);
    const a1 = await addMember(t, 'edit', { displayName: 'A member' });
    const b = await t.services.identity.createOrganizationWithOwner({
      title: 'Organization B',
      ownerName: 'B owner',
    });
    const bOrg = b.organization.id;
    const bMember = await addMember(t, 'read', { displayName: 'B member' }, bOrg);
    const bAdmin = await addMember(t, 'admin', { displayName: 'B admin' }, bOrg);
    const beforeA = await roles(t);
    const bRoles = async () =>
      Object.fromEntries(
        json<ListOfItems<MemberJson>>(
          await as(t, b.token, { method: 'GET', url: membersUrl(t, bOrg) }),
        ).items.map((m) => [m.id, m.role]),
      );
    const beforeB = await bRoles();
    assert.deepEqual(beforeB, {
      [b.user.id]: 'admin',
      [bMember.id]: 'read',
      [bAdmin.id]: 'admin',
    });

    // B's admin through A's paths: 404 everywhere, naming A as an unknown organization.
    for (const options of [
      { method: 'GET', url: membersUrl(t) },
      { method: 'GET', url: memberUrl(t, a1.id) },
      { method: 'GET', url: `${memberUrl(t, a1.id)}/spaces` },
      { method: 'PATCH', url: memberUrl(t, a1.id), payload: { role: 'read' } },
      { method: 'PATCH', url: memberUrl(t, bMember.id), payload: { role: 'read' } },
      { method: 'DELETE', url: memberUrl(t, a1.id) },
      { method: 'DELETE', url: memberUrl(t, t.userId) },
    ] as InjectOptions[]) {
      const message = expectError(await as(t, bAdmin.token, options), 404);
      assert.equal(message, `No organization found with id "${t.orgId}"`);
    }
    // B's admin cannot see A's users either.
    expectError(await as(t, bAdmin.token, { method: 'GET', url: `/v1/users/${a1.id}` }), 404);

    // A's owner through A's path, naming users of B only: not members of A.
    for (const id of [bMember.id, bAdmin.id, b.user.id]) {
      const patched = expectError(
        await t.request({ method: 'PATCH', url: memberUrl(t, id), payload: { role: 'read' } }),
        404,
      );
      assert.equal(patched, `No member found with id "${id}"`);
      expectError(
        await t.request({ method: 'PATCH', url: memberUrl(t, id), payload: { role: null } }),
        404,
      );
      expectError(await t.request({ method: 'GET', url: memberUrl(t, id) }), 404);
      expectError(await t.request({ method: 'GET', url: `${memberUrl(t, id)}/spaces` }), 404);
      // Removing a non-member of A is a 204 and does not touch their membership of B.
      const removed = await t.request({ method: 'DELETE', url: memberUrl(t, id) });
      assert.equal(removed.statusCode, 204, removed.body);
      expectError(await t.request({ method: 'GET', url: `/v1/users/${id}` }), 404);
    }
    // Neither list mentions the other organization's members.
    assert.deepEqual(await roles(t), beforeA);
    assert.deepEqual(await bRoles(), beforeB);
    // B's list holds only B's members when searched for A's names.
    const searched = json<ListOfItems<MemberJson>>(
      await as(t, b.token, { method: 'GET', url: `${membersUrl(t, bOrg)}?search=A%20member` }),
    );
    assert.deepEqual(searched.items, []);
    assert.equal(searched.count, 0);
    // The last-admin rule counts the organization's own admins only: A's owner is A's last
    // admin although B has two.
    expectError(
      await t.request({ method: 'PATCH', url: memberUrl(t, t.userId), payload: { role: 'read' } }),
      409,
    );
    assert.deepEqual(await roles(t), beforeA);
    // And a user who is admin of both is the last admin of each one separately.
    await t.services.identity.setMemberRole(bOrg, t.userId, 'admin');
    json(
      await as(t, b.token, {
        method: 'PATCH',
        url: memberUrl(t, t.userId, bOrg),
        payload: { role: 'read' },
      }),
    );
    expectError(await t.request({ method: 'DELETE', url: memberUrl(t, t.userId) }), 409);
    assert.deepEqual(await roles(t), beforeA);
  });
});

describe('the official client', () => {
  test('every members operation through @gitbook/api', async (c) => {
    const t = await freshApp(c);
    const { api, endpoint } = await listenWithClient(t);
    const space = (await api.orgs.createSpace(t.orgId, { title: 'Client space' })).data;
    const ada = await addMember(t, 'edit', {
      displayName: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    const grace = await addMember(t, 'read', { displayName: 'Grace Hopper' });
    const guest = await addMember(t, 'guest', { displayName: 'Guest' });

    const all = await api.orgs.listMembersInOrganizationById(t.orgId);
    assert.equal(all.status, 200);
    assert.equal(all.data.count, 4);
    assert.deepEqual(
      sorted(all.data.items.map((m) => m.id)),
      sorted([t.userId, ada.id, grace.id, guest.id]),
    );
    const byRole = await api.orgs.listMembersInOrganizationById(t.orgId, {
      role: clientRole('edit'),
    });
    assert.deepEqual(
      byRole.data.items.map((m) => m.id),
      [ada.id],
    );
    const guests = await api.orgs.listMembersInOrganizationById(t.orgId, { role: 'guest' });
    assert.deepEqual(
      guests.data.items.map((m) => [m.id, m.role]),
      [[guest.id, null]],
    );
    const searched = await api.orgs.listMembersInOrganizationById(t.orgId, { search: 'LOVELACE' });
    assert.deepEqual(
      searched.data.items.map((m) => m.id),
      [ada.id],
    );
    const seen = new Set<string>();
    let page: string | undefined;
    do {
      const { data } = await api.orgs.listMembersInOrganizationById(t.orgId, {
        limit: 1,
        order: 'asc',
        ...(page === undefined ? {} : { page }),
      });
      assert.equal(data.items.length, 1);
      assert.equal(data.count, 4);
      for (const m of data.items) {
        assert.ok(!seen.has(m.id));
        seen.add(m.id);
      }
      page = data.next?.page;
    } while (page !== undefined);
    assert.equal(seen.size, 4);
    const bySeen = await api.orgs.listMembersInOrganizationById(t.orgId, { sort: 'lastSeenAt' });
    assert.deepEqual(
      bySeen.data.items.map((m) => m.id),
      [t.userId],
    );

    const member = await api.orgs.getMemberInOrganizationById(t.orgId, ada.id);
    assert.equal(member.status, 200);
    assert.equal(member.data.role, 'edit');
    assert.equal(member.data.user.displayName, 'Ada Lovelace');
    assert.equal(member.data.spaces, 1);

    const updated = await api.orgs.updateMemberInOrganizationById(t.orgId, ada.id, {
      role: clientRole('admin'),
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.data.role, 'admin');
    const guested = await api.orgs.updateMemberInOrganizationById(t.orgId, grace.id, {
      role: null,
    });
    assert.equal(guested.data.role, null);
    assert.equal(guested.data.spaces, 0);

    const spaces = await api.orgs.listSpacesForOrganizationMember(t.orgId, ada.id);
    assert.equal(spaces.status, 200);
    assert.deepEqual(
      spaces.data.items.map((i) => [i.permission, i.space.id]),
      [['admin', space.id]],
    );
    const none = await api.orgs.listSpacesForOrganizationMember(t.orgId, grace.id, { limit: 1 });
    assert.deepEqual(none.data.items, []);

    const user = await api.users.getUserById(ada.id);
    assert.equal(user.status, 200);
    assert.equal(user.data.id, ada.id);
    assert.equal(user.data.email, 'ada@example.com');

    const removed = await api.orgs.removeMemberFromOrganizationById(t.orgId, grace.id);
    assert.equal(removed.status, 205);
    const again = await api.orgs.removeMemberFromOrganizationById(t.orgId, grace.id);
    assert.equal(again.status, 204);
    assert.deepEqual(
      sorted((await api.orgs.listMembersInOrganizationById(t.orgId)).data.items.map((m) => m.id)),
      sorted([t.userId, ada.id, guest.id]),
    );

    // Failures surface as GitBookAPIError with the status and the server's message.
    const missing = await clientFailure(api.orgs.getMemberInOrganizationById(t.orgId, grace.id));
    assert.equal(missing.code, 404);
    const noUser = await clientFailure(api.users.getUserById(grace.id));
    assert.equal(noUser.code, 404);
    const badRole = await clientFailure(
      api.orgs.listMembersInOrganizationById(t.orgId, { role: clientRole('owner') }),
    );
    assert.equal(badRole.code, 400);

    // The last admin, through Ada's own client once the owner has stepped down.
    await api.orgs.updateMemberInOrganizationById(t.orgId, t.userId, { role: clientRole('read') });
    const adaApi = new GitBookAPI({ authToken: ada.token, endpoint });
    const lastAdmin = await clientFailure(
      adaApi.orgs.updateMemberInOrganizationById(t.orgId, ada.id, { role: clientRole('edit') }),
    );
    assert.equal(lastAdmin.code, 409);
    assert.match(lastAdmin.message, /last admin/);
    const lastRemoval = await clientFailure(
      adaApi.orgs.removeMemberFromOrganizationById(t.orgId, ada.id),
    );
    assert.equal(lastRemoval.code, 409);
    const readBack = await adaApi.orgs.getMemberInOrganizationById(t.orgId, ada.id);
    assert.equal(readBack.data.role, 'admin');
    // The owner, now a reader, is refused changes: 403.
    const refused = await clientFailure(
      api.orgs.updateMemberInOrganizationById(t.orgId, guest.id, { role: clientRole('read') }),
    );
    assert.equal(refused.code, 403);
    assert.equal(
      (await adaApi.orgs.getMemberInOrganizationById(t.orgId, guest.id)).data.role,
      null,
    );
  });
});
