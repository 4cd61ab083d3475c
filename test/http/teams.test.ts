/**
 * Teams through HTTP (docs/members.md § Teams, src/modules/teams/): creating (PUT), listing with
 * its filters and pages, reading, renaming, deleting; a team's members (listing, the bulk update,
 * adding one, removing one); a member's teams; who may call what (organization admins manage
 * every team, a team's owners manage its members, non-members get a 404); the official client.
 *
 * Every refused request changes nothing: each is followed by a read-back of the teams and team
 * memberships rows.
 */
import assert from 'node:assert/strict';
import { describe, type TestContext as NodeTestContext, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type { TeamMemberRole } from '../../node_modules/@gitbook/api/dist/client.js';
import type { MemberSchema } from '../../src/modules/members/schemas.js';
import type {
  MemberTeamSchema,
  TeamMembershipSchema,
  TeamSchema,
} from '../../src/modules/teams/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { clientFailure, GitBookAPI, listenWithClient } from '../helpers/gitbook.js';
import type { ListOfItems } from '../helpers/schemas.js';

type TeamJson = Static<typeof TeamSchema>;
type MemberJson = Static<typeof MemberSchema>;

type TeamMembershipJson = Static<typeof TeamMembershipSchema>;

type MemberTeamJson = Static<typeof MemberTeamSchema>;

interface Person {
  id: string;
  token: string;
  email?: string;
}

/** A fresh app for one test, closed when the test ends. */
async function freshApp(c: NodeTestContext, env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  c.after(() => t.close());
  return t;
}

/** A new user, member of `orgId` with `role`, with a token. */
async function addMember(
  t: TestContext,
  role: string,
  user: { displayName?: string; email?: string } = {},
  orgId = t.orgId,
): Promise<Person> {
  const created = await t.services.identity.createUser({
    displayName: user.displayName ?? `Member ${role}`,
    ...(user.email === undefined ? {} : { email: user.email }),
  });
  await t.services.identity.setMemberRole(orgId, created.id, role);
  const { token } = await t.services.identity.createToken(created.id, { label: 'test' });
  return { id: created.id, token, ...(user.email === undefined ? {} : { email: user.email }) };
}

/** A second organization with its own owner: its members are strangers to `t.orgId`. */
async function otherOrganization(t: TestContext) {
  const other = await t.services.identity.createOrganizationWithOwner({
    title: 'Other organization',
    ownerName: 'Other owner',
  });
  return { orgId: other.organization.id, userId: other.user.id, token: other.token };
}

/** Sends a request with another token. */
function as(t: TestContext, token: string, options: InjectOptions) {
  return t.request({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${token}` },
  });
}

function json<T>(response: LightMyRequestResponse, status = 200): T {
  return expectStatus(response, status) as unknown as T;
}

const teamsUrl = (t: TestContext, orgId = t.orgId) => `/v1/orgs/${orgId}/teams`;
const teamUrl = (t: TestContext, teamId: string, orgId = t.orgId) =>
  `${teamsUrl(t, orgId)}/${encodeURIComponent(teamId)}`;
const teamMembersUrl = (t: TestContext, teamId: string, orgId = t.orgId) =>
  `${teamUrl(t, teamId, orgId)}/members`;
const teamMemberUrl = (t: TestContext, teamId: string, userId: string, orgId = t.orgId) =>
  `${teamMembersUrl(t, teamId, orgId)}/${encodeURIComponent(userId)}`;
const memberTeamsUrl = (t: TestContext, userId: string, orgId = t.orgId) =>
  `/v1/orgs/${orgId}/members/${encodeURIComponent(userId)}/teams`;

/**
 * Lists are in creation order (then by random id): waiting for the clock to move on after each
 * creation keeps the order of the test's creations.
 */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

async function createTeam(
  t: TestContext,
  title: string,
  members?: string[],
  orgId = t.orgId,
): Promise<TeamJson> {
  const response = await t.request({
    method: 'PUT',
    url: teamsUrl(t, orgId),
    payload: { title, ...(members === undefined ? {} : { members }) },
  });
  await tick();
  return json<TeamJson>(response, 201);
}

async function getTeam(t: TestContext, teamId: string): Promise<TeamJson> {
  return json<TeamJson>(await t.request({ method: 'GET', url: teamUrl(t, teamId) }));
}

/** A team's members as `userId → team role`, read through the API. */
async function teamRoles(t: TestContext, teamId: string): Promise<Record<string, string>> {
  const list = json<ListOfItems<TeamMembershipJson>>(
    await t.request({ method: 'GET', url: `${teamMembersUrl(t, teamId)}?limit=1000` }),
  );
  assert.equal(list.next, undefined);
  assert.equal(list.count, list.items.length);
  return Object.fromEntries(list.items.map((item) => [item.organization.id, item.team.role]));
}

async function getMember(t: TestContext, userId: string): Promise<MemberJson> {
  return json<MemberJson>(
    await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/members/${userId}` }),
  );
}

/** Every teams and team_members row, for "nothing changed" checks. */
async function teamRows(t: TestContext) {
  const teams = await t.db.selectFrom('teams').selectAll().orderBy('id').execute();
  const members = await t.db
    .selectFrom('team_members')
    .selectAll()
    .orderBy('team_id')
    .orderBy('user_id')
    .execute();
  return { teams, members };
}

async function countTeamMembers(t: TestContext, where: { teamId?: string; userId?: string }) {
  let query = t.db.selectFrom('team_members').select((eb) => eb.fn.countAll<number>().as('n'));
  if (where.teamId !== undefined) query = query.where('team_id', '=', where.teamId);
  if (where.userId !== undefined) query = query.where('user_id', '=', where.userId);
  const { n } = await query.executeTakeFirstOrThrow();
  return Number(n);
}

const ids = (items: { id: string }[]) => items.map((item) => item.id);
const sorted = (values: string[]) => [...values].sort();
const teamRole = (role: string) => role as TeamMemberRole;

