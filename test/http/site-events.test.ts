/**
 * Site analytics events (docs/insights.md, "Site events"): trackEventsInSiteById takes every
 * event type of GitBook 0.202, stores no personal data beyond what the docs say, and
 * aggregateSiteEvents counts them in GitBook's columnar shape. Bad input: field-named 400s,
 * bounded batches and ranges, a per-site 429 with Retry-After that leaves page views alone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';
import { eventsCount, siteEvent } from '../helpers/site-events.js';

const PUBLIC = 'https://docs.acme.test/';
let t: TestContext;
let site: PublishedSite;
let other: PublishedSite;

before(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC, SITE_EVENTS_PER_MINUTE: '400' });
  site = await publishedSite(t, 'acme');
  other = await publishedSite(t, 'other');
});
after(async () => t.close());

const track = (base: string, events: object[], headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `${base}/insights/events`, payload: { events }, headers });
const aggregate = (base: string, query: object) =>
  t.request({ method: 'POST', url: `${base}/insights/events/aggregate`, payload: query });

type Columns = { columns: { column: string; values: unknown[] }[] };
/** The answer's rows as objects keyed by column name. */
function rowsOf(body: Columns): Record<string, unknown>[] {
  const [first] = body.columns;
  return (first?.values ?? []).map((_v, i) =>
    Object.fromEntries(body.columns.map((c) => [c.column, c.values[i]])),
  );
}

const page = (id: string) => ({ space: site.tree.spaceId, page: id });
const ALL_TYPES: [string, Record<string, unknown>][] = [
  ['page_view', {}],
  ['page_markdown_request', { markdownSource: 'page-action' }],
  ['search_open', {}],
  ['search_type_query', { query: 'install' }],
  ['search_open_result', { query: 'install', result: { spaceId: 's', pageId: 'p' } }],
  ['page_post_feedback', { feedback: { rating: 'good' } }],
  ['page_post_feedback_comment', { feedback: { rating: 'bad', comment: 'Too short' } }],
  ['agent_feedback', {}],
  ['ask_question', { query: 'How?', goal: 'set up' }],
  ['ask_view', {}],
  ['ask_rate_response', { query: 'How?', rating: -1, responseId: 'r1' }],
  [
    'link_click',
    { link: { target: { kind: 'url', url: 'https://example.com/x' }, position: 'content' } },
  ],
  ['api_client_open', { operation: { path: '/pets', method: 'GET' } }],
  ['api_client_request', { operation: { path: '/pets', method: 'POST' } }],
  ['trademark_click', { placement: 'footer' }],
  ['ad_click', { ad: { domain: 'ads.test', zoneId: 'z', placement: 'aside' } }],
  ['ad_display', { ad: { domain: 'ads.test', zoneId: 'z', placement: 'aside' } }],
  ['llms_request', { llmsVariant: 'full' }],
  ['mcp_request', {}],
  ['rss_request', {}],
];

