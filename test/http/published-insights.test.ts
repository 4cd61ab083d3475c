import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Static } from 'typebox';
import type { AnalyticsContentPagesSchema } from '../../src/modules/insights/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { customize, publishedSite, visit, visitorPost } from '../helpers/published.js';

/**
 * What a published page reports (docs/published-site.md): feedback and views posted by its
 * script to `/s/{site}/@livery/feedback` and `/view`, and how they move the content insights API
 * (`GET /v1/spaces/{spaceId}/insights/content`, as in test/http/insights.test.ts). Then the preview of
 * draft settings, `POST /v1/orgs/{o}/sites/{s}/preview`.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Entry = Static<typeof AnalyticsContentPagesSchema>['pages'][number];
async function insightsOf(spaceId: string, pageId: string): Promise<Entry> {
  const response = await t.request({
    method: 'GET',
    url: `/v1/spaces/${spaceId}/insights/content`,
  });
  const entry = (expectStatus(response, 200).pages as Entry[]).find((e) => e.page.id === pageId);
  assert.ok(entry, `an entry for ${pageId}`);
  return entry;
}
const counts = (entry: Entry) => {
  const { good, ok, bad, total } = entry.feedbacks;
  return { good, ok, bad, total, views: entry.pageViews };
};

/** A published site with feedback enabled, and its feedback address. */
async function rated(basename: string) {
  const site = await publishedSite(t, basename, { second: true });
  await customize(t, site, { feedback: { enabled: true } });
  const url = `${site.address}/@livery/feedback`;
  const body = (rating: string, visitorId?: string) => ({
    siteSpaceId: site.siteSpaceIds[0],
    pageId: site.tree.child,
    rating,
    ...(visitorId === undefined ? {} : { visitorId }),
  });
  return { site, url, body };
}