describe('creating teams', () => {
  test('PUT /teams: 201 with Location and the team object; members are counted', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const b = await addMember(t, 'edit');
    const before = Date.now();
    const response = await t.request({
      method: 'PUT',
      url: teamsUrl(t),
      payload: { title: 'Writers', members: [a.id, b.id] },
    });
    const team = json<TeamJson>(response, 201);
    const { id, createdAt, ...rest } = team;
    assert.deepEqual(rest, {
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    assert.equal(typeof id, 'string');
    assert.ok(id.length > 0);
    const created = Date.parse(createdAt);
    assert.ok(created >= before - 1000 && created <= Date.now() + 1000, createdAt);
    assert.equal(response.headers.location, `http://livery.test${teamUrl(t, id)}`);
    // The Location answers the team.
    assert.deepEqual(await getTeam(t, id), team);
    assert.deepEqual(await teamRoles(t, id), { [a.id]: 'member', [b.id]: 'member' });

    const empty = await createTeam(t, 'Nobody yet');
    assert.equal(empty.members, 0);
    assert.deepEqual(await teamRoles(t, empty.id), {});
  });

  test('titles are 1 to 64 characters: 0 and 65 are a 400 naming body.title', async (c) => {
    const t = await freshApp(c);
    const before = await teamRows(t);
    for (const title of ['', 'x'.repeat(65)]) {
      const message = expectError(
        await t.request({ method: 'PUT', url: teamsUrl(t), payload: { title } }),
        400,
      );
      assert.match(message, /body\.title/);
    }
    assert.match(
      expectError(await t.request({ method: 'PUT', url: teamsUrl(t), payload: {} }), 400),
      /body\.title is required/,
    );
    assert.match(
      expectError(
        await t.request({ method: 'PUT', url: teamsUrl(t), payload: { title: 'T', colour: 1 } }),
        400,
      ),
      /body\.colour is not a known field/,
    );
    assert.deepEqual(await teamRows(t), before, 'nothing was created');

    assert.equal((await createTeam(t, 'x')).title, 'x');
    assert.equal((await createTeam(t, 'y'.repeat(64))).title, 'y'.repeat(64));
  });

  test('a title taken ignoring case is a 409 naming it; another organization may use it', async (c) => {
    const t = await freshApp(c);
    const writers = await createTeam(t, 'Writers');
    const before = await teamRows(t);
    for (const title of ['Writers', 'WRITERS', 'writers']) {
      const message = expectError(
        await t.request({ method: 'PUT', url: teamsUrl(t), payload: { title } }),
        409,
      );
      assert.match(message, /body\.title/);
      assert.ok(message.includes(JSON.stringify(title)), message);
    }
    assert.deepEqual(await teamRows(t), before, 'nothing was created');
    assert.equal((await getTeam(t, writers.id)).title, 'Writers');

    const other = await otherOrganization(t);
    const theirs = json<TeamJson>(
      await as(t, other.token, {
        method: 'PUT',
        url: teamsUrl(t, other.orgId),
        payload: { title: 'writers' },
      }),
      201,
    );
    assert.equal(theirs.title, 'writers');
  });

  test('members that are not members of the organization: a 400 naming body.members[i]', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const other = await otherOrganization(t);
    const before = await teamRows(t);
    const cases: [string[], string, string][] = [
      [[a.id, 'no-such-user'], 'body.members[1]', 'no-such-user'],
      // A user who exists, but in another organization.
      [[other.userId, a.id], 'body.members[0]', other.userId],
    ];
    for (const [members, field, ref] of cases) {
      const message = expectError(
        await t.request({ method: 'PUT', url: teamsUrl(t), payload: { title: 'T', members } }),
        400,
      );
      assert.ok(message.startsWith(`${field}:`), message);
      assert.ok(message.includes(JSON.stringify(ref)), message);
      assert.match(message, /not a member of this organization/);
    }
    assert.deepEqual(await teamRows(t), before, 'no team, no team member');
  });

  test('a member named twice counts once; the index named is the one in the body', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const before = await teamRows(t);
    const message = expectError(
      await t.request({
        method: 'PUT',
        url: teamsUrl(t),
        payload: { title: 'T', members: [a.id, a.id, 'no-such-user'] },
      }),
      400,
    );
    // The third entry of the body is the stranger.
    assert.ok(message.startsWith('body.members[2]:'), message);
    assert.deepEqual(await teamRows(t), before);

    const team = await createTeam(t, 'Twice', [a.id, a.id]);
    assert.equal(team.members, 1);
    assert.deepEqual(await teamRoles(t, team.id), { [a.id]: 'member' });
  });
});

describe('listing and reading teams', () => {
  test('every team in creation order; title contains (any case); owner; pages', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const b = await addMember(t, 'read');
    const alpha = await createTeam(t, 'Alpha writers', [a.id]);
    const beta = await createTeam(t, 'Beta Writers', [a.id, b.id]);
    const gamma = await createTeam(t, 'Gamma 100%');
    const list = async (query = '') =>
      json<ListOfItems<TeamJson>>(
        await t.request({ method: 'GET', url: `${teamsUrl(t)}${query}` }),
      );

    const all = await list();
    assert.deepEqual(ids(all.items), [alpha.id, beta.id, gamma.id]);
    assert.equal(all.count, 3);
    assert.equal(all.next, undefined);
    assert.deepEqual(all.items[1], await getTeam(t, beta.id));
    assert.equal(all.items[1]?.members, 2);

    const writers = await list('?title=WRITERS');
    assert.deepEqual(ids(writers.items), [alpha.id, beta.id]);
    assert.equal(writers.count, 2);
    assert.deepEqual(ids((await list('?title=beta')).items), [beta.id]);
    // % and _ are matched literally.
    assert.deepEqual(ids((await list(`?title=${encodeURIComponent('0%')}`)).items), [gamma.id]);
    assert.deepEqual(ids((await list(`?title=${encodeURIComponent('%')}`)).items), [gamma.id]);
    assert.deepEqual(ids((await list('?title=_')).items), []);
    const none = await list('?title=nothing');
    assert.deepEqual(none, { items: [], count: 0 });

    // owner: the teams that member owns (not those they are a plain member of).
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, beta.id, a.id),
        payload: { role: 'owner' },
      }),
      204,
    );
    assert.deepEqual(ids((await list(`?owner=${a.id}`)).items), [beta.id]);
    assert.equal((await list(`?owner=${a.id}`)).count, 1);
    assert.deepEqual(ids((await list(`?owner=${b.id}`)).items), []);
    assert.deepEqual(ids((await list(`?owner=${a.id}&title=alpha`)).items), []);

    // Pages of 2, then 1; count on every page.
    const first = await list('?limit=2');
    assert.deepEqual(ids(first.items), [alpha.id, beta.id]);
    assert.equal(first.count, 3);
    assert.ok(first.next);
    const second = await list(`?limit=2&page=${encodeURIComponent(first.next.page)}`);
    assert.deepEqual(ids(second.items), [gamma.id]);
    assert.equal(second.count, 3);
    assert.equal(second.next, undefined);

    for (const query of ['?page=not-a-cursor', '?limit=0', '?limit=1001']) {
      expectError(await t.request({ method: 'GET', url: `${teamsUrl(t)}${query}` }), 400);
    }
  });

  test('GET one team; an unknown one, or another organization’s, is a 404', async (c) => {
    const t = await freshApp(c);
    const team = await createTeam(t, 'Writers');
    assert.deepEqual(await getTeam(t, team.id), team);
    const message = expectError(
      await t.request({ method: 'GET', url: teamUrl(t, 'team_nope') }),
      404,
    );
    assert.match(message, /team_nope/);

    const other = await otherOrganization(t);
    const theirs = json<TeamJson>(
      await as(t, other.token, {
        method: 'PUT',
        url: teamsUrl(t, other.orgId),
        payload: { title: 'Theirs' },
      }),
      201,
    );
    // Their team through our organization's path.
    expectError(await t.request({ method: 'GET', url: teamUrl(t, theirs.id) }), 404);
    expectError(await t.request({ method: 'GET', url: teamMembersUrl(t, theirs.id) }), 404);
    // Our team through their organization's path, with their token.
    expectError(
      await as(t, other.token, { method: 'GET', url: teamUrl(t, team.id, other.orgId) }),
      404,
    );
  });
});

