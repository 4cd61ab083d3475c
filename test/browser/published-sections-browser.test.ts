import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import { publishChanges } from '../helpers/insights.js';
import { memberWithRole } from '../helpers/roles.js';
import {
  type StudioSuite,
  screenshot,
  signInAndOpen,
  startStudioSuite,
} from '../helpers/studio-browser.js';

/**
 * A site with sections in Chromium (issue 29): built through the API as an administrator would
 * (GitBook 0.202's addSectionToSite, addSectionGroupToSite, addExternalLinkToSite,
 * updateSiteSectionById), then read as a reader does: section tabs, a click to another section, a
 * group's menu (mouse and keyboard), localized titles in the French variant, the external link,
 * the narrow-screen list; and reordered in Livery Studio, after which the published order
 * changes. Screenshots go to test-results/ (docs/images/ with LIVERY_UPDATE_SCREENSHOTS=1).
 */
let s: StudioSuite;
type Json = Record<string, unknown> & { id: string };
const ids: Record<string, string> = {};
let frenchPath = '';
const BASENAME = 'sectioned';

const send = async (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object) =>
  expectStatus(await s.t.request({ method, url, payload }), method === 'POST' ? 201 : 200) as Json;
const SITE = () => `/v1/orgs/${s.t.orgId}/sites/${ids.site}`;

async function space(title: string, heading: string): Promise<string> {
  const created = await send('POST', `/v1/orgs/${s.t.orgId}/spaces`, { title });
  await publishChanges(s.t, created.id, [
    { operation: 'insert_page', title: heading, document: { markdown: `This is ${heading}.` } },
  ]);
  return created.id;
}

