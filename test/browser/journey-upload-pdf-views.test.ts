import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, afterEach, before, test } from 'node:test';
import { LATO_400 } from '../helpers/fonts.js';
import { readPdf } from '../helpers/pdf-text.js';
import {
  type StudioSite,
  type StudioSuite,
  signInAndOpen,
  startStudioSuite,
  studioSite,
  until,
} from '../helpers/studio-browser.js';
import { png } from '../helpers/upload-samples.js';

/**
 * Issue 30's journey, end to end in Chromium: in the studio a designer uploads a font and a logo
 * and saves; a reader opens the published site and sees both, exports the variant as a PDF that
 * embeds the font and carries the logo; back in the studio, the insights screen counts that
 * reader's page view. Every step goes through the real server, database and browser.
 */
let s: StudioSuite;
let site: StudioSite;
const FAMILY = 'Journey Sans';

before(async () => {
  s = await startStudioSuite();
  site = await studioSite(s.t, 'journey');
  // The site offers "Export as PDF" in its page menu, and has an emoji favicon (without one the
  // reader's browser asks the origin for /favicon.ico: a 404 that is not the site's).
  const setup = await s.t.request({
    method: 'PUT',
    url: `${site.base}/customization`,
    payload: {
      favicon: { emoji: '🧭' },
      pdf: { enabled: true },
      pageActions: { items: ['markdown', 'pdf'] },
    },
  });
  assert.equal(setup.statusCode, 200, setup.body);
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

test('upload a font and a logo, see both published, export the PDF, see the view counted', async () => {
  const studio = await s.page();
  await signInAndOpen(studio, s.t.token, `#/orgs/${s.t.orgId}/sites/${site.siteId}`);

  // 1. The font: "Upload a font" beside the site's font.
  const fonts = studio.locator('details[data-section=fonts]');
  await fonts.waitFor();
  if ((await fonts.getAttribute('open')) === null) await fonts.locator('> summary').click();
  const fontUpload = studio.locator('details[data-font-upload="styling.font"]');
  await fontUpload.locator('> summary').click();
  await fontUpload.locator('input[type=file]').setInputFiles({
    name: 'journey-regular.woff2',
    mimeType: 'font/woff2',
    buffer: LATO_400,
  });
  await fontUpload.locator('input[type=text]').fill(FAMILY);
  await fontUpload.getByRole('button', { name: 'Upload and use' }).click();
  await fontUpload.getByRole('status').filter({ hasText: 'Uploaded' }).waitFor();

  // 2. The logo: "Upload" beside the header's logo.
  const header = studio.locator('details[data-section=header]');
  await header.locator('summary').click();
  await header.locator('[data-add="header.logo"]').click();
  const logoUpload = studio.locator('input[data-upload="header.logo.light"]');
  await logoUpload.waitFor({ state: 'attached' });
  await logoUpload.setInputFiles({
    name: 'journey-logo.png',
    mimeType: 'image/png',
    buffer: png(160, 40, [200, 60, 20]),
  });
  const logoField = studio.locator('input[data-setting="header.logo.light"]');
  const logoUrl = await until('the uploaded logo in the field', async () => {
    const value = await logoField.inputValue();
    return value.includes('/@livery/files/') ? value : undefined;
  });
  await studio.locator('input[data-setting="header.logo.dark"]').fill(logoUrl);

  const saved = studio.waitForResponse(
    (r) =>
      r.request().method() === 'PUT' && r.url().endsWith(`/sites/${site.siteId}/customization`),
  );
  await studio.getByTestId('save').click();
  assert.equal((await saved).status(), 200);

  // 3. A reader sees both on the published site.
  const fontsListed = (await s.t.request({ url: `/v1/orgs/${s.t.orgId}/fonts` })).json().items as {
    fontFaces: { sources: { url: string }[] }[];
  }[];
  const fontUrl = fontsListed[0]?.fontFaces[0]?.sources[0]?.url as string;
  const reader = await s.page();
  const fontLoaded = reader.waitForResponse((r) => r.url() === fontUrl);
  await reader.goto(`/s/${site.basename}/`);
  assert.equal((await fontLoaded).status(), 200, 'the @font-face file loads');
  const family = await reader
    .locator('main p')
    .first()
    .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).fontFamily ?? '');
  assert.ok(family.startsWith(`"${FAMILY}"`), family);
  const logo = reader.locator('header img.logo-light');
  await logo.waitFor();
  assert.equal(await logo.getAttribute('src'), logoUrl);
  assert.deepEqual(
    await logo.evaluate((el) => {
      const image = el as unknown as { complete: boolean; naturalWidth: number };
      return image.complete ? image.naturalWidth : 0;
    }),
    160,
  );

  // 4. The reader exports the variant as a PDF: every page, the font embedded, the logo in it.
  await reader.click('.page-actions-more summary');
  const exportPdf = reader.locator('.page-actions-more li .page-action', {
    hasText: 'Export as PDF',
  });
  const [download] = await Promise.all([
    reader.waitForEvent('download', { timeout: 60_000 }),
    exportPdf.click(),
  ]);
  const bytes = await readFile(await download.path());
  const pdf = await readPdf(bytes);
  assert.ok(pdf.outline.length >= 2, pdf.outline.join());
  const raw = Buffer.from(bytes).toString('latin1');
  assert.match(raw, /\/BaseFont \/[A-Z]{6}\+Lato/, 'the uploaded font is embedded');
  assert.match(raw, /\/Subtype \/Image/, 'the logo is drawn');

  // 5. Back in the studio, the insights screen counts the reader's page view.
  // Still signed in: the site's Insights screen.
  await studio.goto(`/studio#/orgs/${s.t.orgId}/sites/${site.siteId}/insights`);
  await studio.getByTestId('insights').waitFor();
  const views = await until('the page view counted', async () => {
    await studio.getByTestId('insights-refresh').click();
    const text = await studio.getByTestId('insights-views').textContent({ timeout: 2_000 });
    return Number(text) >= 1 ? Number(text) : undefined;
  });
  assert.equal(views, 1);
  await reader.close();
  await studio.close();
});