describe('renaming and deleting teams', () => {
  test('PATCH {title}; {} is a 400; a taken title a 409; nothing changes on failure', async (c) => {
    const t = await freshApp(c);
    const writers = await createTeam(t, 'Writers');
    const editors = await createTeam(t, 'Editors');

    const renamed = json<TeamJson>(
      await t.request({
        method: 'PATCH',
        url: teamUrl(t, writers.id),
        payload: { title: 'Authors' },
      }),
    );
    assert.deepEqual(renamed, { ...writers, title: 'Authors' });
    assert.deepEqual(await getTeam(t, writers.id), renamed);
    // Its own title in another case is not taken.
    const recased = json<TeamJson>(
      await t.request({
        method: 'PATCH',
        url: teamUrl(t, writers.id),
        payload: { title: 'AUTHORS' },
      }),
    );
    assert.equal(recased.title, 'AUTHORS');
    // The old title is free again.
    await createTeam(t, 'writers');

    const before = await teamRows(t);
    assert.match(
      expectError(
        await t.request({ method: 'PATCH', url: teamUrl(t, writers.id), payload: {} }),
        400,
      ),
      /body\.title is required/,
    );
    for (const title of ['', 'x'.repeat(65)]) {
      assert.match(
        expectError(
          await t.request({ method: 'PATCH', url: teamUrl(t, writers.id), payload: { title } }),
          400,
        ),
        /body\.title/,
      );
    }
    assert.match(
      expectError(
        await t.request({
          method: 'PATCH',
          url: teamUrl(t, writers.id),
          payload: { title: 'Ok', members: [] },
        }),
        400,
      ),
      /body\.members is not a known field/,
    );
    const taken = expectError(
      await t.request({
        method: 'PATCH',
        url: teamUrl(t, writers.id),
        payload: { title: 'eDiToRs' },
      }),
      409,
    );
    assert.match(taken, /body\.title/);
    assert.ok(taken.includes('"eDiToRs"'), taken);
    expectError(
      await t.request({ method: 'PATCH', url: teamUrl(t, 'team_nope'), payload: { title: 'New' } }),
      404,
    );
    assert.deepEqual(await teamRows(t), before, 'nothing changed');
    assert.equal((await getTeam(t, writers.id)).title, 'AUTHORS');
    assert.equal((await getTeam(t, editors.id)).title, 'Editors');
  });

  test('DELETE: 205, its team members go with it, then 204; the title is free again', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const b = await addMember(t, 'read');
    const doomed = await createTeam(t, 'Doomed', [a.id, b.id]);
    const kept = await createTeam(t, 'Kept', [a.id]);
    assert.equal(await countTeamMembers(t, { teamId: doomed.id }), 2);
    assert.equal((await getMember(t, a.id)).teams, 2);

    const deleted = await t.request({ method: 'DELETE', url: teamUrl(t, doomed.id) });
    assert.equal(deleted.statusCode, 205);
    assert.equal(deleted.body, '');
    assert.equal(await countTeamMembers(t, { teamId: doomed.id }), 0, 'team_members rows gone');
    expectError(await t.request({ method: 'GET', url: teamUrl(t, doomed.id) }), 404);
    expectError(await t.request({ method: 'GET', url: teamMembersUrl(t, doomed.id) }), 404);
    const again = await t.request({ method: 'DELETE', url: teamUrl(t, doomed.id) });
    assert.equal(again.statusCode, 204);
    assert.equal(again.body, '');

    // The other team and the members are untouched.
    assert.deepEqual(await teamRoles(t, kept.id), { [a.id]: 'member' });
    assert.equal((await getMember(t, a.id)).teams, 1);
    assert.equal((await getMember(t, b.id)).teams, 0);
    await createTeam(t, 'DOOMED');
  });
});

