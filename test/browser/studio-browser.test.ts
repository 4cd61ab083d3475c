import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { scale } from '../../src/modules/theme/colors.js';
import { expectStatus } from '../helpers/app.js';
import {
  type StudioSite,
  type StudioSuite,
  screenshot,
  signIn,
  signInAndOpen,
  startStudioSuite,
  studioSite,
  until,
  visiblePreview,
} from '../helpers/studio-browser.js';

/**
 * Livery Studio in Chromium against the real server (issue 18): sign in, pick the site, see an
 * unsaved colour in the live preview, save it; sign out; keyboard use, accessible names and the
 * phone layout. Screenshots of the sign-in screen, the site editor and the phone layout go to
 * test-results/ (and docs/images/ with LIVERY_UPDATE_SCREENSHOTS=1; helpers/studio-browser.ts).
 */
const NEW_PRIMARY = '#d9480f';
let s: StudioSuite;
let site: StudioSite;

before(async () => {
  s = await startStudioSuite();
  site = await studioSite(s.t);
});
after(async () => s?.close());
afterEach(() => {
  // Every test: no console error, no page error, no request leaving Livery.
  assert.deepEqual(s.problems.splice(0), []);
});

const settingsOf = async (url: string) =>
  expectStatus(await s.t.request({ method: 'GET', url }), 200) as {
    styling: { primaryColor: { light: string; dark: string } };
  };

/** The preview's `--primary-9` (the colour itself in the published theme's scale). */
const previewPrimary = async (page: Page) =>
  (await visiblePreview(page))?.evaluate((html) =>
    html.ownerDocument.defaultView?.getComputedStyle(html).getPropertyValue('--primary-9').trim(),
  );

test('sign in, pick the site, see an unsaved primary colour in the preview, save it, read it back', async () => {
  const page = await s.page();
  await page.goto('/studio');
  await page.getByTestId('token').waitFor();
  await screenshot(page, 'studio-sign-in');
  await signIn(page, s.t.token);
  // One organization: the studio goes straight to its sites.
  await page
    .getByTestId('sites')
    .getByRole('link', { name: /Acme Docs/ })
    .click();
  const field = page.locator('input[data-setting="styling.primaryColor.light"]');
  await field.waitFor();
  const before = (await settingsOf(`${site.base}/customization`)).styling.primaryColor.light;
  assert.notEqual(before.toLowerCase(), NEW_PRIMARY);
  await until('the first preview', async () => ((await previewPrimary(page)) ? true : undefined));

  const previewed = page.waitForRequest(
    (request) =>
      request.method() === 'POST' &&
      request.url().endsWith(`${site.base}/preview`) &&
      (request.postDataJSON() as { site?: { styling?: { primaryColor?: { light?: string } } } })
        ?.site?.styling?.primaryColor?.light === NEW_PRIMARY,
  );
  await field.fill(NEW_PRIMARY);
  await previewed;
  const expected = (scale(NEW_PRIMARY, 'light')[8] as string).toLowerCase();
  const shown = await until('the preview in the new colour', async () => {
    const value = (await previewPrimary(page))?.toLowerCase();
    return value === expected ? value : undefined;
  });
  assert.equal(shown, expected);
  // Not saved yet: the API still has the old colour.
  assert.equal((await settingsOf(`${site.base}/customization`)).styling.primaryColor.light, before);
  // The panes scroll, not the page: the bars stay in view at 1280×800.
  const overflow = await page
    .locator('html')
    .evaluate((html) => html.scrollHeight - html.clientHeight);
  assert.equal(overflow, 0, 'the page itself does not scroll');
  await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'studio-site-editor');

  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' &&
      response.url().endsWith(`${site.base}/customization`),
  );
  await page.getByTestId('save').click();
  assert.equal((await saved).status(), 200);
  await page.getByTestId('save').filter({ hasText: 'Saved' }).waitFor();
  assert.equal(
    (await settingsOf(`${site.base}/customization`)).styling.primaryColor.light.toLowerCase(),
    NEW_PRIMARY,
  );
  await page.close();
});

test('the preview keeps its scroll position when a setting changes the page being read', async () => {
  const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a long page.`);
  const tall = await studioSite(s.t, 'tall', long.join('\n\n'));
  const page = await s.page();
  await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${tall.siteId}`);
  const scrolled = await until('a scrolled preview', async () => {
    const html = await visiblePreview(page);
    const y = await html?.evaluate((root) => {
      root.ownerDocument.defaultView?.scrollTo(0, 600);
      return root.ownerDocument.defaultView?.scrollY;
    });
    return y !== undefined && y > 0 ? y : undefined;
  });
  const field = page.locator('input[data-setting="styling.primaryColor.light"]');
  const rendered = page.waitForResponse((response) => response.url().endsWith('/preview'));
  await field.fill('#0b7a3e');
  await rendered;
  // The new page is shown once its frame has loaded: the visible frame shows the new colour...
  await until('the new colour in the preview', async () =>
    (await previewPrimary(page))?.toLowerCase() === '#0b7a3e' ? true : undefined,
  );
  // ...at the place the user was reading.
  const y = await (await visiblePreview(page))?.evaluate(
    (root) => root.ownerDocument.defaultView?.scrollY,
  );
  assert.equal(y, scrolled);
  await page.close();
});

