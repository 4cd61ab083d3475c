/**
 * Invites through HTTP (docs/members.md § Invites, src/modules/invites/): email invites
 * (inviteUsersToOrganization: pending, single-use, expiring, bound to the invited address),
 * joining with one (joinOrganizationWithInvite, open to non-members), link invites (reusable until
 * disabled or deleted), and `POST /v1/users` (Livery extension: an account through an invite
 * without a token, or by an admin); the official client.
 *
 * Every refused request changes nothing: each is followed by a read-back of the users,
 * memberships and invites rows.
 */
import assert from 'node:assert/strict';
import { describe, type TestContext as NodeTestContext, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type {
  CreateOrganizationInvite,
  InviteLinkToOrganization,
  MemberRole,
} from '../../node_modules/@gitbook/api/dist/client.js';
import type { UserSchema } from '../../src/modules/identity/schemas.js';
import type {
  CreatedUserSchema,
  InviteUsersResultSchema,
  LinkInviteSchema,
} from '../../src/modules/invites/schemas.js';
import type { MemberSchema } from '../../src/modules/members/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { clientFailure, GitBookAPI, listenWithClient } from '../helpers/gitbook.js';
import type { ListOfItems } from '../helpers/schemas.js';

type InviteUsersJson = Static<typeof InviteUsersResultSchema>;

type LinkInviteJson = Static<typeof LinkInviteSchema>;

type CreatedUserJson = Static<typeof CreatedUserSchema>;

type UserJson = Static<typeof UserSchema>;
type MemberJson = Static<typeof MemberSchema>;

interface Person {
  id: string;
  token: string;
}

const DAY_MS = 86_400_000;
const BASE = 'http://livery.test';

/** A fresh app for one test, closed when the test ends. */
async function freshApp(c: NodeTestContext, env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  c.after(() => t.close());
  return t;
}

/** A new user with a token; a member of `orgId` with `role` unless `role` is undefined. */
async function newUser(
  t: TestContext,
  user: { displayName?: string; email?: string; role?: string; orgId?: string } = {},
): Promise<Person> {
  const created = await t.services.identity.createUser({
    displayName: user.displayName ?? 'Someone',
    ...(user.email === undefined ? {} : { email: user.email }),
  });
  if (user.role !== undefined) {
    await t.services.identity.setMemberRole(user.orgId ?? t.orgId, created.id, user.role);
  }
  const { token } = await t.services.identity.createToken(created.id, { label: 'test' });
  return { id: created.id, token };
}

/** Sends a request with another token. */
function as(t: TestContext, token: string, options: InjectOptions) {
  return t.request({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${token}` },
  });
}

/** Sends a request with no Authorization header at all. */
function anonymous(t: TestContext, options: InjectOptions) {
  return t.app.inject(options);
}

function json<T>(response: LightMyRequestResponse, status = 200): T {
  return expectStatus(response, status) as unknown as T;
}

const invitesUrl = (t: TestContext, orgId = t.orgId) => `/v1/orgs/${orgId}/invites`;
const acceptUrl = (t: TestContext, inviteId: string, orgId = t.orgId) =>
  `${invitesUrl(t, orgId)}/${encodeURIComponent(inviteId)}`;
const linksUrl = (t: TestContext, orgId = t.orgId) => `/v1/orgs/${orgId}/link-invites`;
const linkUrl = (t: TestContext, inviteId: string, orgId = t.orgId) =>
  `${linksUrl(t, orgId)}/${encodeURIComponent(inviteId)}`;
/** The path of an absolute URL the API answered. */
const pathOf = (url: string) => {
  assert.ok(url.startsWith(`${BASE}/v1/`), url);
  return url.slice(BASE.length);
};

async function invite(t: TestContext, payload: object): Promise<InviteUsersJson> {
  return json<InviteUsersJson>(await t.request({ method: 'POST', url: invitesUrl(t), payload }));
}

/**
 * Lists are in creation order (then by random id): waiting for the clock to move on after each
 * creation keeps the order of the test's creations.
 */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

async function createLink(t: TestContext, role: string | null): Promise<LinkInviteJson> {
  const response = await t.request({ method: 'POST', url: linksUrl(t), payload: { role } });
  await tick();
  return json<LinkInviteJson>(response, 201);
}

/** Joins with an invite as the holder of `token`. */
function join(t: TestContext, token: string, inviteId: string, orgId = t.orgId) {
  return as(t, token, { method: 'POST', url: acceptUrl(t, inviteId, orgId) });
}

/** A user's role in the organization, as its admin reads it; undefined for a non-member. */
async function memberRole(t: TestContext, userId: string): Promise<string | null | undefined> {
  const response = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/members/${userId}` });
  if (response.statusCode === 404) return undefined;
  return json<MemberJson>(response).role;
}

/** Every users, memberships and invites row, and the tokens count: "nothing changed" checks. */
async function rows(t: TestContext) {
  const users = await t.db.selectFrom('users').selectAll().orderBy('id').execute();
  const memberships = await t.db
    .selectFrom('memberships')
    .selectAll()
    .orderBy('organization_id')
    .orderBy('user_id')
    .execute();
  const invites = await t.db.selectFrom('invites').selectAll().orderBy('id').execute();
  const { n } = await t.db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { users, memberships, invites, tokens: Number(n) };
}

async function countUsers(t: TestContext): Promise<number> {
  const { n } = await t.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

function createUser(t: TestContext, payload: object, token?: string) {
  const options: InjectOptions = { method: 'POST', url: '/v1/users', payload };
  return token === undefined ? anonymous(t, options) : as(t, token, options);
}

const clientRole = (role: string) => role as MemberRole;

describe('email invites', () => {
  test('POST /invites: one pending invite per address, lower-cased, with its role and acceptance URL', async (c) => {
    const t = await freshApp(c);
    const before = Date.now();
    const result = await invite(t, {
      emails: [
        'Ann@Example.COM',
        { email: 'bob@example.com', role: 'edit' },
        { email: 'cy@example.com', role: null },
      ],
      role: 'comment',
    });
    assert.deepEqual(result.users, []);
    assert.equal(result.invited, 3);
    assert.equal(result.invites.length, 3);
    assert.deepEqual(
      result.invites.map((i) => [i.object, i.email, i.role]),
      [
        ['invite', 'ann@example.com', 'comment'],
        ['invite', 'bob@example.com', 'edit'],
        ['invite', 'cy@example.com', null],
      ],
    );
    for (const item of result.invites) {
      assert.deepEqual(Object.keys(item).sort(), [
        'email',
        'expiresAt',
        'id',
        'object',
        'role',
        'urls',
      ]);
      const expires = Date.parse(item.expiresAt);
      assert.ok(expires >= before + 14 * DAY_MS - 1000, item.expiresAt);
      assert.ok(expires <= Date.now() + 14 * DAY_MS + 1000, item.expiresAt);
      assert.equal(item.urls.accept, `${BASE}${acceptUrl(t, item.id)}`);
    }
    assert.equal(new Set(result.invites.map((i) => i.id)).size, 3);

    // Without a role: read. An address twice is one invite.
    const plain = await invite(t, { emails: ['dee@example.com', 'DEE@example.com '] });
    assert.equal(plain.invited, 1);
    assert.deepEqual(
      plain.invites.map((i) => [i.email, i.role]),
      [['dee@example.com', 'read']],
    );
    // A default role of null: guests.
    const guests = await invite(t, { emails: ['eve@example.com'], role: null, sso: false });
    assert.equal(guests.invites[0]?.role, null);
    const stored = await t.db.selectFrom('invites').select(['email', 'kind', 'used_at']).execute();
    assert.equal(stored.length, 5);
    assert.ok(stored.every((row) => row.kind === 'email' && row.used_at === null));
    // Nobody joined yet.
    assert.equal(
      (
        await t.db
          .selectFrom('memberships')
          .select('user_id')
          .where('organization_id', '=', t.orgId)
          .execute()
      ).length,
      1,
    );
  });

  test('refused invitations: bad address, a member’s address, sso, role owner; nothing is created', async (c) => {
    const t = await freshApp(c);
    await newUser(t, { email: 'member@example.com', role: 'read' });
    const before = await rows(t);
    const cases: [object, number, RegExp][] = [
      [{ emails: ['ok@example.com', 'not-an-email'] }, 400, /^body\.emails\[1\]: "not-an-email"/],
      [{ emails: ['ok@example.com', 'two words@example.com'] }, 400, /^body\.emails\[1\]/],
      [{ emails: ['ok@example.com', { email: 'a@b', role: 'read' }] }, 400, /^body\.emails\[1\]/],
      [{ emails: ['ok@example.com', 'ab'] }, 400, /body\.emails\[1\]/],
      [{ emails: [] }, 400, /body\.emails/],
      [{}, 400, /body\.emails is required/],
      [{ emails: ['ok@example.com', 'MEMBER@example.com'] }, 409, /member@example\.com/],
      [{ emails: ['ok@example.com'], sso: true }, 400, /body\.sso/],
      [{ emails: ['ok@example.com'], role: 'owner' }, 400, /body\.role/],
      [{ emails: [{ email: 'ok@example.com', role: 'owner' }] }, 400, /body\.emails\[0\]/],
      [{ emails: [{ email: 'ok@example.com' }] }, 400, /body\.emails\[0\]/],
      [{ emails: ['ok@example.com'], team: 'x' }, 400, /body\.team is not a known field/],
    ];
    for (const [payload, status, pattern] of cases) {
      const message = expectError(
        await t.request({ method: 'POST', url: invitesUrl(t), payload }),
        status,
      );
      assert.match(message, pattern, JSON.stringify(payload));
    }
    assert.match(
      expectError(
        await t.request({
          method: 'POST',
          url: invitesUrl(t),
          payload: { emails: ['member@example.com'] },
        }),
        409,
      ),
      /member@example\.com is already a member/,
    );
    assert.deepEqual(await rows(t), before, 'nothing changed');
  });

  test('accepting: the invited user joins with the invite’s role; a second use is a 410', async (c) => {
    const t = await freshApp(c);
    const [edit, guest] = (
      await invite(t, {
        emails: [
          { email: 'ann@example.com', role: 'edit' },
          { email: 'gus@example.com', role: null },
        ],
      })
    ).invites;
    assert.ok(edit && guest);
    // The invited have accounts (with these addresses, in any case) but are not members.
    const ann = await newUser(t, { email: 'Ann@Example.com' });
    const gus = await newUser(t, { email: 'gus@example.com' });
    assert.equal(await memberRole(t, ann.id), undefined);

    const joined = await as(t, ann.token, { method: 'POST', url: pathOf(edit.urls.accept) });
    assert.deepEqual(json(joined), { organization: t.orgId, role: 'edit' });
    assert.equal(await memberRole(t, ann.id), 'edit');
    assert.deepEqual(json(await join(t, gus.token, guest.id)), {
      organization: t.orgId,
      role: null,
    });
    assert.equal(await memberRole(t, gus.id), null, 'a guest');
    const used = await t.db
      .selectFrom('invites')
      .select(['used_by', 'used_at'])
      .where('id', '=', edit.id)
      .executeTakeFirstOrThrow();
    assert.equal(used.used_by, ann.id);
    assert.ok(used.used_at !== null);

    // Single use: again by the same user, or by anyone else.
    const before = await rows(t);
    const again = expectError(await join(t, ann.token, edit.id), 410);
    assert.match(again, /already been used/);
    assert.match(again, /single-use/);
    const other = await newUser(t);
    const otherBefore = await rows(t);
    expectError(await join(t, other.token, edit.id), 410);
    assert.equal(await memberRole(t, other.id), undefined);
    assert.deepEqual((await rows(t)).invites, before.invites);
    assert.deepEqual(await rows(t), otherBefore, 'nothing changed');
  });

  test('refused joins: another address or none 403, a member 409, unknown 404, no token 401; nothing changes', async (c) => {
    const t = await freshApp(c);
    const [ann] = (await invite(t, { emails: ['ann@example.com'], role: 'edit' })).invites;
    assert.ok(ann);
    const bob = await newUser(t, { email: 'bob@example.com' });
    // A member since the invite was sent, with the invited address.
    const member = await newUser(t, { role: 'read', email: 'ANN@example.com' });
    const noEmail = await newUser(t); // no email: cannot show the address is theirs
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'Other owner',
    });
    const [theirs] = json<InviteUsersJson>(
      await as(t, other.token, {
        method: 'POST',
        url: invitesUrl(t, other.organization.id),
        payload: { emails: ['ann@example.com'] },
      }),
    ).invites;
    assert.ok(theirs);
    const before = await rows(t);

    assert.match(expectError(await join(t, bob.token, ann.id), 403), /another email address/);
    // Issue 16: a user without an email got in through any email invite; now the same 403.
    assert.equal(
      expectError(await join(t, noEmail.token, ann.id), 403),
      expectError(await join(t, bob.token, ann.id), 403),
    );
    assert.match(expectError(await join(t, member.token, ann.id), 409), /already a member/);
    // The organization's owner (an admin, no email): not the invited address.
    expectError(await join(t, t.token, ann.id), 403);
    assert.match(expectError(await join(t, bob.token, 'inv_nope'), 404), /inv_nope/);
    // Another organization's invite through this organization's path, and the reverse.
    expectError(await join(t, bob.token, theirs.id), 404);
    expectError(await join(t, bob.token, ann.id, other.organization.id), 404);
    expectError(await anonymous(t, { method: 'POST', url: acceptUrl(t, ann.id) }), 401);
    expectError(await as(t, 'not-a-token', { method: 'POST', url: acceptUrl(t, ann.id) }), 401);
    assert.deepEqual(await rows(t), before, 'nothing changed');

    // The invite is still good for its addressee.
    const annUser = await newUser(t, { email: 'ann@example.com' });
    expectStatus(await join(t, annUser.token, ann.id), 200);
    assert.equal(await memberRole(t, annUser.id), 'edit');
  });

  test('an expired invite is a 410 saying so (INVITE_TTL_DAYS=0: invites expire at once)', async (c) => {
    const t = await freshApp(c, { INVITE_TTL_DAYS: '0' });
    const created = Date.now();
    const [ann] = (await invite(t, { emails: ['ann@example.com'] })).invites;
    assert.ok(ann);
    assert.ok(Math.abs(Date.parse(ann.expiresAt) - created) < 5000, ann.expiresAt);
    const user = await newUser(t, { email: 'ann@example.com' });
    const before = await rows(t);
    const message = expectError(await join(t, user.token, ann.id), 410);
    assert.match(message, /expired/);
    assert.ok(message.includes(ann.expiresAt), message);
    assert.equal(await memberRole(t, user.id), undefined);
    // Nor can an account be made with it.
    const refused = expectError(
      await createUser(t, {
        displayName: 'Ann',
        email: 'ann@example.com',
        organizationId: t.orgId,
        inviteId: ann.id,
      }),
      410,
    );
    assert.match(refused, /expired/);
    assert.deepEqual(await rows(t), before, 'nothing changed, no user created');
  });

  test('expiry with an injected clock: valid until the 14th day ends, a 410 after', async (c) => {
    const t = await freshApp(c);
    const [pending] = (await invite(t, { emails: ['ivy@example.com'] })).invites;
    assert.ok(pending);
    const expiresAt = Date.parse(pending.expiresAt);
    const ivy = await newUser(t, { email: 'ivy@example.com' });
    // The service's clock is an argument: a minute after expiry the invite is refused…
    await assert.rejects(
      t.services.invites.join(t.orgId, ivy.id, pending.id, expiresAt + 60_000),
      (error: { statusCode?: number; message?: string }) =>
        error.statusCode === 410 && /expired/.test(error.message ?? ''),
    );
    assert.equal(await memberRole(t, ivy.id), undefined, 'nothing changed');
    // …a minute before, it is accepted.
    const joined = await t.services.invites.join(t.orgId, ivy.id, pending.id, expiresAt - 60_000);
    assert.deepEqual(joined, { organization: t.orgId, role: 'read' });
    assert.equal(await memberRole(t, ivy.id), 'read');
  });

  test('a read member may not invite; a non-member gets a 404', async (c) => {
    const t = await freshApp(c);
    const reader = await newUser(t, { role: 'read' });
    const stranger = await newUser(t);
    const before = await rows(t);
    const payload = { emails: ['ann@example.com'] };
    expectError(await as(t, reader.token, { method: 'POST', url: invitesUrl(t), payload }), 403);
    expectError(await as(t, stranger.token, { method: 'POST', url: invitesUrl(t), payload }), 404);
    assert.deepEqual(await rows(t), before);
  });
});