describe('team members', () => {
  test('GET …/members: the member object, the team role, permissions; pages', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read', { displayName: 'Ann', email: 'ann@example.com' });
    const b = await addMember(t, 'edit', { displayName: 'Bob' });
    const g = await addMember(t, 'guest', { displayName: 'Guest' });
    const team = await createTeam(t, 'Writers', [a.id, b.id, g.id]);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, team.id, b.id),
        payload: { role: 'owner' },
      }),
      204,
    );

    const list = json<ListOfItems<TeamMembershipJson>>(
      await t.request({ method: 'GET', url: teamMembersUrl(t, team.id) }),
    );
    assert.equal(list.count, 3);
    assert.equal(list.next, undefined);
    assert.deepEqual(
      sorted(list.items.map((item) => item.organization.id)),
      sorted([a.id, b.id, g.id]),
    );
    for (const item of list.items) {
      const member = await getMember(t, item.organization.id);
      const { lastSeenAt: _a, ...listed } = item.organization;
      const { lastSeenAt: _b, ...one } = member;
      assert.deepEqual(listed, one, 'the organization member object');
      assert.equal(member.teams, 1);
      assert.deepEqual(item.team, { role: item.organization.id === b.id ? 'owner' : 'member' });
      assert.deepEqual(item.permissions, { view: true });
      assert.deepEqual(Object.keys(item).sort(), ['organization', 'permissions', 'team']);
    }
    const guest = list.items.find((item) => item.organization.id === g.id);
    assert.equal(guest?.organization.role, null);

    // Pages of one.
    const seen: string[] = [];
    let page: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const query = `?limit=1${page === undefined ? '' : `&page=${encodeURIComponent(page)}`}`;
      const one = json<ListOfItems<TeamMembershipJson>>(
        await t.request({ method: 'GET', url: `${teamMembersUrl(t, team.id)}${query}` }),
      );
      assert.equal(one.count, 3);
      assert.ok(one.items.length <= 1);
      seen.push(...one.items.map((item) => item.organization.id));
      if (one.next === undefined) break;
      page = one.next.page;
    }
    assert.deepEqual(sorted(seen), sorted([a.id, b.id, g.id]));
    assert.equal(new Set(seen).size, 3, 'no member twice');

    expectError(await t.request({ method: 'GET', url: teamMembersUrl(t, 'team_nope') }), 404);
    expectError(
      await t.request({ method: 'GET', url: `${teamMembersUrl(t, team.id)}?page=garbage` }),
      400,
    );
  });

  test('PUT …/members: add (ids or emails), memberships and remove, read back', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read', { email: 'a@example.com' });
    const b = await addMember(t, 'read', { email: 'b@example.com' });
    const d = await addMember(t, 'read');
    const e = await addMember(t, 'read');
    const team = await createTeam(t, 'Writers', [d.id]);
    const put = (payload: unknown) =>
      t.request({ method: 'PUT', url: teamMembersUrl(t, team.id), payload: payload as object });

    const added = await put({
      add: [a.id, 'b@example.com'],
      memberships: { [d.id]: { role: 'owner' } },
    });
    assert.equal(added.statusCode, 204);
    assert.equal(added.body, '');
    assert.deepEqual(await teamRoles(t, team.id), {
      [a.id]: 'member',
      [b.id]: 'member',
      [d.id]: 'owner',
    });
    assert.equal((await getTeam(t, team.id)).members, 3);

    // Adding someone already there keeps their role; memberships alone adds with that role;
    // memberships may name a user by email.
    expectStatus(
      await put({
        add: [d.id],
        memberships: { 'a@example.com': { role: 'owner' }, [e.id]: { role: 'member' } },
      }),
      204,
    );
    assert.deepEqual(await teamRoles(t, team.id), {
      [a.id]: 'owner',
      [b.id]: 'member',
      [d.id]: 'owner',
      [e.id]: 'member',
    });

    // A user both added and removed ends removed; remove by email; an empty update is fine.
    expectStatus(
      await put({
        add: [b.id, e.id],
        memberships: { [b.id]: { role: 'owner' } },
        remove: ['b@example.com', a.id],
      }),
      204,
    );
    assert.deepEqual(await teamRoles(t, team.id), { [d.id]: 'owner', [e.id]: 'member' });
    expectStatus(await put({}), 204);
    // Removing someone not in the team (but a member of the organization) is fine.
    expectStatus(await put({ remove: [a.id] }), 204);
    assert.deepEqual(await teamRoles(t, team.id), { [d.id]: 'owner', [e.id]: 'member' });
    assert.equal((await getTeam(t, team.id)).members, 2);
    assert.equal((await getMember(t, b.id)).teams, 0);
    assert.equal((await getMember(t, d.id)).teams, 1);
  });

  test('PUT …/members: an unknown or non-member entry is a 400 naming it, and nothing changes', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read', { email: 'a@example.com' });
    const b = await addMember(t, 'read');
    const other = await otherOrganization(t);
    const stranger = await addMember(t, 'read', { email: 'stranger@example.com' }, other.orgId);
    const team = await createTeam(t, 'Writers', [a.id]);
    const before = await teamRows(t);
    const cases: [unknown, string, string][] = [
      [{ add: [b.id, 'nobody'] }, 'body.add[1]', 'nobody'],
      [{ add: [b.id, other.userId] }, 'body.add[1]', other.userId],
      [{ add: ['stranger@example.com'] }, 'body.add[0]', 'stranger@example.com'],
      [{ remove: ['nobody'], add: [b.id] }, 'body.remove[0]', 'nobody'],
      [
        { add: [b.id], memberships: { [stranger.id]: { role: 'owner' } } },
        `body.memberships.${stranger.id}`,
        stranger.id,
      ],
    ];
    for (const [payload, field, ref] of cases) {
      const message = expectError(
        await t.request({
          method: 'PUT',
          url: teamMembersUrl(t, team.id),
          payload: payload as object,
        }),
        400,
      );
      assert.ok(message.startsWith(`${field}:`), message);
      assert.ok(message.includes(JSON.stringify(ref)), message);
      assert.deepEqual(await teamRows(t), before, `nothing changed: ${JSON.stringify(payload)}`);
    }
    // Bad shapes: a team role that does not exist, unknown fields.
    for (const [payload, pattern] of [
      [{ memberships: { [a.id]: { role: 'boss' } } }, /role/],
      [{ add: [b.id], kick: [a.id] }, /body\.kick is not a known field/],
      [{ add: b.id }, /body\.add/],
      [{ add: [''] }, /body\.add\[0\]/],
    ] as const) {
      assert.match(
        expectError(
          await t.request({ method: 'PUT', url: teamMembersUrl(t, team.id), payload }),
          400,
        ),
        pattern,
      );
    }
    expectError(
      await t.request({
        method: 'PUT',
        url: teamMembersUrl(t, 'team_nope'),
        payload: { add: [b.id] },
      }),
      404,
    );
    assert.deepEqual(await teamRows(t), before, 'nothing changed');
  });

  test('PUT …/members by email matches the address whatever its case', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read', { email: 'ann@example.com' });
    const team = await createTeam(t, 'Writers');
    // Livery stores addresses lower-cased (invites, POST /v1/users) and compares them ignoring
    // case (inviting a member's address in capitals is a 409): naming one here is the same.
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMembersUrl(t, team.id),
        payload: { add: ['Ann@Example.COM'] },
      }),
      204,
    );
    assert.deepEqual(await teamRoles(t, team.id), { [a.id]: 'member' });
  });

  test('PUT …/members/{userId}: no body adds as member, {role} sets it; role boss is a 400', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const other = await otherOrganization(t);
    const team = await createTeam(t, 'Writers');

    // No body at all, as GitBook's client sends it.
    const added = await t.request({ method: 'PUT', url: teamMemberUrl(t, team.id, a.id) });
    assert.equal(added.statusCode, 204);
    assert.equal(added.body, '');
    assert.deepEqual(await teamRoles(t, team.id), { [a.id]: 'member' });
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, team.id, a.id),
        payload: { role: 'owner' },
      }),
      204,
    );
    assert.deepEqual(await teamRoles(t, team.id), { [a.id]: 'owner' });
    // Again without a role: the existing member keeps theirs.
    expectStatus(
      await t.request({ method: 'PUT', url: teamMemberUrl(t, team.id, a.id), payload: {} }),
      204,
    );
    assert.deepEqual(await teamRoles(t, team.id), { [a.id]: 'owner' });
    // The organization owner, added as owner at once.
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, team.id, t.userId),
        payload: { role: 'owner' },
      }),
      204,
    );

    const before = await teamRows(t);
    assert.match(
      expectError(
        await t.request({
          method: 'PUT',
          url: teamMemberUrl(t, team.id, a.id),
          payload: { role: 'boss' },
        }),
        400,
      ),
      /body\.role must be one of "owner", "member"/,
    );
    assert.match(
      expectError(
        await t.request({
          method: 'PUT',
          url: teamMemberUrl(t, team.id, a.id),
          payload: { role: 'member', extra: true },
        }),
        400,
      ),
      /body\.extra is not a known field/,
    );
    // A user who is not a member of the organization, an unknown user, an unknown team.
    expectError(
      await t.request({ method: 'PUT', url: teamMemberUrl(t, team.id, other.userId) }),
      404,
    );
    expectError(await t.request({ method: 'PUT', url: teamMemberUrl(t, team.id, 'nobody') }), 404);
    expectError(await t.request({ method: 'PUT', url: teamMemberUrl(t, 'team_nope', a.id) }), 404);
    assert.deepEqual(await teamRows(t), before, 'nothing changed');
    assert.deepEqual(await teamRoles(t, team.id), { [a.id]: 'owner', [t.userId]: 'owner' });
  });

  test('DELETE …/members/{userId}: 205, then 204', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const b = await addMember(t, 'read');
    const team = await createTeam(t, 'Writers', [a.id, b.id]);
    const removed = await t.request({ method: 'DELETE', url: teamMemberUrl(t, team.id, a.id) });
    assert.equal(removed.statusCode, 205);
    assert.equal(removed.body, '');
    assert.deepEqual(await teamRoles(t, team.id), { [b.id]: 'member' });
    assert.equal((await getTeam(t, team.id)).members, 1);
    const again = await t.request({ method: 'DELETE', url: teamMemberUrl(t, team.id, a.id) });
    assert.equal(again.statusCode, 204);
    assert.equal(
      (await t.request({ method: 'DELETE', url: teamMemberUrl(t, team.id, 'nobody') })).statusCode,
      204,
    );
    expectError(
      await t.request({ method: 'DELETE', url: teamMemberUrl(t, 'team_nope', b.id) }),
      404,
    );
    assert.deepEqual(await teamRoles(t, team.id), { [b.id]: 'member' });
    assert.equal((await getMember(t, a.id)).teams, 0);
  });

  test('GET /members/{userId}/teams: {team, member: {role}}; the member’s teams count matches', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const alpha = await createTeam(t, 'Alpha', [a.id]);
    const beta = await createTeam(t, 'Beta');
    const gamma = await createTeam(t, 'Gamma', [a.id]);
    await createTeam(t, 'Delta');
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, gamma.id, a.id),
        payload: { role: 'owner' },
      }),
      204,
    );
    const list = async (query = '', userId = a.id) =>
      json<ListOfItems<MemberTeamJson>>(
        await t.request({ method: 'GET', url: `${memberTeamsUrl(t, userId)}${query}` }),
      );

    const teams = await list();
    assert.equal(teams.count, 2);
    assert.equal(teams.next, undefined);
    assert.deepEqual(
      teams.items.map((item) => [item.team.id, item.member.role]),
      [
        [alpha.id, 'member'],
        [gamma.id, 'owner'],
      ],
    );
    for (const item of teams.items) {
      assert.deepEqual(Object.keys(item).sort(), ['member', 'team']);
      assert.deepEqual(item.team, await getTeam(t, item.team.id));
    }
    assert.equal((await getMember(t, a.id)).teams, teams.count);

    assert.deepEqual(
      (await list('?title=GAM')).items.map((item) => item.team.id),
      [gamma.id],
    );
    const first = await list('?limit=1');
    assert.deepEqual(
      first.items.map((item) => item.team.id),
      [alpha.id],
    );
    assert.equal(first.count, 2);
    assert.ok(first.next);
    const second = await list(`?limit=1&page=${encodeURIComponent(first.next.page)}`);
    assert.deepEqual(
      second.items.map((item) => item.team.id),
      [gamma.id],
    );
    assert.equal(second.next, undefined);

    // Joining beta moves the count; someone in no team has none.
    expectStatus(await t.request({ method: 'PUT', url: teamMemberUrl(t, beta.id, a.id) }), 204);
    assert.equal((await list()).count, 3);
    assert.equal((await getMember(t, a.id)).teams, 3);
    assert.deepEqual(await list('', t.userId), { items: [], count: 0 });

    const other = await otherOrganization(t);
    expectError(await t.request({ method: 'GET', url: memberTeamsUrl(t, other.userId) }), 404);
    expectError(await t.request({ method: 'GET', url: memberTeamsUrl(t, 'nobody') }), 404);
  });

  test('leaving the organization leaves its teams; coming back does not restore them', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const b = await addMember(t, 'read');
    const alpha = await createTeam(t, 'Alpha', [a.id, b.id]);
    const beta = await createTeam(t, 'Beta', [a.id]);
    // a also belongs to a team of another organization: that one stays.
    const other = await otherOrganization(t);
    await t.services.identity.setMemberRole(other.orgId, a.id, 'read');
    const theirs = json<TeamJson>(
      await as(t, other.token, {
        method: 'PUT',
        url: teamsUrl(t, other.orgId),
        payload: { title: 'Theirs', members: [a.id] },
      }),
      201,
    );

    expectStatus(
      await t.request({ method: 'DELETE', url: `/v1/orgs/${t.orgId}/members/${a.id}` }),
      205,
    );
    assert.deepEqual(await teamRoles(t, alpha.id), { [b.id]: 'member' });
    assert.deepEqual(await teamRoles(t, beta.id), {});
    assert.equal((await getTeam(t, beta.id)).members, 0);
    assert.equal(await countTeamMembers(t, { userId: a.id }), 1, 'only the other organization’s');
    assert.equal(await countTeamMembers(t, { teamId: theirs.id }), 1);

    await t.services.identity.setMemberRole(t.orgId, a.id, 'read');
    assert.equal((await getMember(t, a.id)).teams, 0);
    assert.deepEqual(
      json<ListOfItems<MemberTeamJson>>(
        await t.request({ method: 'GET', url: memberTeamsUrl(t, a.id) }),
      ),
      { items: [], count: 0 },
    );
  });
});

