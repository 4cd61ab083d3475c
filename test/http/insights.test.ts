import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Static } from 'typebox';
import type {
  AnalyticsContentPagesSchema,
  PageFeedbackSchema,
} from '../../src/modules/insights/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import {
  AnalyticsSearchPeriod,
  byTitle,
  clientFailure091,
  flatten,
  type ListedPage,
  listenWith091,
  newSpace,
  PageFeedbackRating,
  publishChanges,
  spaceWithTree,
} from '../helpers/insights.js';

/**
 * Content insights through HTTP (issue 6): createPageFeedback / getPageFeedback,
 * trackViewInSpaceById, getContentAnalyticsForSpaceById, their site-space forms
 * (createSitesPageFeedback, getContentAnalyticsForSiteSpaceById with `period`), and GitBook
 * 0.91's official client against them. Pages are made the way writers make them: a change
 * request, its content, a merge.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Feedback = Static<typeof PageFeedbackSchema>;
type Entry = Static<typeof AnalyticsContentPagesSchema>['pages'][number];
type Scores = Entry['feedbacks'];

const NO_RATINGS: Scores = {
  score: 0,
  total: 0,
  rating: 'ok',
  ponderedScore: 0,
  bad: 0,
  ok: 0,
  good: 0,
};

const feedbackUrl = (spaceId: string, pageId: string, visitorId: string) =>
  `/v1/spaces/${spaceId}/pages/${pageId}/feedbacks/${visitorId}`;
const rate = (spaceId: string, pageId: string, visitorId: string, payload: unknown) =>
  t.request({
    method: 'PUT',
    url: feedbackUrl(spaceId, pageId, visitorId),
    payload: payload as object,
  });
const trackView = (spaceId: string, payload: unknown) =>
  t.request({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/insights/track_view`,
    payload: payload as object,
  });
const analytics = async (spaceId: string) =>
  (
    expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/insights/content` }),
      200,
    ) as { pages: Entry[] }
  ).pages;
const entryOf = (entries: Entry[], pageId: string): Entry => {
  const entry = entries.find((e) => e.page.id === pageId);
  assert.ok(entry, `an analytics entry for page ${pageId}`);
  return entry;
};
const currentRevision = async (spaceId: string) =>
  expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}` }), 200)
    .revision as string;
/** Rows stored for a space, straight from the database. */
const storedRows = async (spaceId: string) => ({
  feedbacks: await t.db
    .selectFrom('page_feedbacks')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('visitor_id')
    .execute(),
  views: (
    await t.db.selectFrom('page_view_days').selectAll().where('space_id', '=', spaceId).execute()
  ).reduce((sum, row) => sum + Number(row.views), 0),
});

