/**
 * GitBook conformance: site redirects (docs/sites.md, "Redirects"). Every answer of the five
 * site-redirects operations judged against GitBook 0.202's response schemas, every body sent
 * valid under its request schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';

let t: TestContext;
let c: Conformance;
let site: PublishedSite;
let plain: PublishedSite;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
  site = await publishedSite(t, 'moves');
  plain = await publishedSite(t, 'plain');
});
after(async () => t.close());

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

describe('GitBook conformance: site redirects', () => {
  test('what 0.130 has (an exact source to a page): judged under 0.130 and 0.202', async () => {
    const url = `${plain.base}/redirects`;
    const [main] = plain.siteSpaceIds as [string];
    const page = { kind: 'site-page', siteSpaceId: main, pageId: plain.tree.intro };
    const made = await c.call(
      'createSiteRedirect',
      { method: 'POST', url, payload: { source: '/old-page', destination: page } },
      { status: 201 },
    );
    const id = json(made.body).id as string;
    await c.call('listSiteRedirects', { method: 'GET', url }, { status: 200 });
    await c.call(
      'updateSiteRedirectById',
      { method: 'PATCH', url: `${url}/${id}`, payload: { source: '/older-page' } },
      { status: 200 },
    );
    await c.call(
      'deleteSiteRedirectById',
      { method: 'DELETE', url: `${url}/${id}` },
      { status: 205 },
    );
    await c.call(
      'deleteSiteRedirectById',
      { method: 'DELETE', url: `${url}/${id}` },
      { status: 204 },
    );
    c.assertConforms();
  });

  test('create, bulk upsert (each status), list, update, delete', async () => {
    const url = `${site.base}/redirects`;
    const [main] = site.siteSpaceIds as [string];
    const made = await c.call(
      'createSiteRedirect',
      {
        method: 'POST',
        url,
        payload: {
          source: '/old/*',
          captureWildcard: true,
          permanent: true,
          destination: { kind: 'external', url: 'https://example.com/new' },
        },
      },
      { status: 201, versions: ['0.202'] },
    );
    const id = json(made.body).id as string;
    await c.call(
      'createSiteRedirect',
      {
        method: 'POST',
        url,
        payload: {
          source: '/start',
          draft: true,
          destination: { kind: 'path', spaceId: site.tree.spaceId, path: 'intro' },
        },
      },
      { status: 201, versions: ['0.202'] },
    );
    const results = await c.call(
      'bulkUpsertSiteRedirects',
      {
        method: 'PUT',
        url,
        payload: {
          redirects: [
            {
              source: '/a',
              destination: { kind: 'site-page', siteSpaceId: main, pageId: site.tree.last },
            },
            {
              source: '/old/*',
              intent: 'live',
              destination: { kind: 'site-space', siteSpaceId: main },
            },
            { source: '/start', intent: 'publish' },
            { source: '/a', destination: null },
          ],
        },
      },
      { status: 200, versions: ['0.202'] },
    );
    c.check(() =>
      assert.deepEqual(
        (json(results.body).results as { status: string }[]).map((r) => r.status),
        ['created', 'updated', 'published', 'deleted'],
      ),
    );
    await c.call('listSiteRedirects', { method: 'GET', url }, { status: 200, versions: ['0.202'] });
    await c.call(
      'listSiteRedirects',
      { method: 'GET', url: `${url}?draft=false&orderBy=source&search=old&limit=1` },
      { status: 200, versions: ['0.202'] },
    );
    await c.call(
      'updateSiteRedirectById',
      { method: 'PATCH', url: `${url}/${id}`, payload: { permanent: false, source: '/older/*' } },
      { status: 200, versions: ['0.202'] },
    );
    await c.call(
      'deleteSiteRedirectById',
      { method: 'DELETE', url: `${url}/${id}` },
      { status: 205, versions: ['0.202'] },
    );
    await c.call(
      'deleteSiteRedirectById',
      { method: 'DELETE', url: `${url}/${id}` },
      { status: 204, versions: ['0.202'] },
    );
    c.assertConforms();
    assertCoverage(c, 'redirects');
  });
});
