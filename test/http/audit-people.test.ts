/**
 * The audit entries of the organization's people (src/modules/audit/actions.ts): members added
 * by an admin, role changes and removals, invites (created, updated, accepted, deleted), teams
 * and their members, and API tokens (recorded in every organization of the token's user). Each
 * write goes through HTTP; the entries it added are read back from GET /v1/orgs/{id}/audit-log.
 * Refused writes and writes that change nothing add none.
 */
import assert from 'node:assert/strict';
import { describe, type TestContext as NodeTestContext, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type { AuditEntrySchema } from '../../src/modules/audit/schemas.js';
import { hashToken } from '../../src/modules/identity/tokens.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type Member, memberWithRole } from '../helpers/roles.js';

type EntryJson = Static<typeof AuditEntrySchema>;

/** What a test compares: an entry without its id and time. */
type Seen = Pick<EntryJson, 'actor' | 'action' | 'target' | 'details'>;

async function freshApp(c: NodeTestContext) {
  const t = await createTestApp();
  c.after(() => t.close());
  return t;
}

/** Sends a request with `token` instead of the owner's. */
const as = (t: TestContext, token: string, options: InjectOptions) =>
  t.request({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });

/** Every entry of the organization's log, read by `token` (an admin's; the owner's by default). */
async function log(t: TestContext, orgId = t.orgId, token = t.token): Promise<EntryJson[]> {
  const response = await as(t, token, {
    method: 'GET',
    url: `/v1/orgs/${orgId}/audit-log?limit=1000`,
  });
  return (expectStatus(response, 200) as unknown as { items: EntryJson[] }).items;
}

const seen = ({ actor, action, target, details }: Seen): Seen => ({
  actor,
  action,
  target,
  details,
});

/**
 * Runs `write` and answers its result and the entries it added to the log of `orgId` (read by
 * `token`), without ids and times, in a fixed order: entries of one write share their time, and
 * the log orders those by id, which is random.
 */
async function recorded<T>(
  t: TestContext,
  write: () => Promise<T>,
  orgId = t.orgId,
  token = t.token,
): Promise<{ response: T; entries: Seen[] }> {
  const before = new Set((await log(t, orgId, token)).map((entry) => entry.id));
  const response = await write();
  const entries = (await log(t, orgId, token)).filter((entry) => !before.has(entry.id));
  return { response, entries: sorted(entries.map(seen)) };
}

const sorted = (entries: Seen[]) =>
  entries
    .map((entry) => [JSON.stringify(entry), entry] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, entry]) => entry);

/** Asserts the same entries, in any order. */
const sameEntries = (actual: Seen[], expected: Seen[]) =>
  assert.deepEqual(sorted(actual), sorted(expected));

/** Asserts the write answered `status` and added exactly `expected` (in any order). */
async function expectEntries(
  t: TestContext,
  write: () => Promise<LightMyRequestResponse>,
  status: number,
  expected: Seen[],
) {
  const { response, entries } = await recorded(t, write);
  expectStatus(response, status);
  sameEntries(entries, expected);
  return response;
}

/** Asserts the write was refused with `status` and added no entry. */
async function expectRefused(
  t: TestContext,
  write: () => Promise<LightMyRequestResponse>,
  status: number,
) {
  const { response, entries } = await recorded(t, write);
  expectError(response, status);
  assert.deepEqual(entries, [], `a ${status} records nothing`);
}

/** The id of the owner's token (the test app's). */
async function ownerTokenId(t: TestContext): Promise<string> {
  const list = expectStatus(await t.request({ method: 'GET', url: '/v1/user/tokens' }), 200);
  const [only] = list.items as { id: string }[];
  assert.ok(only);
  return only.id;
}

/** A member with `role` and their token's id (its creation is recorded before the test's). */
async function member(t: TestContext, role: Parameters<typeof memberWithRole>[1]) {
  const person = await memberWithRole(t, role);
  const [entry] = (await log(t)).filter((e) => e.action === 'api-token.created');
  assert.ok(entry);
  return { ...person, tokenId: entry.target.id };
}

