/**
 * The official client of GitBook 0.202 creates and updates an organization against a listening
 * Livery (issue 30), with code typed against 0.202. Shapes are judged in
 * test/conformance/gitbook-conformance-org.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

describe('the official 0.202 client against Livery: organizations', () => {
  test('create one, rename it, and be refused what Livery cannot do', async () => {
    const created = await api.orgs.createOrganization({ title: 'Client org' });
    assert.equal(created.status, 201);
    const org = created.data;
    assert.equal(org.title, 'Client org');
    assert.equal(org.permissions.admin, true);
    assert.equal(created.headers.get('location'), org.urls.location);

    const { data: renamed } = await api.orgs.updateOrganizationById(org.id, {
      title: 'Client org, renamed',
      inviteLinks: true,
    });
    assert.equal(renamed.title, 'Client org, renamed');
    assert.equal((await api.orgs.getOrganizationById(org.id)).data.title, 'Client org, renamed');
    const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser();
    assert.ok(orgs.items.some((o) => o.id === org.id && o.title === 'Client org, renamed'));

    const sso = await failure0202(api.orgs.updateOrganizationById(org.id, { sso: true }));
    assert.equal(sso.code, 400);
    assert.match(sso.errorMessage, /body\.sso/);
    const site = await failure0202(
      api.orgs.createOrganization({ title: 'With a site' }, { withDefaultSite: true }),
    );
    assert.equal(site.code, 400);
    assert.match(site.errorMessage, /withDefaultSite/);
  });
});
