/**
 * The official client of GitBook 0.202 drives the site-insights operations against a listening
 * Livery (docs/insights.md, "Site events"): it tracks events typed as 0.202 defines them, then
 * reads them back through aggregateSiteEvents; a malformed event is refused with 0.202's error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  failure0202,
  type GitBook0202,
  recordingClient,
  SiteInsightsQueryOperator,
  SiteInsightsQueryRangePreset,
} from '../helpers/gitbook-0202.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';

let t: TestContext;
let api: Api0202;
let site: PublishedSite;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
  site = await publishedSite(t, 'client-events');
});
after(async () => t.close());

const session: GitBook0202.SiteInsightsEventSession = {
  visitorId: 'visitor-a',
  sessionId: 'session-a',
  cookies: {},
  userAgent:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15',
  language: 'fr',
  referrer: 'https://www.example.com/blog/post?id=1',
};
const location = (page: string | null): GitBook0202.SiteInsightsEventLocation => ({
  url: `https://docs.acme.test/client-events/${page ?? 'missing'}`,
  siteSection: null,
  siteSpace: site.siteSpaceIds[0] ?? null,
  siteShareKey: null,
  space: site.tree.spaceId,
  revision: null,
  page,
});

describe('the official 0.202 client against Livery: site events', () => {
  test('track page views, a search and a feedback; aggregate them', async () => {
    const { intro } = site.tree;
    const events: GitBook0202.SiteInsightsEvent[] = [
      { type: 'page_view', session, location: location(intro) },
      {
        type: 'page_view',
        session: { ...session, sessionId: 'session-b' },
        location: location(intro),
      },
      { type: 'page_view', session, location: location(null) },
      { type: 'search_type_query', query: 'pricing', session, location: location(intro) },
      {
        type: 'page_post_feedback',
        feedback: { rating: 'good' as GitBook0202.PageFeedbackRating },
        session,
        location: location(intro),
        timestamp: new Date().toISOString(),
      },
    ];
    const tracked = await api.orgs.trackEventsInSiteById(t.orgId, site.siteId, { events });
    assert.equal(tracked.status, 204);

    const { data } = await api.orgs.aggregateSiteEvents(t.orgId, site.siteId, {
      range: SiteInsightsQueryRangePreset.Last24Hours,
      select: [{ column: 'eventsCount' }, { column: 'sessionsCount' }, { column: 'visitorsCount' }],
      groupBy: [{ column: 'page' }, { column: 'visitorBrowser' }, { column: 'referrerDomain' }],
      where: [{ column: 'eventType', values: ['page_view' as GitBook0202.SiteInsightsEventType] }],
    });
    assert.deepEqual(
      data.columns.map((c) => c.column),
      ['page', 'visitorBrowser', 'referrerDomain', 'eventsCount', 'sessionsCount', 'visitorsCount'],
    );
    const values = Object.fromEntries(data.columns.map((c) => [c.column, c.values]));
    assert.deepEqual(values.page, [{ space: site.tree.spaceId, page: intro }, null]);
    assert.deepEqual(values.eventsCount, [2, 1]);
    assert.deepEqual(values.sessionsCount, [2, 1]);
    assert.deepEqual(values.visitorsCount, [1, 1]);
    assert.deepEqual(values.visitorBrowser, ['safari', 'safari']);
    assert.deepEqual(values.referrerDomain, ['www.example.com', 'www.example.com']);

    const searches = await api.orgs.aggregateSiteEvents(t.orgId, site.siteId, {
      range: SiteInsightsQueryRangePreset.Last7Days,
      groupBy: [{ column: 'eventSearchQuery' }],
      where: [
        {
          column: 'eventType',
          values: ['search_type_query' as GitBook0202.SiteInsightsEventType],
          operator: SiteInsightsQueryOperator.In,
        },
      ],
    });
    assert.deepEqual(searches.data.columns, [
      { column: 'eventSearchQuery', values: ['pricing'] },
      { column: 'eventsCount', values: [1] },
    ]);

    const ratings = await api.orgs.aggregateSiteEvents(t.orgId, site.siteId, {
      range: {
        from: new Date(Date.now() - 3_600_000).toISOString(),
        to: new Date(Date.now() + 60_000).toISOString(),
      },
      select: [{ column: 'pageFeedbackRating' }],
    });
    assert.deepEqual(ratings.data.columns, [
      { column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 0 }] },
    ]);
  });

  test('a malformed event and a too long range: 0.202 errors naming the field', async () => {
    const bad = await failure0202(
      api.orgs.trackEventsInSiteById(t.orgId, site.siteId, {
        events: [{ type: 'search_type_query', session, location: location(null) } as never],
      }),
    );
    assert.equal(bad.code, 400);
    assert.match(bad.message, /query/);
    const long = await failure0202(
      api.orgs.aggregateSiteEvents(t.orgId, site.siteId, {
        range: { from: '2020-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      }),
    );
    assert.equal(long.code, 400);
    assert.match(long.message, /body\.range/);
  });
});
