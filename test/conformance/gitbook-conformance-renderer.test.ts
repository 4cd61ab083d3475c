/**
 * GitBook conformance (issue 15): what GitBook's renderer calls besides content — the URL lookup,
 * the published view, redirects, meta links — judged against GitBook 0.202's response schemas,
 * called with an API token and with the site token the lookup mints.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';

const PUBLIC = 'http://docs.acme.test/s/';
let t: TestContext;
let c: Conformance;
let site: PublishedSite;

before(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC });
  c = new Conformance(t);
  site = await publishedSite(t, 'acme', { second: true });
});
after(async () => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('GitBook conformance: the renderer’s reads', () => {
  test('lookup, published view, redirect, meta links: the declared statuses; with a site token', async () => {
    const resolved = await c.call(
      'resolvePublishedContentByUrl',
      { method: 'POST', url: '/v1/urls/published', payload: { url: `${PUBLIC}acme/de` } },
      { status: 200 },
    );
    const { apiToken, space } = resolved.json() as { apiToken: string; space: string };
    await c.call(
      'resolvePublishedContentByUrl',
      {
        method: 'POST',
        url: '/v1/urls/published',
        payload: { url: `${PUBLIC}acme/intro`, visitor: { type: 'human' }, redirectOnError: false },
      },
      { status: 200 },
    );
    await c.call(
      'resolvePublishedContentByUrl',
      {
        method: 'POST',
        url: '/v1/urls/published',
        payload: { url: `${PUBLIC}acme/${site.defaultPath}` },
      },
      { status: 200 },
    );
    await c.call(
      'resolvePublishedContentByUrl',
      { method: 'POST', url: '/v1/urls/published', payload: { url: `${PUBLIC}nothing-here` } },
      { status: 404 },
    );
    for (const headers of [undefined, bearer(apiToken)]) {
      await c.call(
        'getPublishedContentSite',
        { method: 'GET', url: `${site.base}/published`, ...(headers ? { headers } : {}) },
        { status: 200 },
      );
    }
    await c.call(
      'getPublishedContentSite',
      { method: 'GET', url: `/v1/orgs/${t.orgId}/sites/site_nope/published` },
      { status: 404 },
    );
    await c.call(
      'getSiteRedirectBySource',
      { method: 'GET', url: `${site.base}/redirect?source=/old/page`, headers: bearer(apiToken) },
      { status: 404 },
    );
    // A stored rule (docs/sites.md, "Redirects") in the shape 0.130 knows too.
    const rule = await t.request({
      method: 'POST',
      url: `${site.base}/redirects`,
      payload: {
        source: '/moved',
        destination: {
          kind: 'site-page',
          siteSpaceId: site.siteSpaceIds[0],
          pageId: site.tree.intro,
        },
      },
    });
    assert.equal(rule.statusCode, 201);
    await c.call(
      'getSiteRedirectBySource',
      { method: 'GET', url: `${site.base}/redirect?source=/moved`, headers: bearer(apiToken) },
      { status: 200 },
    );
    const spaceRead = await t.request({ method: 'GET', url: `/v1/spaces/${space}` });
    const revision = (spaceRead.json() as { revision: string }).revision;
    const meta = `/v1/spaces/${space}/revisions/${revision}/page/${site.second?.uber}/meta-links`;
    for (const headers of [undefined, bearer(apiToken)]) {
      await c.call(
        'listRevisionPageMetaLinks',
        { method: 'GET', url: meta, ...(headers ? { headers } : {}) },
        { status: 200 },
      );
    }
    c.assertConforms();
  });

  test('summary: every operation of the area judged, with its statuses', () => {
    console.log(c.report('renderer reads'));
    assertCoverage(c, 'renderer');
  });
});
