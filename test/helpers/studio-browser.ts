import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createTestApp, expectStatus, type TestContext } from './app.js';
import { launchBrowser } from './browser.js';
import { publishChanges } from './insights.js';
import { ensureStudioBuilt } from './studio.js';

/**
 * What the studio's browser tests share: a Livery listening on loopback whose BASE_URL is its
 * real address (previews link to it), the built studio, one Chromium, and per page a record of
 * console errors, page errors and requests that left Livery (the studio works offline).
 */
export interface StudioSuite {
  t: TestContext;
  browser: Browser;
  origin: string;
  /** Console errors, uncaught page errors and requests to other origins, of every page. */
  problems: string[];
  /** A page at 1280×800 (or `viewport`) in a fresh context: own cookies, nothing signed in. */
  page(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise((resolve) => server.close(resolve));
  return address.port;
}

export async function startStudioSuite(env: Record<string, string> = {}): Promise<StudioSuite> {
  await ensureStudioBuilt();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ BASE_URL: origin, ...env });
  await t.app.listen({ host: '127.0.0.1', port });
  const browser = await launchBrowser();
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];
  return {
    t,
    browser,
    origin,
    problems,
    page: async (viewport = { width: 1280, height: 800 }) => {
      const context = await browser.newContext({ viewport, baseURL: origin });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      context.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(`${origin}/`) && !/^(data|about|blob):/.test(url)) {
          problems.push(`external request: ${url}`);
        }
      });
      return page;
    },
    close: async () => {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await t.close();
    },
  };
}

export interface StudioSite {
  siteId: string;
  base: string;
  /** Site-space ids, the default first. */
  siteSpaceIds: string[];
  basename: string;
}

/**
 * A published site with two variants (English, the default, and Deutsch), each with two pages;
 * `welcome` replaces the first page's text (e.g. a long one).
 */
export async function studioSite(
  t: TestContext,
  basename = 'acme',
  welcome?: string,
): Promise<StudioSite> {
  const spaceIds: string[] = [];
  for (const title of ['English', 'Deutsch']) {
    const space = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: { title },
    });
    const spaceId = expectStatus(space, 201).id as string;
    await publishChanges(t, spaceId, [
      {
        operation: 'insert_page',
        title: 'Welcome',
        document: { markdown: welcome ?? `Hello (${title}).` },
      },
      { operation: 'insert_page', title: 'Details', document: { markdown: 'More to read.' } },
    ]);
    spaceIds.push(spaceId);
  }
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Acme Docs', spaces: spaceIds },
  });
  const siteId = expectStatus(created, 201).id as string;
  const base = `/v1/orgs/${t.orgId}/sites/${siteId}`;
  expectStatus(await t.request({ method: 'PATCH', url: base, payload: { basename } }), 200);
  expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
  const list = expectStatus(await t.request({ method: 'GET', url: `${base}/site-spaces` }), 200);
  const siteSpaceIds = (list.items as { id: string }[]).map((item) => item.id);
  return { siteId, base, siteSpaceIds, basename };
}

/**
 * Waits until `probe` answers something other than undefined (polling what the user sees, never a
 * fixed sleep for a debounce); fails with `what` and the last thing seen.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeout = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The `<html>` of the preview's visible frame (the sandboxed srcdoc page the user sees), or
 * undefined while the frames are being swapped.
 */
export async function visiblePreview(page: Page): Promise<Locator | undefined> {
  const frame = await page
    .locator('[data-testid=preview] iframe[data-visible=true]')
    .elementHandle({ timeout: 1_000 });
  const content = await frame?.contentFrame();
  return content === null || content === undefined ? undefined : content.locator('html');
}

/** Signs in through the studio's own sign-in screen, as a person pasting a token does. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.goto('/studio');
  await page.getByTestId('token').fill(token);
  await page.getByTestId('sign-in').click();
  await page.getByTestId('sign-out').waitFor();
}

/**
 * Signs in, waits for the sites list (one organization: the studio goes there by itself, and a
 * deep link typed before that would be replaced), then opens `hash` (e.g. `#/orgs/…/sites/…`).
 */
export async function signInAndOpen(page: Page, token: string, hash: string): Promise<void> {
  await signIn(page, token);
  await page.getByTestId('sites').waitFor();
  await page.goto(`/studio${hash}`);
}

/**
 * A screenshot of a studio screen into test-results/ (every run); with LIVERY_UPDATE_SCREENSHOTS=1
 * also into docs/images/, which docs/studio.md shows (never by default: the server's random port
 * is in the pictures, so each run's files differ).
 */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync('test-results', { recursive: true });
  const path = `test-results/${name}.png`;
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  if (process.env.LIVERY_UPDATE_SCREENSHOTS === '1') {
    mkdirSync('docs/images', { recursive: true });
    copyFileSync(path, `docs/images/${name}.png`);
  }
}