describe('createPageFeedback / getPageFeedback', () => {
  test('a first rating is a 201 with Location; the same visitor again replaces it (200); another visitor is a 201', async () => {
    const s = await spaceWithTree(t);
    const revision = await currentRevision(s.spaceId);

    const first = await rate(s.spaceId, s.intro, 'visitor-1', { rating: 'good' });
    const created = expectStatus(first, 201) as Feedback;
    assert.equal(first.headers.location, created.urls.location);
    assert.equal(
      created.urls.location,
      `http://livery.test${feedbackUrl(s.spaceId, s.intro, 'visitor-1')}`,
    );
    assert.equal(created.object, 'page-feedback');
    assert.equal(created.visitorId, 'visitor-1');
    assert.equal(created.rating, 'good');
    assert.equal(created.revision, revision, 'the space’s current revision');
    assert.ok(!Number.isNaN(Date.parse(created.createdAt)), created.createdAt);
    assert.deepEqual(
      expectStatus(
        await t.request({ method: 'GET', url: feedbackUrl(s.spaceId, s.intro, 'visitor-1') }),
        200,
      ),
      created,
    );

    const again = await rate(s.spaceId, s.intro, 'visitor-1', { rating: 'bad' });
    const replaced = expectStatus(again, 200) as Feedback;
    assert.equal(replaced.rating, 'bad');
    assert.equal(replaced.visitorId, 'visitor-1');
    assert.equal(replaced.urls.location, created.urls.location);
    const read = expectStatus(
      await t.request({ method: 'GET', url: feedbackUrl(s.spaceId, s.intro, 'visitor-1') }),
      200,
    ) as Feedback;
    assert.equal(read.rating, 'bad', 'GET answers the new rating');
    assert.deepEqual(read, replaced);

    const second = await rate(s.spaceId, s.intro, 'visitor_2', { rating: 'ok' });
    assert.equal(second.headers.location, (expectStatus(second, 201) as Feedback).urls.location);

    const message = expectError(
      await t.request({ method: 'GET', url: feedbackUrl(s.spaceId, s.intro, 'never-rated') }),
      404,
    );
    assert.match(message, /never-rated/);
    // A rating is per page: visitor-1 rated Intro, not Child.
    expectError(
      await t.request({ method: 'GET', url: feedbackUrl(s.spaceId, s.child, 'visitor-1') }),
      404,
    );
    const intro = entryOf(await analytics(s.spaceId), s.intro).feedbacks;
    assert.deepEqual([intro.total, intro.good, intro.ok, intro.bad], [2, 0, 1, 1]);
  });

  test('a rating records the revision current when it was given', async () => {
    const s = await spaceWithTree(t);
    const before = await currentRevision(s.spaceId);
    const old = expectStatus(await rate(s.spaceId, s.last, 'v', { rating: 'ok' }), 201) as Feedback;
    assert.equal(old.revision, before);
    await publishChanges(t, s.spaceId, [
      { operation: 'update_page', page: s.last, title: 'Last, revised' },
    ]);
    const after = await currentRevision(s.spaceId);
    assert.notEqual(after, before);
    const renewed = expectStatus(
      await rate(s.spaceId, s.last, 'v', { rating: 'good' }),
      200,
    ) as Feedback;
    assert.equal(renewed.revision, after);
  });
});