test('sign-out shows the sign-in screen, and the old session cookie no longer works on /v1', async () => {
  const page = await s.page();
  await signIn(page, s.t.token);
  const cookies = await page.context().cookies();
  const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  const orgs = `/v1/orgs/${s.t.orgId}`;
  const withCookie = () => s.t.app.inject({ method: 'GET', url: orgs, headers: { cookie } });
  assert.equal((await withCookie()).statusCode, 200, 'the session cookie is a credential');
  assert.equal((await page.request.get(orgs)).status(), 200);

  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-in-screen').waitFor();
  await page.getByTestId('token').waitFor();
  assert.equal((await withCookie()).statusCode, 401, 'the old cookie is refused');
  assert.equal((await page.request.get(orgs)).status(), 401, 'the browser is signed out');
  await page.close();
});

test('keyboard: Tab reaches the token field and the sign-in button, Enter signs in', async () => {
  const page = await s.page();
  await page.goto('/studio');
  await page.getByTestId('token').waitFor();
  const focused = () =>
    page
      .locator('html')
      .evaluate((html) => html.ownerDocument.activeElement?.getAttribute('data-testid'));
  let reached = false;
  for (let i = 0; i < 5 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = (await focused()) === 'token';
  }
  assert.ok(reached, 'Tab reaches the token field');
  await page.keyboard.type(s.t.token);
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'sign-in', 'the next Tab is the sign-in button');
  await page.keyboard.press('Enter');
  await page.getByTestId('sign-out').waitFor();
  await page.close();
});

test('every setting control has an accessible name', async () => {
  const page = await s.page();
  await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${site.siteId}`);
  await page.locator('[data-setting="styling.primaryColor.light"]').first().waitFor();
  const unnamed = await page.locator('[data-setting]').evaluateAll((elements) =>
    elements
      .filter((el) => {
        const labels: unknown = Reflect.get(el, 'labels');
        const byLabel = Array.isArray(labels)
          ? labels.length > 0
          : Number(Reflect.get(Object(labels), 'length')) > 0;
        const legend = el.tagName === 'FIELDSET' && el.querySelector('legend') !== null;
        const aria =
          (el.getAttribute('aria-label') ?? '').trim() !== '' ||
          (el.getAttribute('aria-labelledby') ?? '')
            .split(' ')
            .some(
              (id: string) =>
                (el.ownerDocument.getElementById(id)?.textContent ?? '').trim() !== '',
            );
        const text = el.tagName === 'BUTTON' && (el.textContent ?? '').trim() !== '';
        return !(byLabel || legend || aria || text);
      })
      .map(
        (el) => `${el.tagName.toLowerCase()}[data-setting="${el.getAttribute('data-setting')}"]`,
      ),
  );
  assert.deepEqual(unnamed, [], 'controls without an accessible name');
  await page.close();
});

test('a phone (390×844) shows the form and the preview, one above the other, without sideways scrolling', async () => {
  const page = await s.page({ width: 390, height: 844 });
  await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${site.siteId}`);
  const form = page.getByTestId('form-pane');
  const preview = page.getByTestId('preview');
  await form.locator('[data-setting="title"]').waitFor();
  await until('the first preview', async () => ((await previewPrimary(page)) ? true : undefined));
  const formBox = await form.boundingBox();
  const previewBox = await preview.boundingBox();
  assert.ok(formBox !== null && previewBox !== null);
  assert.ok(formBox.width <= 390 && previewBox.width <= 390, 'nothing wider than the phone');
  assert.ok(previewBox.y >= formBox.y + formBox.height - 1, 'the preview below the form');
  const pageWidth = await page.locator('html').evaluate((html) => html.scrollWidth);
  assert.ok(pageWidth <= 390, `no horizontal scrolling (scrollWidth ${pageWidth})`);
  // The screenshot with the sections closed, so the whole screen fits: bars, sections, preview.
  const open = page.locator('[data-testid=form-pane] details[open] > summary');
  while ((await open.count()) > 0) await open.first().click();
  await page.locator('html').evaluate((html) => html.ownerDocument.activeElement?.blur());
  await screenshot(page, 'studio-phone', true);
  await page.close();
});
