/**
 * The published site's search box in Chromium (docs/search.md): typing shows the pages whose
 * text matches, each with its best section, linked to `page#anchor`; Enter opens the first
 * result; Escape closes the list; readable on a bold header.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { expectStatus } from '../helpers/app.js';
import {
  type BrowserSuite,
  publishedSite,
  startBrowserSuite,
} from '../helpers/published-browser.js';

let s: BrowserSuite;
before(async () => {
  s = await startBrowserSuite();
  const site = await publishedSite(s.t, {
    basename: 'findable',
    pages: [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello, reader.' } },
      {
        operation: 'insert_page',
        title: 'Operations',
        document: { markdown: 'Day to day.\n\n## Backups\n\nSnapshots run nightly at two.' },
      },
    ],
  });
  const settings = { styling: { theme: 'bold' } };
  const url = `${site.base}/customization`;
  expectStatus(await s.t.request({ method: 'PUT', url, payload: settings }), 200);
});
after(async () => s?.close());

test('typing finds text in page bodies; results link to the section; Enter opens the first', async () => {
  const page = await s.page();
  await page.goto(`${s.origin}/s/findable/welcome`);
  await page.fill('.search input', 'snapsh');
  const result = page.locator('.search-results .search-result').first();
  await result.waitFor();
  assert.equal(await result.locator('.search-result-title').textContent(), 'Operations');
  assert.equal(await result.locator('.search-result-heading').textContent(), 'Backups');
  assert.equal(
    await result.locator('.search-result-body').textContent(),
    'Snapshots run nightly at two.',
  );
  const href = await result.locator('a.search-result-section').getAttribute('href');
  assert.equal(href, '/s/findable/operations#backups');
  // The list sits on the page background, not the bold header's primary color.
  const color = await result
    .locator('.search-result-title')
    .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).color);
  const background = await page
    .locator('.search-results')
    .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor);
  assert.notEqual(color, background);

  await page.fill('.search input', 'nothing like this');
  await page.locator('.search-empty').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.search-results').isHidden(), true);

  await page.fill('.search input', 'backups');
  await page.locator('.search-results .search-result').first().waitFor();
  await page.press('.search input', 'Enter');
  await page.waitForURL(`${s.origin}/s/findable/operations`);
  assert.equal(await page.locator('h2#backups').count(), 1);
  assert.deepEqual(s.external, []);
});
