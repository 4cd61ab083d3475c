/**
 * PDF export over HTTP (docs/pdf.md): getSpacePDF's temporary URL and its bad inputs, the PDF
 * behind it read back with PDF.js (test/helpers/pdf-text.ts: its text per sheet, where its links
 * jump, its bookmarks, the fonts it embeds), the URL's signature and expiry, the page limit, and
 * the published site's "Export as PDF" under the site's visibility and `pdf.enabled`.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { signTicket } from '../../src/modules/pdf/token.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { newSpace } from '../helpers/content.js';
import { byTitle, publishChanges } from '../helpers/insights.js';
import { readPdf } from '../helpers/pdf-text.js';
import { customize, publishedSite, visit } from '../helpers/published.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const LONG = `${'wrap'.repeat(60)}END`;

async function space() {
  const spaceId = (await newSpace(t, 'Field guide')).id;
  const first = await publishChanges(t, spaceId, [
    {
      operation: 'insert_page',
      title: 'Welcome',
      slug: 'welcome',
      document: {
        markdown: `Start here, then read [the install guide](/guides/install) and [the details](#details).\n\n## Details\n\nMore words.\n\n\`\`\`sh\necho ${LONG}\n\`\`\`\n`,
      },
    },
    { operation: 'insert_page', title: 'Guides', slug: 'guides', type: 'group' },
    {
      operation: 'insert_page',
      title: 'Elsewhere',
      type: 'link',
      target: { kind: 'url', url: 'https://example.test' },
    },
    {
      operation: 'insert_page',
      title: 'Last words',
      slug: 'last',
      document: { markdown: 'The end.' },
    },
  ]);
  const pages = await publishChanges(t, spaceId, [
    {
      operation: 'insert_page',
      title: 'Install',
      slug: 'install',
      into: byTitle(first, 'Guides').id,
      document: {
        markdown: 'Run the installer. Back to [welcome](/welcome). See https://example.org/',
      },
    },
  ]);
  const id = (title: string) => byTitle(pages, title).id;
  return {
    spaceId,
    welcome: id('Welcome'),
    guides: id('Guides'),
    install: id('Install'),
    link: id('Elsewhere'),
  };
}

/** The PDF behind a getSpacePDF URL (or the site's redirect's path), fetched as anyone. */
async function download(url: string) {
  const path = new URL(url, t.config.publicUrl).pathname;
  assert.ok(
    url.startsWith(`${t.config.publicUrl}@livery/pdf/`) || url.startsWith('/s/@livery/pdf/'),
    url,
  );
  const response = await t.app.inject({ method: 'GET', url: path });
  assert.equal(response.statusCode, 200, response.body.slice(0, 300));
  assert.equal(response.headers['content-type'], 'application/pdf');
  assert.match(
    String(response.headers['content-disposition']),
    /^attachment; filename="[\w-]+\.pdf"$/,
  );
  return { bytes: response.rawPayload, read: await readPdf(response.rawPayload) };
}

const sheetOf = (pages: string[], title: string) =>
  pages.findIndex((text) => text.startsWith(title));