describe('link invites', () => {
  test('POST /link-invites: 201, Location, the invite; role null is a guest invite', async (c) => {
    const t = await freshApp(c);
    const response = await t.request({
      method: 'POST',
      url: linksUrl(t),
      payload: { role: 'edit' },
    });
    const link = json<LinkInviteJson>(response, 201);
    assert.deepEqual(link, {
      object: 'invite',
      id: link.id,
      role: 'edit',
      redundant: true, // the caller, an admin, has every role already
      enabled: true,
      urls: { accept: `${BASE}${acceptUrl(t, link.id)}` },
    });
    assert.equal(response.headers.location, `${BASE}${linkUrl(t, link.id)}`);
    assert.deepEqual(
      json(await t.request({ method: 'GET', url: pathOf(String(response.headers.location)) })),
      link,
    );

    const guest = await createLink(t, null);
    assert.equal(guest.role, null);
    assert.equal(guest.enabled, true);
    const stored = await t.db
      .selectFrom('invites')
      .select(['kind', 'role', 'email', 'expires_at'])
      .where('id', '=', guest.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(stored, { kind: 'link', role: 'guest', email: null, expires_at: null });
  });

  test('refused link invites: space and collection invites, bad roles; nothing is created', async (c) => {
    const t = await freshApp(c);
    const before = await rows(t);
    const cases: [unknown, RegExp][] = [
      [{ level: 'read', space: 'space_1' }, /body\.(space|level)/],
      [{ space: 'space_1', role: 'read' }, /body\.space/],
      [{ level: 'read', collection: 'col_1' }, /body\.(collection|level)/],
      [{ role: 'read', level: 'read' }, /body\.level/],
      [{}, /body\.role is required/],
      [{ role: 'owner' }, /body\.role/],
      [{ role: 'read', enabled: false }, /body\.enabled is not a known field/],
    ];
    for (const [payload, pattern] of cases) {
      const message = expectError(
        await t.request({ method: 'POST', url: linksUrl(t), payload: payload as object }),
        400,
      );
      assert.match(message, pattern, JSON.stringify(payload));
    }
    assert.deepEqual(await rows(t), before, 'nothing changed');
  });

  test('list (links only, pages), get, PATCH role / enabled / {}, DELETE 205 then 204', async (c) => {
    const t = await freshApp(c);
    const [emailInvite] = (await invite(t, { emails: ['ann@example.com'] })).invites;
    assert.ok(emailInvite);
    const first = await createLink(t, 'read');
    const second = await createLink(t, null);
    const third = await createLink(t, 'admin');

    const list = async (query = '') =>
      json<ListOfItems<LinkInviteJson>>(
        await t.request({ method: 'GET', url: `${linksUrl(t)}${query}` }),
      );
    const all = await list();
    assert.deepEqual(
      all.items.map((l) => l.id),
      [first.id, second.id, third.id],
    );
    assert.equal(all.count, 3, 'email invites are not links');
    assert.deepEqual(all.items, [first, second, third]);
    const page1 = await list('?limit=2');
    assert.equal(page1.items.length, 2);
    assert.equal(page1.count, 3);
    assert.ok(page1.next);
    const page2 = await list(`?limit=2&page=${encodeURIComponent(page1.next.page)}`);
    assert.deepEqual(
      page2.items.map((l) => l.id),
      [third.id],
    );
    assert.equal(page2.next, undefined);

    assert.deepEqual(json(await t.request({ method: 'GET', url: linkUrl(t, first.id) })), first);
    expectError(await t.request({ method: 'GET', url: linkUrl(t, 'inv_nope') }), 404);
    // An email invite is no link.
    expectError(await t.request({ method: 'GET', url: linkUrl(t, emailInvite.id) }), 404);

    const patch = (id: string, payload: object) =>
      t.request({ method: 'PATCH', url: linkUrl(t, id), payload });
    assert.deepEqual(json(await patch(first.id, { role: 'comment' })), {
      ...first,
      role: 'comment',
    });
    assert.deepEqual(json(await patch(first.id, { enabled: false })), {
      ...first,
      role: 'comment',
      enabled: false,
    });
    assert.deepEqual(json(await patch(first.id, { role: null, enabled: true })), {
      ...first,
      role: null,
    });
    assert.deepEqual(json(await t.request({ method: 'GET', url: linkUrl(t, first.id) })), {
      ...first,
      role: null,
    });

    const before = await rows(t);
    assert.match(expectError(await patch(first.id, {}), 400), /body/);
    assert.match(expectError(await patch(first.id, { role: 'owner' }), 400), /body\.role/);
    assert.match(expectError(await patch(first.id, { enabled: 'no' }), 400), /body\.enabled/);
    assert.match(
      expectError(await patch(first.id, { level: 'read' }), 400),
      /body\.level is not a known field/,
    );
    expectError(await patch('inv_nope', { role: 'read' }), 404);
    expectError(await patch(emailInvite.id, { role: 'admin' }), 404);
    assert.deepEqual(await rows(t), before, 'nothing changed');

    const deleted = await t.request({ method: 'DELETE', url: linkUrl(t, second.id) });
    assert.equal(deleted.statusCode, 205);
    assert.equal(deleted.body, '');
    expectError(await t.request({ method: 'GET', url: linkUrl(t, second.id) }), 404);
    assert.equal(
      (await t.request({ method: 'DELETE', url: linkUrl(t, second.id) })).statusCode,
      204,
    );
    // An email invite cannot be deleted as a link: it stays, and still works.
    assert.equal(
      (await t.request({ method: 'DELETE', url: linkUrl(t, emailInvite.id) })).statusCode,
      204,
    );
    const ann = await newUser(t, { email: 'ann@example.com' });
    expectStatus(await join(t, ann.token, emailInvite.id), 200);
    assert.deepEqual(
      (await list()).items.map((l) => l.id),
      [first.id, third.id],
    );
  });

  test('joining through a link: several users, until it is disabled (410) or deleted (404)', async (c) => {
    const t = await freshApp(c);
    const link = await createLink(t, 'comment');
    const people = [
      await newUser(t),
      await newUser(t, { email: 'any@example.com' }),
      await newUser(t, { email: 'other@example.com' }),
    ];
    for (const person of people.slice(0, 2)) {
      assert.deepEqual(json(await join(t, person.token, link.id)), {
        organization: t.orgId,
        role: 'comment',
      });
      assert.equal(await memberRole(t, person.id), 'comment');
    }
    // A member: 409.
    const [first, , third] = people;
    assert.ok(first && third);
    assert.match(expectError(await join(t, first.token, link.id), 409), /already a member/);

    expectStatus(
      await t.request({ method: 'PATCH', url: linkUrl(t, link.id), payload: { enabled: false } }),
      200,
    );
    const before = await rows(t);
    assert.match(expectError(await join(t, third.token, link.id), 410), /disabled/);
    assert.deepEqual(await rows(t), before, 'nothing changed');
    assert.equal(await memberRole(t, third.id), undefined);

    // Enabled again, with another role: the next one joins with it.
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: linkUrl(t, link.id),
        payload: { enabled: true, role: null },
      }),
      200,
    );
    assert.deepEqual(json(await join(t, third.token, link.id)), {
      organization: t.orgId,
      role: null,
    });
    assert.equal(await memberRole(t, third.id), null);

    expectStatus(await t.request({ method: 'DELETE', url: linkUrl(t, link.id) }), 205);
    const late = await newUser(t);
    const afterDelete = await rows(t);
    expectError(await join(t, late.token, link.id), 404);
    assert.deepEqual(await rows(t), afterDelete, 'nothing changed');
  });

  test('link invites are for admins: a read member gets 403, a non-member 404', async (c) => {
    const t = await freshApp(c);
    const link = await createLink(t, 'read');
    const reader = await newUser(t, { role: 'read' });
    const creator = await newUser(t, { role: 'create' });
    const stranger = await newUser(t);
    const before = await rows(t);
    const operations: InjectOptions[] = [
      { method: 'GET', url: linksUrl(t) },
      { method: 'POST', url: linksUrl(t), payload: { role: 'admin' } },
      { method: 'GET', url: linkUrl(t, link.id) },
      { method: 'PATCH', url: linkUrl(t, link.id), payload: { role: 'admin' } },
      { method: 'DELETE', url: linkUrl(t, link.id) },
    ];
    for (const options of operations) {
      expectError(await as(t, reader.token, options), 403);
      expectError(await as(t, creator.token, options), 403);
      expectError(await as(t, stranger.token, options), 404);
    }
    // The refusal comes first: a space invite from a reader is a 403, not a 400.
    expectError(
      await as(t, reader.token, {
        method: 'POST',
        url: linksUrl(t),
        payload: { level: 'read', space: 'x' },
      }),
      403,
    );
    assert.deepEqual(await rows(t), before, 'nothing changed');
  });
});

