/**
 * GitBook 0.202's fields of organizations and members over HTTP (docs/api.md, "Records: GitBook
 * 0.202's fields"): merge rules and trials Livery does not have, permissions from the caller's
 * role and team ownership, and the sites a member can reach.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Json = Record<string, unknown>;
const orgUrl = () => `/v1/orgs/${t.orgId}`;

describe('Organization', () => {
  test('no merge rules, no trial used, no integrations; permissions follow the role', async () => {
    const org = expectStatus(await t.request({ method: 'GET', url: orgUrl() }), 200);
    assert.deepEqual(org.mergeRules, { type: 'none' });
    assert.deepEqual(org.trial, { status: 'notapplicable', count: 0 });
    const expected: [string, Json][] = [
      ['admin', { admin: true, listMembers: true, listTeams: true, createContent: true }],
      ['read', { admin: false, listMembers: true, listTeams: true, createContent: false }],
      ['guest', { admin: false, listMembers: false, listTeams: false, createContent: false }],
    ];
    for (const [role, flags] of expected) {
      const member = role === 'admin' ? undefined : await memberWithRole(t, role as 'read');
      const response =
        member === undefined
          ? await t.request({ method: 'GET', url: orgUrl() })
          : await requestAs(t, member, { method: 'GET', url: orgUrl() });
      const permissions = expectStatus(response, 200).permissions as Json;
      assert.deepEqual(
        {
          admin: permissions.admin,
          listMembers: permissions.listMembers,
          listTeams: permissions.listTeams,
          createContent: permissions.createContent,
        },
        flags,
        role,
      );
      assert.equal(permissions.view, true, role);
      assert.equal(permissions.access, true, role);
      assert.equal(permissions.listIntegrations, false, role);
      assert.equal(permissions.listInstallations, false, role);
      assert.equal(permissions.installIntegration, false, role);
      // No OpenAPI specifications, conversations or billing in Livery, whatever the role.
      assert.equal(permissions.createOpenAPISpec, false, role);
      assert.equal(permissions.ingestConversations, false, role);
      assert.equal(permissions.viewBilling, false, role);
      // listMembers is true exactly when listing the members answers.
      const listing =
        member === undefined
          ? await t.request({ method: 'GET', url: `${orgUrl()}/members` })
          : await requestAs(t, member, { method: 'GET', url: `${orgUrl()}/members` });
      assert.equal(listing.statusCode, flags.listMembers ? 200 : 403, role);
    }
  });

  test('ownTeam: true for the owner of a team of the organization, in both reads', async () => {
    const owner = await memberWithRole(t, 'edit');
    const teamMember = await memberWithRole(t, 'edit');
    const ownTeam = async (member: { id: string; token: string }) => {
      const one = expectStatus(await requestAs(t, member, { method: 'GET', url: orgUrl() }), 200);
      const list = expectStatus(await requestAs(t, member, { method: 'GET', url: '/v1/orgs' }), 200)
        .items as Json[];
      const listed = list.find((o) => o.id === t.orgId)?.permissions as Json;
      assert.equal(listed.ownTeam, (one.permissions as Json).ownTeam, 'list and get agree');
      return listed.ownTeam;
    };
    assert.equal(await ownTeam(owner), false);

    const team = expectStatus(
      await t.request({
        method: 'PUT',
        url: `${orgUrl()}/teams`,
        payload: { title: 'Writers', members: [teamMember.id] },
      }),
      201,
    );
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${orgUrl()}/teams/${String(team.id)}/members/${owner.id}`,
        payload: { role: 'owner' },
      }),
      204,
    );
    assert.equal(await ownTeam(owner), true);
    assert.equal(await ownTeam(teamMember), false, 'a plain team member owns no team');
  });
});

describe('Member.sites', () => {
  test("counts the organization's sites for a role, none for a guest; team lists say the same", async () => {
    const reader = await memberWithRole(t, 'read');
    const guest = await memberWithRole(t, 'guest');
    const sitesOf = async (userId: string) =>
      expectStatus(await t.request({ method: 'GET', url: `${orgUrl()}/members/${userId}` }), 200)
        .sites;
    const before = Number(await sitesOf(reader.id));
    for (let i = 0; i < 2; i++) {
      expectStatus(await t.request({ method: 'POST', url: `${orgUrl()}/sites` }), 201);
    }
    assert.equal(await sitesOf(reader.id), before + 2);
    assert.equal(await sitesOf(guest.id), 0);
    assert.equal(await sitesOf(t.userId), before + 2);

    const team = expectStatus(
      await t.request({
        method: 'PUT',
        url: `${orgUrl()}/teams`,
        payload: { title: 'Readers', members: [reader.id, guest.id] },
      }),
      201,
    );
    const members = expectStatus(
      await t.request({ method: 'GET', url: `${orgUrl()}/teams/${String(team.id)}/members` }),
      200,
    ).items as { organization: Json }[];
    const byId = new Map(members.map((m) => [m.organization.id, m.organization.sites]));
    assert.equal(byId.get(reader.id), before + 2);
    assert.equal(byId.get(guest.id), 0);
  });
});
