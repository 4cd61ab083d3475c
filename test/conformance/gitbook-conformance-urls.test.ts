/**
 * GitBook conformance: resolving URLs (docs/api.md, "Resolving URLs"). Every answer of
 * getPublishedContentByUrl (the deprecated GET form of the renderer's lookup) and getContentByUrl
 * judged against GitBook's response schemas (0.202 and 0.130).
 */
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';

let t: TestContext;
let c: Conformance;
let site: PublishedSite;
const API = 'http://livery.test';
const PUBLIC = `${API}/s/`;
const q = encodeURIComponent;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
  site = await publishedSite(t, 'acme', { second: true });
});
after(async () => t.close());

describe('GitBook conformance: resolving URLs', () => {
  test('getPublishedContentByUrl: a page, a redirect, nothing', async () => {
    const url = (address: string) => `/v1/urls/published?url=${q(address)}`;
    const call = (address: string, status: number) =>
      c.call('getPublishedContentByUrl', { method: 'GET', url: url(address) }, { status });
    await call(`${PUBLIC}acme/guides/install`, 200);
    await call(`${PUBLIC}acme/de/über-uns`, 200);
    await call(`${PUBLIC}acme/${site.defaultPath}/intro`, 200); // a redirect
    await call(`${PUBLIC}nowhere`, 404);
    c.assertConforms();
  });

  test('getContentByUrl: a space, a document, a group, a change request, a published page', async () => {
    const { spaceId, install, guides, intro } = site.tree;
    const space = `${API}/v1/spaces/${spaceId}`;
    const cr = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${spaceId}/change-requests`,
        payload: {},
      }),
      201,
    );
    for (const address of [
      space,
      `${space}/content/page/${install}`,
      `${space}/content/page/${guides}`,
      `${space}/change-requests/${cr.id}/content/page/${intro}`,
      `${PUBLIC}acme/guides/install`,
      `${API}/studio#/orgs/${t.orgId}/sites/${site.siteId}/variants/${site.siteSpaceIds[0]}`,
    ]) {
      await c.call(
        'getContentByUrl',
        { method: 'GET', url: `/v1/urls/content?url=${q(address)}` },
        { status: 200 },
      );
    }
    c.assertConforms();
  });

  test('judged exactly its operations, every declared status', () => {
    console.log(c.report('resolving URLs'));
    assertCoverage(c, 'urls');
  });
});