describe('POST /v1/users (Livery extension)', () => {
  test('through an email invite, without a token: 201 with the user and a working token', async (c) => {
    const t = await freshApp(c);
    const [ann] = (await invite(t, { emails: ['ann@example.com'], role: 'edit' })).invites;
    assert.ok(ann);
    const users = await countUsers(t);

    const response = await createUser(t, {
      displayName: 'Ann',
      email: 'Ann@Example.com',
      organizationId: t.orgId,
      inviteId: ann.id,
    });
    const created = json<CreatedUserJson>(response, 201);
    assert.deepEqual(Object.keys(created).sort(), ['organization', 'token', 'tokenId', 'user']);
    const { id } = created.user;
    assert.deepEqual(created.user, {
      object: 'user',
      id,
      displayName: 'Ann',
      email: 'ann@example.com',
      urls: { location: `${BASE}/v1/users/${id}` },
    });
    assert.equal(created.organization, t.orgId);
    assert.equal(typeof created.tokenId, 'string');
    assert.equal(typeof created.token, 'string');
    assert.equal(response.headers.location, created.user.urls.location);
    assert.equal(await countUsers(t), users + 1);

    // The token works, for that user, who is a member with the invite's role.
    const me = json<UserJson>(await as(t, created.token, { method: 'GET', url: '/v1/user' }));
    assert.deepEqual(me, created.user);
    assert.equal(await memberRole(t, id), 'edit');
    const orgs = json<ListOfItems<{ id: string }>>(
      await as(t, created.token, { method: 'GET', url: '/v1/orgs' }),
    );
    assert.deepEqual(
      orgs.items.map((o) => o.id),
      [t.orgId],
    );

    // The same invite again: 410, and no second user.
    const before = await rows(t);
    const again = expectError(
      await createUser(t, {
        displayName: 'Ann again',
        email: 'ann@example.com',
        organizationId: t.orgId,
        inviteId: ann.id,
      }),
      410,
    );
    assert.match(again, /already been used/);
    assert.equal(await countUsers(t), users + 1);
    assert.deepEqual(await rows(t), before, 'nothing changed');
  });

  test('through a link invite: one account per call, each a member with the link’s role', async (c) => {
    const t = await freshApp(c);
    const link = await createLink(t, 'review');
    const users = await countUsers(t);
    for (const [i, email] of [undefined, 'one@example.com', 'two@example.com'].entries()) {
      const created = json<CreatedUserJson>(
        await createUser(t, {
          displayName: `Reviewer ${i}`,
          ...(email === undefined ? {} : { email }),
          organizationId: t.orgId,
          inviteId: link.id,
        }),
        201,
      );
      assert.equal(await memberRole(t, created.user.id), 'review');
      assert.equal(created.user.email, email);
    }
    assert.equal(await countUsers(t), users + 3);

    // Disabled, unknown, or another organization's id: nobody is created.
    expectStatus(
      await t.request({ method: 'PATCH', url: linkUrl(t, link.id), payload: { enabled: false } }),
      200,
    );
    const before = await rows(t);
    const body = { displayName: 'Late', organizationId: t.orgId, inviteId: link.id };
    assert.match(expectError(await createUser(t, body), 410), /disabled/);
    expectError(await createUser(t, { ...body, inviteId: 'inv_nope' }), 404);
    expectError(await createUser(t, { ...body, organizationId: 'org_nope' }), 404);
    // With an invite, the invite decides the role.
    assert.match(expectError(await createUser(t, { ...body, role: 'admin' }), 400), /body\.role/);
    assert.deepEqual(await rows(t), before, 'nothing changed');
  });

  test('an email invite for another address: 403, no user created', async (c) => {
    const t = await freshApp(c);
    const [ann] = (await invite(t, { emails: ['ann@example.com'] })).invites;
    assert.ok(ann);
    const before = await rows(t);
    const body = { displayName: 'Mallory', organizationId: t.orgId, inviteId: ann.id };
    assert.match(
      expectError(await createUser(t, { ...body, email: 'mallory@example.com' }), 403),
      /another email address/,
    );
    // Without an address at all, the invite's cannot match either.
    expectError(await createUser(t, body), 403);
    assert.deepEqual(await rows(t), before, 'nothing changed');
    // Ann herself still can.
    expectStatus(
      await createUser(t, { ...body, displayName: 'Ann', email: 'ann@example.com' }),
      201,
    );
  });

  test('without an invite: 401 without a token; an admin creates a member (role read or given)', async (c) => {
    const t = await freshApp(c);
    const before = await rows(t);
    const response = await createUser(t, { displayName: 'Nobody', organizationId: t.orgId });
    assert.match(expectError(response, 401), /admin/);
    assert.match(String(response.headers['www-authenticate']), /^Bearer/);
    expectError(
      await createUser(t, { displayName: 'Nobody', organizationId: t.orgId }, 'not-a-token'),
      401,
    );
    assert.deepEqual(await rows(t), before, 'nothing changed');

    const plain = json<CreatedUserJson>(
      await createUser(t, { displayName: 'Plain', organizationId: t.orgId }, t.token),
      201,
    );
    assert.equal(plain.user.email, undefined);
    assert.equal(await memberRole(t, plain.user.id), 'read');
    const editor = json<CreatedUserJson>(
      await createUser(
        t,
        { displayName: 'Editor', email: 'ed@example.com', organizationId: t.orgId, role: 'edit' },
        t.token,
      ),
      201,
    );
    assert.equal(await memberRole(t, editor.user.id), 'edit');
    const guest = json<CreatedUserJson>(
      await createUser(t, { displayName: 'Guest', organizationId: t.orgId, role: null }, t.token),
      201,
    );
    assert.equal(await memberRole(t, guest.user.id), null);
    // Their tokens work.
    assert.equal(
      json<UserJson>(await as(t, editor.token, { method: 'GET', url: '/v1/user' })).id,
      editor.user.id,
    );
    assert.equal(await countUsers(t), before.users.length + 3);
  });

  test('without an invite: a read member gets 403, a non-member 404; nothing is created', async (c) => {
    const t = await freshApp(c);
    const reader = await newUser(t, { role: 'read' });
    const creator = await newUser(t, { role: 'create' });
    const stranger = await newUser(t);
    const before = await rows(t);
    const body = { displayName: 'New', organizationId: t.orgId };
    assert.match(expectError(await createUser(t, body, reader.token), 403), /admin/);
    expectError(await createUser(t, body, creator.token), 403);
    expectError(await createUser(t, { ...body, role: 'read' }, reader.token), 403);
    expectError(await createUser(t, body, stranger.token), 404);
    expectError(await createUser(t, { ...body, organizationId: 'org_nope' }, t.token), 404);
    assert.deepEqual(await rows(t), before, 'nothing changed');
  });

  test('bad fields are a 400 naming them; nothing is created', async (c) => {
    const t = await freshApp(c);
    const link = await createLink(t, 'read');
    const before = await rows(t);
    const base = { displayName: 'New', organizationId: t.orgId };
    const cases: [object, RegExp][] = [
      [{ ...base, displayName: '' }, /body\.displayName/],
      [{ ...base, displayName: 'x'.repeat(101) }, /body\.displayName/],
      [{ organizationId: t.orgId }, /body\.displayName is required/],
      [{ displayName: 'New' }, /body\.organizationId is required/],
      [{ ...base, admin: true }, /body\.admin is not a known field/],
      [{ ...base, email: 'not-an-email' }, /body\.email/],
      [{ ...base, email: 'two words@example.com' }, /body\.email/],
      [{ ...base, role: 'owner' }, /body\.role/],
      [{ ...base, inviteId: '' }, /body\.inviteId/],
    ];
    for (const [payload, pattern] of cases) {
      // With the admin's token, and without one through the invite: the same 400.
      assert.match(
        expectError(await createUser(t, payload, t.token), 400),
        pattern,
        JSON.stringify(payload),
      );
      if (!('inviteId' in payload)) {
        assert.match(
          expectError(await createUser(t, { ...payload, inviteId: link.id }), 400),
          pattern,
          JSON.stringify(payload),
        );
      }
    }
    assert.deepEqual(await rows(t), before, 'nothing changed');
  });
});