describe('POST /s/{site}/@livery/feedback', () => {
  test('201 for a new rating, 200 when the visitor changes it: one rating per visitor', async () => {
    const { site, url, body } = await rated('fb-rate');
    const first = await visitorPost(t, url, body('good', 'visitor-0001'));
    assert.equal(first.statusCode, 201);
    const created = first.json() as { object: string; visitorId: string; rating: string };
    assert.equal(created.object, 'page-feedback');
    assert.equal(created.visitorId, 'visitor-0001');
    assert.equal(created.rating, 'good');
    assert.equal(first.headers['cache-control'], 'no-store');
    const spaceId = site.tree.spaceId;
    assert.deepEqual(counts(await insightsOf(spaceId, site.tree.child)), {
      good: 1,
      ok: 0,
      bad: 0,
      total: 1,
      views: 0,
    });
    const changed = await visitorPost(t, url, body('bad', 'visitor-0001'));
    assert.equal(changed.statusCode, 200);
    assert.equal((changed.json() as { rating: string }).rating, 'bad');
    const other = await visitorPost(t, url, body('ok', 'visitor-0002'));
    assert.equal(other.statusCode, 201);
    assert.deepEqual(counts(await insightsOf(spaceId, site.tree.child)), {
      good: 0,
      ok: 1,
      bad: 1,
      total: 2,
      views: 0,
    });
  });

  test('403 where feedback is disabled, per variant (an override enables one)', async () => {
    const { site, url, body } = await rated('fb-off');
    await customize(t, site, {});
    const second = site.second;
    assert.ok(second);
    const refused = await visitorPost(t, url, body('good', 'visitor-0001'));
    assert.match(expectError(refused, 403), /feedback\.enabled/);
    const override = await t.request({
      method: 'PATCH',
      url: `${site.base}/site-spaces/${second.siteSpaceId}/customization`,
      payload: { feedback: { enabled: true } },
    });
    expectStatus(override, 200);
    const onSecond = { ...body('good', 'visitor-0001'), siteSpaceId: second.siteSpaceId };
    const accepted = await visitorPost(t, url, { ...onSecond, pageId: second.uber });
    assert.equal(accepted.statusCode, 201);
    assert.equal((await insightsOf(second.spaceId, second.uber)).feedbacks.good, 1);
    assert.equal((await insightsOf(site.tree.spaceId, site.tree.child)).feedbacks.total, 0);
    expectError(await visitorPost(t, url, body('good', 'visitor-0001')), 403);
  });

  test('400s name the field: rating, visitorId missing or malformed; unknown variant 404', async () => {
    const { site, url, body } = await rated('fb-bad');
    const cases: [object, RegExp][] = [
      [body('great', 'visitor-0001'), /^body\.rating/],
      [body('good'), /^body\.visitorId: required/],
      [body('good', 'short'), /^body\.visitorId/],
      [body('good', 'has spaces in it'), /^body\.visitorId/],
      [{ ...body('good', 'visitor-0001'), extra: 1 }, /extra/],
    ];
    for (const [payload, message] of cases) {
      assert.match(expectError(await visitorPost(t, url, payload), 400), message);
    }
    const elsewhere = { ...body('good', 'visitor-0001'), siteSpaceId: 'sitesp_nope' };
    assert.match(expectError(await visitorPost(t, url, elsewhere), 404), /body\.siteSpaceId/);
    const group = { ...body('good', 'visitor-0001'), pageId: site.tree.guides };
    expectError(await visitorPost(t, url, group), 404);
    assert.equal((await insightsOf(site.tree.spaceId, site.tree.child)).feedbacks.total, 0);
  });

  test('the livery_vid cookie is the visitor, over body.visitorId', async () => {
    const { site, url, body } = await rated('fb-cookie');
    const cookie = { cookie: 'livery_vid=cookie-visitor-1' };
    const first = await visitorPost(t, url, body('good', 'body-visitor-1'), cookie);
    assert.equal(first.statusCode, 201);
    assert.equal((first.json() as { visitorId: string }).visitorId, 'cookie-visitor-1');
    const same = await visitorPost(t, url, body('ok', 'cookie-visitor-1'));
    assert.equal(same.statusCode, 200, 'the same visitor, now by its body id');
    const withoutBody = await visitorPost(t, url, body('bad'), cookie);
    assert.equal(withoutBody.statusCode, 200, 'the cookie alone is enough');
    const spaceId = site.tree.spaceId;
    const never = `/v1/spaces/${spaceId}/pages/${site.tree.child}/feedbacks/body-visitor-1`;
    expectError(await t.request({ method: 'GET', url: never }), 404);
    assert.deepEqual((await insightsOf(spaceId, site.tree.child)).feedbacks.total, 1);
  });

  // body.visitorId must match ^[A-Za-z0-9_-]{8,64}$; a cookie is as much the visitor's input.
  test('a livery_vid cookie that is no visitor id is not stored as one', async () => {
    const { url, body } = await rated('fb-cookie-bad');
    for (const value of ['x', 'a'.repeat(3000), encodeURIComponent('a/b <c>')]) {
      const response = await visitorPost(t, url, body('good', 'visitor-0009'), {
        cookie: `livery_vid=${value}`,
      });
      const what = `cookie ${value.slice(0, 20)}: ${response.statusCode} ${response.body.slice(0, 120)}`;
      if (response.statusCode === 400) continue;
      assert.ok([200, 201].includes(response.statusCode), what);
      assert.equal((response.json() as { visitorId: string }).visitorId, 'visitor-0009', what);
    }
  });
});

describe('POST /s/{site}/@livery/view', () => {
  test('204, and each view counts in the page’s pageViews', async () => {
    const site = await publishedSite(t, 'views');
    const url = `${site.address}/@livery/view`;
    const page = { siteSpaceId: site.siteSpaceIds[0], pageId: site.tree.install };
    for (let i = 0; i < 3; i++) {
      const view = await visitorPost(t, url, page);
      assert.equal(view.statusCode, 204);
      assert.equal(view.body, '');
    }
    assert.equal((await insightsOf(site.tree.spaceId, site.tree.install)).pageViews, 3);
    assert.equal((await insightsOf(site.tree.spaceId, site.tree.intro)).pageViews, 0);
    const html = (await visit(t, `${site.address}/guides/install`)).body;
    assert.match(html, /data-view-href="\/s\/views\/@livery\/view"/, 'the page reports here');
    assert.match(expectError(await visitorPost(t, url, { pageId: 'x' }), 400), /siteSpaceId/);
  });
});