describe('audit log of members', () => {
  test('role changes and removals; the last admin, unknown members and same roles record none', async (c) => {
    const t = await freshApp(c);
    const actor = { user: t.userId, token: await ownerTokenId(t) };
    const reader = await member(t, 'read');
    const url = `/v1/orgs/${t.orgId}/members/${reader.id}`;
    const target = { kind: 'user', id: reader.id };
    const patch = (role: string | null) => () =>
      t.request({ method: 'PATCH', url, payload: { role } });

    await expectEntries(t, patch('edit'), 200, [
      { actor, action: 'member.role.changed', target, details: { from: 'read', to: 'edit' } },
    ]);
    await expectEntries(t, patch('edit'), 200, []);
    await expectEntries(t, patch(null), 200, [
      { actor, action: 'member.role.changed', target, details: { from: 'edit', to: null } },
    ]);
    await expectRefused(
      t,
      () =>
        t.request({
          method: 'PATCH',
          url: `/v1/orgs/${t.orgId}/members/nobody`,
          payload: { role: 'read' },
        }),
      404,
    );
    const ownerUrl = `/v1/orgs/${t.orgId}/members/${t.userId}`;
    await expectRefused(
      t,
      () => t.request({ method: 'PATCH', url: ownerUrl, payload: { role: 'read' } }),
      409,
    );
    await expectRefused(t, () => t.request({ method: 'DELETE', url: ownerUrl }), 409);
    const writer = await member(t, 'edit');
    await expectRefused(
      t,
      () => as(t, writer.token, { method: 'PATCH', url, payload: { role: 'admin' } }),
      403,
    );

    await expectEntries(t, () => t.request({ method: 'DELETE', url }), 205, [
      { actor, action: 'member.removed', target, details: { role: null } },
    ]);
    await expectEntries(t, () => t.request({ method: 'DELETE', url }), 204, []);
  });
});

