import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { parseHex, scale } from '../../src/modules/theme/colors.js';
import { expectStatus } from '../helpers/app.js';
import { byTitle, type ListedPage, newSpace, publishChanges } from '../helpers/insights.js';
import { type BrowserSuite, startBrowserSuite } from '../helpers/published-browser.js';

/**
 * A customized, published site in Chromium (issue 7): the theme CSS and the site stylesheet
 * really apply (colors, bold header, corners per variant), and the page script works (theme
 * toggle, dropdown, announcement dismissal). Screenshots go to test-results/; with
 * LIVERY_UPDATE_SCREENSHOTS=1 they also refresh docs/images/ (never by default).
 */
const PRIMARY = { light: '#d9480f', dark: '#ff922b' };
let s: BrowserSuite;
let site: string;
let settings: Record<string, unknown>;
let sitePages: ListedPage[];
let customize: (body: Record<string, unknown>) => Promise<void>;

const rgb = (hex: string) => {
  const { r, g, b } = parseHex(hex);
  return `rgb(${r}, ${g}, ${b})`;
};
const style = (page: Page, selector: string, property: string) =>
  page
    .locator(selector)
    .first()
    .evaluate(
      (el, name) =>
        el.ownerDocument.defaultView?.getComputedStyle(el).getPropertyValue(name) ?? ''.trim(),
      property,
    );

before(async () => {
  s = await startBrowserSuite();
  const { t, origin } = s;
  const handbook = await newSpace(t, 'Handbook');
  sitePages = await publishChanges(t, handbook, [
    {
      operation: 'insert_page',
      title: 'Getting started',
      description: 'Everything you need for your first published site.',
      document: {
        markdown:
          'Livery serves your documentation as a site. Read the [installation guide](https://example.test/install) or the notes below.\n\n## Publish\n\n1. Write pages in a space.\n2. Create a site that shows the space.\n3. Publish it.\n\n```sh\ncurl -X POST /v1/orgs/acme/sites/docs/publish\n```\n',
      },
    },
    { operation: 'insert_page', title: 'Install', document: { markdown: 'Run `npm i`.' } },
    {
      operation: 'insert_page',
      title: 'Über uns',
      slug: 'über-uns',
      document: { markdown: 'Wir schreiben Dokumentation.' },
    },
  ]);
  const v2 = await newSpace(t, 'Handbook v2');
  await publishChanges(t, v2, [
    { operation: 'insert_page', title: 'Welcome to v2', document: { markdown: 'New.' } },
    { operation: 'insert_page', title: 'Migrating', document: { markdown: 'Steps.' } },
  ]);
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Docs', spaces: [handbook, v2] },
  });
  const base = `/v1/orgs/${t.orgId}/sites/${expectStatus(created, 201).id as string}`;
  expectStatus(
    await t.request({
      method: 'PATCH',
      url: base,
      payload: { basename: 'handbook', visibility: 'public' },
    }),
    200,
  );
  const list = await t.request({ method: 'GET', url: `${base}/site-spaces` });
  const variant = ((expectStatus(list, 200).items as { id: string }[])[1] as { id: string }).id;
  const path = { method: 'PATCH' as const, url: `${base}/site-spaces/${variant}` };
  expectStatus(await t.request({ ...path, payload: { path: 'v2' } }), 200);
  const page = (title: string) => ({ kind: 'page', page: byTitle(sitePages, title).id });
  settings = {
    title: 'Livery Handbook',
    styling: { primaryColor: PRIMARY, corners: 'straight', theme: 'bold' },
    // Images the test server itself serves (the schema takes http(s) URLs only, no data:).
    header: {
      logo: {
        light: `${origin}/docs/static/logo.svg`,
        dark: `${origin}/docs/static/favicon-32x32.png`,
      },
      links: [
        {
          title: 'Guides',
          to: null,
          links: [
            { title: 'Install', to: page('Install') },
            { title: 'About us', to: page('Über uns') },
          ],
        },
        {
          title: 'API',
          style: 'button-primary',
          to: { kind: 'url', url: `${origin}/docs/` },
          links: [],
        },
      ],
    },
    footer: {
      groups: [
        { title: 'Product', links: [{ title: 'Install', to: page('Install') }] },
        { title: 'Company', links: [{ title: 'About us', to: page('Über uns') }] },
      ],
      copyright: '© 2026 Livery',
    },
    announcement: { enabled: true, message: 'Livery 2.0 is out', style: 'info' },
    themes: { default: 'light', toggeable: true },
  };
  customize = async (body) =>
    void expectStatus(
      await t.request({ method: 'PUT', url: `${base}/customization`, payload: body }),
      200,
    );
  await customize(settings);
  const override = { ...path, url: `${path.url}/customization` };
  expectStatus(
    await t.request({ ...override, payload: { styling: { corners: 'circular' } } }),
    200,
  );
  expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
  site = `${origin}/s/handbook/`;
});
after(async () => s?.close());

test('the theme applies: links in the primary color’s step 11, a bold header in the primary color, straight corners', async () => {
  const page = await s.page();
  await page.goto(site);
  await page.waitForSelector('article.content a', { timeout: 30_000 });
  assert.equal(await page.title(), 'Getting started | Livery Handbook');
  const linkColor = await style(page, 'article.content a', 'color');
  const variable = await style(page, 'article.content a', '--link-color');
  assert.equal(linkColor, rgb(variable), `--link-color ${variable} is the link's color`);
  assert.equal(linkColor, rgb(scale(PRIMARY.light, 'light')[10] as string), 'step 11, light');
  assert.equal(await style(page, '.site-header', 'background-color'), rgb(PRIMARY.light));
  assert.equal(await style(page, '.pagination a', 'border-top-left-radius'), '0px');
  assert.equal(await style(page, '.search input', 'border-top-left-radius'), '0px');
  await page.close();
});

