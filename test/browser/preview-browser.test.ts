import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { type PreviewProcess, SITE_FILES, startPreview, writeFiles } from '../helpers/preview.js';

/**
 * `livery preview` in Chromium (docs/preview.md): the test opens the preview, saves a file, and
 * the open page shows the new text by itself (the test never reloads it); a folder problem shows
 * as the banner; a docs.yaml folder shows its section tabs, and an edit in a section shows in
 * the open page. Screenshots in test-results/; LIVERY_UPDATE_SCREENSHOTS=1 refreshes
 * docs/images/preview-live.png and docs/images/preview-sections.png.
 */
let parent: string;
let folder: string;
let siteFolder: string;
let preview: PreviewProcess;
let sitePreview: PreviewProcess;
let browser: Browser;

before(async () => {
  // A folder named as a reader's would be: the site's title is its name.
  parent = mkdtempSync(join(tmpdir(), 'livery-preview-browser-'));
  folder = join(parent, 'Handbook');
  writeFiles(folder, {
    'README.md': '# Handbook\n\nWelcome to the handbook.\n',
    'SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n* [Setup](setup.md)\n',
    'setup.md': '# Setup\n\nInstall the tools first.\n',
  });
  siteFolder = join(parent, 'acme-docs');
  writeFiles(siteFolder, SITE_FILES);
  [preview, sitePreview] = await Promise.all([startPreview(folder), startPreview(siteFolder)]);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await preview?.stop();
  await sitePreview?.stop();
  rmSync(parent, { recursive: true, force: true });
});

test('a saved file shows in the open page without a manual reload; problems as a banner', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // Failed loads are checked by address below.
    if (message.type() === 'error' && !/^Failed to load resource/.test(message.text()))
      problems.push(message.text());
  });
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400)
      failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${preview.url}/`);
  await page.getByRole('link', { name: 'Setup' }).first().click();
  await page.waitForURL(/:\d+\/setup$/);
  await page.getByText('Install the tools first.').waitFor();

  writeFiles(folder, { 'setup.md': '# Setup\n\nInstall the tools, then run the checks.\n' });
  // No page.reload(): the preview's script does it when the events stream says so.
  await page.getByText('Install the tools, then run the checks.').waitFor({ timeout: 30_000 });
  assert.match(page.url(), /:\d+\/setup$/, 'the same page, updated');

  // A summary entry to a missing file: the banner appears by itself, the page stays.
  writeFiles(folder, {
    'SUMMARY.md':
      '# Table of contents\n\n* [Handbook](README.md)\n* [Setup](setup.md)\n* [Deploy](deploy.md)\n',
  });
  const banner = page.locator('#livery-preview-banner');
  await banner.waitFor({ timeout: 30_000 });
  assert.match((await banner.textContent()) ?? '', /SUMMARY\.md:5/);
  assert.match((await banner.textContent()) ?? '', /"deploy\.md" does not exist/);
  await page.getByText('Install the tools, then run the checks.').waitFor();

  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/preview-live.png', fullPage: false });
  if (process.env.LIVERY_UPDATE_SCREENSHOTS === '1') {
    mkdirSync('docs/images', { recursive: true });
    copyFileSync('test-results/preview-live.png', 'docs/images/preview-live.png');
  }
  // The site's CSP let the reload script and its events stream run: nothing was refused. The
  // one write a page makes (its view count) is refused, read-only; no favicon is published.
  assert.deepEqual(problems, [], 'no script or policy errors');
  assert.deepEqual(
    failed.filter((line) => !/^403 \/@livery\/view$|^404 \/favicon\.ico$/.test(line)),
    [],
  );
  await page.close();
});

test('a docs.yaml folder: section tabs at the root, an edit in a section shows by itself', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${sitePreview.url}/`);
  const tabs = page.locator('nav.site-sections .section-tabs');
  await tabs.getByRole('link', { name: 'Product' }).waitFor();
  // The group is a menu of the tabs: opened, it shows its section and its external link.
  await tabs.getByText('More').click();
  await tabs.getByRole('link', { name: 'Status page' }).waitFor();
  await tabs.getByRole('link', { name: 'API' }).first().click();
  await page.waitForURL(/:\d+\/api\/?$/);
  await page.getByText('The reference of the API.').waitFor();

  writeFiles(siteFolder, { 'api/README.md': '# API\n\nThe reference of the API, version 2.\n' });
  // No page.reload(): the preview's script does it.
  await page.getByText('The reference of the API, version 2.').waitFor({ timeout: 30_000 });
  assert.match(page.url(), /:\d+\/api\/?$/);

  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/preview-sections.png', fullPage: false });
  if (process.env.LIVERY_UPDATE_SCREENSHOTS === '1') {
    mkdirSync('docs/images', { recursive: true });
    copyFileSync('test-results/preview-sections.png', 'docs/images/preview-sections.png');
  }
  assert.deepEqual(problems, []);
  await page.close();
});
