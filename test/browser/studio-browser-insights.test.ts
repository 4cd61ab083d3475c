import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import {
  type StudioSite,
  type StudioSuite,
  screenshot,
  signInAndOpen,
  startStudioSuite,
  studioSite,
  until,
} from '../helpers/studio-browser.js';

/**
 * Site analytics in Chromium (issue 30, docs/insights.md): a reader opens a published page and
 * searches it; the studio's insights screen then counts that page view, plots it, and lists the
 * search among the top searches.
 */
let s: StudioSuite;
let site: StudioSite;

before(async () => {
  s = await startStudioSuite();
  site = await studioSite(s.t, 'analytics');
  // An emoji favicon: without one the reader's browser asks for /favicon.ico, a 404.
  const favicon = await s.t.request({
    method: 'PUT',
    url: `${site.base}/customization`,
    payload: { favicon: { emoji: '📊' } },
  });
  assert.equal(favicon.statusCode, 200, favicon.body);
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

test('a page view and a search on the published site show in the studio', async () => {
  const reader = await s.page();
  await reader.goto(`/s/${site.basename}/`);
  await reader.getByRole('heading', { name: 'Welcome' }).first().waitFor();
  const box = reader.locator('.search input');
  await box.fill('details');
  await reader.locator('.search-result').first().waitFor();
  // The query is reported once the reader pauses (a second); then they leave the box.
  await reader.waitForTimeout(1500);

  const page = await s.page();
  await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${site.siteId}/insights`);
  await page.getByTestId('insights').waitFor();
  const views = await until('the page view counted', async () => {
    await page.getByTestId('insights-refresh').click();
    const text = await page.getByTestId('insights-views').textContent({ timeout: 2_000 });
    return Number(text) >= 1 ? Number(text) : undefined;
  });
  assert.equal(views, 1);
  const bars = await page.locator('[data-testid=insights-plot] rect[data-count="1"]').count();
  assert.equal(bars, 1, 'one bar of one view: today');
  const searches = await until('the search listed', async () => {
    await page.getByTestId('insights-refresh').click();
    const list = page.getByTestId('insights-searches');
    return (await list.count()) > 0 ? await list.textContent() : undefined;
  });
  assert.match(searches ?? '', /details/);
  await page.getByTestId('insights-range').selectOption('last24Hours');
  await page.getByTestId('insights-plot').waitFor();
  await screenshot(page, 'studio-insights');
});