describe('audit log of invites', () => {
  test('email invites: created per address; accepted by the invited user with their token', async (c) => {
    const t = await freshApp(c);
    const actor = { user: t.userId, token: await ownerTokenId(t) };
    const url = `/v1/orgs/${t.orgId}/invites`;
    const invite = (payload: object) => () => t.request({ method: 'POST', url, payload });
    await expectRefused(t, invite({ emails: ['not an address'] }), 400);

    const { response, entries } = await recorded(
      t,
      invite({
        emails: ['Ann@example.com', { email: 'bob@example.com', role: null }],
        role: 'edit',
      }),
    );
    const [ann, bob] = expectStatus(response, 200).invites as { id: string; email: string }[];
    assert.ok(ann && bob);
    sameEntries(entries, [
      {
        actor,
        action: 'invite.created',
        target: { kind: 'invite', id: ann.id },
        details: { kind: 'email', role: 'edit', email: 'ann@example.com' },
      },
      {
        actor,
        action: 'invite.created',
        target: { kind: 'invite', id: bob.id },
        details: { kind: 'email', role: null, email: 'bob@example.com' },
      },
    ]);

    const user = await t.services.identity.createUser({
      displayName: 'Ann',
      email: 'ann@example.com',
    });
    const annToken = await t.services.identity.createToken(user.id, { label: 'ann' });
    const join = (inviteId: string) => () =>
      as(t, annToken.token, { method: 'POST', url: `${url}/${inviteId}` });
    await expectRefused(t, join(bob.id), 403); // Bob's invite, not Ann's
    await expectRefused(t, join('inv_unknown'), 404);
    await expectEntries(t, join(ann.id), 200, [
      {
        actor: { user: user.id, token: annToken.id },
        action: 'invite.accepted',
        target: { kind: 'invite', id: ann.id },
        details: { user: user.id, role: 'edit' },
      },
    ]);
    await expectRefused(t, join(ann.id), 410); // single use
    await expectRefused(t, invite({ emails: ['ann@example.com'] }), 409); // a member now
  });

  test('invite links: created, updated (what changed only), accepted by a new user without a token', async (c) => {
    const t = await freshApp(c);
    const actor = { user: t.userId, token: await ownerTokenId(t) };
    const links = `/v1/orgs/${t.orgId}/link-invites`;
    const { response, entries } = await recorded(t, () =>
      t.request({ method: 'POST', url: links, payload: { role: null } }),
    );
    const link = expectStatus(response, 201) as { id: string };
    const target = { kind: 'invite', id: link.id };
    sameEntries(entries, [
      { actor, action: 'invite.created', target, details: { kind: 'link', role: null } },
    ]);
    await expectRefused(
      t,
      () => t.request({ method: 'POST', url: links, payload: { role: 'read', space: 'x' } }),
      400,
    );

    const patch =
      (payload: object, id = link.id) =>
      () =>
        t.request({ method: 'PATCH', url: `${links}/${id}`, payload });
    await expectEntries(t, patch({ role: 'comment' }), 200, [
      { actor, action: 'invite.updated', target, details: { changed: { role: 'comment' } } },
    ]);
    await expectEntries(t, patch({ role: 'comment', enabled: true }), 200, []);
    await expectEntries(t, patch({ role: 'read', enabled: false }), 200, [
      {
        actor,
        action: 'invite.updated',
        target,
        details: { changed: { role: 'read', enabled: false } },
      },
    ]);
    await expectRefused(t, patch({ role: 'read' }, 'inv_unknown'), 404);

    const signUp = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/users',
        payload: { displayName: 'Cy', organizationId: t.orgId, inviteId: link.id },
      });
    await expectRefused(t, signUp, 410); // disabled
    await expectEntries(t, patch({ enabled: true }), 200, [
      { actor, action: 'invite.updated', target, details: { changed: { enabled: true } } },
    ]);
    const joined = await recorded(t, signUp);
    const cy = (expectStatus(joined.response, 201).user as { id: string }).id;
    sameEntries(joined.entries, [
      {
        actor: { user: cy },
        action: 'invite.accepted',
        target,
        details: { user: cy, role: 'read' },
      },
    ]);

    const remove =
      (id = link.id, token = t.token) =>
      () =>
        as(t, token, { method: 'DELETE', url: `${links}/${id}` });
    const writer = await member(t, 'edit');
    await expectRefused(t, remove(link.id, writer.token), 403);
    await expectEntries(t, remove(), 205, [
      { actor, action: 'invite.deleted', target, details: { kind: 'link' } },
    ]);
    await expectEntries(t, remove(), 204, []);
    await expectRefused(t, signUp, 404); // a deleted link's key accepts nobody
  });

  test('an email invite is not a link: deleting it as one records nothing', async (c) => {
    const t = await freshApp(c);
    const response = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/invites`,
      payload: { emails: ['dee@example.com'] },
    });
    const [invite] = expectStatus(response, 200).invites as { id: string }[];
    assert.ok(invite);
    const url = `/v1/orgs/${t.orgId}/link-invites/${invite.id}`;
    await expectEntries(t, () => t.request({ method: 'DELETE', url }), 204, []);
  });
});

describe('audit log of users created by an admin', () => {
  test('POST /v1/users without an invite: member.added by the admin with their token, its first token not recorded', async (c) => {
    const t = await freshApp(c);
    const actor = { user: t.userId, token: await ownerTokenId(t) };
    const create =
      (payload: object, token: string | null = t.token) =>
      () =>
        t.app.inject({
          method: 'POST',
          url: '/v1/users',
          payload: { organizationId: t.orgId, ...payload },
          ...(token === null ? {} : { headers: { authorization: `Bearer ${token}` } }),
        });

    const plain = await recorded(t, create({ displayName: 'Plain' }));
    const plainId = (expectStatus(plain.response, 201).user as { id: string }).id;
    sameEntries(plain.entries, [
      {
        actor,
        action: 'member.added',
        target: { kind: 'user', id: plainId },
        details: { role: 'read' },
      },
    ]);
    const guest = await recorded(t, create({ displayName: 'Guest', role: null }));
    const guestId = (expectStatus(guest.response, 201).user as { id: string }).id;
    sameEntries(guest.entries, [
      {
        actor,
        action: 'member.added',
        target: { kind: 'user', id: guestId },
        details: { role: null },
      },
    ]);

    await expectRefused(t, create({ displayName: 'Nobody' }, null), 401);
    await expectRefused(t, create({ displayName: 'Bad', email: 'not an address' }), 400);
    const reader = await member(t, 'read');
    await expectRefused(t, create({ displayName: 'Sneaky' }, reader.token), 403);
    await expectRefused(t, create({ displayName: 'Elsewhere', organizationId: 'org_nope' }), 404);
  });
});

describe('audit log of teams', () => {
  test('created (with its first members), renamed, deleted; refused and unchanged writes record none', async (c) => {
    const t = await freshApp(c);
    const actor = { user: t.userId, token: await ownerTokenId(t) };
    const ann = await member(t, 'read');
    const teams = `/v1/orgs/${t.orgId}/teams`;
    const create = (title: string) => () =>
      t.request({ method: 'PUT', url: teams, payload: { title, members: [ann.id] } });
    const { response, entries } = await recorded(t, create('Docs'));
    const team = expectStatus(response, 201) as { id: string };
    const target = { kind: 'team', id: team.id };
    sameEntries(entries, [
      { actor, action: 'team.created', target, details: { title: 'Docs' } },
      { actor, action: 'team.member.added', target, details: { user: ann.id, role: 'member' } },
    ]);
    await expectRefused(t, create('DOCS'), 409);
    await expectRefused(
      t,
      () => t.request({ method: 'PUT', url: teams, payload: { title: 'X', members: ['nobody'] } }),
      400,
    );

    const rename =
      (title: string, id = team.id) =>
      () =>
        t.request({ method: 'PATCH', url: `${teams}/${id}`, payload: { title } });
    await expectEntries(t, rename('Writers'), 200, [
      { actor, action: 'team.updated', target, details: { from: 'Docs', to: 'Writers' } },
    ]);
    await expectEntries(t, rename('Writers'), 200, []);
    await expectRefused(t, rename('Other', 'team_unknown'), 404);
    const other = expectStatus(
      await t.request({ method: 'PUT', url: teams, payload: { title: 'Other' } }),
      201,
    ) as { id: string };
    await expectRefused(t, rename('other'), 409);
    await expectRefused(
      t,
      () => as(t, ann.token, { method: 'DELETE', url: `${teams}/${other.id}` }),
      403,
    );

    const remove = () => t.request({ method: 'DELETE', url: `${teams}/${team.id}` });
    await expectEntries(t, remove, 205, [
      { actor, action: 'team.deleted', target, details: { title: 'Writers' } },
    ]);
    await expectEntries(t, remove, 204, []);
  });

  test('team members: one entry per member added, re-roled or removed, by whoever manages the team', async (c) => {
    const t = await freshApp(c);
    const actor = { user: t.userId, token: await ownerTokenId(t) };
    const [ann, bob, cy] = [
      await member(t, 'read'),
      await member(t, 'read'),
      await member(t, 'read'),
    ];
    const teams = `/v1/orgs/${t.orgId}/teams`;
    const team = expectStatus(
      await t.request({ method: 'PUT', url: teams, payload: { title: 'Docs', members: [ann.id] } }),
      201,
    ) as { id: string };
    const target = { kind: 'team', id: team.id };
    const members = `${teams}/${team.id}/members`;
    const bulk =
      (payload: object, by: Member | undefined = undefined) =>
      () =>
        by === undefined
          ? t.request({ method: 'PUT', url: members, payload })
          : as(t, by.token, { method: 'PUT', url: members, payload });

    await expectEntries(
      t,
      bulk({ add: [bob.id, ann.id], memberships: { [ann.id]: { role: 'owner' } } }),
      204,
      [
        { actor, action: 'team.member.added', target, details: { user: bob.id, role: 'member' } },
        {
          actor,
          action: 'team.member.changed',
          target,
          details: { user: ann.id, from: 'member', to: 'owner' },
        },
      ],
    );
    await expectEntries(
      t,
      bulk({ add: [bob.id], memberships: { [ann.id]: { role: 'owner' } } }),
      204,
      [],
    );
    await expectRefused(t, bulk({ add: [cy.id, 'nobody'] }), 400);
    await expectRefused(t, bulk({ add: [cy.id] }, cy), 403);

    // Ann owns the team now: she manages its members, and is the actor of what she changes.
    const byAnn = { user: ann.id, token: ann.tokenId };
    await expectEntries(t, bulk({ remove: [bob.id, cy.id] }, ann), 204, [
      { actor: byAnn, action: 'team.member.removed', target, details: { user: bob.id } },
    ]);

    const one = (userId: string) => `${members}/${userId}`;
    const put = (userId: string, payload?: object) => () =>
      t.request({ method: 'PUT', url: one(userId), ...(payload === undefined ? {} : { payload }) });
    await expectEntries(t, put(cy.id, { role: 'owner' }), 204, [
      { actor, action: 'team.member.added', target, details: { user: cy.id, role: 'owner' } },
    ]);
    await expectEntries(t, put(cy.id), 204, []);
    await expectEntries(t, put(cy.id, { role: 'member' }), 204, [
      {
        actor,
        action: 'team.member.changed',
        target,
        details: { user: cy.id, from: 'owner', to: 'member' },
      },
    ]);
    await expectRefused(t, put('nobody'), 404);
    await expectEntries(t, () => t.request({ method: 'DELETE', url: one(cy.id) }), 205, [
      { actor, action: 'team.member.removed', target, details: { user: cy.id } },
    ]);
    await expectEntries(t, () => t.request({ method: 'DELETE', url: one(cy.id) }), 204, []);
    await expectRefused(
      t,
      () => t.request({ method: 'DELETE', url: `${teams}/team_x/members/${cy.id}` }),
      404,
    );
  });
});

describe('audit log of API tokens', () => {
  test("created and revoked: an entry in every organization of the token's user, never its secret", async (c) => {
    const t = await freshApp(c);
    const actor = { user: t.userId, token: await ownerTokenId(t) };
    // The owner is also a member of a second organization, not of a third.
    const second = await t.services.identity.createOrganizationWithOwner({
      title: 'Second',
      ownerName: 'Second owner',
    });
    await t.services.identity.setMemberRole(second.organization.id, t.userId, 'read');
    const third = await t.services.identity.createOrganizationWithOwner({
      title: 'Third',
      ownerName: 'Third owner',
    });
    const logs = async () => ({
      second: await log(t, second.organization.id, second.token),
      third: await log(t, third.organization.id, third.token),
    });
    const before = await logs();

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const payload = { label: 'deploy', scopes: ['site:read', 'site:write'], expiresAt };
    const { response, entries } = await recorded(t, () =>
      t.request({ method: 'POST', url: '/v1/user/tokens', payload }),
    );
    const created = expectStatus(response, 201) as { id: string; token: string };
    const target = { kind: 'api-token', id: created.id };
    const entry = { actor, action: 'api-token.created', target, details: payload };
    sameEntries(entries, [entry]);
    const after = await logs();
    assert.equal(after.second.length, before.second.length + 1);
    const [inSecond] = after.second;
    assert.ok(inSecond);
    assert.deepEqual(seen(inSecond), entry);
    assert.deepEqual(after.third, before.third, 'not in an organization the user is not in');
    const everything = JSON.stringify([...(await log(t)), ...after.second]);
    assert.ok(!everything.includes(created.token), 'never the secret');
    assert.ok(!everything.includes(hashToken(created.token)), 'nor its hash');

    const post =
      (body: object, token = t.token) =>
      () =>
        as(t, token, { method: 'POST', url: '/v1/user/tokens', payload: body });
    await expectRefused(t, post({ label: 'past', expiresAt: '2000-01-01T00:00:00Z' }), 400);
    await expectRefused(t, post({ label: 'scoped' }, created.token), 403);

    const revoke = (id: string) => () =>
      t.request({ method: 'DELETE', url: `/v1/user/tokens/${id}` });
    await expectEntries(t, revoke(created.id), 205, [
      { actor, action: 'api-token.revoked', target, details: { label: 'deploy' } },
    ]);
    assert.equal((await logs()).second.length, before.second.length + 2);
    await expectEntries(t, revoke(created.id), 204, []);
    await expectEntries(t, revoke(second.tokenId), 204, []); // another user's token
  });

  test('the command line: the token its user, without a token, created and revoked', async (c) => {
    const t = await freshApp(c);
    // What `livery tokens create --user` and `livery tokens revoke` call.
    const { identity } = t.services;
    const { entries, response: id } = await recorded(t, async () => {
      const made = await identity.createToken(t.userId, { label: 'cli' });
      assert.equal(await identity.revokeToken(made.id), true);
      assert.equal(await identity.revokeToken(made.id), false);
      return made.id;
    });
    const target = { kind: 'api-token', id };
    sameEntries(entries, [
      {
        actor: { user: t.userId },
        action: 'api-token.created',
        target,
        details: { label: 'cli', scopes: null, expiresAt: null },
      },
      { actor: { user: t.userId }, action: 'api-token.revoked', target, details: { label: 'cli' } },
    ]);
  });
});
