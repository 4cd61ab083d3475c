import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTestApp, expectStatus, type TestContext } from './app.js';
import { launchBrowser } from './browser.js';
import { type ListedPage, newSpace, publishChanges } from './insights.js';

/**
 * What the published-site browser tests share: a Livery listening on loopback, one Chromium for
 * the file, and a record of every request a page makes that is not to Livery itself (a published
 * site must work offline: no CDN, no tracker).
 */
export interface BrowserSuite {
  t: TestContext;
  browser: Browser;
  /** `http://127.0.0.1:<port>`, the only origin pages may reach. */
  origin: string;
  /** URLs requested by pages that did not go to `origin`. */
  external: string[];
  /** How many requests pages made, so "none left the machine" is not said of nothing. */
  requests: { count: number };
  /** A fresh browser context (own cookies and storage), its requests recorded. */
  context(): Promise<BrowserContext>;
  /** A page in a fresh context. */
  page(): Promise<Page>;
  close(): Promise<void>;
}

export async function startBrowserSuite(env: Record<string, string> = {}): Promise<BrowserSuite> {
  const t = await createTestApp(env);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  const origin = `http://127.0.0.1:${address.port}`;
  const browser = await launchBrowser();
  const external: string[] = [];
  const requests = { count: 0 };
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const created = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    created.on('request', (request) => {
      requests.count += 1;
      if (!request.url().startsWith(`${origin}/`)) external.push(request.url());
    });
    contexts.push(created);
    return created;
  };
  return {
    t,
    browser,
    origin,
    external,
    requests,
    context,
    page: async () => (await context()).newPage(),
    close: async () => {
      for (const created of contexts) await created.close().catch(() => {});
      await browser.close();
      await t.close();
    },
  };
}

export interface PublishedFixture {
  siteId: string;
  /** `/v1/orgs/{o}/sites/{siteId}` */
  base: string;
  spaceId: string;
  siteSpaceId: string;
  pages: ListedPage[];
}

/**
 * A site showing one new space with `pages` (insert_page changes), given a basename and a
 * visibility, published: everything through the API, as an administrator would.
 */
export async function publishedSite(
  t: TestContext,
  options: {
    basename: string;
    visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
    pages?: Record<string, unknown>[];
    spaceTitle?: string;
    title?: string;
  },
): Promise<PublishedFixture> {
  const spaceId = await newSpace(t, options.spaceTitle ?? `Space of ${options.basename}`);
  const pages = await publishChanges(
    t,
    spaceId,
    options.pages ?? [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello, reader.' } },
      { operation: 'insert_page', title: 'Details', document: { markdown: 'More to read.' } },
    ],
  );
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: options.title ?? `Site ${options.basename}`, spaces: [spaceId] },
  });
  const siteId = expectStatus(created, 201).id as string;
  const base = `/v1/orgs/${t.orgId}/sites/${siteId}`;
  expectStatus(
    await t.request({
      method: 'PATCH',
      url: base,
      payload: { basename: options.basename, visibility: options.visibility ?? 'public' },
    }),
    200,
  );
  expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
  const list = await t.request({ method: 'GET', url: `${base}/site-spaces` });
  const siteSpaces = expectStatus(list, 200).items as { id: string }[];
  return { siteId, base, spaceId, siteSpaceId: (siteSpaces[0] as { id: string }).id, pages };
}