describe('getSpacePDF', () => {
  test('the whole space: contents, every page in order from a new sheet, working links, wrapped code', async () => {
    const s = await space();
    const answer = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/pdf` }),
      200,
    );
    assert.deepEqual(Object.keys(answer), ['url']);
    const { bytes, read } = await download(answer.url as string);
    // The first sheet: the title and the contents, in the tree's order (the link page has no content).
    const contents = read.pages[0] ?? '';
    assert.match(contents, /^Field guide\nContents\n/);
    const order = ['Welcome', 'Guides', 'Install', 'Last words'].map((title) =>
      contents.indexOf(`${title} `),
    );
    assert.ok(
      order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0))),
      contents,
    );
    assert.ok(!contents.includes('Elsewhere'));
    // Each page starts a sheet of its own, in order.
    const sheets = ['Welcome', 'Guides', 'Install', 'Last words'].map((title) =>
      sheetOf(read.pages, title),
    );
    assert.ok(
      sheets.every((sheet, i) => sheet > 0 && (i === 0 || sheet > (sheets[i - 1] ?? 0))),
      JSON.stringify(sheets),
    );
    const [welcome = 0, guides = 0, install = 0, last = 0] = sheets;
    // Contents entries jump to their pages (1-based sheet numbers).
    assert.deepEqual(
      [...new Set(read.jumps[0])].sort((a, b) => a - b),
      [welcome + 1, guides + 1, install + 1, last + 1],
    );
    // Links between pages jump within the PDF: Welcome → Install and its own heading; Install → Welcome.
    assert.deepEqual(read.jumps[welcome], [install + 1, welcome + 1]);
    assert.deepEqual(read.jumps[install], [welcome + 1]);
    assert.deepEqual(read.urls[install], ['https://example.org/']);
    // The long line of code wraps and is all there.
    const welcomeText = read.pages[welcome] ?? '';
    assert.ok(welcomeText.replace(/\s+/g, '').includes(`echo${LONG}`), welcomeText);
    assert.ok(
      welcomeText.split('\n').every((line) => line.length < 200),
      'no line runs off the sheet',
    );
    // Bookmarks in the tree's shape.
    assert.deepEqual(read.outline, ['Welcome', 'Guides', '  Install', 'Last words']);
    // The default fonts (Inter, IBM Plex Mono), embedded.
    const fonts = [
      ...new Set(
        Buffer.from(bytes)
          .toString('latin1')
          .match(/\/BaseFont \/[A-Z]{6}\+[\w-]+/g),
      ),
    ];
    assert.ok(
      fonts.some((f) => f.endsWith('+Inter-Regular')),
      fonts.join(),
    );
    assert.ok(
      fonts.some((f) => /\+IBMPlexMono/.test(f)),
      fonts.join(),
    );
  });

  test('one page with only=true; a page and its descendants without', async () => {
    const s = await space();
    const one = expectStatus(
      await t.request({
        method: 'GET',
        url: `/v1/spaces/${s.spaceId}/pdf?page=${s.install}&only=true`,
      }),
      200,
    );
    const alone = (await download(one.url as string)).read;
    assert.deepEqual(alone.outline, ['Install']);
    // A link to a page left out of the PDF is no link: only the contents jump.
    assert.deepEqual(alone.jumps.slice(1).flat(), []);
    const chapter = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/pdf?page=${s.guides}` }),
      200,
    );
    assert.deepEqual((await download(chapter.url as string)).read.outline, ['Guides', '  Install']);
    const explicit = expectStatus(
      await t.request({
        method: 'GET',
        url: `/v1/spaces/${s.spaceId}/pdf?page=${s.guides}&only=false`,
      }),
      200,
    );
    assert.deepEqual((await download(explicit.url as string)).read.outline, [
      'Guides',
      '  Install',
    ]);
  });

  test('bad inputs name their field', async () => {
    const s = await space();
    const get = (query: string) =>
      t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/pdf${query}` });
    assert.match(expectError(await get('?page=nope'), 404), /page/);
    assert.match(expectError(await get('?only=true'), 400), /only/);
    assert.match(expectError(await get('?only=yes'), 400), /only/);
    assert.match(expectError(await get(`?page=${s.link}`), 400), /page.*link/);
    assert.match(expectError(await get('?page='), 400), /page/);
    expectError(await t.request({ method: 'GET', url: '/v1/spaces/nope/pdf' }), 404);
    expectError(await t.app.inject({ method: 'GET', url: `/v1/spaces/${s.spaceId}/pdf` }), 401);
  });

  test('the URL is the capability: altered → 404, expired → 410', async () => {
    const s = await space();
    const answer = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/pdf` }),
      200,
    );
    const path = new URL(answer.url as string).pathname;
    const altered = `${path.slice(0, -3)}${path.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expectError(await t.app.inject({ method: 'GET', url: altered }), 404);
    expectError(await t.app.inject({ method: 'GET', url: '/s/@livery/pdf/x.y' }), 404);
    const revision = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/content` }),
      200,
    );
    const expired = signTicket(t.services.serverKey, {
      spaceId: s.spaceId,
      revisionId: revision.id as string,
      expires: Math.floor(Date.now() / 1000) - 1,
    });
    assert.match(
      expectError(await t.app.inject({ method: 'GET', url: `/s/@livery/pdf/${expired}` }), 410),
      /expired/,
    );
  });
});

