/**
 * createOrganization and updateOrganizationById (src/modules/identity/organizations.ts): who may
 * create one (an admin of some organization; they become the new one's admin), what is stored
 * (the title), the audit entries, and field-named 400s for what Livery cannot honour.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

let t: TestContext;

before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

interface OrgJson {
  object: string;
  id: string;
  title: string;
  permissions: { admin: boolean };
  urls: { location: string };
}

async function auditActions(orgId: string) {
  const log = expectStatus(
    await t.request({ method: 'GET', url: `/v1/orgs/${orgId}/audit-log` }),
    200,
  ) as { items: { action: string; target: { kind: string; id: string }; details: object }[] };
  return log.items;
}

describe('createOrganization', () => {
  test('an admin creates one, becomes its admin, and it is listed', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/orgs',
      payload: { title: 'Second org', emailDomains: [] },
    });
    const org = expectStatus(response, 201) as unknown as OrgJson;
    assert.equal(org.object, 'organization');
    assert.equal(org.title, 'Second org');
    assert.equal(org.permissions.admin, true);
    assert.equal(response.headers.location, `http://livery.test/v1/orgs/${org.id}`);
    assert.equal(org.urls.location, response.headers.location);
    const got = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${org.id}` }),
      200,
    ) as unknown as OrgJson;
    assert.equal(got.title, 'Second org');
    const listed = expectStatus(await t.request({ method: 'GET', url: '/v1/orgs' }), 200) as {
      items: { id: string }[];
    };
    assert.ok(listed.items.some((o) => o.id === org.id));
    const members = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${org.id}/members` }),
      200,
    ) as { items: { id: string; role: string }[] };
    assert.deepEqual(
      members.items.map((m) => [m.id, m.role]),
      [[t.userId, 'admin']],
    );
    const [entry] = await auditActions(org.id);
    assert.equal(entry?.action, 'organization.created');
    assert.deepEqual(entry?.target, { kind: 'organization', id: org.id });
    assert.deepEqual(entry?.details, { title: 'Second org' });
    // withDefaultSite: false is what Livery does.
    expectStatus(
      await t.request({
        method: 'POST',
        url: '/v1/orgs?withDefaultSite=false',
        payload: { title: 'Third org' },
      }),
      201,
    );
  });

  test('a user who is admin nowhere gets a 403, and nothing is created', async () => {
    const editor = await memberWithRole(t, 'edit');
    const before = expectStatus(
      await requestAs(t, editor, { method: 'GET', url: '/v1/orgs' }),
      200,
    );
    const message = expectError(
      await requestAs(t, editor, { method: 'POST', url: '/v1/orgs', payload: { title: 'Mine' } }),
      403,
    );
    assert.match(message, /admin role in at least one organization/);
    assert.deepEqual(
      expectStatus(await requestAs(t, editor, { method: 'GET', url: '/v1/orgs' }), 200),
      before,
    );
  });

  test('a token restricted to scopes needs organization:write', async () => {
    const { token } = await t.services.identity.createToken(t.userId, {
      label: 'read only',
      scopes: ['organization:read'],
    });
    const message = expectError(
      await t.request({
        method: 'POST',
        url: '/v1/orgs',
        payload: { title: 'Scoped' },
        headers: { authorization: `Bearer ${token}` },
      }),
      403,
    );
    assert.match(message, /organization:write/);
  });

  test('bad inputs: 400s naming the field', async () => {
    const cases: [string, object, RegExp][] = [
      ['/v1/orgs', {}, /title/],
      ['/v1/orgs', { title: 'x' }, /title/],
      ['/v1/orgs', { title: '  ' }, /title/],
      ['/v1/orgs', { title: 'a'.repeat(256) }, /title/],
      ['/v1/orgs', { title: 42 }, /title/],
      [
        '/v1/orgs',
        { title: 'Fine', emailDomains: ['acme.com'] },
        /body\.emailDomains: .*email domain/,
      ],
      ['/v1/orgs', { title: 'Fine', onboardingPreferences: {} }, /body\.onboardingPreferences/],
      ['/v1/orgs', { title: 'Fine', plan: 'pro' }, /plan/],
      ['/v1/orgs?withDefaultSite=true', { title: 'Fine' }, /withDefaultSite/],
      ['/v1/orgs?withDefaultSite=maybe', { title: 'Fine' }, /withDefaultSite/],
      ['/v1/orgs?openapiUrl=https://x.test/a.json', { title: 'Fine' }, /openapiUrl/],
    ];
    const count = async () =>
      (expectStatus(await t.request({ method: 'GET', url: '/v1/orgs' }), 200) as { count: number })
        .count;
    const before = await count();
    for (const [url, payload, field] of cases) {
      const message = expectError(await t.request({ method: 'POST', url, payload }), 400);
      assert.match(message, field, JSON.stringify([url, payload]));
    }
    assert.equal(await count(), before, 'nothing created');
  });
});

describe('updateOrganizationById', () => {
  test('an admin renames it; the audit log records it once', async () => {
    const url = `/v1/orgs/${t.orgId}`;
    const renamed = expectStatus(
      await t.request({
        method: 'PATCH',
        url,
        // The values true of Livery are accepted with the title.
        payload: {
          title: 'Renamed org',
          emailDomains: [],
          sso: false,
          ai: false,
          inviteLinks: true,
          logo: null,
          defaultContent: null,
          mergeRules: { type: 'none' },
        },
      }),
      200,
    ) as unknown as OrgJson;
    assert.equal(renamed.title, 'Renamed org');
    expectStatus(await t.request({ method: 'PATCH', url, payload: { title: 'Renamed org' } }), 200);
    expectStatus(await t.request({ method: 'PATCH', url, payload: {} }), 200);
    const got = expectStatus(await t.request({ method: 'GET', url }), 200) as unknown as OrgJson;
    assert.equal(got.title, 'Renamed org');
    const updates = (await auditActions(t.orgId)).filter(
      (e) => e.action === 'organization.updated',
    );
    assert.deepEqual(
      updates.map((e) => e.details),
      [{ from: 'Test organization', to: 'Renamed org' }],
    );
  });

  test('other members get a 403 naming the role', async () => {
    const editor = await memberWithRole(t, 'edit');
    const message = expectError(
      await requestAs(t, editor, {
        method: 'PATCH',
        url: `/v1/orgs/${t.orgId}`,
        payload: { title: 'Taken over' },
      }),
      403,
    );
    assert.match(message, /admin/);
  });

  test('bad inputs and what Livery cannot honour: 400s naming the field, nothing changed', async () => {
    const url = `/v1/orgs/${t.orgId}`;
    const before = expectStatus(await t.request({ method: 'GET', url }), 200);
    const cases: [object, RegExp][] = [
      [{ title: 'x' }, /title/],
      [{ title: null }, /title/],
      [{ title: 'Good title', emailDomains: ['acme.com'] }, /body\.emailDomains/],
      [{ title: 'Good title', hostname: 'acme' }, /body\.hostname: .*hostname/],
      [{ hostname: 'ab' }, /hostname/],
      [{ defaultRole: 'read' }, /body\.defaultRole/],
      [{ defaultRole: 'owner' }, /defaultRole/],
      [{ defaultContent: { type: 'site', site: 'site_x' } }, /body\.defaultContent/],
      [{ logo: 'https://example.com/logo.png' }, /body\.logo/],
      [{ sso: true }, /body\.sso: Livery has no SSO/],
      [{ ai: true }, /body\.ai/],
      [{ inviteLinks: false }, /body\.inviteLinks/],
      [{ mergeRules: { type: 'inherit' } }, /body\.mergeRules/],
      [{ sso: 'yes' }, /sso/],
      [{ plan: 'enterprise' }, /plan/],
    ];
    for (const [payload, field] of cases) {
      const message = expectError(await t.request({ method: 'PATCH', url, payload }), 400);
      assert.match(message, field, JSON.stringify(payload));
    }
    assert.deepEqual(expectStatus(await t.request({ method: 'GET', url }), 200), before);
  });
});