describe('invites through the official client', () => {
  test('email invites: inviteUsersToOrganization, joinOrganizationWithInvite; a second use is a 410', async (c) => {
    const t = await freshApp(c);
    const { api, endpoint } = await listenWithClient(t);
    const invited = await api.orgs.inviteUsersToOrganization(t.orgId, {
      emails: ['ann@example.com', { email: 'bob@example.com', role: clientRole('edit') }],
      role: clientRole('comment'),
    });
    assert.equal(invited.status, 200);
    assert.equal(invited.data.invited, 2);
    assert.deepEqual(invited.data.users, []);
    const invites = (invited.data as unknown as InviteUsersJson).invites;
    const [ann, bob] = invites;
    assert.ok(ann && bob);

    const annUser = await newUser(t, { email: 'ann@example.com' });
    const annApi = new GitBookAPI({ authToken: annUser.token, endpoint });
    const joined = await annApi.orgs.joinOrganizationWithInvite(t.orgId, ann.id);
    assert.equal(joined.status, 200);
    assert.deepEqual(joined.data, { organization: t.orgId, role: 'comment' });
    assert.equal(await memberRole(t, annUser.id), 'comment');

    const again = await clientFailure(annApi.orgs.joinOrganizationWithInvite(t.orgId, ann.id));
    assert.equal(again.code, 410);
    assert.equal(again.response.status, 410);
    assert.match(again.errorMessage, /already been used/);

    // Bob's invite with Ann's account: 403; an unknown one: 404.
    assert.equal(
      (await clientFailure(annApi.orgs.joinOrganizationWithInvite(t.orgId, bob.id))).code,
      403,
    );
    const bobUser = await newUser(t, { email: 'bob@example.com' });
    const bobApi = new GitBookAPI({ authToken: bobUser.token, endpoint });
    assert.equal(
      (await clientFailure(bobApi.orgs.joinOrganizationWithInvite(t.orgId, 'inv_nope'))).code,
      404,
    );
    assert.equal((await bobApi.orgs.joinOrganizationWithInvite(t.orgId, bob.id)).status, 200);
    assert.equal(await memberRole(t, bobUser.id), 'edit');

    const invalid = await clientFailure(
      api.orgs.inviteUsersToOrganization(t.orgId, { emails: ['nope'] }),
    );
    assert.equal(invalid.code, 400);
    assert.match(invalid.errorMessage, /body\.emails\[0\]/);
    const member = await clientFailure(
      api.orgs.inviteUsersToOrganization(t.orgId, { emails: ['bob@example.com'] }),
    );
    assert.equal(member.code, 409);
  });

  test('link invites: list, create, get, update, delete; joining a disabled one is a 410', async (c) => {
    const t = await freshApp(c);
    const { api, endpoint } = await listenWithClient(t);
    const created = await api.orgs.createOrganizationInvite(t.orgId, { role: clientRole('read') });
    assert.equal(created.status, 201);
    const link = created.data as InviteLinkToOrganization & { enabled: boolean };
    assert.equal(link.object, 'invite');
    assert.equal(link.role, 'read');
    assert.equal(link.redundant, true);
    assert.equal(link.enabled, true);
    assert.equal(created.headers.get('location'), `${BASE}${linkUrl(t, link.id)}`);
    await tick();
    const guestLink = await api.orgs.createOrganizationInvite(t.orgId, { role: null });
    assert.equal(guestLink.status, 201);
    assert.equal((guestLink.data as InviteLinkToOrganization).role, null);

    const listed = await api.orgs.listOrganizationInviteLinks(t.orgId);
    assert.equal(listed.status, 200);
    assert.equal(listed.data.count, 2);
    assert.deepEqual(
      listed.data.items.map((l) => l.id),
      [link.id, guestLink.data.id],
    );
    const paged = await api.orgs.listOrganizationInviteLinks(t.orgId, { limit: 1 });
    assert.equal(paged.data.items.length, 1);
    assert.ok(paged.data.next);

    const got = await api.orgs.getOrganizationInviteLink(t.orgId, link.id);
    assert.equal(got.status, 200);
    assert.deepEqual(got.data, link);

    const updated = await api.orgs.updateOrganizationInviteById(t.orgId, link.id, {
      role: clientRole('edit'),
    });
    assert.equal(updated.status, 200);
    assert.equal((updated.data as InviteLinkToOrganization).role, 'edit');

    // Joining with the invited user's own client.
    const user = await newUser(t);
    const userApi = new GitBookAPI({ authToken: user.token, endpoint });
    const joined = await userApi.orgs.joinOrganizationWithInvite(t.orgId, link.id);
    assert.equal(joined.status, 200);
    assert.equal(await memberRole(t, user.id), 'edit');

    // Disabled (a Livery extension field, sent through the client's body as is): 410.
    const disabled = await api.orgs.updateOrganizationInviteById(t.orgId, link.id, {
      enabled: false,
    } as unknown as { role: null });
    assert.equal((disabled.data as typeof link).enabled, false);
    const late = await newUser(t);
    const lateApi = new GitBookAPI({ authToken: late.token, endpoint });
    const gone = await clientFailure(lateApi.orgs.joinOrganizationWithInvite(t.orgId, link.id));
    assert.equal(gone.code, 410);
    assert.equal(gone.response.status, 410);
    assert.match(gone.errorMessage, /disabled/);

    // A space invite: 400.
    const space = await clientFailure(
      api.orgs.createOrganizationInvite(t.orgId, {
        level: clientRole('read'),
        space: 'space_1',
      } as CreateOrganizationInvite),
    );
    assert.equal(space.code, 400);
    assert.match(space.errorMessage, /body\.(space|level)/);
    // A member's client may not manage links.
    const refused = await clientFailure(userApi.orgs.listOrganizationInviteLinks(t.orgId));
    assert.equal(refused.code, 403);

    const deleted = await api.orgs.deleteOrganizationInviteById(t.orgId, link.id);
    assert.equal(deleted.status, 205);
    assert.equal((await api.orgs.deleteOrganizationInviteById(t.orgId, link.id)).status, 204);
    assert.equal(
      (await clientFailure(api.orgs.getOrganizationInviteLink(t.orgId, link.id))).code,
      404,
    );
    assert.equal(
      (await clientFailure(lateApi.orgs.joinOrganizationWithInvite(t.orgId, link.id))).code,
      404,
    );
    assert.equal(await memberRole(t, late.id), undefined);
  });
});