before(async () => {
  s = await startStudioSuite();
  const guidesEn = await space('English', 'Getting started');
  const guidesFr = await space('Français', 'Bien démarrer');
  const site = await send('POST', `/v1/orgs/${s.t.orgId}/sites`, {
    title: 'Acme Docs',
    spaces: [guidesEn, guidesFr],
  });
  ids.site = site.id;
  expectStatus(
    await s.t.request({ method: 'PATCH', url: SITE(), payload: { basename: BASENAME } }),
    200,
  );
  // The first section gathers the two variants into the default section.
  const api = await send('POST', `${SITE()}/sections`, {
    spaceId: await space('API', 'API reference'),
    title: 'API',
    icon: 'code',
  });
  ids.api = api.id;
  const sdks = await send('POST', `${SITE()}/sections`, {
    spaceId: await space('SDKs', 'Client libraries'),
    title: 'SDKs',
    icon: 'cube',
  });
  ids.sdks = sdks.id;
  const group = await send('POST', `${SITE()}/section-groups`, {
    title: 'Products',
    icon: 'layer-group',
  });
  ids.group = group.id;
  ids.cloud = (
    await send('POST', `${SITE()}/sections`, {
      spaceId: await space('Cloud', 'Acme Cloud'),
      title: 'Cloud',
      icon: 'cloud',
      siteSectionGroupId: group.id,
    })
  ).id;
  ids.server = (
    await send('POST', `${SITE()}/sections`, {
      spaceId: await space('Server', 'Acme Server'),
      title: 'Server',
      icon: 'server',
      siteSectionGroupId: group.id,
    })
  ).id;
  ids.status = (
    await send('POST', `${SITE()}/external-links`, {
      title: 'Status',
      localizedTitle: { fr: 'État du service' },
      description: 'Uptime of every service',
      url: 'https://status.example.test/',
      icon: 'bolt',
      parent: group.id,
    })
  ).id;
  await send('PATCH', `${SITE()}/sections/${ids.cloud}`, {
    description: 'Hosted by Acme',
    localizedDescription: { fr: 'Hébergé par Acme' },
  });
  await send('PATCH', `${SITE()}/sections/${ids.server}`, { description: 'On your machines' });
  await send('PATCH', `${SITE()}/section-groups/${group.id}`, {
    localizedTitle: { fr: 'Produits' },
  });
  await send('PATCH', `${SITE()}/sections/${api.id}`, {
    localizedTitle: { fr: 'Référence de l’API' },
  });

  const structure = expectStatus(
    await s.t.request({ method: 'GET', url: `${SITE()}/structure` }),
    200,
  ) as { structure: (Json & { siteSpaces?: Json[] })[] };
  const guides = structure.structure[0];
  assert.ok(guides !== undefined && guides.default === true);
  ids.guides = guides.id;
  await send('PATCH', `${SITE()}/sections/${guides.id}`, {
    title: 'Guides',
    localizedTitle: { fr: 'Guides en français' },
    icon: 'book',
  });
  const french = guides.siteSpaces?.find((v) => (v.space as Json).id === guidesFr);
  assert.ok(french !== undefined);
  frenchPath = french.path as string;
  ids.french = french.id;
  // The French variant speaks French: its customization's locale.
  await send('PATCH', `${SITE()}/site-spaces/${french.id}/customization`, {
    internationalization: { locale: 'fr' },
  });
  expectStatus(await s.t.request({ method: 'POST', url: `${SITE()}/publish` }), 200);
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

const text = async (locator: Locator) => ((await locator.textContent()) ?? '').trim();
/** The titles of an item's own children in the studio's tree (not their children's). */
const childTitles = (item: Locator) =>
  item.locator(':scope > ol > li > .structure-row [data-testid=structure-title]').allInnerTexts();
const root = () => `${s.origin}/s/${BASENAME}/`;
const tabTexts = (page: Page) =>
  page
    .locator(
      '.section-tabs > li > a, .section-tabs > li > span, .section-tabs > li > details > summary',
    )
    .allInnerTexts();

async function open(path = '', viewport?: { width: number; height: number }): Promise<Page> {
  const page = await s.page(viewport);
  // Chromium asks the origin for /favicon.ico by itself (a site without a favicon setting links
  // none): not the site's request, and its 404 would be reported as a console error.
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  await page.goto(`${root()}${path}`);
  await page.locator('main h1').waitFor();
  return page;
}

describe('a published site with sections', () => {
  test('section tabs under the header, the default section current (screenshot)', async () => {
    const page = await open();
    assert.equal(await text(page.locator('main h1')), 'Getting started');
    assert.deepEqual(
      (await tabTexts(page)).map((text) => text.trim()),
      ['Guides', 'API', 'SDKs', 'Products'],
    );
    const current = page.locator('.section-tab[aria-current="true"]');
    assert.equal(await current.count(), 1);
    assert.equal(await text(current), 'Guides');
    // Icons drawn inline, from the section's `icon`.
    assert.equal(await page.locator('.section-tab .section-icon[data-icon="book"]').count(), 1);
    assert.equal(await page.locator('.section-tab .section-icon[data-icon="code"]').count(), 1);
    // The switcher lists the variants of the page's section only: English and Français.
    assert.deepEqual(
      (await page.locator('.sidebar .variants a').allInnerTexts()).map((t) => t.trim()),
      ['English', 'Français'],
    );
    await screenshot(page, 'published-sections');
    await page.close();
  });

  test("a tab opens its section's page at the section's path", async () => {
    const page = await open();
    await page.getByRole('link', { name: 'API', exact: true }).click();
    await page.waitForURL(`${root()}api/`);
    assert.equal(await text(page.locator('main h1')), 'API reference');
    assert.equal(await text(page.locator('.section-tab[aria-current="true"]')), 'API');
    // One variant in this section: no switcher.
    assert.equal(await page.locator('.sidebar .variants').count(), 0);
    await page.close();
  });

  test("the group's menu lists its sections and link, with icons and descriptions (screenshot)", async () => {
    const page = await open();
    const menu = page.locator('details.section-menu');
    const entries = menu.locator('.section-menu-list');
    assert.equal(await entries.isVisible(), false);
    await menu.locator('summary').click();
    await entries.waitFor({ state: 'visible' });
    assert.deepEqual(
      (await entries.locator('.section-entry-title').allInnerTexts()).map((t) => t.trim()),
      ['Cloud', 'Server', 'Status'],
    );
    assert.deepEqual(
      (await entries.locator('.section-entry-description').allInnerTexts()).map((t) => t.trim()),
      ['Hosted by Acme', 'On your machines', 'Uptime of every service'],
    );
    const status = entries.locator('a.section-external');
    assert.equal(await status.getAttribute('href'), 'https://status.example.test/');
    assert.equal(await status.locator('.icon-external').count(), 1);
    assert.match(await text(status), /\(external site\)/);
    await screenshot(page, 'published-section-group-menu');

    await entries.getByRole('link', { name: /Server/ }).click();
    await page.waitForURL(`${root()}server/`);
    assert.equal(await text(page.locator('main h1')), 'Acme Server');
    // The group holding the page's section is marked current; its entry too.
    assert.equal(await page.locator('.section-menu > summary[aria-current="true"]').count(), 1);
    assert.equal(
      await page.locator('.section-entry[aria-current="true"]').getAttribute('href'),
      `/s/${BASENAME}/server/`,
    );
    await page.close();
  });

  test('the menu works from the keyboard: Enter opens it, Escape closes it and keeps focus', async () => {
    const page = await open();
    const summary = page.locator('details.section-menu > summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    await page.locator('.section-menu-list').waitFor({ state: 'visible' });
    await page.keyboard.press('Tab');
    assert.equal(
      (await page.evaluate('document.activeElement.textContent')) as string,
      'CloudHosted by Acme',
    );
    await page.keyboard.press('Escape');
    await page.locator('.section-menu-list').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate('document.activeElement.tagName'), 'SUMMARY');
    await page.close();
  });

  test('the French variant: titles in French where translated, else the default one', async () => {
    const page = await open(`${frenchPath}/`);
    assert.equal(await text(page.locator('main h1')), 'Bien démarrer');
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    assert.deepEqual(
      (await tabTexts(page)).map((text) => text.trim()),
      ['Guides en français', 'Référence de l’API', 'SDKs', 'Produits'],
    );
    assert.equal(await page.locator('.site-sections').getAttribute('aria-label'), 'Rubriques');
    await page.locator('details.section-menu > summary').click();
    assert.match(await text(page.locator('.section-menu-list')), /Hébergé par Acme/);
    assert.match(await text(page.locator('.section-menu-list')), /État du service/);
    await page.close();
  });

  test('a narrow screen: the sections fold into a list behind the current one', async () => {
    const page = await open('', { width: 390, height: 800 });
    const toggle = page.locator('.sections-toggle-label');
    const tabs = page.locator('.section-tabs');
    assert.equal(await toggle.isVisible(), true);
    assert.match(await text(toggle), /Guides/);
    assert.equal(await tabs.isVisible(), false);
    await toggle.click();
    await tabs.waitFor({ state: 'visible' });
    await page.getByRole('link', { name: 'SDKs', exact: true }).click();
    await page.waitForURL(`${root()}sdks/`);
    assert.equal(await text(page.locator('main h1')), 'Client libraries');
    await screenshot(page, 'published-sections-phone');
    await page.close();
  });
});

describe('Livery Studio: the structure', () => {
  test('the tree shows sections, the group, the link and variants; a move changes the published order (screenshot)', async () => {
    const page = await s.page();
    await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${ids.site}/structure`);
    const tree = page.getByTestId('structure');
    await tree.locator('.structure-item').first().waitFor();
    const titles = async () =>
      (
        await tree
          .locator(':scope > ol > li > .structure-row [data-testid=structure-title]')
          .allInnerTexts()
      ).map((t) => t.trim());
    assert.deepEqual(await titles(), ['Guides', 'API', 'SDKs', 'Products']);
    const group = page.getByTestId(`structure-${ids.group}`);
    assert.deepEqual(
      (await childTitles(group)).map((t) => t.trim()),
      ['Cloud', 'Server', 'Status'],
    );
    const guides = page.getByTestId(`structure-${ids.guides}`);
    assert.deepEqual(
      (await childTitles(guides)).map((t) => t.trim()),
      ['English', 'Français'],
    );
    assert.equal(await page.getByTestId(`move-up-${ids.guides}`).isDisabled(), true);
    await screenshot(page, 'studio-structure', true);

    // Move SDKs up, before API: by the keyboard, the focus stays on the button.
    await page.getByTestId(`move-up-${ids.sdks}`).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Moved “SDKs” up.' }).waitFor({
      state: 'attached',
    });
    assert.deepEqual(await titles(), ['Guides', 'SDKs', 'API', 'Products']);
    assert.equal(
      await page.evaluate('document.activeElement.getAttribute("data-testid")'),
      `move-up-${ids.sdks}`,
    );
    // And a variant inside its section: Français before English.
    await page.getByTestId(`move-up-${ids.french}`).click();
    await page.getByRole('status').filter({ hasText: 'Moved “Français” up.' }).waitFor({
      state: 'attached',
    });
    await page.close();

    const published = await open();
    assert.deepEqual(
      (await tabTexts(published)).map((text) => text.trim()),
      ['Guides', 'SDKs', 'API', 'Products'],
    );
    assert.deepEqual(
      (await published.locator('.sidebar .variants a').allInnerTexts()).map((t) => t.trim()),
      ['Français', 'English'],
    );
    await published.close();
  });

  test('a move refused by the API shows its message, and the tree as the site now is', async () => {
    const page = await s.page();
    await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${ids.site}/structure`);
    await page.getByTestId(`structure-${ids.status}`).waitFor();
    // Another editor deletes the link the page still shows after Server.
    expectStatus(
      await s.t.request({ method: 'DELETE', url: `${SITE()}/external-links/${ids.status}` }),
      205,
    );
    await page.getByTestId(`move-down-${ids.server}`).click();
    const error = page.getByTestId('structure-error');
    await error.waitFor();
    assert.match(await text(error), /^body\.position\.after: /);
    assert.equal(await error.getAttribute('role'), 'alert');
    await page.getByTestId(`structure-${ids.status}`).waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId(`move-down-${ids.server}`).isDisabled(), true);
    // The refused request is the one problem the browser reports, as expected.
    assert.deepEqual(s.problems.splice(0), [
      'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await page.close();
  });

  test('a member who may not reorder sees the tree read only, with the reason', async () => {
    const reader = await memberWithRole(s.t, 'read');
    const page = await s.page();
    await signInAndOpen(page, reader.token, `#/orgs/${s.t.orgId}/sites/${ids.site}/structure`);
    const notice = page.getByTestId('read-only-notice');
    await notice.waitFor();
    assert.match(await text(notice), /admin/);
    assert.equal(await page.getByTestId(`move-down-${ids.guides}`).isDisabled(), true);
    await page.close();
  });
});