describe('bad input is refused and stores nothing', () => {
  test('feedback: bad rating, bad ids, unknown or non-document pages, unknown space', async () => {
    const s = await spaceWithTree(t);
    expectStatus(await rate(s.spaceId, s.intro, 'kept', { rating: 'good' }), 201);
    expectStatus(await trackView(s.spaceId, { pageId: s.intro }), 204);
    const numbers = await analytics(s.spaceId);
    const rows = await storedRows(s.spaceId);

    const badRequests: [string, string, string, unknown, RegExp][] = [
      ['rating great', s.intro, 'v1', { rating: 'great' }, /rating/],
      ['rating missing', s.intro, 'v1', {}, /rating/],
      ['rating null', s.intro, 'v1', { rating: null }, /rating/],
      ['extra field', s.intro, 'v1', { rating: 'good', comment: 'x' }, /comment|additional/],
      ['visitorId a.b', s.intro, 'a.b', { rating: 'good' }, /visitorId/],
      ['visitorId a%20b', s.intro, 'a%20b', { rating: 'good' }, /visitorId/],
      ['visitorId too long', s.intro, 'v'.repeat(129), { rating: 'good' }, /visitorId/],
      ['pageId a.b', 'a.b', 'v1', { rating: 'good' }, /pageId/],
      ['pageId a%20b', 'a%20b', 'v1', { rating: 'good' }, /pageId/],
    ];
    for (const [name, pageId, visitorId, payload, message] of badRequests) {
      assert.match(
        expectError(await rate(s.spaceId, pageId, visitorId, payload), 400),
        message,
        name,
      );
    }
    for (const [pageId, visitorId] of [
      ['a.b', 'v1'],
      [s.intro, 'a%20b'],
    ] as const) {
      expectError(
        await t.request({ method: 'GET', url: feedbackUrl(s.spaceId, pageId, visitorId) }),
        400,
      );
    }

    const missing: [string, string][] = [
      ['unknown page', 'nopage'],
      ['group page', s.guides],
      ['link page (top level)', s.external],
      ['link page (in a group)', s.elsewhere],
    ];
    for (const [name, pageId] of missing) {
      const message = expectError(await rate(s.spaceId, pageId, 'v1', { rating: 'good' }), 404);
      assert.match(message, new RegExp(pageId), name);
    }
    // A page that exists only in an open change request is not in the current revision.
    const cr = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${s.spaceId}/change-requests`,
        payload: {},
      }),
      201,
    ).id as string;
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${s.spaceId}/change-requests/${cr}/content`,
        payload: {
          changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Draft' } }],
        },
      }),
      200,
    );
    const draftPages = expectStatus(
      await t.request({
        method: 'GET',
        url: `/v1/spaces/${s.spaceId}/change-requests/${cr}/content/pages`,
      }),
      200,
    ) as { pages: ListedPage[] };
    const draft = byTitle(draftPages.pages, 'Draft').id;
    assert.match(
      expectError(await rate(s.spaceId, draft, 'v1', { rating: 'good' }), 404),
      new RegExp(draft),
    );
    expectError(await trackView(s.spaceId, { pageId: draft }), 404);

    const unknownSpace = await t.request({
      method: 'PUT',
      url: feedbackUrl('nospace', s.intro, 'v1'),
      payload: { rating: 'good' },
    });
    assert.match(expectError(unknownSpace, 404), /nospace/);
    expectError(
      await t.request({ method: 'GET', url: feedbackUrl('nospace', s.intro, 'kept') }),
      404,
    );

    assert.deepEqual(await analytics(s.spaceId), numbers, 'the insights numbers did not move');
    assert.deepEqual(await storedRows(s.spaceId), rows, 'no row was written');
  });

  test('track_view: unknown or non-document page is a 404; a bad body is a 400; nothing is counted', async () => {
    const s = await spaceWithTree(t);
    const numbers = await analytics(s.spaceId);
    const rows = await storedRows(s.spaceId);
    for (const pageId of ['nopage', s.guides, s.external, s.elsewhere]) {
      assert.match(expectError(await trackView(s.spaceId, { pageId }), 404), new RegExp(pageId));
    }
    expectError(await trackView('nospace', { pageId: s.intro }), 404);
    const bodies: [unknown, RegExp][] = [
      [{}, /pageId/],
      [{ visitorId: 'v1' }, /pageId/],
      [{ pageId: s.intro, extra: true }, /extra|additional/],
      [{ pageId: 'a.b' }, /pageId/],
      [{ pageId: s.intro, visitorId: 'a b' }, /visitorId/],
      [{ pageId: s.intro, visitor: { cookies: {} } }, /anonymousId/],
      [{ pageId: s.intro, visitor: { anonymousId: 'a.b' } }, /anonymousId/],
      [{ pageId: s.intro, visitor: { anonymousId: 'x', other: 1 } }, /other|additional/],
      [{ pageId: s.intro, url: 42 }, /url/],
    ];
    for (const [payload, message] of bodies) {
      const response = await trackView(s.spaceId, payload);
      assert.match(expectError(response, 400), message, JSON.stringify(payload));
    }
    assert.deepEqual(await analytics(s.spaceId), numbers);
    assert.deepEqual(await storedRows(s.spaceId), rows);
  });
});

describe('trackViewInSpaceById', () => {
  test('{pageId}, {pageId, visitorId} and GitBook 0.91’s visitor form each count one view (204)', async () => {
    const s = await spaceWithTree(t);
    const plain = await trackView(s.spaceId, { pageId: s.child });
    assert.equal(plain.statusCode, 204, plain.body);
    assert.equal(plain.body, '');
    expectStatus(await trackView(s.spaceId, { pageId: s.child, visitorId: 'visitor-9' }), 204);
    expectStatus(
      await trackView(s.spaceId, {
        pageId: s.child,
        visitor: { anonymousId: 'anon-1', cookies: {}, userAgent: 'x' },
        url: 'https://docs.example.test/intro/child',
        referrer: 'https://search.example.test/',
      }),
      204,
    );
    expectStatus(await trackView(s.spaceId, { pageId: s.install }), 204);

    const entries = await analytics(s.spaceId);
    assert.equal(entryOf(entries, s.child).pageViews, 3);
    assert.equal(entryOf(entries, s.install).pageViews, 1);
    assert.equal(entryOf(entries, s.intro).pageViews, 0, 'a child’s views are not its parent’s');
    const days = await t.db
      .selectFrom('page_view_days')
      .selectAll()
      .where('space_id', '=', s.spaceId)
      .where('page_id', '=', s.child)
      .execute();
    assert.deepEqual(
      days.map((row) => ({ day: row.day, views: Number(row.views) })),
      [{ day: new Date().toISOString().slice(0, 10), views: 3 }],
      'views are counted per page and day; no visitor id is stored',
    );
  });
});