describe('who may manage teams', () => {
  test('a read member lists and reads teams, but may not create, rename or delete them', async (c) => {
    const t = await freshApp(c);
    const reader = await addMember(t, 'read');
    const a = await addMember(t, 'read');
    const team = await createTeam(t, 'Writers', [a.id]);
    const before = await teamRows(t);
    const read = (options: InjectOptions) => as(t, reader.token, options);

    const listed = json<ListOfItems<TeamJson>>(await read({ method: 'GET', url: teamsUrl(t) }));
    assert.deepEqual(ids(listed.items), [team.id]);
    const one = json<TeamJson>(await read({ method: 'GET', url: teamUrl(t, team.id) }));
    assert.deepEqual(one, { ...team, permissions: { admin: false, view: true } });
    assert.equal(
      json<ListOfItems<TeamMembershipJson>>(
        await read({ method: 'GET', url: teamMembersUrl(t, team.id) }),
      ).count,
      1,
    );
    assert.equal(
      json<ListOfItems<MemberTeamJson>>(await read({ method: 'GET', url: memberTeamsUrl(t, a.id) }))
        .count,
      1,
    );

    const refused: InjectOptions[] = [
      { method: 'PUT', url: teamsUrl(t), payload: { title: 'Mine' } },
      { method: 'PATCH', url: teamUrl(t, team.id), payload: { title: 'Renamed' } },
      { method: 'DELETE', url: teamUrl(t, team.id) },
      // Not an owner of the team: its members are not theirs to manage either.
      { method: 'PUT', url: teamMembersUrl(t, team.id), payload: { add: [reader.id] } },
      { method: 'PUT', url: teamMemberUrl(t, team.id, reader.id) },
      { method: 'DELETE', url: teamMemberUrl(t, team.id, a.id) },
    ];
    for (const options of refused) {
      expectError(await read(options), 403);
    }
    // The refusal comes before validation: an invalid body is still a 403.
    expectError(await read({ method: 'PUT', url: teamsUrl(t), payload: { title: '' } }), 403);
    assert.deepEqual(await teamRows(t), before, 'nothing changed');
  });

  test('a team owner who is a read member manages that team’s members, not another team’s', async (c) => {
    const t = await freshApp(c);
    const owner = await addMember(t, 'read');
    const plain = await addMember(t, 'read');
    const a = await addMember(t, 'read');
    const b = await addMember(t, 'read');
    const mine = await createTeam(t, 'Mine', [plain.id]);
    const theirs = await createTeam(t, 'Theirs', [a.id, owner.id]);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, mine.id, owner.id),
        payload: { role: 'owner' },
      }),
      204,
    );
    const asOwner = (options: InjectOptions) => as(t, owner.token, options);

    expectStatus(
      await asOwner({
        method: 'PUT',
        url: teamMembersUrl(t, mine.id),
        payload: { add: [a.id], memberships: { [plain.id]: { role: 'owner' } } },
      }),
      204,
    );
    expectStatus(await asOwner({ method: 'PUT', url: teamMemberUrl(t, mine.id, b.id) }), 204);
    const removed = await asOwner({ method: 'DELETE', url: teamMemberUrl(t, mine.id, a.id) });
    assert.equal(removed.statusCode, 205);
    assert.deepEqual(await teamRoles(t, mine.id), {
      [owner.id]: 'owner',
      [plain.id]: 'owner',
      [b.id]: 'member',
    });

    const one = json<TeamJson>(await asOwner({ method: 'GET', url: teamUrl(t, mine.id) }));
    assert.deepEqual(one.permissions, { admin: true, view: true });

    // Another team (they are a plain member of it), and the team itself: not theirs.
    const before = await teamRows(t);
    const refused: InjectOptions[] = [
      { method: 'PUT', url: teamMembersUrl(t, theirs.id), payload: { add: [b.id] } },
      { method: 'PUT', url: teamMemberUrl(t, theirs.id, b.id), payload: { role: 'owner' } },
      { method: 'PUT', url: teamMemberUrl(t, theirs.id, owner.id), payload: { role: 'owner' } },
      { method: 'DELETE', url: teamMemberUrl(t, theirs.id, a.id) },
      { method: 'PATCH', url: teamUrl(t, mine.id), payload: { title: 'Renamed' } },
      { method: 'DELETE', url: teamUrl(t, mine.id) },
    ];
    for (const options of refused) {
      const message = expectError(await asOwner(options), 403);
      assert.match(message, /admin/);
    }
    assert.deepEqual(await teamRows(t), before, 'nothing changed');

    // Once no longer owner, the right is gone.
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMembersUrl(t, mine.id),
        payload: { memberships: { [owner.id]: { role: 'member' } } },
      }),
      204,
    );
    expectError(await asOwner({ method: 'DELETE', url: teamMemberUrl(t, mine.id, b.id) }), 403);
    assert.deepEqual(await teamRoles(t, mine.id), {
      [owner.id]: 'member',
      [plain.id]: 'owner',
      [b.id]: 'member',
    });
  });

  test('permissions.admin of a team is the same in the lists as on the team itself', async (c) => {
    const t = await freshApp(c);
    const owner = await addMember(t, 'read');
    const mine = await createTeam(t, 'Mine');
    const theirs = await createTeam(t, 'Theirs', [owner.id]);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, mine.id, owner.id),
        payload: { role: 'owner' },
      }),
      204,
    );
    const asOwner = (options: InjectOptions) => as(t, owner.token, options);
    // GET one: the owner can manage their team (its members), not the other.
    const admin = async (teamId: string) =>
      json<TeamJson>(await asOwner({ method: 'GET', url: teamUrl(t, teamId) })).permissions.admin;
    assert.equal(await admin(mine.id), true);
    assert.equal(await admin(theirs.id), false);
    // The lists say the same of the same teams, for the same caller.
    const listed = json<ListOfItems<TeamJson>>(await asOwner({ method: 'GET', url: teamsUrl(t) }));
    assert.deepEqual(
      listed.items.map((team) => [team.id, team.permissions.admin]),
      [
        [mine.id, true],
        [theirs.id, false],
      ],
    );
    const owned = json<ListOfItems<TeamJson>>(
      await asOwner({ method: 'GET', url: `${teamsUrl(t)}?owner=${owner.id}` }),
    );
    assert.deepEqual(
      owned.items.map((team) => [team.id, team.permissions.admin]),
      [[mine.id, true]],
    );
    const own = json<ListOfItems<MemberTeamJson>>(
      await asOwner({ method: 'GET', url: memberTeamsUrl(t, owner.id) }),
    );
    assert.deepEqual(
      own.items.map((item) => [item.team.id, item.member.role, item.team.permissions.admin]),
      [
        [mine.id, 'owner', true],
        [theirs.id, 'member', false],
      ],
    );
  });

  test('a non-member gets a 404 on every team operation; a guest a 403', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const team = await createTeam(t, 'Writers', [a.id]);
    const other = await otherOrganization(t);
    const guest = await addMember(t, 'guest');
    // A guest who owns the team: still not enough to call team operations (read is needed).
    expectStatus(
      await t.request({
        method: 'PUT',
        url: teamMemberUrl(t, team.id, guest.id),
        payload: { role: 'owner' },
      }),
      204,
    );
    const before = await teamRows(t);
    const operations: InjectOptions[] = [
      { method: 'GET', url: teamsUrl(t) },
      { method: 'PUT', url: teamsUrl(t), payload: { title: 'Mine' } },
      { method: 'GET', url: teamUrl(t, team.id) },
      { method: 'PATCH', url: teamUrl(t, team.id), payload: { title: 'Renamed' } },
      { method: 'DELETE', url: teamUrl(t, team.id) },
      { method: 'GET', url: teamMembersUrl(t, team.id) },
      { method: 'PUT', url: teamMembersUrl(t, team.id), payload: { add: [a.id] } },
      { method: 'PUT', url: teamMemberUrl(t, team.id, a.id) },
      { method: 'DELETE', url: teamMemberUrl(t, team.id, a.id) },
      { method: 'GET', url: memberTeamsUrl(t, a.id) },
    ];
    for (const options of operations) {
      const message = expectError(await as(t, other.token, options), 404);
      assert.match(message, /organization/, `${options.method} ${options.url}`);
      expectError(await as(t, guest.token, options), 403);
    }
    // Without a token: 401.
    expectError(
      await t.request({ method: 'GET', url: teamsUrl(t), headers: { authorization: '' } }),
      401,
    );
    assert.deepEqual(await teamRows(t), before, 'nothing changed');
  });
});

