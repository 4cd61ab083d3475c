/**
 * Livery's own published site reports its readers' events (docs/insights.md, "Livery's published
 * site"): a page view, a search, an opened result, a link click and a rating become GitBook's
 * events, counted by aggregateSiteEvents; no cookie is set for them; a flood of events never
 * fails a page view.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freshnessFenceOf, generationOf } from '../../src/db/database.js';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import {
  customize,
  type PublishedSite,
  publishedSite,
  setCookies,
  visit,
  visitorPost,
} from '../helpers/published.js';
import { siteEvent } from '../helpers/site-events.js';

let t: TestContext;
let site: PublishedSite;

before(async () => {
  t = await createTestApp({ SITE_EVENTS_PER_MINUTE: '50' });
  site = await publishedSite(t, 'reader');
  await customize(t, site, { feedback: { enabled: true }, insights: { trackingCookie: false } });
});
after(async () => t.close());

const VISITOR = 'tab-0123456789abcdef';
const UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';

async function rows(query: object) {
  const res = await t.request({
    method: 'POST',
    url: `${site.base}/insights/events/aggregate`,
    payload: { range: 'last24Hours', ...query },
  });
  const { columns } = expectStatus(res, 200) as {
    columns: { column: string; values: unknown[] }[];
  };
  return (columns[0]?.values ?? []).map((_v, i) =>
    Object.fromEntries(columns.map((c) => [c.column, c.values[i]])),
  );
}

describe("Livery's published site reports reader events", () => {
  test('a view, a search, an opened result, a link click and a rating', async () => {
    const [main] = site.siteSpaceIds as [string];
    const { intro, install } = site.tree;
    const page = await visit(t, `${site.address}/`, { 'user-agent': UA });
    assert.equal(page.statusCode, 200);
    assert.deepEqual(setCookies(page), [], 'no cookie without insights.trackingCookie');
    const headers = { 'user-agent': UA, 'accept-language': 'de-CH,de;q=0.9' };
    const where = {
      siteSpaceId: main,
      visitorId: VISITOR,
      url: `https://docs.test${site.address}/?share=k`,
    };
    const view = await visitorPost(
      t,
      `${site.address}/@livery/view`,
      { ...where, pageId: intro, referrer: 'https://news.test/item?id=9' },
      headers,
    );
    assert.equal(view.statusCode, 204, view.body);
    const events = await visitorPost(
      t,
      `${site.address}/@livery/events`,
      {
        ...where,
        pageId: intro,
        events: [
          { type: 'search_type_query', query: 'install' },
          { type: 'search_open_result', query: 'install', pageId: install },
          { type: 'link_click', url: 'https://example.com/out', position: 'content' },
        ],
      },
      headers,
    );
    assert.equal(events.statusCode, 204, events.body);
    const rated = await visitorPost(
      t,
      `${site.address}/@livery/feedback`,
      { siteSpaceId: main, pageId: intro, rating: 'good', visitorId: VISITOR },
      headers,
    );
    assert.equal(rated.statusCode, 201, rated.body);

    assert.deepEqual(
      await rows({
        select: [{ column: 'eventsCount' }],
        groupBy: [{ column: 'eventType' }],
        order: { by: { column: 'eventType' }, direction: 'asc' },
      }),
      [
        { eventType: 'link_click', eventsCount: 1 },
        { eventType: 'page_post_feedback', eventsCount: 1 },
        { eventType: 'page_view', eventsCount: 1 },
        { eventType: 'search_open_result', eventsCount: 1 },
        { eventType: 'search_type_query', eventsCount: 1 },
      ],
    );
    assert.deepEqual(
      await rows({
        select: [{ column: 'visitorsCount' }],
        groupBy: [
          { column: 'page' },
          { column: 'visitorDevice' },
          { column: 'visitorOS' },
          { column: 'visitorLanguage' },
          { column: 'referrerDomain' },
          { column: 'url' },
        ],
        where: [{ column: 'eventType', values: ['page_view'] }],
      }),
      [
        {
          page: { space: site.tree.spaceId, page: intro },
          visitorDevice: 'mobile',
          visitorOS: 'ios',
          visitorLanguage: 'de-CH',
          referrerDomain: 'news.test',
          url: `https://docs.test${site.address}/`,
          visitorsCount: 1,
        },
      ],
    );
    assert.deepEqual(
      await rows({
        groupBy: [{ column: 'eventLinkTargetDomain' }, { column: 'eventLinkPosition' }],
      }),
      [{ eventLinkTargetDomain: 'example.com', eventLinkPosition: 'content', eventsCount: 1 }],
    );
  });

  test('reports and tracked events leave kept page views kept (the cache generation stays)', async () => {
    const [main] = site.siteSpaceIds as [string];
    const generation = generationOf(t.db);
    await visit(t, `${site.address}/`);
    // PostgreSQL: the announcements of the earlier tests' writes are heard first.
    await freshnessFenceOf(t.db)?.();
    // Neither this process's writes nor (PostgreSQL) an announced change may move it: event
    // writes are not counted and page_view_days announces nothing since migration 0026.
    const writes = () => generation();
    const before = writes();
    assert.ok(before !== undefined, 'the generation is known');
    const view = { siteSpaceId: main, pageId: site.tree.intro, visitorId: VISITOR };
    assert.equal((await visitorPost(t, `${site.address}/@livery/view`, view)).statusCode, 204);
    const tracked = await t.request({
      method: 'POST',
      url: `${site.base}/insights/events`,
      payload: { events: [siteEvent('page_view')] },
    });
    assert.equal(tracked.statusCode, 204);
    await rows({}); // writes the waiting events
    // Let a tick pass: SQLite's data_version is read once per I/O callback.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes(), before, 'no write counted: no cached read was dropped');
  });

  test('bad reports: 400 naming the field; an unknown variant: 404', async () => {
    const [main] = site.siteSpaceIds as [string];
    const url = `${site.address}/@livery/events`;
    const bad = await visitorPost(t, url, {
      siteSpaceId: main,
      visitorId: VISITOR,
      events: [{ type: 'link_click', url: 'javascript:alert(1)', position: 'content' }],
    });
    assert.equal(bad.statusCode, 400);
    assert.match(JSON.parse(bad.body).error.message, /events/);
    const many = await visitorPost(t, url, {
      siteSpaceId: main,
      events: Array.from({ length: 21 }, () => ({ type: 'search_type_query', query: 'x' })),
    });
    assert.equal(many.statusCode, 400);
    const unknown = await visitorPost(t, url, { siteSpaceId: 'sitesp_nope', events: [] });
    assert.equal(unknown.statusCode, 404);
  });

  test('a flood of API events for the site: page views still counted, nothing fails', async () => {
    const [main] = site.siteSpaceIds as [string];
    const flood = Array.from({ length: 100 }, () => siteEvent('page_view'));
    const res = await t.request({
      method: 'POST',
      url: `${site.base}/insights/events`,
      payload: { events: flood },
    });
    assert.equal(res.statusCode, 429);
    const view = await visitorPost(t, `${site.address}/@livery/view`, {
      siteSpaceId: main,
      pageId: site.tree.intro,
      visitorId: VISITOR,
    });
    assert.equal(view.statusCode, 204);
    const page = await visit(t, `${site.address}/`);
    assert.equal(page.statusCode, 200);
  });
});