describe('invites under concurrent requests', () => {
  test('one user joining through one link three times at once: one 200, two 409, never a 500', async (c) => {
    const t = await freshApp(c);
    const link = await createLink(t, 'read');
    for (let round = 0; round < 3; round++) {
      const user = await newUser(t);
      const responses = await Promise.all([0, 1, 2].map(() => join(t, user.token, link.id)));
      assert.deepEqual(
        responses.map((r) => r.statusCode).sort(),
        [200, 409, 409],
        responses.map((r) => r.body).join('\n'),
      );
      assert.equal(await memberRole(t, user.id), 'read');
    }
  });

  test('one email invite used by three new accounts at once: one 201, two 410, one user', async (c) => {
    const t = await freshApp(c);
    const [ann] = (await invite(t, { emails: ['ann@example.com'], role: 'edit' })).invites;
    assert.ok(ann);
    const users = await countUsers(t);
    const responses = await Promise.all(
      [0, 1, 2].map((i) =>
        createUser(t, {
          displayName: `Ann ${i}`,
          email: 'ann@example.com',
          organizationId: t.orgId,
          inviteId: ann.id,
        }),
      ),
    );
    assert.deepEqual(responses.map((r) => r.statusCode).sort(), [201, 410, 410]);
    assert.equal(await countUsers(t), users + 1);
    const winner = responses.find((r) => r.statusCode === 201);
    assert.ok(winner);
    assert.equal(await memberRole(t, json<CreatedUserJson>(winner, 201).user.id), 'edit');
  });
});
