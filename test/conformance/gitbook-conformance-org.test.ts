/**
 * GitBook conformance (issue 14): the user, organization, member, team and invite operations,
 * each response judged against the response schemas of GitBook 0.202 and 0.130 (the spec
 * documents shipped in the installed client packages; test/helpers/gitbook-spec.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';

let t: TestContext;
let c: Conformance;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
});
after(async () => t.close());

const org = () => `/v1/orgs/${t.orgId}`;

/** A new user, member of the organization with `role`, and their token. */
async function member(role: string, email?: string): Promise<{ id: string; token: string }> {
  const user = await t.services.identity.createUser({
    displayName: `A ${role}`,
    ...(email === undefined ? {} : { email }),
  });
  if (role !== 'none') await t.services.identity.setMemberRole(t.orgId, user.id, role);
  const { token } = await t.services.identity.createToken(user.id, { label: role });
  return { id: user.id, token };
}

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

describe('GitBook conformance: users, organizations, members, teams, invites', () => {
  test('the user and the organizations', async () => {
    const user = await c.call(
      'getAuthenticatedUser',
      { method: 'GET', url: '/v1/user' },
      { status: 200 },
    );
    c.check(() => assert.equal(json(user.body).id, t.userId));
    const orgs = await c.call(
      'listOrganizationsForAuthenticatedUser',
      { method: 'GET', url: '/v1/orgs?limit=10' },
      { status: 200 },
    );
    c.check(() => assert.equal((json(orgs.body).items as { id: string }[])[0]?.id, t.orgId));
    await c.call('getOrganizationById', { method: 'GET', url: org() }, { status: 200 });
    await c.call('getOrganizationById', { method: 'GET', url: '/v1/orgs/nope' }, { status: 404 });
    await c.call('getUserById', { method: 'GET', url: `/v1/users/${t.userId}` }, { status: 200 });
    await c.call('getUserById', { method: 'GET', url: '/v1/users/nope' }, { status: 404 });
    c.assertConforms();
  });

  test('members: list, get, update, their spaces and teams, remove', async () => {
    const writer = await member('edit', 'writer@example.com');
    const list = await c.call(
      'listMembersInOrganizationById',
      { method: 'GET', url: `${org()}/members?limit=10` },
      { status: 200 },
    );
    c.check(() => assert.equal((json(list.body).items as unknown[]).length, 2));
    await c.call(
      'getMemberInOrganizationById',
      { method: 'GET', url: `${org()}/members/${writer.id}` },
      { status: 200 },
    );
    const updated = await c.call(
      'updateMemberInOrganizationById',
      { method: 'PATCH', url: `${org()}/members/${writer.id}`, payload: { role: 'review' } },
      { status: 200 },
    );
    c.check(() => assert.equal(json(updated.body).role, 'review'));
    await c.call(
      'updateMemberInOrganizationById',
      { method: 'PATCH', url: `${org()}/members/${writer.id}`, payload: { role: null } },
      { status: 200 },
    );
    await c.call(
      'listSpacesForOrganizationMember',
      { method: 'GET', url: `${org()}/members/${t.userId}/spaces` },
      { status: 200 },
    );
    await c.call(
      'listTeamsForOrganizationMember',
      { method: 'GET', url: `${org()}/members/${t.userId}/teams` },
      { status: 200 },
    );
    const url = `${org()}/members/${writer.id}`;
    await c.call('removeMemberFromOrganizationById', { method: 'DELETE', url }, { status: 205 });
    await c.call('removeMemberFromOrganizationById', { method: 'DELETE', url }, { status: 204 });
    c.assertConforms();
  });

  test('teams: create, list, get, update, members, remove', async () => {
    const one = await member('read');
    const two = await member('edit');
    const created = await c.call(
      'createOrganizationTeam',
      { method: 'PUT', url: `${org()}/teams`, payload: { title: 'Writers', members: [one.id] } },
      { status: 201 },
    );
    const teamId = json(created.body).id as string;
    c.check(() => assert.equal(typeof teamId, 'string'));
    const team = `${org()}/teams/${teamId}`;
    await c.call(
      'listTeamsInOrganizationById',
      { method: 'GET', url: `${org()}/teams` },
      { status: 200 },
    );
    await c.call('getTeamInOrganizationById', { method: 'GET', url: team }, { status: 200 });
    const renamed = await c.call(
      'updateTeamInOrganizationById',
      { method: 'PATCH', url: team, payload: { title: 'Editors' } },
      { status: 200 },
    );
    c.check(() => assert.equal(json(renamed.body).title, 'Editors'));
    await c.call(
      'updateMembersInOrganizationTeam',
      {
        method: 'PUT',
        url: `${team}/members`,
        payload: { add: [two.id], memberships: { [one.id]: { role: 'owner' } } },
      },
      { status: 204 },
    );
    await c.call(
      'addMemberToOrganizationTeamById',
      { method: 'PUT', url: `${team}/members/${t.userId}`, payload: { role: 'member' } },
      { status: 204 },
    );
    await c.call(
      'addMemberToOrganizationTeamById',
      { method: 'PUT', url: `${team}/members/${two.id}` },
      { status: 204 },
    );
    const members = await c.call(
      'listTeamMembersInOrganizationById',
      { method: 'GET', url: `${team}/members` },
      { status: 200 },
    );
    c.check(() => assert.equal((json(members.body).items as unknown[]).length, 3));
    await c.call(
      'listTeamsForOrganizationMember',
      { method: 'GET', url: `${org()}/members/${one.id}/teams` },
      { status: 200 },
    );
    await c.call(
      'listSpacesForOrganizationMember',
      { method: 'GET', url: `${org()}/members/${one.id}/spaces` },
      { status: 200 },
    );
    const membership = `${team}/members/${two.id}`;
    await c.call(
      'deleteMemberFromOrganizationTeamById',
      { method: 'DELETE', url: membership },
      { status: 205 },
    );
    await c.call(
      'deleteMemberFromOrganizationTeamById',
      { method: 'DELETE', url: membership },
      { status: 204 },
    );
    await c.call(
      'removeTeamFromOrganizationById',
      { method: 'DELETE', url: team },
      { status: 205 },
    );
    await c.call(
      'removeTeamFromOrganizationById',
      { method: 'DELETE', url: team },
      { status: 204 },
    );
    c.assertConforms();
  });

  test('email invites: invite, 400 on a malformed body, join', async () => {
    const invited = await c.call(
      'inviteUsersToOrganization',
      {
        method: 'POST',
        url: `${org()}/invites`,
        payload: {
          emails: ['new@example.com', { email: 'guest@example.com', role: null }],
          role: 'read',
        },
      },
      { status: 200 },
    );
    const invites = json(invited.body).invites as { id: string; email: string }[];
    const invite = invites.find((i) => i.email === 'new@example.com');
    c.check(() => assert.ok(invite, invited.body));
    await c.call(
      'inviteUsersToOrganization',
      { method: 'POST', url: `${org()}/invites`, payload: { emails: 'new@example.com' } },
      { status: 400, invalidBody: true },
    );
    const newcomer = await member('none', 'new@example.com');
    const joined = await c.call(
      'joinOrganizationWithInvite',
      {
        method: 'POST',
        url: `${org()}/invites/${invite?.id}`,
        headers: { authorization: `Bearer ${newcomer.token}` },
      },
      { status: 200 },
    );
    c.check(() => assert.equal(joined.statusCode, 200));
    c.assertConforms();
  });

  test('link invites: create, list, get, update, join, delete', async () => {
    const created = await c.call(
      'createOrganizationInvite',
      { method: 'POST', url: `${org()}/link-invites`, payload: { role: 'edit' } },
      { status: 201 },
    );
    const inviteId = json(created.body).id as string;
    const link = `${org()}/link-invites/${inviteId}`;
    await c.call(
      'listOrganizationInviteLinks',
      { method: 'GET', url: `${org()}/link-invites` },
      { status: 200 },
    );
    await c.call('getOrganizationInviteLink', { method: 'GET', url: link }, { status: 200 });
    const updated = await c.call(
      'updateOrganizationInviteById',
      { method: 'PATCH', url: link, payload: { role: 'comment' } },
      { status: 200 },
    );
    c.check(() => assert.equal(json(updated.body).role, 'comment'));
    const visitor = await member('none');
    await c.call(
      'joinOrganizationWithInvite',
      {
        method: 'POST',
        url: `${org()}/invites/${inviteId}`,
        headers: { authorization: `Bearer ${visitor.token}` },
      },
      { status: 200 },
    );
    await c.call('deleteOrganizationInviteById', { method: 'DELETE', url: link }, { status: 205 });
    await c.call('deleteOrganizationInviteById', { method: 'DELETE', url: link }, { status: 204 });
    c.assertConforms();
  });

  test('audit events: list, filters, one event, the actions', async () => {
    // The earlier tests' changes are in the log (teams, invites, members).
    const listed = await c.call(
      'listOrganizationAuditEvents',
      { method: 'GET', url: `${org()}/audit-events?limit=5` },
      { status: 200 },
    );
    const [first] = json(listed.body).items as { id: string; action: string }[];
    c.check(() => assert.ok(first, listed.body));
    await c.call(
      'listOrganizationAuditEvents',
      {
        method: 'GET',
        url: `${org()}/audit-events?action=organization.team.created&from=2000-01-01T00:00:00Z&to=2999-01-01T00:00:00Z&actor=${t.userId}`,
      },
      { status: 200 },
    );
    await c.call(
      'listOrganizationAuditEvents',
      { method: 'GET', url: `${org()}/audit-events?limit=101` },
      { status: 400 },
    );
    await c.call(
      'listOrganizationAuditEvents',
      { method: 'GET', url: '/v1/orgs/nope/audit-events' },
      { status: 404 },
    );
    await c.call(
      'getOrganizationAuditEvent',
      { method: 'GET', url: `${org()}/audit-events/${first?.id}` },
      { status: 200 },
    );
    await c.call(
      'getOrganizationAuditEvent',
      { method: 'GET', url: `${org()}/audit-events/123e4567-e89b-42d3-a456-426614174000` },
      { status: 404 },
    );
    await c.call(
      'listOrganizationAuditEventActions',
      { method: 'GET', url: `${org()}/audit-event-actions` },
      { status: 200 },
    );
    await c.call(
      'listOrganizationAuditEventActions',
      { method: 'GET', url: '/v1/orgs/nope/audit-event-actions' },
      { status: 404 },
    );
    c.assertConforms();
  });

  test('organizations: create, update, 400 on what Livery cannot honour', async () => {
    const created = await c.call(
      'createOrganization',
      { method: 'POST', url: '/v1/orgs', payload: { title: 'Created org', emailDomains: [] } },
      { status: 201 },
    );
    const orgId = json(created.body).id as string;
    c.check(() => assert.equal(created.headers.location, `http://livery.test/v1/orgs/${orgId}`));
    const updated = await c.call(
      'updateOrganizationById',
      {
        method: 'PATCH',
        url: `/v1/orgs/${orgId}`,
        payload: { title: 'Renamed org', sso: false, inviteLinks: true },
      },
      { status: 200 },
    );
    c.check(() => assert.equal(json(updated.body).title, 'Renamed org'));
    await c.call(
      'updateOrganizationById',
      { method: 'PATCH', url: `/v1/orgs/${orgId}`, payload: { sso: true } },
      { status: 400 },
    );
    await c.call(
      'updateOrganizationById',
      { method: 'PATCH', url: `/v1/orgs/${orgId}`, payload: { title: 7 } },
      { status: 400, invalidBody: true },
    );
    c.assertConforms();
  });

  test('summary: every operation of the area judged, with its statuses', () => {
    console.log(c.report('users, organizations, members, teams, invites'));
    assertCoverage(c, 'org');
  });
});
