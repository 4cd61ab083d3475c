import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';

// The browser pipeline the published-site tests (issue 7) build on: Debian's Chromium, driven
// by playwright-core, against a Livery listening on loopback, screenshots under test-results/.
let t: TestContext;
let browser: Browser;
before(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await t.close();
});

test('Chromium renders Livery’s API documentation from local assets, and takes a screenshot', async () => {
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  const page = await browser.newPage();
  const external: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`http://127.0.0.1:${address.port}/`))
      external.push(request.url());
  });
  await page.goto(`http://127.0.0.1:${address.port}/docs/`);
  await page.waitForSelector('.swagger-ui .info .title', { timeout: 30_000 });
  const title = await page.locator('.swagger-ui .info .title').textContent();
  assert.match(title ?? '', /Livery/);
  assert.deepEqual(external, [], 'no request leaves the machine');
  mkdirSync('test-results', { recursive: true });
  const png = await page.screenshot({ path: 'test-results/api-docs.png' });
  assert.ok(png.length > 1000, 'a real screenshot');
  await page.close();
});
