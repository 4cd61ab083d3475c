import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page, Response } from 'playwright-core';
import { signVisitorToken } from '../../src/modules/visitor-auth/jwt.js';
import { expectStatus } from '../helpers/app.js';
import {
  type BrowserSuite,
  publishedSite,
  startBrowserSuite,
} from '../helpers/published-browser.js';

/**
 * Who may see a published site, in a real browser (issue 7): redirects, cookies and what the
 * visitor ends up looking at, for each visibility. Each visitor is a fresh browser context, so
 * cookies never carry from one to another unless the test says so.
 */
let s: BrowserSuite;
before(async () => {
  s = await startBrowserSuite();
  // The public site the others' fallback sends visitors to.
  await publishedSite(s.t, { basename: 'open', spaceTitle: 'Open handbook' });
});
after(async () => s?.close());

const at = (path: string) => `${s.origin}/s/${path}`;
const hour = () => Math.floor(Date.now() / 1000) + 3600;

/** Goes to `url` and waits for the page's main heading; answers the final response. */
async function visit(page: Page, url: string): Promise<Response> {
  const response = await page.goto(url);
  assert.ok(response !== null, `a response for ${url}`);
  await page.waitForSelector('h1', { timeout: 30_000 });
  return response;
}

/** The plain 404: nothing on it says which site, or that there is one. */
async function assertPlain404(page: Page, response: Response, siteTitle: string) {
  assert.equal(response.status(), 404);
  assert.equal(await page.title(), 'Not found');
  assert.equal(await page.locator('h1').textContent(), 'Not found');
  assert.doesNotMatch(await page.content(), new RegExp(siteTitle));
}

test('a public site loads, indexable', async () => {
  const page = await s.page();
  const response = await visit(page, at('open/'));
  assert.equal(response.status(), 200);
  assert.equal(await page.title(), 'Welcome | Open handbook');
  assert.equal(await page.locator('meta[name="robots"]').count(), 0);
  assert.equal(response.headers()['x-robots-tag'], undefined);
});

test('an unlisted site loads with the noindex meta tag and header', async () => {
  await publishedSite(s.t, { basename: 'quiet', visibility: 'unlisted', spaceTitle: 'Quiet' });
  const page = await s.page();
  const response = await visit(page, at('quiet/details'));
  assert.equal(response.status(), 200);
  assert.equal(await page.locator('main h1').textContent(), 'Details');
  assert.equal(await page.getAttribute('meta[name="robots"]', 'content'), 'noindex');
  assert.equal(response.headers()['x-robots-tag'], 'noindex');
});

test('share-link: the key leaves the address bar, a cookie keeps the visitor in, deactivation locks them out', async () => {
  const site = await publishedSite(s.t, {
    basename: 'shared',
    visibility: 'share-link',
    spaceTitle: 'Shared notes',
  });
  const link = expectStatus(
    await s.t.request({
      method: 'POST',
      url: `${site.base}/share-links`,
      payload: { name: 'Reviewers' },
    }),
    201,
  ) as { id: string; urls: { published: string } };
  const key = new URL(link.urls.published).searchParams.get('share');
  assert.ok(key, `a key in ${link.urls.published}`);

  const page = await s.page();
  const first = await visit(page, at(`shared/details?share=${encodeURIComponent(key)}`));
  assert.equal(page.url(), at('shared/details'), 'redirected to the address without the key');
  assert.equal(first.request().redirectedFrom()?.url().includes('share='), true);
  assert.equal(first.status(), 200);
  assert.equal(await page.locator('main h1').textContent(), 'Details');

  const again = await visit(page, at('shared/'));
  assert.equal(again.status(), 200, 'the cookie alone lets the visitor in');
  assert.equal(await page.locator('main h1').textContent(), 'Welcome');

  const stranger = await s.page();
  await assertPlain404(stranger, await visit(stranger, at('shared/')), 'Shared notes');

  expectStatus(
    await s.t.request({
      method: 'PATCH',
      url: `${site.base}/share-links/${link.id}`,
      payload: { active: false },
    }),
    200,
  );
  const reloaded = await page.reload();
  assert.ok(reloaded);
  await page.waitForSelector('h1', { timeout: 30_000 });
  await assertPlain404(page, reloaded, 'Shared notes');
});

