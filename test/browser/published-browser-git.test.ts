import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import { TestRepo } from '../helpers/git-repo.js';
import {
  type BrowserSuite,
  publishedSite,
  startBrowserSuite,
} from '../helpers/published-browser.js';

/**
 * A page imported from a GitBook-format repository (issue 27), in Chromium: tabs switch,
 * the expandable expands, steps are numbered, cards are tiles that link, the formula is typeset,
 * images load from the revision's files, the include is rendered in place, and no `{% … %}` is
 * left anywhere. The repository is test/helpers/gitbook-blocks (written for these tests),
 * committed with `git` by the test. Screenshot in test-results/; LIVERY_UPDATE_SCREENSHOTS=1
 * refreshes docs/images/published-git-blocks.png.
 */
const repo = new TestRepo();
let s: BrowserSuite;
let url: string;

before(async () => {
  s = await startBrowserSuite({ GIT_LOCAL_DIRS: repo.root, GIT_CACHE_DIR: `${repo.root}/.cache` });
  cpSync(new URL('../helpers/gitbook-blocks/', import.meta.url), repo.dir, { recursive: true });
  repo.commit({}, 'Field guide');
  const site = await publishedSite(s.t, { basename: 'field' });
  const space = `/v1/spaces/${site.spaceId}`;
  expectStatus(
    await s.t.request({
      method: 'POST',
      url: `${space}/git/import`,
      payload: { url: `file://${repo.dir}`, ref: 'main' },
    }),
    204,
  );
  for (let i = 0; ; i++) {
    const info = expectStatus(await s.t.request({ url: `${space}/git/info` }), 200);
    const state = (info.operation as { state: string }).state;
    if (state === 'success') break;
    assert.ok(state === 'running' && i < 400, JSON.stringify(info));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  url = `${s.origin}/s/field/`;
});
after(async () => {
  await s.close();
  repo.dispose();
});

// biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees, not hidden panels'
const visibleText = (page: Page, selector: string) => page.locator(selector).first().innerText();

test('an imported page of blocks works as a reader expects (screenshot)', async () => {
  const page = await s.page();
  const response = await page.goto(url);
  assert.equal(response?.status(), 200);
  // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees, not hidden panels'
  const body = await page.locator('main').innerText();
  assert.doesNotMatch(body, /\{%/, 'no template tag is left in the page');
  assert.doesNotMatch(body, /description:|title: Safety/, 'front matter is not content');
  assert.equal(await page.locator('main h1').count(), 1, 'the title once');
  assert.doesNotMatch(await page.content(), /\{%\s*(hint|tabs|tab|stepper|step|include)\b/);

  // Tabs: the first panel shows; a click on the second shows it instead.
  assert.match(body, /brew install field-guide/);
  await page.getByText('Linux', { exact: true }).first().click();
  assert.ok(await page.getByText('apt-get install field-guide').first().isVisible());
  assert.ok(!(await page.getByText('brew install field-guide').first().isVisible()));

  // The expandable: closed, then open.
  const hidden = page.getByText('Take the covered path.').first();
  assert.ok(!(await hidden.isVisible()));
  await page.getByText('What if it rains?').first().click();
  assert.ok(await hidden.isVisible());

  // Steps are numbered, in order.
  const steps = page.locator('.stepper li, .stepper .step, [class*="step"] h3');
  assert.ok((await steps.count()) >= 3, 'three steps');
  assert.match(body, /Clone the repository[\s\S]*Write a page[\s\S]*Import it/);

  // Cards: tiles linking to their pages, with their cover images.
  const cards = page.locator('a[href$="/trails"], a[href$="/birds"]');
  assert.ok((await cards.count()) >= 2, 'the cards link to their pages');

  // The formula is typeset (KaTeX), not shown as TeX.
  assert.ok((await page.locator('.katex').count()) >= 1, 'KaTeX markup');
  assert.doesNotMatch(body, /\\sum_/);

  // Images come from the revision's files, and load.
  const images = page.locator('main img');
  assert.ok((await images.count()) >= 1);
  for (const image of await images.all()) {
    const src = (await image.getAttribute('src')) ?? '';
    if (!src.includes('@livery/files/')) continue;
    const loaded = await image.evaluate(
      (el) => (el as unknown as { naturalWidth: number }).naturalWidth,
    );
    assert.ok(loaded > 0, `${src} loads`);
  }
  assert.match(await visibleText(page, 'main'), /The northern loop\./);

  // The include, in place.
  assert.match(body, /Stay on marked trails\./);

  assert.deepEqual(s.external, [], 'nothing leaves the machine');
  mkdirSync('test-results', { recursive: true });
  await page.getByText('macOS', { exact: true }).first().click();
  await page.screenshot({ path: 'test-results/published-git-blocks.png', fullPage: true });
  if (process.env.LIVERY_UPDATE_SCREENSHOTS === '1') {
    copyFileSync('test-results/published-git-blocks.png', 'docs/images/published-git-blocks.png');
  }
});

test('a relative link of an imported page leads to the page', async () => {
  const page = await s.page();
  await page.goto(`${url}trails`);
  await page.getByText('field guide').first().click();
  await page.waitForURL(/\/s\/field\/?$|\/s\/field\/field-guide$/);
  // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees, not hidden panels'
  assert.match(await page.locator('main').innerText(), /Livery imports this page/);
});