describe('one PDF at a time', () => {
  test('a download while another is being written: 503 with Retry-After, then it works', async () => {
    const s = await space();
    const { url } = await t.services.pdf.temporaryUrl(s.spaceId, {});
    const token = new URL(url).pathname.split('/').at(-1) ?? '';
    // The first download's reader takes nothing yet: its PDF stays being written.
    let hold = true;
    const held: (() => void)[] = [];
    let first: Writable | undefined;
    const writing = t.services.pdf.write(
      token,
      () => {
        first = new Writable({
          write: (_chunk, _encoding, done) => (hold ? held.push(() => done()) : done()),
        });
        return first;
      },
      t.app.log,
    );
    while (first === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    const busy = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    assert.match(expectError(busy, 503), /Another PDF/);
    assert.equal(busy.headers['retry-after'], '30');
    hold = false;
    for (const release of held) release();
    await writing;
    const { read } = await download(url);
    assert.equal(read.outline.length, 4);
  });
});

describe('PDF_MAX_PAGES', () => {
  test('a PDF over the limit is a 413 that says how to export a part', async () => {
    const small = await createTestApp({ PDF_MAX_PAGES: '2' });
    try {
      const previous = t;
      t = small;
      const s = await space();
      const message = expectError(
        await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/pdf` }),
        413,
      );
      assert.match(message, /4 pages, over the limit of 2 \(PDF_MAX_PAGES\).*`page`/);
      expectStatus(
        await t.request({ method: 'GET', url: `/v1/spaces/${s.spaceId}/pdf?page=${s.guides}` }),
        200,
      );
      t = previous;
    } finally {
      await small.close();
    }
  });
});

describe('Export as PDF on the published site', () => {
  test('the page menu links to the PDF of the whole variant, which a visitor downloads', async () => {
    const site = await publishedSite(t, 'pdf-public');
    // GitBook's `pdf` page action (not among Livery's default items).
    await customize(t, site, { pageActions: { items: ['pdf', 'markdown'] } });
    const page = await visit(t, `${site.address}/intro`);
    assert.equal(page.statusCode, 200);
    const href = /href="([^"]*@livery\/pdf\?siteSpaceId=[^"]*)"/
      .exec(page.body)?.[1]
      ?.replaceAll('&amp;', '&');
    assert.ok(href, 'an Export as PDF link');
    const redirect = await visit(t, href);
    assert.equal(redirect.statusCode, 302);
    const { read } = await download(String(redirect.headers.location));
    assert.deepEqual(read.outline, ['Intro', '  Child', 'Guides', '  Install', 'Last']);
    assert.ok(
      read.pages.some((text) => text.startsWith('Install\nnpm i')),
      read.pages.join('|'),
    );
  });

  test('pdf.enabled off: no link, and the address is a 403', async () => {
    const site = await publishedSite(t, 'pdf-off');
    await customize(t, site, {
      pdf: { enabled: false },
      pageActions: { items: ['pdf', 'markdown'] },
    });
    const page = await visit(t, `${site.address}/intro`);
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes('@livery/pdf'));
    assert.match(expectError(await visit(t, `${site.address}/@livery/pdf`), 403), /pdf\.enabled/);
  });

  test("the site's visibility holds: unpublished or share-link without its key, the plain 404", async () => {
    const hidden = await publishedSite(t, 'pdf-unpublished', { publish: false });
    assert.equal((await visit(t, `${hidden.address}/@livery/pdf`)).statusCode, 404);
    const shared = await publishedSite(t, 'pdf-shared', { visibility: 'share-link' });
    const refused = await visit(t, `${shared.address}/@livery/pdf`);
    assert.equal(refused.statusCode, 404);
    assert.ok(!('location' in refused.headers));
  });

  test("the site's fonts and colors: Roboto and its code font from the customization", async () => {
    const site = await publishedSite(t, 'pdf-fonts');
    await customize(t, site, { styling: { font: 'Roboto', monospaceFont: 'FiraCode' } });
    const redirect = await visit(t, `${site.address}/@livery/pdf`);
    assert.equal(redirect.statusCode, 302);
    const { bytes } = await download(String(redirect.headers.location));
    const fonts = Buffer.from(bytes).toString('latin1');
    assert.match(fonts, /\/BaseFont \/[A-Z]{6}\+Roboto-Regular/);
  });
});