test('visitor-auth: a valid token lets in; expired and old-key tokens get the 401 page', async () => {
  const site = await publishedSite(s.t, {
    basename: 'members',
    visibility: 'visitor-auth',
    spaceTitle: 'Members only',
  });
  const auth = `${site.base}/publishing/auth`;
  const keyOf = async (method: 'GET' | 'POST', url: string) =>
    expectStatus(await s.t.request({ method, url }), 200).privateKey as string;
  const oldKey = await keyOf('GET', auth);
  const token = (key: string, exp = hour()) => signVisitorToken({ aud: site.siteId, exp }, key);

  const page = await s.page();
  const admitted = await visit(page, at(`members/details?jwt_token=${token(oldKey)}`));
  assert.equal(page.url(), at('members/details'), 'the token leaves the address bar');
  assert.equal(admitted.status(), 200);
  assert.equal(await page.locator('main h1').textContent(), 'Details');
  assert.equal((await visit(page, at('members/'))).status(), 200, 'the cookie keeps them in');

  const expired = await s.page();
  const refused = await visit(expired, at(`members/?jwt_token=${token(oldKey, hour() - 7200)}`));
  assert.equal(refused.status(), 401);
  assert.match((await expired.locator('main').textContent()) ?? '', /Sign in to read/);
  assert.equal(await expired.locator('.sidebar a').count(), 0, 'no table of contents');
  assert.doesNotMatch(await expired.content(), /Hello, reader/);

  const newKey = await keyOf('POST', `${auth}/regenerate`);
  assert.notEqual(newKey, oldKey);
  const locked = await page.reload();
  assert.ok(locked);
  await page.waitForSelector('h1', { timeout: 30_000 });
  assert.equal(locked.status(), 401, 'the kept cookie no longer opens the site');

  const old = await s.page();
  assert.equal((await visit(old, at(`members/?jwt_token=${token(oldKey)}`))).status(), 401);
  const renewed = await s.page();
  assert.equal((await visit(renewed, at(`members/?jwt_token=${token(newKey)}`))).status(), 200);
  assert.equal(await renewed.locator('main h1').textContent(), 'Welcome');
});

test('visitor-auth with a fallback URL: visitors without a valid token end there', async () => {
  const site = await publishedSite(s.t, {
    basename: 'portal',
    visibility: 'visitor-auth',
    spaceTitle: 'Portal',
  });
  const auth = expectStatus(
    await s.t.request({
      method: 'PATCH',
      url: `${site.base}/publishing/auth`,
      payload: { backend: 'custom', fallbackURL: at('open/') },
    }),
    200,
  ) as { privateKey: string };
  const expired = signVisitorToken({ aud: site.siteId, exp: hour() - 7200 }, auth.privateKey);
  for (const url of [at(`portal/?jwt_token=${expired}`), at('portal/details')]) {
    const page = await s.page();
    const response = await visit(page, url);
    assert.equal(page.url(), at('open/'), url);
    assert.equal(response.status(), 200);
    assert.equal(await page.title(), 'Welcome | Open handbook');
  }
  const valid = signVisitorToken({ aud: site.siteId, exp: hour() }, auth.privateKey);
  const page = await s.page();
  await visit(page, at(`portal/?jwt_token=${valid}`));
  assert.equal(page.url(), at('portal/'));
  assert.equal(await page.title(), 'Welcome | Portal');
});

test('an unpublished site is the plain 404, even to a visitor who saw it before', async () => {
  const site = await publishedSite(s.t, { basename: 'retired', spaceTitle: 'Retired docs' });
  const page = await s.page();
  assert.equal((await visit(page, at('retired/'))).status(), 200);
  expectStatus(await s.t.request({ method: 'POST', url: `${site.base}/unpublish` }), 200);
  const gone = await page.reload();
  assert.ok(gone);
  await page.waitForSelector('h1', { timeout: 30_000 });
  await assertPlain404(page, gone, 'Retired docs');
});

test('no request of any page above left 127.0.0.1', () => {
  assert.ok(s.requests.count > 10, `pages made requests (${s.requests.count})`);
  assert.deepEqual(s.external, []);
});