describe('getContentAnalyticsForSpaceById', () => {
  test('every document page of the current revision, in reading order, groups and links excluded', async () => {
    const s = await spaceWithTree(t);
    const entries = await analytics(s.spaceId);
    assert.deepEqual(
      entries.map((e) => e.page.title),
      ['Intro', 'Child', 'Install', 'Last'],
    );
    const listed = flatten(s.pages);
    for (const entry of entries) {
      const page = listed.find((p) => p.id === entry.page.id);
      assert.ok(page);
      assert.equal(page.type, 'document');
      assert.deepEqual(entry.page, { ...page, pages: [] }, `${page.title}: the listed page`);
      assert.equal(entry.pageViews, 0);
      assert.deepEqual(entry.feedbacks, NO_RATINGS);
    }
    assert.equal(byTitle(s.pages, 'Install').path, 'guides/install');
    assert.equal(entryOf(entries, s.install).page.path, 'guides/install');

    // A page deleted by a merge leaves the analytics; one added appears in its place in order.
    expectStatus(await trackView(s.spaceId, { pageId: s.last }), 204);
    const pages = await publishChanges(t, s.spaceId, [
      { operation: 'delete_page', page: s.last },
      { operation: 'insert_page', title: 'First', at: 0, document: { markdown: 'First' } },
    ]);
    const after = await analytics(s.spaceId);
    assert.deepEqual(
      after.map((e) => e.page.title),
      ['First', 'Intro', 'Child', 'Install'],
    );
    assert.equal(entryOf(after, byTitle(pages, 'First').id).pageViews, 0);
    // The page is gone from the revision, so its views and ratings can no longer be recorded.
    expectError(await trackView(s.spaceId, { pageId: s.last }), 404);
  });

  test('scores: (good − 0.5·ok − 2·bad) / total, rating by its sign, ponderedScore = score × total', async () => {
    const spaceId = await newSpace(t, 'Scores');
    const rows: { title: string; ratings: string[]; expected: Scores }[] = [
      { title: 'Unrated', ratings: [], expected: NO_RATINGS },
      {
        title: 'Mixed',
        ratings: ['good', 'ok', 'bad'],
        expected: {
          score: -0.5,
          total: 3,
          rating: 'bad',
          ponderedScore: -1.5,
          bad: 1,
          ok: 1,
          good: 1,
        },
      },
      {
        title: 'Balanced',
        ratings: ['good', 'good', 'bad'],
        expected: { score: 0, total: 3, rating: 'ok', ponderedScore: 0, bad: 1, ok: 0, good: 2 },
      },
      {
        title: 'Shrugged',
        ratings: ['good', 'ok', 'ok'],
        expected: { score: 0, total: 3, rating: 'ok', ponderedScore: 0, bad: 0, ok: 2, good: 1 },
      },
      {
        title: 'Liked',
        ratings: ['good'],
        expected: { score: 1, total: 1, rating: 'good', ponderedScore: 1, bad: 0, ok: 0, good: 1 },
      },
      {
        title: 'Lukewarm',
        ratings: ['ok', 'ok'],
        expected: {
          score: -0.5,
          total: 2,
          rating: 'bad',
          ponderedScore: -1,
          bad: 0,
          ok: 2,
          good: 0,
        },
      },
      {
        title: 'Mostly liked',
        ratings: ['good', 'good', 'good', 'ok', 'ok'],
        expected: {
          score: 0.4,
          total: 5,
          rating: 'good',
          ponderedScore: 2,
          bad: 0,
          ok: 2,
          good: 3,
        },
      },
    ];
    const pages = await publishChanges(
      t,
      spaceId,
      rows.map(({ title }) => ({ operation: 'insert_page', title, document: { markdown: title } })),
    );
    for (const { title, ratings } of rows) {
      const pageId = byTitle(pages, title).id;
      for (const [i, rating] of ratings.entries()) {
        expectStatus(await rate(spaceId, pageId, `visitor-${i}`, { rating }), 201);
      }
    }
    const entries = await analytics(spaceId);
    assert.deepEqual(
      entries.map((e) => e.page.title),
      rows.map((r) => r.title),
    );
    for (const { title, expected } of rows) {
      const { feedbacks } = entryOf(entries, byTitle(pages, title).id);
      assert.deepEqual(feedbacks, expected, title);
      const sum = feedbacks.good - 0.5 * feedbacks.ok - 2 * feedbacks.bad;
      assert.equal(feedbacks.score, feedbacks.total === 0 ? 0 : sum / feedbacks.total, title);
    }

    // A visitor changing their rating replaces it: the total stays, the counts move.
    const mixed = byTitle(pages, 'Mixed').id;
    expectStatus(await rate(spaceId, mixed, 'visitor-2', { rating: 'good' }), 200); // bad → good
    assert.deepEqual(entryOf(await analytics(spaceId), mixed).feedbacks, {
      score: 0.5,
      total: 3,
      rating: 'good',
      ponderedScore: 1.5,
      bad: 0,
      ok: 1,
      good: 2,
    });
  });

  test('an unknown space is a 404', async () => {
    const message = expectError(
      await t.request({ method: 'GET', url: '/v1/spaces/nospace/insights/content' }),
      404,
    );
    assert.match(message, /nospace/);
  });
});