describe('trackEventsInSiteById', () => {
  test('every event type of 0.202 is taken and counted by type', async () => {
    const events = ALL_TYPES.map(([type, own]) => siteEvent(type, own));
    expectStatus(await track(other.base, events), 204);
    const answer = expectStatus(
      await aggregate(other.base, { range: 'last24Hours', groupBy: [{ column: 'eventType' }] }),
      200,
    ) as Columns;
    const counts = Object.fromEntries(rowsOf(answer).map((r) => [r.eventType, r.eventsCount]));
    assert.deepEqual(
      counts,
      Object.fromEntries(ALL_TYPES.map(([type]) => [type, 1])),
      'one event of each type',
    );
    assert.deepEqual(
      answer.columns.map((c) => c.column),
      ['eventType', 'eventsCount'],
    );
  });

  test('what is stored: no IP, cookie, user agent, query string or raw visitor id', async () => {
    const secret = 'SECRET-share-key';
    const event = siteEvent(
      'page_view',
      {},
      { url: `https://docs.acme.test/acme/guide?share=${secret}&utm_source=mail#top` },
      {
        visitorId: 'visitor-raw-id',
        sessionId: 'session-raw-id',
        ip: '203.0.113.9',
        cookies: { session: secret },
        referrer: `https://search.test/q?q=${secret}`,
        visitorAuthClaims: { email: 'reader@example.com' },
      },
    );
    expectStatus(await track(other.base, [event]), 204);
    await eventsCount(t, other.base); // a query writes the events waiting (t.services is not the app's)
    const rows = await t.db
      .selectFrom('site_insight_events')
      .selectAll()
      .where('site_id', '=', other.siteId)
      .where('utm_source', '=', 'mail')
      .execute();
    assert.equal(rows.length, 1);
    const text = JSON.stringify(rows[0]);
    for (const leak of [
      secret,
      '203.0.113.9',
      'visitor-raw-id',
      'session-raw-id',
      'reader@example.com',
      'Mozilla',
    ]) {
      assert.ok(!text.includes(leak), `${leak} is not stored: ${text}`);
    }
    assert.equal(rows[0]?.url, 'https://docs.acme.test/acme/guide');
    assert.equal(rows[0]?.referrer, 'https://search.test/q');
    assert.equal(rows[0]?.referrer_domain, 'search.test');
    assert.equal(rows[0]?.browser, 'chrome');
    assert.equal(rows[0]?.os, 'linux');
    assert.equal(rows[0]?.authenticated, 1);
  });

  test('malformed events: a 400 naming the field, nothing recorded', async () => {
    const before = await eventsCount(t, site.base);
    const cases: [object[], RegExp][] = [
      [[siteEvent('search_type_query')], /events\/0.*query|events\.0\.query|query is required/],
      [[siteEvent('page_vieww')], /type must be one of/],
      [
        [siteEvent('page_view'), { ...siteEvent('page_view'), location: { url: 'not a url' } }],
        /events.*1.*location/,
      ],
      [
        [siteEvent('page_view', { timestamp: new Date(Date.now() - 3_600_000).toISOString() })],
        /events\[0\]\.timestamp/,
      ],
      [[siteEvent('page_post_feedback', { feedback: { rating: 'great' } })], /rating/],
      [
        Array.from({ length: 101 }, () => siteEvent('page_view')),
        /events must have at most 100 items/,
      ],
    ];
    for (const [events, message] of cases) {
      const res = await track(site.base, events);
      expectError(res, 400);
      assert.match(JSON.parse(res.body).error.message, message);
    }
    expectError(
      await t.request({ method: 'POST', url: `${site.base}/insights/events`, payload: {} }),
      400,
    );
    assert.equal(await eventsCount(t, site.base), before, 'nothing recorded');
  });

  test('an unknown site, or a site of another organization: 404', async () => {
    expectError(await track(`/v1/orgs/${t.orgId}/sites/site_nope`, [siteEvent('page_view')]), 404);
    expectError(
      await track(`/v1/orgs/org_nope/sites/${site.siteId}`, [siteEvent('page_view')]),
      404,
    );
  });

  test("a site token (GitBook's renderer) tracks its own site's events, and reads none", async () => {
    const lookup = await t.request({
      method: 'POST',
      url: '/v1/urls/published',
      payload: { url: `${PUBLIC}acme` },
    });
    const token = expectStatus(lookup, 200).apiToken as string;
    const authorization = `Bearer ${token}`;
    const before = await eventsCount(t, site.base);
    expectStatus(await track(site.base, [siteEvent('page_view')], { authorization }), 204);
    assert.equal(await eventsCount(t, site.base), before + 1);
    expectError(await track(other.base, [siteEvent('page_view')], { authorization }), 404);
    const read = await t.request({
      method: 'POST',
      url: `${site.base}/insights/events/aggregate`,
      payload: { range: 'last7Days' },
      headers: { authorization },
    });
    expectError(read, 403);
  });
});

