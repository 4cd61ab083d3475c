/**
 * GitBook conformance (issue 14): the content-insights operations, which only GitBook 0.91 has
 * (docs/insights.md), each response judged against 0.91's response schemas. 0.91 declares a
 * `default` error response on each, so 400 and 404 are judged too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSite, createTestApp, type SiteFixture, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';
import { byTitle, publishChanges } from '../helpers/insights.js';
import { siteEvent } from '../helpers/site-events.js';

let t: TestContext;
let c: Conformance;
let site: SiteFixture;
let page: string;
let group: string;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
  site = await createSite(t, 1);
  const pages = await publishChanges(t, site.spaceIds[0] ?? '', [
    { operation: 'insert_page', title: 'Intro', document: { markdown: 'Welcome' } },
    { operation: 'insert_page', title: 'Guides', type: 'group' },
  ]);
  page = byTitle(pages, 'Intro').id;
  group = byTitle(pages, 'Guides').id;
});
after(async () => t.close());

const space = () => `/v1/spaces/${site.spaceIds[0]}`;
const variant = () => `${site.base}/site-spaces/${site.siteSpaceIds[0]}`;

describe('GitBook conformance: content insights (0.91)', () => {
  test('ratings through the space: 201, 200, read, 400, 404', async () => {
    const url = `${space()}/pages/${page}/feedbacks/visitor-1`;
    const first = await c.call(
      'createPageFeedback',
      { method: 'PUT', url, payload: { rating: 'good' } },
      { status: 201 },
    );
    await c.call(
      'createPageFeedback',
      { method: 'PUT', url, payload: { rating: 'ok' } },
      { status: 200 },
    );
    const read = await c.call('getPageFeedback', { method: 'GET', url }, { status: 200 });
    await c.call(
      'getPageFeedback',
      { method: 'GET', url: `${space()}/pages/${page}/feedbacks/nobody` },
      { status: 404 },
    );
    await c.call(
      'createPageFeedback',
      { method: 'PUT', url, payload: { rating: 'great' } },
      { status: 400, invalidBody: true },
    );
    await c.call(
      'createPageFeedback',
      {
        method: 'PUT',
        url: `${space()}/pages/${group}/feedbacks/visitor-1`,
        payload: { rating: 'bad' },
      },
      { status: 404 },
    );
    c.check(() => assert.equal(JSON.parse(first.body).rating, 'good'));
    c.check(() => assert.equal(JSON.parse(read.body).rating, 'ok'));
    c.assertConforms();
  });

  test('ratings through a site-space: 201, 200, 400, 404', async () => {
    const url = `${variant()}/insights/pages/${page}/feedbacks/visitor-2`;
    await c.call(
      'createSitesPageFeedback',
      { method: 'PUT', url, payload: { rating: 'bad' } },
      { status: 201 },
    );
    await c.call(
      'createSitesPageFeedback',
      { method: 'PUT', url, payload: { rating: 'good' } },
      { status: 200 },
    );
    await c.call(
      'createSitesPageFeedback',
      { method: 'PUT', url, payload: {} },
      { status: 400, invalidBody: true },
    );
    await c.call(
      'createSitesPageFeedback',
      {
        method: 'PUT',
        url: `${site.base}/site-spaces/sitesp_nope/insights/pages/${page}/feedbacks/v`,
        payload: { rating: 'ok' },
      },
      { status: 404 },
    );
    c.assertConforms();
  });

  test('views: 204, 400, 404', async () => {
    const visit = {
      pageId: page,
      visitor: { anonymousId: 'visitor-3', cookies: {}, userAgent: 'conformance' },
      url: 'https://docs.example.com/intro',
      referrer: 'https://example.com/',
    };
    const url = `${space()}/insights/track_view`;
    await c.call('trackViewInSpaceById', { method: 'POST', url, payload: visit }, { status: 204 });
    await c.call(
      'trackViewInSpaceById',
      { method: 'POST', url, payload: { ...visit, visitor: 'visitor-3' } },
      { status: 400, invalidBody: true },
    );
    await c.call(
      'trackViewInSpaceById',
      { method: 'POST', url, payload: { ...visit, pageId: group } },
      { status: 404 },
    );
    c.assertConforms();
  });

  test('reading: the space, the site-space over a period, 400, 404', async () => {
    const all = await c.call(
      'getContentAnalyticsForSpaceById',
      { method: 'GET', url: `${space()}/insights/content` },
      { status: 200 },
    );
    await c.call(
      'getContentAnalyticsForSpaceById',
      { method: 'GET', url: '/v1/spaces/nope/insights/content' },
      { status: 404 },
    );
    await c.call(
      'getContentAnalyticsForSiteSpaceById',
      { method: 'GET', url: `${variant()}/insights/content?period=last_month` },
      { status: 200 },
    );
    await c.call(
      'getContentAnalyticsForSiteSpaceById',
      { method: 'GET', url: `${variant()}/insights/content?period=forever` },
      { status: 400 },
    );
    await c.call(
      'getContentAnalyticsForSiteSpaceById',
      { method: 'GET', url: `${site.base}/site-spaces/sitesp_nope/insights/content` },
      { status: 404 },
    );
    const entries = JSON.parse(all.body).pages as {
      pageViews: number;
      feedbacks: { total: number };
    }[];
    c.check(() =>
      assert.deepEqual(
        entries.map((e) => [e.pageViews, e.feedbacks.total]),
        [[1, 2]],
      ),
    );
    c.assertConforms();
  });

  test('site events (0.202): every event type tracked, then aggregated', async () => {
    const url = `${site.base}/insights/events`;
    const events = [
      siteEvent('page_view', {}, { space: site.spaceIds[0], page }),
      siteEvent('search_type_query', { query: 'welcome' }),
      siteEvent('page_post_feedback', { feedback: { rating: 'good' } }),
      siteEvent('link_click', {
        link: { target: { kind: 'url', url: 'https://example.com/' }, position: 'content' },
      }),
    ];
    await c.call(
      'trackEventsInSiteById',
      { method: 'POST', url, payload: { events } },
      { status: 204 },
    );
    const queries = [
      { range: 'last7Days' },
      {
        range: 'last30Days',
        select: [
          { column: 'eventsCount' },
          { column: 'visitorsCount' },
          { column: 'sessionsCount' },
        ],
        groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'page' }],
      },
      {
        range: 'last24Hours',
        groupBy: [{ column: 'eventSearchQuery' }],
        where: [{ column: 'eventType', values: ['search_type_query'], operator: 'in' }],
        order: { by: { column: 'eventsCount' }, direction: 'desc' },
        limit: 10,
      },
      {
        range: 'lastYear',
        select: [{ column: 'pageFeedbackRating' }, { column: 'askResponseRating' }],
      },
      {
        range: 'last7Days',
        groupBy: [{ column: 'eventLinkTargetValue' }, { column: 'visitorBrowser' }],
      },
    ];
    for (const payload of queries) {
      await c.call(
        'aggregateSiteEvents',
        { method: 'POST', url: `${url}/aggregate`, payload },
        { status: 200 },
      );
    }
    c.assertConforms();
  });

  test('summary: every operation of the area judged, with its statuses', () => {
    console.log(c.report('content insights'));
    assertCoverage(c, 'insights');
  });
});