test('the variant’s override makes its corners circular; the rest of the site’s look stays', async () => {
  const page = await s.page();
  await page.goto(`${site}v2/`);
  await page.waitForSelector('.pagination a', { timeout: 30_000 });
  assert.equal(await page.locator('main h1').textContent(), 'Welcome to v2');
  assert.equal(await style(page, '.pagination a', 'border-top-left-radius'), '16px');
  assert.equal(await style(page, '.search input', 'border-top-left-radius'), '16px');
  assert.equal(await style(page, '.site-header', 'background-color'), rgb(PRIMARY.light));
  await page.close();
});

test('the theme toggle switches to dark, swaps the logos, and the choice survives a reload (screenshots)', async () => {
  const page = await s.page();
  await page.goto(site);
  await page.waitForSelector('.theme-toggle', { timeout: 30_000 });
  const light = page.locator('.site-header img.logo-light');
  const dark = page.locator('.site-header img.logo-dark');
  const loaded = (img: typeof light) =>
    img.evaluate(
      (el) => Reflect.get(el, 'complete') === true && Reflect.get(el, 'naturalWidth') > 0,
    );
  assert.ok(await loaded(light), 'the light logo is a real image');
  assert.ok(await loaded(dark), 'the dark logo is a real image');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
  assert.equal(await light.isVisible(), true);
  assert.equal(await dark.isVisible(), false);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/published-light.png', fullPage: true });

  await page.click('.theme-toggle');
  await page.waitForSelector('html[data-theme="dark"]', { timeout: 30_000 });
  assert.equal(await light.isVisible(), false);
  assert.equal(await dark.isVisible(), true);
  assert.equal(await style(page, '.site-header', 'background-color'), rgb(PRIMARY.dark));
  assert.equal(
    await style(page, 'article.content a', 'color'),
    rgb(scale(PRIMARY.dark, 'dark')[10] as string),
  );
  await page.screenshot({ path: 'test-results/published-dark.png', fullPage: true });

  await page.reload();
  await page.waitForSelector('html[data-theme="dark"]', { timeout: 30_000 });
  assert.equal(await dark.isVisible(), true);
  assert.equal(await light.isVisible(), false);
  if (process.env.LIVERY_UPDATE_SCREENSHOTS === '1') {
    mkdirSync('docs/images', { recursive: true });
    for (const name of ['published-light.png', 'published-dark.png']) {
      copyFileSync(`test-results/${name}`, `docs/images/${name}`);
    }
  }
  await page.close();
});

test('the header dropdown opens on click and its sub-links lead to their pages; footer groups are there', async () => {
  const page = await s.page();
  await page.goto(site);
  await page.waitForSelector('.dropdown summary', { timeout: 30_000 });
  const sub = page.locator('.dropdown .header-sublink', { hasText: 'Install' });
  assert.equal(await sub.isVisible(), false, 'closed at first');
  await page.click('.dropdown summary');
  await sub.waitFor({ state: 'visible', timeout: 30_000 });
  assert.deepEqual(await page.locator('.dropdown .header-sublink').allTextContents(), [
    'Install',
    'About us',
  ]);
  await sub.click();
  await page.waitForURL(`${site}install`, { timeout: 30_000 });
  assert.equal(await page.locator('main h1').textContent(), 'Install');
  assert.deepEqual(await page.locator('.footer-group h2').allTextContents(), [
    'Product',
    'Company',
  ]);
  assert.equal(
    await page.locator('.footer-group a', { hasText: 'About us' }).getAttribute('href'),
    '/s/handbook/%C3%BCber-uns',
  );
  assert.equal(await page.locator('.copyright').textContent(), '© 2026 Livery');
  await page.close();
});

test('a page with a non-ASCII slug loads through its percent-encoded address', async () => {
  const page = await s.page();
  const response = await page.goto(`${site}%C3%BCber-uns`);
  assert.equal(response?.status(), 200);
  await page.waitForSelector('main h1', { timeout: 30_000 });
  assert.equal(await page.title(), 'Über uns | Livery Handbook');
  assert.equal(await page.locator('main h1').textContent(), 'Über uns');
  await page.close();
});

test('the announcement’s dismissal lasts across reloads, until its message changes', async () => {
  const page = await s.page();
  await page.goto(site);
  const banner = page.locator('.announcement');
  await banner.waitFor({ state: 'visible', timeout: 30_000 });
  assert.match((await banner.textContent()) ?? '', /Livery 2\.0 is out/);
  await banner.locator('.dismiss').click();
  await banner.waitFor({ state: 'hidden', timeout: 30_000 });
  await page.reload();
  await page.waitForSelector('main h1', { timeout: 30_000 });
  await page.waitForLoadState('load');
  assert.equal(await banner.count(), 0, 'still dismissed after a reload');

  await customize({
    ...settings,
    announcement: { enabled: true, message: 'Livery 2.1 is out', style: 'warning' },
  });
  await page.reload();
  await banner.waitFor({ state: 'visible', timeout: 30_000 });
  assert.match((await banner.textContent()) ?? '', /Livery 2\.1 is out/);
  await page.close();
});

test('no request of any page above left 127.0.0.1', () => {
  assert.ok(s.requests.count > 20, `pages made requests (${s.requests.count})`);
  assert.deepEqual(s.external, []);
});