describe('aggregateSiteEvents', () => {
  let site2: PublishedSite;
  before(async () => {
    site2 = await publishedSite(t, 'agg');
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const { intro, install } = site.tree;
    const events = [
      siteEvent('page_view', { timestamp: at(1) }, { space: site.tree.spaceId, page: intro }),
      siteEvent(
        'page_view',
        { timestamp: at(2) },
        { space: site.tree.spaceId, page: intro },
        { visitorId: 'v2', sessionId: 's2' },
      ),
      siteEvent(
        'page_view',
        {},
        { space: site.tree.spaceId, page: install },
        { visitorId: 'v2', sessionId: 's3' },
      ),
      siteEvent('page_view', {}, { url: 'https://docs.acme.test/acme/missing' }),
      siteEvent('search_type_query', { query: 'install' }),
      siteEvent('search_type_query', { query: 'install' }, {}, { visitorId: 'v3' }),
      siteEvent('search_type_query', { query: 'api' }),
      siteEvent('page_post_feedback', { feedback: { rating: 'good' } }),
      siteEvent('page_post_feedback', { feedback: { rating: 'bad' } }),
      siteEvent('link_click', {
        link: { target: { url: 'https://example.com/', kind: 'url' }, position: 'footer' },
      }),
    ];
    expectStatus(await track(site2.base, events), 204);
  });

  const q = (query: object) => aggregate(site2.base, { range: 'last24Hours', ...query });

  test('without select: the count of events; with no events in range: 0', async () => {
    const all = expectStatus(await q({}), 200) as Columns;
    assert.deepEqual(all, { columns: [{ column: 'eventsCount', values: [10] }] });
    const old = expectStatus(
      await aggregate(site2.base, {
        range: { from: '2020-01-01T00:00:00Z', to: '2020-02-01T00:00:00Z' },
      }),
      200,
    );
    assert.deepEqual(old, { columns: [{ column: 'eventsCount', values: [0] }] });
  });

  test('visitors, sessions and pages of page views; null is a page not found', async () => {
    const answer = expectStatus(
      await q({
        select: [
          { column: 'eventsCount' },
          { column: 'visitorsCount' },
          { column: 'sessionsCount' },
        ],
        groupBy: [{ column: 'page' }],
        where: [{ column: 'eventType', values: ['page_view'] }],
      }),
      200,
    ) as Columns;
    const { intro, install } = site.tree;
    const rows = rowsOf(answer);
    assert.deepEqual(rows[0], {
      page: page(intro),
      eventsCount: 2,
      visitorsCount: 2,
      sessionsCount: 2,
    });
    const rest = rows.slice(1).sort((a, b) => (a.page === null ? -1 : b.page === null ? 1 : 0));
    assert.deepEqual(rest, [
      { page: null, eventsCount: 1, visitorsCount: 1, sessionsCount: 1 },
      { page: page(install), eventsCount: 1, visitorsCount: 1, sessionsCount: 1 },
    ]);
    const notFound = expectStatus(
      await q({
        where: [
          { column: 'eventType', values: ['page_view'] },
          { column: 'page', values: [null] },
        ],
      }),
      200,
    );
    assert.deepEqual(notFound, { columns: [{ column: 'eventsCount', values: [1] }] });
  });

  test('top searches, largest first, and order/limit', async () => {
    const answer = expectStatus(
      await q({
        groupBy: [{ column: 'eventSearchQuery' }],
        where: [{ column: 'eventType', values: ['search_type_query'] }],
        order: { by: { column: 'eventsCount' }, direction: 'desc' },
        limit: 1,
      }),
      200,
    ) as Columns;
    assert.deepEqual(rowsOf(answer), [{ eventSearchQuery: 'install', eventsCount: 2 }]);
  });

  test('notIn keeps events without the field unless null is listed', async () => {
    const count = async (column: string, values: unknown[], operator: string) =>
      (expectStatus(await q({ where: [{ column, values, operator }] }), 200) as Columns).columns[0]
        ?.values[0];
    assert.equal(await count('eventSearchQuery', ['install'], 'notIn'), 8);
    assert.equal(await count('visitorBot', ['googlebot'], 'notIn'), 10);
    assert.equal(await count('visitorBot', [null], 'notIn'), 0);
    assert.equal(await count('visitorBot', [null], 'in'), 10);
    assert.equal(await count('hourOfDay', [0], 'greaterThanOrEqual'), 10);
  });

  test('feedback ratings, link targets, time buckets', async () => {
    const ratings = expectStatus(await q({ select: [{ column: 'pageFeedbackRating' }] }), 200);
    assert.deepEqual(ratings, {
      columns: [{ column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 1 }] }],
    });
    const links = expectStatus(
      await q({
        groupBy: [{ column: 'eventLinkTargetValue' }, { column: 'eventLinkPosition' }],
        where: [{ column: 'eventType', values: ['link_click'] }],
      }),
      200,
    ) as Columns;
    assert.deepEqual(rowsOf(links), [
      {
        eventLinkTargetValue: { kind: 'url', url: 'https://example.com/' },
        eventLinkPosition: 'footer',
        eventsCount: 1,
      },
    ]);
    for (const interval of ['hour', 'day', 'week', 'month']) {
      const answer = expectStatus(
        await q({ groupBy: [{ column: 'datetime', interval }] }),
        200,
      ) as Columns;
      const rows = rowsOf(answer);
      assert.equal(
        rows.reduce((n, r) => n + Number(r.eventsCount), 0),
        10,
        interval,
      );
      for (const row of rows) {
        const at = new Date(String(row.datetime));
        assert.equal(at.toISOString(), row.datetime);
        assert.equal(at.getUTCMinutes(), 0);
        if (interval === 'week') assert.equal(at.getUTCDay(), 1, 'weeks start on Monday');
        if (interval === 'month') assert.equal(at.getUTCDate(), 1);
      }
    }
    const profile = expectStatus(
      await q({ groupBy: [{ column: 'dayOfWeek' }, { column: 'hourOfDay' }] }),
      200,
    ) as Columns;
    for (const row of rowsOf(profile)) {
      assert.ok(Number(row.dayOfWeek) >= 1 && Number(row.dayOfWeek) <= 7);
      assert.ok(Number(row.hourOfDay) >= 0 && Number(row.hourOfDay) <= 23);
    }
    const geo = expectStatus(await q({ groupBy: [{ column: 'visitorGeoCountry' }] }), 200);
    assert.deepEqual(geo, {
      columns: [
        { column: 'visitorGeoCountry', values: [null] },
        { column: 'eventsCount', values: [10] },
      ],
    });
  });

  test('bad queries: a 400 naming the field', async () => {
    const cases: [object, RegExp][] = [
      [
        { range: { from: '2025-01-01T00:00:00Z', to: '2026-06-01T00:00:00Z' } },
        /body\.range covers \d+ days; .* at most 400/,
      ],
      [{ range: { from: '2025-02-01T00:00:00Z', to: '2025-01-01T00:00:00Z' } }, /body\.range\.to/],
      [{ range: 'lastDecade' }, /range/],
      [
        { range: 'last7Days', where: [{ column: 'eventsCount', values: [1] }] },
        /body\.where\[0\]\.column/,
      ],
      [
        {
          range: 'last7Days',
          where: [{ column: 'hourOfDay', values: [1, 2], operator: 'greaterThan' }],
        },
        /body\.where\[0\]\.values/,
      ],
      [
        { range: 'last7Days', order: { by: { column: 'urlPath' }, direction: 'asc' } },
        /body\.order\.by/,
      ],
      [{ range: 'last7Days', groupBy: [{ column: 'colour' }] }, /column must be one of/],
      [{ range: 'last7Days', limit: 5000 }, /limit/],
      [{ range: 'last7Days', groupBy: [{ column: 'datetime', interval: 'minute' }] }, /interval/],
    ];
    for (const [query, message] of cases) {
      const res = await aggregate(site2.base, query);
      expectError(res, 400);
      assert.match(JSON.parse(res.body).error.message, message, JSON.stringify(query));
    }
  });
});

describe('floods', () => {
  test('per site: 429 with Retry-After in the GitBook envelope; other sites and page views go on', async () => {
    const flood = await publishedSite(t, 'flood');
    const batch = Array.from({ length: 100 }, () => siteEvent('page_view'));
    for (let i = 0; i < 4; i++) expectStatus(await track(flood.base, batch), 204);
    const refused = await track(flood.base, batch);
    expectError(refused, 429);
    assert.match(String(refused.headers['retry-after']), /^\d+$/);
    assert.match(JSON.parse(refused.body).error.message, /at most 400 per minute/);
    expectStatus(await track(other.base, [siteEvent('page_view')]), 204);
    const view = await t.app.inject({ method: 'GET', url: flood.address });
    assert.ok([200, 302, 308].includes(view.statusCode), `page view: ${view.statusCode}`);
  });
});