describe('teams through the official client', () => {
  test('every teams operation, with its status', async (c) => {
    const t = await freshApp(c);
    const { api, endpoint } = await listenWithClient(t);
    const a = await addMember(t, 'read', { email: 'a@example.com' });
    const b = await addMember(t, 'read');

    const created = await api.orgs.createOrganizationTeam(t.orgId, {
      title: 'Writers',
      members: [a.id],
    });
    assert.equal(created.status, 201);
    assert.equal(created.data.object, 'team');
    assert.equal(created.data.members, 1);
    assert.equal(
      created.headers.get('location'),
      `http://livery.test${teamUrl(t, created.data.id)}`,
    );
    const teamId = created.data.id;
    await tick();
    const second = await api.orgs.createOrganizationTeam(t.orgId, { title: 'Editors' });
    assert.equal(second.status, 201);

    const listed = await api.orgs.listTeamsInOrganizationById(t.orgId, { title: 'WRIT' });
    assert.equal(listed.status, 200);
    assert.deepEqual(ids(listed.data.items), [teamId]);
    assert.equal(listed.data.count, 1);
    const paged = await api.orgs.listTeamsInOrganizationById(t.orgId, { limit: 1 });
    assert.equal(paged.data.items.length, 1);
    assert.ok(paged.data.next);
    const rest = await api.orgs.listTeamsInOrganizationById(t.orgId, {
      limit: 1,
      page: paged.data.next.page,
    });
    assert.deepEqual(ids(rest.data.items), [second.data.id]);

    const got = await api.orgs.getTeamInOrganizationById(t.orgId, teamId);
    assert.equal(got.status, 200);
    assert.deepEqual(got.data, created.data);

    const renamed = await api.orgs.updateTeamInOrganizationById(t.orgId, teamId, {
      title: 'Authors',
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.data.title, 'Authors');

    const updated = await api.orgs.updateMembersInOrganizationTeam(t.orgId, teamId, {
      add: [b.id],
      memberships: { 'a@example.com': { role: teamRole('owner') } },
    });
    assert.equal(updated.status, 204);
    const members = await api.orgs.listTeamMembersInOrganizationById(t.orgId, teamId);
    assert.equal(members.status, 200);
    assert.equal(members.data.count, 2);
    assert.deepEqual(
      Object.fromEntries(members.data.items.map((m) => [m.organization.user.id, m.team.role])),
      { [a.id]: 'owner', [b.id]: 'member' },
    );

    // With a body ({role}), with an empty one, and with none (the client's data left out).
    const added = await api.orgs.addMemberToOrganizationTeamById(t.orgId, teamId, t.userId, {
      role: teamRole('owner'),
    });
    assert.equal(added.status, 204);
    assert.equal(
      (await api.orgs.addMemberToOrganizationTeamById(t.orgId, teamId, b.id, {})).status,
      204,
    );
    assert.equal(
      (
        await api.orgs.addMemberToOrganizationTeamById(
          t.orgId,
          second.data.id,
          b.id,
          undefined as never,
        )
      ).status,
      204,
    );
    assert.deepEqual(await teamRoles(t, teamId), {
      [a.id]: 'owner',
      [b.id]: 'member',
      [t.userId]: 'owner',
    });
    assert.deepEqual(await teamRoles(t, second.data.id), { [b.id]: 'member' });

    const memberTeams = await api.orgs.listTeamsForOrganizationMember(t.orgId, b.id);
    assert.equal(memberTeams.status, 200);
    assert.deepEqual(
      memberTeams.data.items.map((item) => [item.team.id, item.member.role]),
      [
        [teamId, 'member'],
        [second.data.id, 'member'],
      ],
    );
    assert.deepEqual(
      (
        await api.orgs.listTeamsForOrganizationMember(t.orgId, b.id, { title: 'edit' })
      ).data.items.map((item) => item.team.id),
      [second.data.id],
    );

    const removedMember = await api.orgs.deleteMemberFromOrganizationTeamById(
      t.orgId,
      teamId,
      b.id,
    );
    assert.equal(removedMember.status, 205);
    assert.equal(
      (await api.orgs.deleteMemberFromOrganizationTeamById(t.orgId, teamId, b.id)).status,
      204,
    );

    // Failures surface as GitBookAPIError with the status.
    const taken = await clientFailure(
      api.orgs.createOrganizationTeam(t.orgId, { title: 'AUTHORS' }),
    );
    assert.equal(taken.code, 409);
    assert.match(taken.errorMessage, /AUTHORS/);
    const tooLong = await clientFailure(
      api.orgs.updateTeamInOrganizationById(t.orgId, teamId, { title: 'x'.repeat(65) }),
    );
    assert.equal(tooLong.code, 400);
    assert.match(tooLong.errorMessage, /body\.title/);
    const stranger = await clientFailure(
      api.orgs.updateMembersInOrganizationTeam(t.orgId, teamId, { add: ['nobody'] }),
    );
    assert.equal(stranger.code, 400);
    assert.match(stranger.errorMessage, /body\.add\[0\]/);
    const boss = await clientFailure(
      api.orgs.addMemberToOrganizationTeamById(t.orgId, teamId, b.id, { role: teamRole('boss') }),
    );
    assert.equal(boss.code, 400);
    const reader = new GitBookAPI({ authToken: b.token, endpoint });
    const refused = await clientFailure(
      reader.orgs.createOrganizationTeam(t.orgId, { title: 'Readers' }),
    );
    assert.equal(refused.code, 403);
    assert.equal(
      (await reader.orgs.getTeamInOrganizationById(t.orgId, teamId)).data.permissions.admin,
      false,
    );

    const deleted = await api.orgs.removeTeamFromOrganizationById(t.orgId, teamId);
    assert.equal(deleted.status, 205);
    assert.equal((await api.orgs.removeTeamFromOrganizationById(t.orgId, teamId)).status, 204);
    const gone = await clientFailure(api.orgs.getTeamInOrganizationById(t.orgId, teamId));
    assert.equal(gone.code, 404);
    assert.equal(gone.response.status, 404);
    assert.equal(await countTeamMembers(t, { teamId }), 0);
  });
});

describe('teams under concurrent requests', () => {
  test('one title created three times at once: one 201, two 409', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    const responses = await Promise.all(
      ['Writers', 'WRITERS', 'writers'].map((title) =>
        t.request({ method: 'PUT', url: teamsUrl(t), payload: { title, members: [a.id] } }),
      ),
    );
    assert.deepEqual(responses.map((r) => r.statusCode).sort(), [201, 409, 409]);
    const { teams, members } = await teamRows(t);
    assert.equal(teams.length, 1);
    assert.equal(members.length, 1);
  });

  test('adding a member while the team is deleted: a 204 or a 404, never a 500, and no row is left', async (c) => {
    const t = await freshApp(c);
    const a = await addMember(t, 'read');
    for (let round = 0; round < 5; round++) {
      const team = await createTeam(t, `Team ${round}`);
      const [added, deleted] = await Promise.all([
        t.request({ method: 'PUT', url: teamMemberUrl(t, team.id, a.id) }),
        t.request({ method: 'DELETE', url: teamUrl(t, team.id) }),
      ]);
      assert.equal(deleted.statusCode, 205);
      assert.ok(
        added.statusCode === 204 || added.statusCode === 404,
        `round ${round}: ${added.statusCode} ${added.body}`,
      );
      assert.equal(await countTeamMembers(t, { teamId: team.id }), 0);
    }
    assert.equal((await getMember(t, a.id)).teams, 0);
  });

  test('adding a member while they leave the organization: no team member outside it', async (c) => {
    const t = await freshApp(c);
    const team = await createTeam(t, 'Writers');
    for (let round = 0; round < 10; round++) {
      const a = await addMember(t, 'read');
      const [added, removed] = await Promise.all([
        t.request({ method: 'PUT', url: teamMemberUrl(t, team.id, a.id) }),
        t.request({ method: 'DELETE', url: `/v1/orgs/${t.orgId}/members/${a.id}` }),
      ]);
      assert.equal(removed.statusCode, 205);
      assert.ok(
        added.statusCode === 204 || added.statusCode === 404,
        `round ${round}: ${added.statusCode} ${added.body}`,
      );
      assert.equal(
        await countTeamMembers(t, { userId: a.id }),
        0,
        `round ${round}: the user left the organization, and so its teams`,
      );
    }
    // The team's count and its listing agree.
    const listed = json<ListOfItems<TeamMembershipJson>>(
      await t.request({ method: 'GET', url: teamMembersUrl(t, team.id) }),
    );
    assert.equal((await getTeam(t, team.id)).members, 0);
    assert.equal(listed.count, 0);
  });
});
