import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { LATO_400 } from '../helpers/fonts.js';
import {
  type StudioSuite,
  signInAndOpen,
  startStudioSuite,
  studioSite,
  until,
  visiblePreview,
} from '../helpers/studio-browser.js';

/**
 * Custom fonts in Chromium (docs/customization.md, "Custom fonts"; docs/studio.md): a font file
 * uploaded in the studio ("Upload a font": generateStorageUploadURL, PUT, createCustomFont),
 * chosen as the site's font and saved; the studio's preview and the published page then use it:
 * the computed font-family names it, and its @font-face file loads (200) and is used.
 */
let s: StudioSuite;

before(async () => {
  s = await startStudioSuite();
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

const FAMILY = 'Livery Test Sans';

test('upload a font in the studio, save, and see the published page use it', async () => {
  const site = await studioSite(s.t, 'typeset');
  const page = await s.page();
  await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${site.siteId}`);
  const fonts = page.locator('details[data-section=fonts]');
  await fonts.waitFor();
  if ((await fonts.getAttribute('open')) === null) await fonts.locator('> summary').click();

  const upload = page.locator('details[data-font-upload="styling.font"]');
  await upload.locator('> summary').click();
  await upload.locator('input[type=file]').setInputFiles({
    name: 'lato-regular.woff2',
    mimeType: 'font/woff2',
    buffer: LATO_400,
  });
  await upload.locator('input[type=text]').fill(FAMILY);
  await upload.getByRole('button', { name: 'Upload and use' }).click();
  await upload.getByRole('status').filter({ hasText: 'Uploaded' }).waitFor();

  const listed = (await s.t.request({ method: 'GET', url: `/v1/orgs/${s.t.orgId}/fonts` })).json()
    .items as { id: string; fontFamily: string; fontFaces: { sources: { url: string }[] }[] }[];
  assert.deepEqual(
    listed.map((f) => f.fontFamily),
    [FAMILY],
  );
  const font = listed[0] as (typeof listed)[number];
  const fileUrl = font.fontFaces[0]?.sources[0]?.url as string;
  const select = page.locator('select[data-setting="styling.font"]');
  assert.equal(await select.inputValue(), `font:${font.id}`);

  // The studio's preview, before saving: the draft's font.
  await until('the preview in the custom font', async () => {
    const html = await visiblePreview(page);
    const family = await html
      ?.locator('main p')
      .first()
      .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).fontFamily ?? '');
    return family?.includes(FAMILY) ? true : undefined;
  });

  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith('/customization'),
  );
  await page.getByTestId('save').click();
  assert.equal((await saved).status(), 200);

  // The published page, as a visitor sees it.
  const visitor = await s.page();
  // Chromium asks the origin's /favicon.ico of a page without an icon: not Livery's to answer.
  await visitor.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  const fontFile = visitor.waitForResponse((r) => r.url() === fileUrl);
  await visitor.goto(`/s/typeset/`);
  assert.equal((await fontFile).status(), 200, 'the @font-face file loads');
  const family = await visitor
    .locator('main p')
    .first()
    .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).fontFamily ?? '');
  assert.ok(family.startsWith(`"${FAMILY}"`), family);
  const faces = (await visitor.evaluate(`document.fonts.ready.then(() =>
    [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family + ':' + f.weight))`)) as string[];
  const loaded = faces.includes(`${FAMILY}:400`) || faces.includes(`"${FAMILY}":400`);
  assert.ok(loaded, `the custom font face is loaded and used: ${faces.join(', ')}`);
  await visitor.close();
  await page.close();
});
