/**
 * What a PDF takes from Livery's stored files (docs/pdf.md): a custom font uploaded in the studio
 * (WOFF2, decompressed to TrueType) embedded for the site's `styling.font`; the header logo on
 * the title sheet; page images stored by Livery inline, others as their text; a font file that
 * cannot be parsed falls back to the default font, never an error. The PDFs are read back with
 * PDF.js: the fonts they embed, and the images each sheet paints (its operator list).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { LATO_400 } from '../helpers/fonts.js';
import { publishChanges } from '../helpers/insights.js';
import { readPdf } from '../helpers/pdf-text.js';
import { customize, type PublishedSite, publishedSite } from '../helpers/published.js';
import { png, ttf } from '../helpers/upload-samples.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

/** A file uploaded as the studio does; its public URL (`…/@livery/files/{hash}/{name}`). */
async function stored(bytes: Buffer, name: string, type: string, kind: string) {
  const signed = expectStatus(
    await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/storage/upload`,
      payload: { file: { name, type, size: bytes.length }, kind },
    }),
    201,
  ) as { url: string; key: string };
  const put = await t.app.inject({
    method: 'PUT',
    url: new URL(signed.url).pathname,
    headers: { 'content-type': type },
    payload: bytes,
  });
  const object = expectStatus(put, 200) as { key: string; url: string };
  return { key: object.key, url: object.url };
}

/**
 * A custom font (createCustomFont) of one WOFF2 or TrueType file, as the site's body font, with
 * `logo` as its header logo (the customization is replaced as a whole).
 */
async function customFont(
  site: PublishedSite,
  bytes: Buffer,
  name: string,
  type: string,
  logo: string,
) {
  const { key } = await stored(bytes, name, type, 'customization_font');
  const font = expectStatus(
    await t.request({
      method: 'PUT',
      url: `/v1/orgs/${t.orgId}/fonts`,
      payload: { fontFamily: 'Brand Sans', fontFaces: [{ weight: 400, storageKey: key }] },
    }),
    201,
  );
  const { id, custom, fontFamily, fontFaces } = font;
  await customize(t, site, {
    styling: { font: { id, custom, fontFamily, fontFaces } },
    header: { logo: { light: logo, dark: logo } },
  });
}

async function pdfOf(spaceId: string) {
  const answer = expectStatus(
    await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/pdf` }),
    200,
  );
  const response = await t.app.inject({
    method: 'GET',
    url: new URL(answer.url as string).pathname,
  });
  assert.equal(response.statusCode, 200, response.body.slice(0, 300));
  const bytes = response.rawPayload;
  const fonts = [
    ...new Set(
      Buffer.from(bytes)
        .toString('latin1')
        .match(/\/BaseFont \/[A-Z]{6}\+[\w-]+/g),
    ),
  ];
  return { read: await readPdf(bytes), fonts, images: await imagesPerSheet(bytes) };
}

/** How many images each sheet paints, as PDF.js draws it. */
async function imagesPerSheet(bytes: Uint8Array): Promise<number[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const counts: number[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const { fnArray } = await (await pdf.getPage(n)).getOperatorList();
    counts.push(fnArray.filter((op) => op === OPS.paintImageXObject).length);
  }
  await pdf.destroy();
  return counts;
}

describe('stored files in the PDF', () => {
  test('an uploaded WOFF2 font, the header logo and a stored page image are in the PDF', async () => {
    const site = await publishedSite(t, 'pdf-assets');
    const spaceId = site.tree.spaceId;
    const logo = await stored(png(40, 20), 'logo.png', 'image/png', 'organization_file');
    const chart = await stored(
      png(900, 300, [30, 90, 200]),
      'chart.png',
      'image/png',
      'organization_file',
    );
    await customFont(site, LATO_400, 'lato.woff2', 'font/woff2', logo.url);
    await publishChanges(t, spaceId, [
      {
        operation: 'insert_page',
        title: 'Pictures',
        slug: 'pictures',
        document: {
          markdown: `Before.\n\n![The chart](${chart.url})\n\nBetween.\n\n![Remote](https://example.test/remote.png)\n\nAfter.`,
        },
      },
    ]);
    const { read, fonts, images } = await pdfOf(spaceId);
    // Lato (the uploaded WOFF2, embedded as TrueType) for the text; Inter no longer.
    assert.ok(
      fonts.some((f) => f.endsWith('+Lato-Regular')),
      fonts.join(),
    );
    assert.ok(!fonts.some((f) => f.endsWith('+Inter-Regular')), fonts.join());
    // The logo on the title sheet.
    assert.equal(images[0], 1, JSON.stringify(images));
    // The stored image inline on its page's sheet; the remote one as its text.
    const sheet = read.pages.findIndex((text) => text.startsWith('Pictures'));
    assert.ok(sheet > 0);
    assert.equal(images[sheet], 1, JSON.stringify(images));
    assert.match(
      read.pages[sheet] ?? '',
      /Before\.[\s\S]*Between\.[\s\S]*\[Image: Remote\][\s\S]*After\./,
    );
    assert.ok(!(read.pages[sheet] ?? '').includes('[Image: The chart]'));
    assert.equal(
      images.reduce((a, b) => a + b, 0),
      2,
      'no other sheet paints an image',
    );
  });

  test('a font file that cannot be parsed falls back to the default font; a logo not stored by Livery is left out', async () => {
    const site = await publishedSite(t, 'pdf-assets-bad');
    await customFont(site, ttf, 'broken.ttf', 'font/ttf', 'https://example.test/logo.png');
    const { fonts, images } = await pdfOf(site.tree.spaceId);
    assert.ok(
      fonts.some((f) => f.endsWith('+Inter-Regular')),
      fonts.join(),
    );
    assert.deepEqual(
      images.filter((n) => n > 0),
      [],
    );
  });
});
