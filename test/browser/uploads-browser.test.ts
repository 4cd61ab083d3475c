import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { expectStatus } from '../helpers/app.js';
import {
  type StudioSuite,
  screenshot,
  signIn,
  startStudioSuite,
  until,
  visiblePreview,
} from '../helpers/studio-browser.js';
import { png, svgWithScript } from '../helpers/upload-samples.js';

/**
 * Uploads in Chromium (docs/uploads.md, docs/studio.md): "Create a site" gives the site the title
 * typed (its header shows it, not the first variant's name); "Upload" beside the logo stores an
 * image and fills the field, and once saved the published page shows it; an uploaded SVG
 * opened directly runs none of its script.
 */
let s: StudioSuite;

before(async () => {
  s = await startStudioSuite();
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

let siteId: string;

test("'Create a site' titles the site as typed; its published header shows that title", async () => {
  const page = await s.page();
  await signIn(page, s.t.token);
  await page.getByTestId('new-site').waitFor();
  await page.locator('#new-site-title').fill('Acme Handbook');
  await page.locator('#new-site-variants').fill('English, Deutsch');
  await page.getByTestId('create-site').click();
  await page.locator('input[data-setting="styling.primaryColor.light"]').waitFor();
  siteId = /sites\/([^/?#]+)/.exec(page.url())?.[1] as string;
  assert.ok(siteId);
  const base = `/v1/orgs/${s.t.orgId}/sites/${siteId}`;
  const settings = expectStatus(await s.t.request({ url: `${base}/customization` }), 200);
  assert.equal(settings.title, 'Acme Handbook');
  const published = await s.page();
  // Chromium asks the origin for /favicon.ico by itself; the site links none (not the site's 404).
  await published.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  await published.goto('/s/acme-handbook/');
  assert.equal(
    await published.locator('header .site-title').first().textContent(),
    'Acme Handbook',
  );
  await published.close();
  await page.close();
});

test('Upload beside the logo: the field takes the stored file, and the published page shows it', async () => {
  assert.ok(siteId, 'the site of the first test');
  const page = await s.page();
  await signIn(page, s.t.token);
  await page.goto(`/studio#/orgs/${s.t.orgId}/sites/${siteId}`);
  const header = page.locator('details[data-section=header]');
  await header.locator('summary').click();
  await header.locator('[data-add="header.logo"]').click();
  const upload = page.locator('input[data-upload="header.logo.light"]');
  await upload.waitFor({ state: 'attached' });
  // Every image URL setting offers it.
  for (const path of ['header.logo.dark']) {
    assert.equal(await page.locator(`input[data-upload="${path}"]`).count(), 1, path);
  }
  const logo = png(120, 40, [20, 120, 200]);
  await upload.setInputFiles({ name: 'acme-logo.png', mimeType: 'image/png', buffer: logo });
  const field = page.locator('input[data-setting="header.logo.light"]');
  const url = await until('the uploaded URL in the field', async () => {
    const value = await field.inputValue();
    return value.includes('/@livery/files/') ? value : undefined;
  });
  assert.match(url, new RegExp(`^${s.origin}/s/@livery/files/[\\w-]{43}/acme-logo\\.png$`));
  await page.locator('input[data-setting="header.logo.dark"]').fill(url);
  // The live preview shows the uploaded logo before anything is saved.
  await until('the logo in the preview', async () => {
    const html = await visiblePreview(page);
    const loaded = await html?.evaluate((root) => {
      const img = root.querySelector('img.logo-light') as unknown as {
        complete: boolean;
        naturalWidth: number;
        src: string;
      } | null;
      return img?.complete === true && img.naturalWidth === 120 ? img.src : undefined;
    });
    return loaded === url ? true : undefined;
  });
  await header.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'studio-upload-logo');

  // A file that is not what it says: refused, shown under the field, the field unchanged.
  const fake = page.locator('input[data-upload="header.logo.dark"]');
  await fake.setInputFiles({
    name: 'x.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not a png at all'),
  });
  const error = page.locator('[data-upload-error="header.logo.dark"]');
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /not a PNG image/);
  assert.equal(await page.locator('input[data-setting="header.logo.dark"]').inputValue(), url);
  provoked(400);

  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith(`/sites/${siteId}/customization`),
  );
  await page.getByTestId('save').click();
  assert.equal((await saved).status(), 200);

  const published = await s.page();
  await published.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  await published.goto('/s/acme-handbook/');
  const img = published.locator('header img.logo-light');
  await img.waitFor();
  assert.equal(await img.getAttribute('src'), url);
  const size = await img.evaluate((el) => {
    const image = el as unknown as {
      complete: boolean;
      naturalWidth: number;
      naturalHeight: number;
    };
    return image.complete ? [image.naturalWidth, image.naturalHeight] : undefined;
  });
  assert.deepEqual(size, [120, 40]);
  await published.close();
  await page.close();
});

test('an uploaded SVG opened directly runs none of its script', async () => {
  const signed = expectStatus(
    await s.t.request({
      method: 'POST',
      url: `/v1/orgs/${s.t.orgId}/storage/upload`,
      payload: {
        file: { name: 'evil.svg', type: 'image/svg+xml', size: svgWithScript.length },
        kind: 'organization_file',
      },
    }),
    201,
  ) as { url: string };
  const put = await fetch(signed.url, {
    method: 'PUT',
    headers: { 'content-type': 'image/svg+xml' },
    body: svgWithScript,
  });
  const { url } = (await put.json()) as { url: string };
  const page = await s.page();
  const answer = await page.goto(url);
  assert.equal(answer?.status(), 200);
  assert.equal(answer?.headers()['content-type'], 'image/svg+xml');
  // The document is the SVG (its rect is there) and its script did not run.
  assert.equal(await page.locator('rect').count(), 1);
  assert.notEqual(await page.title(), 'svg-script-ran');
  assert.equal(
    await page.evaluate(() => (globalThis as { __svgRan?: boolean }).__svgRan),
    undefined,
  );
  // The sandbox's own report of the blocked script is expected; nothing else.
  for (let i = s.problems.length - 1; i >= 0; i--) {
    if (/Blocked script execution|sandboxed|Content Security Policy/.test(s.problems[i] ?? '')) {
      s.problems.splice(i, 1);
    }
  }
  await page.close();
});

/** Chromium logs each 4xx a test provokes on purpose ("Failed to load resource"); only those go. */
function provoked(status: number): void {
  const message = `console: Failed to load resource: the server responded with a status of ${status} `;
  for (let i = s.problems.length - 1; i >= 0; i--) {
    if (s.problems[i]?.startsWith(message)) s.problems.splice(i, 1);
  }
}
