import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import { publishChanges } from '../helpers/insights.js';
import { type StudioSuite, screenshot, startStudioSuite } from '../helpers/studio-browser.js';

/**
 * A visitor follows a site redirect on a site with sections (issue 29): an old address of the
 * site (an exact rule to a page of the API section, and a prefix rule capturing the rest of the
 * path into that section) lands on the page in the right section, with the new address in the
 * URL bar and the section's tab current. The site and its rules are made through GitBook
 * 0.202's operations (addSectionToSite, createSiteRedirect). Screenshot in test-results/.
 */
let s: StudioSuite;
type Json = Record<string, unknown> & { id: string };
const BASENAME = 'moved';
let site = '';

const send = async (method: 'POST' | 'PATCH', url: string, payload: object) =>
  expectStatus(await s.t.request({ method, url, payload }), method === 'POST' ? 201 : 200) as Json;
const SITE = () => `/v1/orgs/${s.t.orgId}/sites/${site}`;
const root = () => `${s.origin}/s/${BASENAME}/`;

before(async () => {
  s = await startStudioSuite();
  const guides = await send('POST', `/v1/orgs/${s.t.orgId}/spaces`, { title: 'Guides' });
  await publishChanges(s.t, guides.id, [
    { operation: 'insert_page', title: 'Getting started', document: { markdown: 'Start here.' } },
  ]);
  const api = await send('POST', `/v1/orgs/${s.t.orgId}/spaces`, { title: 'API' });
  await publishChanges(s.t, api.id, [
    { operation: 'insert_page', title: 'Overview', document: { markdown: 'The API.' } },
    {
      operation: 'insert_page',
      title: 'Authentication',
      document: { markdown: 'Send a bearer token.' },
    },
  ]);
  site = (await send('POST', `/v1/orgs/${s.t.orgId}/sites`, { title: 'Acme', spaces: [guides.id] }))
    .id;
  await send('PATCH', SITE(), { basename: BASENAME });
  await send('POST', `${SITE()}/sections`, { spaceId: api.id, title: 'API', icon: 'code' });
  // The old address of the page, before the API had its own section.
  await send('POST', `${SITE()}/redirects`, {
    source: '/reference/auth',
    destination: { kind: 'path', spaceId: api.id, path: 'authentication' },
  });
  // Every old `/v1/…` address to the same path in the API section.
  await send('POST', `${SITE()}/redirects`, {
    source: '/v1/*',
    destination: { kind: 'external', url: `${root()}api` },
    captureWildcard: true,
  });
  expectStatus(await s.t.request({ method: 'POST', url: `${SITE()}/publish` }), 200);
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

async function newPage(): Promise<Page> {
  const page = await s.page();
  // Chromium asks for /favicon.ico by itself; the site links none (its 404 is not the site's).
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  return page;
}

async function visit(path: string): Promise<Page> {
  const page = await newPage();
  const answer = await page.goto(`${root()}${path}`);
  assert.equal(answer?.status(), 200);
  // The first answer of the navigation was the redirect.
  const redirect = answer?.request().redirectedFrom();
  assert.ok(redirect !== null && redirect !== undefined, 'the old address answered a redirect');
  assert.equal(redirect.url(), `${root()}${path}`);
  assert.equal((await redirect.response())?.status(), 307);
  return page;
}

const currentTab = async (page: Page) =>
  ((await page.locator('.section-tab[aria-current="true"]').textContent()) ?? '').trim();

describe('a site redirect on a site with sections', () => {
  test('an old address lands on the page in its section, the new address shown (screenshot)', async () => {
    const page = await visit('reference/auth');
    assert.equal(page.url(), `${root()}api/authentication`);
    assert.equal(((await page.locator('main h1').textContent()) ?? '').trim(), 'Authentication');
    assert.equal(await currentTab(page), 'API');
    await screenshot(page, 'published-sections-redirect');
    await page.close();
  });

  test('a prefix rule carries the rest of the old address into the section', async () => {
    const page = await visit('v1/overview');
    assert.equal(page.url(), `${root()}api/overview`);
    assert.equal(((await page.locator('main h1').textContent()) ?? '').trim(), 'Overview');
    assert.equal(await currentTab(page), 'API');
    await page.close();
  });

  test('an address that is a page is not redirected', async () => {
    const page = await newPage();
    const answer = await page.goto(`${root()}getting-started`);
    assert.equal(answer?.status(), 200);
    assert.equal(answer?.request().redirectedFrom(), null);
    assert.equal(await currentTab(page), 'Guides');
    await page.close();
  });
});
