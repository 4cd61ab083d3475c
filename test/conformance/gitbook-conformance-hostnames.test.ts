/**
 * GitBook conformance (issue 29 §3): the custom-hostname operations, each response judged against
 * GitBook 0.202's response schemas (test/helpers/gitbook-spec.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';

let t: TestContext;
let c: Conformance;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
});
after(async () => t.close());

const HOST = 'conformance.example.test';
const hostname = (name = HOST) => `/v1/custom-hostnames/${name}`;

describe('GitBook conformance: custom hostnames', () => {
  test('get, revalidate, remove', async () => {
    const created = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { title: 'Hosted docs' },
    });
    const site = `/v1/orgs/${t.orgId}/sites/${expectStatus(created, 201).id}`;
    // updateSiteById is the sites area's (judged there); its `hostname` is a Livery extension.
    const set = await t.request({ method: 'PATCH', url: site, payload: { hostname: HOST } });
    assert.equal(expectStatus(set, 200).hostname, HOST);
    const got = await c.call(
      'getCustomHostname',
      { method: 'GET', url: hostname() },
      { status: 200 },
    );
    c.check(() => assert.equal(JSON.parse(got.body).target.type, 'site'));
    // An unknown hostname's 404 (declared by no GitBook spec) is checked by
    // test/http/custom-hostnames.test.ts.
    await c.call(
      'dnsRevalidateCustomHostname',
      { method: 'PATCH', url: hostname() },
      {
        status: 204,
      },
    );
    await c.call('removeCustomHostname', { method: 'DELETE', url: hostname() }, { status: 205 });
    await c.call('removeCustomHostname', { method: 'DELETE', url: hostname() }, { status: 204 });
    c.assertConforms();
    console.log(c.report('custom hostnames'));
    assertCoverage(c, 'hostnames');
  });
});
