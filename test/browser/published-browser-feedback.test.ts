import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import { byTitle } from '../helpers/insights.js';
import {
  type BrowserSuite,
  type PublishedFixture,
  publishedSite,
  startBrowserSuite,
} from '../helpers/published-browser.js';

/**
 * The page script's reports, from a real browser to content insights (issue 7): the feedback
 * widget rates the page (one rating per visitor, replaced when they change their mind) and each
 * page load counts a view. The insights API is the proof, not the widget's own state.
 */
let s: BrowserSuite;
let site: PublishedFixture;
before(async () => {
  s = await startBrowserSuite();
  site = await publishedSite(s.t, { basename: 'rated', spaceTitle: 'Rated docs' });
  expectStatus(
    await s.t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { feedback: { enabled: true } },
    }),
    200,
  );
});
after(async () => s?.close());

type Entry = {
  page: { id: string };
  pageViews: number;
  feedbacks: { score: number; total: number; good: number; ok: number; bad: number };
};
async function insightsOf(pageId: string): Promise<Entry> {
  const response = await s.t.request({
    method: 'GET',
    url: `/v1/spaces/${site.spaceId}/insights/content`,
  });
  const entry = (expectStatus(response, 200).pages as Entry[]).find((e) => e.page.id === pageId);
  assert.ok(entry, `an insights entry for ${pageId}`);
  return entry;
}

const reported = (page: Page, what: 'view' | 'feedback') =>
  page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith(`/s/rated/@livery/${what}`),
    { timeout: 30_000 },
  );

/** Clicks a rating button and answers the status of the report it sent. */
async function rate(page: Page, rating: 'good' | 'ok' | 'bad'): Promise<number> {
  const sent = reported(page, 'feedback');
  await page.click(`.feedback button[data-rating="${rating}"]`);
  const status = (await sent).status();
  await page.waitForSelector(`.feedback button[data-rating="${rating}"][aria-pressed="true"]`, {
    timeout: 30_000,
  });
  return status;
}
const pressed = (page: Page) =>
  page
    .locator('.feedback button[data-rating]')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-pressed')));

test('loading a page counts one view per load', async () => {
  const welcome = byTitle(site.pages, 'Welcome').id;
  const before = (await insightsOf(welcome)).pageViews;
  const page = await s.page();
  const first = reported(page, 'view');
  await page.goto(`${s.origin}/s/rated/`);
  assert.equal((await first).status(), 204);
  assert.equal((await insightsOf(welcome)).pageViews, before + 1);
  const second = reported(page, 'view');
  await page.reload();
  assert.equal((await second).status(), 204);
  assert.equal((await insightsOf(welcome)).pageViews, before + 2);
});

test('a rating from the widget reaches insights; changing it replaces it (one visitor, one rating)', async () => {
  const details = byTitle(site.pages, 'Details').id;
  assert.equal((await insightsOf(details)).feedbacks.total, 0);
  const page = await s.page();
  await page.goto(`${s.origin}/s/rated/details`);
  await page.waitForSelector('.feedback button[data-rating="good"]', { timeout: 30_000 });
  assert.equal(await page.locator('.feedback .thanks').isVisible(), false);

  assert.equal(await rate(page, 'good'), 201, 'a new rating');
  await page.locator('.feedback .thanks').waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(
    await page.locator('.feedback .thanks').textContent(),
    'Thank you for your feedback!',
  );
  assert.deepEqual(await pressed(page), ['true', 'false', 'false']);
  const good = (await insightsOf(details)).feedbacks;
  assert.deepEqual([good.total, good.good, good.ok, good.bad], [1, 1, 0, 0]);

  assert.equal(await rate(page, 'bad'), 200, 'the same visitor’s rating, replaced');
  assert.deepEqual(await pressed(page), ['false', 'false', 'true']);
  const bad = (await insightsOf(details)).feedbacks;
  assert.deepEqual([bad.total, bad.good, bad.ok, bad.bad], [1, 0, 0, 1]);
  assert.notEqual(bad.score, good.score, 'the score follows the new rating');

  // The visitor is the tracking cookie the page set: its rating is stored under that id.
  const cookie = (await page.context().cookies()).find((c) => c.name === 'livery_vid');
  assert.ok(cookie, 'the tracking cookie');
  const stored = await s.t.request({
    method: 'GET',
    url: `/v1/spaces/${site.spaceId}/pages/${details}/feedbacks/${cookie.value}`,
  });
  assert.equal(expectStatus(stored, 200).rating, 'bad');

  const other = await s.page();
  await other.goto(`${s.origin}/s/rated/details`);
  await other.waitForSelector('.feedback button[data-rating="ok"]', { timeout: 30_000 });
  assert.equal(await rate(other, 'ok'), 201, 'another visitor');
  const both = (await insightsOf(details)).feedbacks;
  assert.deepEqual([both.total, both.good, both.ok, both.bad], [2, 0, 1, 1]);
});

test('a site without feedback.enabled shows no widget', async () => {
  await publishedSite(s.t, { basename: 'quiet', spaceTitle: 'Quiet docs' });
  const page = await s.page();
  await page.goto(`${s.origin}/s/quiet/`);
  await page.waitForSelector('main h1', { timeout: 30_000 });
  assert.equal(await page.locator('.feedback').count(), 0);
});

test('no request of any page above left 127.0.0.1', () => {
  assert.ok(s.requests.count > 10, `pages made requests (${s.requests.count})`);
  assert.deepEqual(s.external, []);
});
