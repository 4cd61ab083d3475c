/**
 * A site opened through its custom hostname in Chromium (issue 29 §3, docs/sites.md "Custom
 * hostnames"): the browser resolves `docs.example.test` to the loopback Livery listens on
 * (`--host-resolver-rules`), so it sends `Host: docs.example.test` as it would through a reverse
 * proxy. The home page is at `/`, the links, the theme, the script and the search box work from
 * the root, and no request goes to another host. Saves test-results/custom-hostname.png; with
 * LIVERY_UPDATE_SCREENSHOTS=1 it also refreshes docs/images/custom-hostname.png.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';
import { publishedSite } from '../helpers/published-browser.js';

const HOST = 'docs.example.test';
let t: TestContext;
let browser: Browser;
let origin: string;

before(async () => {
  t = await createTestApp({ CUSTOM_HOSTNAME_SCHEME: 'https' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  origin = `http://${HOST}:${address.port}`;
  browser = await launchBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
});
after(async () => {
  await browser.close();
  await t.close();
});

test('a site opened at its hostname: home at /, links, search and theme from the root (screenshot)', async () => {
  const site = await publishedSite(t, {
    basename: 'acme',
    spaceTitle: 'Acme handbook',
    title: 'Acme docs',
    pages: [
      {
        operation: 'insert_page',
        title: 'Welcome',
        document: { markdown: 'Acme docs, served at **docs.example.test**.' },
      },
      {
        operation: 'insert_page',
        title: 'Deploying',
        document: { markdown: 'Put a reverse proxy in front and point the hostname at it.' },
      },
    ],
  });
  expectStatus(
    await t.request({ method: 'PATCH', url: site.base, payload: { hostname: HOST } }),
    200,
  );

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const hosts = new Set<string>();
  context.on('request', (request) => hosts.add(new URL(request.url()).host));
  const page = await context.newPage();
  const answer = await page.goto(`${origin}/`);
  assert.equal(answer?.status(), 200);
  assert.equal(await page.locator('main h1').first().textContent(), 'Welcome');
  assert.equal(
    await page.locator('link[rel="canonical"]').getAttribute('href'),
    `https://${HOST}/`,
  );
  // The theme's stylesheet applied: the page is styled, not bare HTML.
  const themed = await page.evaluate(
    "getComputedStyle(document.documentElement).getPropertyValue('--primary-9').trim() !== ''",
  );
  assert.ok(themed, 'the theme stylesheet loaded');

  // A sidebar link leads to the page at the root.
  await page.locator('nav a', { hasText: 'Deploying' }).first().click();
  await page.waitForURL(`${origin}/deploying`);
  assert.equal(await page.locator('main h1').first().textContent(), 'Deploying');

  // The search box asks the site at its hostname and links to its pages there.
  await page.fill('.search input', 'reverse proxy');
  const result = page.locator('.search-results .search-result').first();
  await result.waitFor();
  assert.equal(await result.locator('.search-result-title').textContent(), 'Deploying');

  assert.deepEqual([...hosts], [new URL(origin).host], 'every request went to the hostname');
  await page.locator('.search input').fill('');
  await page.goto(`${origin}/`);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/custom-hostname.png' });
  if (process.env.LIVERY_UPDATE_SCREENSHOTS === '1') {
    copyFileSync('test-results/custom-hostname.png', 'docs/images/custom-hostname.png');
  }
  await context.close();
});