describe('site-space form: createSitesPageFeedback, getContentAnalyticsForSiteSpaceById', () => {
  const PERIODS = ['last_week', 'last_month', 'last_year'] as const;

  async function siteShowing(spaceId: string) {
    const site = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { title: 'Insights docs' },
    });
    const siteId = expectStatus(site, 201).id as string;
    const base = `/v1/orgs/${t.orgId}/sites/${siteId}`;
    const added = await t.request({
      method: 'POST',
      url: `${base}/site-spaces`,
      payload: { spaceId },
    });
    const siteSpaceId = expectStatus(added, 201).id as string;
    return { siteId, siteSpaceId, base, siteSpace: `${base}/site-spaces/${siteSpaceId}` };
  }
  const siteAnalytics = async (siteSpace: string, period?: string) =>
    (
      expectStatus(
        await t.request({
          method: 'GET',
          url: `${siteSpace}/insights/content${period === undefined ? '' : `?period=${period}`}`,
        }),
        200,
      ) as { pages: Entry[] }
    ).pages;

  test('a rating through the site-space is the space’s; every period includes it', async () => {
    const s = await spaceWithTree(t);
    const site = await siteShowing(s.spaceId);
    const url = `${site.siteSpace}/insights/pages/${s.intro}/feedbacks/site-visitor`;

    const first = await t.request({ method: 'PUT', url, payload: { rating: 'good' } });
    const created = expectStatus(first, 201) as Feedback;
    assert.equal(first.headers.location, created.urls.location);
    assert.equal(
      created.urls.location,
      `http://livery.test${feedbackUrl(s.spaceId, s.intro, 'site-visitor')}`,
    );
    assert.equal(created.object, 'page-feedback');
    assert.equal(created.revision, await currentRevision(s.spaceId));
    const replaced = await t.request({ method: 'PUT', url, payload: { rating: 'ok' } });
    assert.equal((expectStatus(replaced, 200) as Feedback).rating, 'ok');
    const read = await t.request({
      method: 'GET',
      url: feedbackUrl(s.spaceId, s.intro, 'site-visitor'),
    });
    assert.equal((expectStatus(read, 200) as Feedback).rating, 'ok');

    const spaceWide = await analytics(s.spaceId);
    assert.deepEqual(await siteAnalytics(site.siteSpace), spaceWide, 'no period: all time');
    for (const period of PERIODS) {
      const entries = await siteAnalytics(site.siteSpace, period);
      assert.deepEqual(
        entries.map((e) => e.page.title),
        ['Intro', 'Child', 'Install', 'Last'],
        period,
      );
      const intro = entryOf(entries, s.intro).feedbacks;
      assert.deepEqual([intro.total, intro.ok], [1, 1], period);
    }
  });

  test('bad period, unknown site-space or site, bad ids, non-document pages', async () => {
    const s = await spaceWithTree(t);
    const site = await siteShowing(s.spaceId);
    const numbers = await analytics(s.spaceId);
    const rows = await storedRows(s.spaceId);
    for (const period of ['yesterday', 'LAST_WEEK', '']) {
      const message = expectError(
        await t.request({
          method: 'GET',
          url: `${site.siteSpace}/insights/content?period=${period}`,
        }),
        400,
      );
      assert.match(message, /period/, period);
    }
    const unknownSiteSpace = `${site.base}/site-spaces/sitesp_unknown`;
    assert.match(
      expectError(
        await t.request({ method: 'GET', url: `${unknownSiteSpace}/insights/content` }),
        404,
      ),
      /sitesp_unknown/,
    );
    expectError(
      await t.request({
        method: 'PUT',
        url: `${unknownSiteSpace}/insights/pages/${s.intro}/feedbacks/v1`,
        payload: { rating: 'good' },
      }),
      404,
    );
    expectError(
      await t.request({
        method: 'GET',
        url: `/v1/orgs/${t.orgId}/sites/site_nope/site-spaces/${site.siteSpaceId}/insights/content`,
      }),
      404,
    );
    const put = (pageId: string, visitorId: string, payload: unknown) =>
      t.request({
        method: 'PUT',
        url: `${site.siteSpace}/insights/pages/${pageId}/feedbacks/${visitorId}`,
        payload: payload as object,
      });
    expectError(await put(s.intro, 'a.b', { rating: 'good' }), 400);
    expectError(await put('a%20b', 'v1', { rating: 'good' }), 400);
    assert.match(expectError(await put(s.intro, 'v1', { rating: 'great' }), 400), /rating/);
    expectError(await put(s.guides, 'v1', { rating: 'good' }), 404);
    expectError(await put(s.external, 'v1', { rating: 'good' }), 404);
    expectError(await put('nopage', 'v1', { rating: 'good' }), 404);
    assert.deepEqual(await analytics(s.spaceId), numbers);
    assert.deepEqual(await storedRows(s.spaceId), rows);
  });

  test('period counts only the views and ratings of that period', async () => {
    const s = await spaceWithTree(t);
    const site = await siteShowing(s.spaceId);
    // One live view and one live rating, then older ones straight into the tables, each at
    // least a day from a boundary: 7 days (week), 30 days (month), 365 days (year).
    expectStatus(await trackView(s.spaceId, { pageId: s.intro, visitorId: 'now' }), 204);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${site.siteSpace}/insights/pages/${s.intro}/feedbacks/now`,
        payload: { rating: 'good' },
      }),
      201,
    );
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const revision = await currentRevision(s.spaceId);
    const dayAgo = (days: number) => daysAgo(days).slice(0, 10);
    for (const days of [6, 8, 29, 31, 364, 375]) {
      await t.db
        .insertInto('page_view_days')
        .values({ space_id: s.spaceId, page_id: s.intro, day: dayAgo(days), views: 1 })
        .execute();
    }
    const oldRatings: [number, 'good' | 'ok' | 'bad'][] = [
      [6, 'good'],
      [8, 'ok'],
      [31, 'bad'],
      [375, 'bad'],
    ];
    for (const [days, rating] of oldRatings) {
      await t.db
        .insertInto('page_feedbacks')
        .values({
          space_id: s.spaceId,
          page_id: s.intro,
          visitor_id: `old-${days}`,
          rating,
          revision_id: revision,
          created_at: daysAgo(days),
          updated_at: daysAgo(days),
        })
        .execute();
    }
    const expected: [string | undefined, number, [number, number, number]][] = [
      // period, views, [good, ok, bad]
      ['last_week', 2, [2, 0, 0]],
      ['last_month', 4, [2, 1, 0]],
      ['last_year', 6, [2, 1, 1]],
      [undefined, 7, [2, 1, 2]],
    ];
    for (const [period, views, [good, ok, bad]] of expected) {
      const intro = entryOf(await siteAnalytics(site.siteSpace, period), s.intro);
      assert.equal(intro.pageViews, views, `${period ?? 'all time'}: views`);
      const { feedbacks } = intro;
      assert.deepEqual(
        [feedbacks.good, feedbacks.ok, feedbacks.bad, feedbacks.total],
        [good, ok, bad, good + ok + bad],
        `${period ?? 'all time'}: ratings`,
      );
      // Other pages had nothing in any period.
      assert.equal(entryOf(await siteAnalytics(site.siteSpace, period), s.child).pageViews, 0);
    }
    const allTime = entryOf(await analytics(s.spaceId), s.intro);
    assert.equal(allTime.pageViews, 7, 'the space form is all time');
    assert.equal(allTime.feedbacks.total, 5);
  });
});

describe('GitBook 0.91’s official client', () => {
  test('createPageFeedback (201, then 200), getPageFeedback, trackViewInSpaceById, content analytics, createSitesPageFeedback', async () => {
    const s = await spaceWithTree(t);
    const api = await listenWith091(t);

    const first = await api.spaces.createPageFeedback(s.spaceId, s.intro, 'client-visitor', {
      rating: PageFeedbackRating.Good,
    });
    assert.equal(first.status, 201);
    assert.equal(first.data.object, 'page-feedback');
    assert.equal(first.data.rating, 'good');
    assert.equal(first.data.revision, await currentRevision(s.spaceId));
    assert.equal(first.headers.get('location'), first.data.urls.location);
    const second = await api.spaces.createPageFeedback(s.spaceId, s.intro, 'client-visitor', {
      rating: PageFeedbackRating.Bad,
    });
    assert.equal(second.status, 200);
    assert.equal(second.data.rating, 'bad');
    const read = await api.spaces.getPageFeedback(s.spaceId, s.intro, 'client-visitor');
    assert.deepEqual(read.data, second.data);
    const missing = await clientFailure091(
      api.spaces.getPageFeedback(s.spaceId, s.intro, 'someone-else'),
    );
    assert.equal(missing.code, 404);

    const tracked = await api.spaces.trackViewInSpaceById(s.spaceId, {
      pageId: s.intro,
      visitor: { anonymousId: 'anon-client', cookies: {}, userAgent: 'x' },
      url: 'https://docs.example.test/intro',
      referrer: '',
    });
    assert.equal(tracked.status, 204);
    const unknownPage = await clientFailure091(
      api.spaces.trackViewInSpaceById(s.spaceId, {
        pageId: 'nopage',
        visitor: { anonymousId: 'anon-client', cookies: {}, userAgent: 'x' },
        url: 'https://docs.example.test/nopage',
        referrer: '',
      }),
    );
    assert.equal(unknownPage.code, 404);

    const space = await api.spaces.getContentAnalyticsForSpaceById(s.spaceId);
    assert.deepEqual(
      space.data.pages.map((entry) => entry.page.title),
      ['Intro', 'Child', 'Install', 'Last'],
    );
    const intro = space.data.pages[0];
    assert.equal(intro?.pageViews, 1);
    assert.deepEqual(intro?.feedbacks, {
      score: -2,
      total: 1,
      rating: 'bad',
      ponderedScore: -2,
      bad: 1,
      ok: 0,
      good: 0,
    });

    const site = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Client docs', spaces: [s.spaceId] },
      }),
      201,
    );
    const siteId = site.id as string;
    const siteSpaces = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites/${siteId}/site-spaces` }),
      200,
    ) as { items: { id: string }[] };
    const siteSpaceId = siteSpaces.items[0]?.id;
    assert.ok(siteSpaceId);

    const bySite = await api.orgs.createSitesPageFeedback(
      t.orgId,
      siteId,
      siteSpaceId,
      s.install,
      'client-visitor',
      { rating: PageFeedbackRating.Ok },
    );
    assert.equal(bySite.status, 201);
    assert.equal(bySite.data.rating, 'ok');
    const again = await api.orgs.createSitesPageFeedback(
      t.orgId,
      siteId,
      siteSpaceId,
      s.install,
      'client-visitor',
      { rating: PageFeedbackRating.Good },
    );
    assert.equal(again.status, 200);

    for (const period of [
      AnalyticsSearchPeriod.LastWeek,
      AnalyticsSearchPeriod.LastMonth,
      AnalyticsSearchPeriod.LastYear,
    ]) {
      const answer = await api.orgs.getContentAnalyticsForSiteSpaceById(
        t.orgId,
        siteId,
        siteSpaceId,
        { period },
      );
      const install = answer.data.pages.find((entry) => entry.page.id === s.install);
      assert.equal(install?.feedbacks?.good, 1, period);
      assert.equal(install?.feedbacks?.total, 1, period);
      assert.equal(answer.data.pages.find((e) => e.page.id === s.intro)?.pageViews, 1, period);
    }
    const unknown = await clientFailure091(
      api.orgs.getContentAnalyticsForSiteSpaceById(t.orgId, siteId, 'sitesp_unknown'),
    );
    assert.equal(unknown.code, 404);
  });
});
