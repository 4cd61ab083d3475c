/**
 * The official client of GitBook 0.202 (`gitbook-api-0202`) against a listening Livery: a site's
 * custom hostname set with updateSiteById's `hostname` (a Livery extension, sent through the
 * client's own method), read, revalidated and removed with the client's customHostnames methods
 * (issue 29 §3, docs/sites.md "Custom hostnames").
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp({ CUSTOM_HOSTNAME_SCHEME: 'https' });
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

const HOST = 'client.example.test';

describe('the official 0.202 client against Livery: custom hostnames', () => {
  test('updateSiteById hostname, getCustomHostname, dnsRevalidateCustomHostname, removeCustomHostname', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Hosted' });
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Hosted docs',
      spaces: [space.id],
    });
    await api.orgs.publishSite(t.orgId, site.id);
    // 0.202's body type has no `hostname` (GitBook sets it in its app); its schema admits it.
    const body = { hostname: 'Client.Example.test' } as Parameters<
      Api0202['orgs']['updateSiteById']
    >[2];
    const { data: updated } = await api.orgs.updateSiteById(t.orgId, site.id, body);
    assert.equal(updated.hostname, HOST);
    assert.equal(updated.urls.published, `https://${HOST}/`);
    assert.equal((await api.orgs.getSiteById(t.orgId, site.id)).data.hostname, HOST);

    const { data: custom } = await api.customHostnames.getCustomHostname(HOST.toUpperCase());
    assert.equal(custom.object, 'custom-hostname');
    assert.equal(custom.hostname, HOST);
    assert.deepEqual(custom.target, { type: 'site', site: site.id });
    assert.equal(custom.isActive, true);
    assert.equal(custom.status, 'live');
    assert.equal(custom.urls.location, `http://livery.test/v1/custom-hostnames/${HOST}`);

    const revalidated = await api.customHostnames.dnsRevalidateCustomHostname(HOST);
    assert.equal(revalidated.status, 204);

    // Another site, in the same organization, may not take it: 409 naming the field.
    const { data: second } = await api.orgs.createSite(t.orgId, { title: 'Second docs' });
    const taken = await failure0202(
      api.orgs.updateSiteById(t.orgId, second.id, {
        hostname: HOST,
      } as Parameters<Api0202['orgs']['updateSiteById']>[2]),
    );
    assert.equal(taken.code, 409);
    assert.match(taken.message, /body\.hostname/);

    const removed = await api.customHostnames.removeCustomHostname(HOST);
    assert.equal(removed.status, 205);
    const again = await api.customHostnames.removeCustomHostname(HOST);
    assert.equal(again.status, 204);
    const gone = await failure0202(api.customHostnames.getCustomHostname(HOST));
    assert.equal(gone.code, 404);
    const { data: after } = await api.orgs.getSiteById(t.orgId, site.id);
    assert.equal(after.hostname, undefined);
    assert.match(after.urls.published ?? '', /\/s\/site_/);
  });
});