describe('POST /v1/orgs/{o}/sites/{s}/preview', () => {
  const draft = {
    title: 'Draft Title',
    styling: { primaryColor: { light: '#123456', dark: '#654321' } },
  };

  test('renders with the draft applied, inline theme, and saves nothing', async () => {
    const site = await publishedSite(t, 'preview');
    await customize(t, site, { title: 'Saved Title' });
    const settingsUrl = `${site.base}/customization`;
    const overrideUrl = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    const before = await t.request({ method: 'GET', url: settingsUrl });
    const overrideBefore = await t.request({ method: 'GET', url: overrideUrl });
    const preview = await t.request({
      method: 'POST',
      url: `${site.base}/preview`,
      payload: { pagePath: 'intro/child', customization: draft },
    });
    assert.equal(preview.statusCode, 200);
    assert.match(String(preview.headers['content-type']), /^text\/html/);
    assert.equal(preview.headers['x-robots-tag'], 'noindex');
    assert.equal(preview.headers['cache-control'], 'no-store');
    const html = preview.body;
    assert.match(html, /<title>Child \| Draft Title<\/title>/);
    assert.match(html, /<style>[^<]*--primary-9: #123456;[^<]*--primary-9: #654321;/);
    assert.doesNotMatch(html, /@livery\/theme\//, 'no stylesheet address for unsaved settings');
    assert.doesNotMatch(html, /data-view-href/, 'a preview is not a view');
    assert.match(html, /href="http:\/\/livery\.test\/s\/preview\/intro"/, 'absolute links');
    const after = await t.request({ method: 'GET', url: settingsUrl });
    assert.deepEqual(after.json(), before.json());
    assert.equal(after.headers.etag, before.headers.etag);
    const overrideAfter = await t.request({ method: 'GET', url: overrideUrl });
    assert.deepEqual(overrideAfter.json(), overrideBefore.json());
    const live = (await visit(t, `${site.address}/intro/child`)).body;
    assert.match(live, /<title>Child \| Saved Title<\/title>/, 'the site is unchanged');
  });

  test('a chosen variant; an unpublished site previews too', async () => {
    const site = await publishedSite(t, 'preview-draft', { second: true, publish: false });
    const second = site.second;
    assert.ok(second);
    const preview = await t.request({
      method: 'POST',
      url: `${site.base}/preview`,
      payload: { siteSpaceId: second.siteSpaceId, customization: draft },
    });
    assert.equal(preview.statusCode, 200);
    assert.match(preview.body, /<h1>Start<\/h1>/);
    assert.match(preview.body, /--primary-9: #123456;/);
    assert.equal((await visit(t, site.address)).statusCode, 404, 'still unpublished');
  });

  test('400s name the field: siteSpaceId, pagePath, customization', async () => {
    const site = await publishedSite(t, 'preview-bad');
    const cases: [object, RegExp][] = [
      [{ siteSpaceId: 'sitesp_nope' }, /^body\.siteSpaceId/],
      [{ pagePath: 'no/such/page' }, /^body\.pagePath/],
      [{ pagePath: 'guides' }, /^body\.pagePath/],
      [
        { customization: { styling: { primaryColor: { light: 'red', dark: '#000' } } } },
        /^body\.customization\.styling\.primaryColor\.light/,
      ],
      [
        { customization: { insights: { trackingCookie: false } } },
        /^body\.customization\.insights/,
      ],
      [{ unknown: true }, /unknown/],
    ];
    for (const [payload, message] of cases) {
      const response = await t.request({ method: 'POST', url: `${site.base}/preview`, payload });
      assert.match(expectError(response, 400), message, JSON.stringify(payload));
    }
  });

  test('needs a token (401), and a member of the site’s organization (404)', async () => {
    const site = await publishedSite(t, 'preview-auth');
    const url = `${site.base}/preview`;
    expectError(await t.app.inject({ method: 'POST', url, payload: {} }), 401);
    const stranger = await t.services.identity.createOrganizationWithOwner({
      title: 'Elsewhere',
      ownerName: 'Stranger',
    });
    const headers = { authorization: `Bearer ${stranger.token}` };
    const foreign = await t.app.inject({ method: 'POST', url, payload: {}, headers });
    expectError(foreign, 404);
  });
});
