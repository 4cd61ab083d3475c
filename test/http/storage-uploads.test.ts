import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { StorageRepository } from '../../src/modules/storage/repository.js';
import { StorageService } from '../../src/modules/storage/service.js';
import { studioCsp } from '../../src/modules/studio/asset-routes.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { customize, publishedSite, visit } from '../helpers/published.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';
import { png, pngHeader, svgWithScript, ttf, woff, woff2 } from '../helpers/upload-samples.js';

/**
 * Uploads (docs/uploads.md): generateStorageUploadURL hands out a signed, expiring, single-use
 * URL; a PUT of the bytes there stores them (checked by their content) in the shared file
 * store, served from `@livery/files/…` with a year's cache and usable as a site's logo.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Signed = { object: string; url: string; key: string };
type Uploaded = { key: string; name: string; contentType: string; size: number; url: string };

const ask = (body: object, orgId = t.orgId) =>
  t.request({ method: 'POST', url: `/v1/orgs/${orgId}/storage/upload`, payload: body });

async function signed(
  name: string,
  type: string,
  size: number,
  kind = 'organization_file',
): Promise<Signed> {
  return expectStatus(await ask({ file: { name, type, size }, kind }), 201) as Signed;
}

/** The URL's path as Livery serves it (`/s/@livery/uploads/…`). */
const pathOf = (url: string) => new URL(url).pathname;

const put = (url: string, body: Buffer, type: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'PUT',
    url: pathOf(url),
    payload: body,
    headers: { 'content-type': type, ...headers },
  });

async function upload(name: string, type: string, bytes: Buffer, kind = 'organization_file') {
  const s = await signed(name, type, bytes.length, kind);
  return { signed: s, uploaded: expectStatus(await put(s.url, bytes, type), 200) as Uploaded };
}

describe('generateStorageUploadURL', () => {
  test("answers GitBook's StorageUploadURL: a Livery URL below PUBLIC_URL and a key", async () => {
    const res = await ask({
      file: { name: 'logo.png', type: 'image/png', size: 100 },
      kind: 'organization_file',
    });
    const body = expectStatus(res, 201) as Signed;
    assert.deepEqual(Object.keys(body).sort(), ['key', 'object', 'url']);
    assert.equal(body.object, 'storage-signed-url');
    assert.match(
      body.url,
      /^http:\/\/livery\.test\/s\/@livery\/uploads\/[A-Za-z0-9]{20}\.[\w-]{43}$/,
    );
    assert.match(body.key, new RegExp(`^orgs/${t.orgId}/organization_file/[A-Za-z0-9]{20}$`));
  });

  const bad: [string, object, RegExp][] = [
    ['no file', { kind: 'organization_file' }, /file/],
    ['no kind', { file: { name: 'a.png', type: 'image/png', size: 1 } }, /kind/],
    ['an unknown kind', { file: { name: 'a.png', type: 'image/png', size: 1 }, kind: 'x' }, /kind/],
    [
      'a size that is text',
      { file: { name: 'a.png', type: 'image/png', size: '1' }, kind: 'organization_file' },
      /size/,
    ],
    [
      'a negative size',
      { file: { name: 'a.png', type: 'image/png', size: -1 }, kind: 'organization_file' },
      /file\.size/,
    ],
    [
      'a fractional size',
      { file: { name: 'a.png', type: 'image/png', size: 1.5 }, kind: 'organization_file' },
      /file\.size/,
    ],
    [
      'an image over 5 MiB',
      {
        file: { name: 'a.png', type: 'image/png', size: 5 * 1024 * 1024 + 1 },
        kind: 'organization_file',
      },
      /file\.size.*5242880/,
    ],
    [
      'a font over 10 MiB',
      {
        file: { name: 'a.woff2', type: 'font/woff2', size: 10 * 1024 * 1024 + 1 },
        kind: 'customization_font',
      },
      /file\.size/,
    ],
    [
      'a type the kind does not take',
      { file: { name: 'a.html', type: 'text/html', size: 10 }, kind: 'organization_file' },
      /file\.type.*text\/html/,
    ],
    [
      'a font as an organization file',
      { file: { name: 'a.woff2', type: 'font/woff2', size: 10 }, kind: 'organization_file' },
      /file\.type/,
    ],
    [
      'an image as a font',
      { file: { name: 'a.png', type: 'image/png', size: 10 }, kind: 'customization_font' },
      /file\.type/,
    ],
    [
      'a zip import',
      { file: { name: 'a.zip', type: 'application/zip', size: 10 }, kind: 'import_file' },
      /file\.type/,
    ],
    [
      'an empty name',
      { file: { name: ' ', type: 'image/png', size: 10 }, kind: 'organization_file' },
      /file\.name/,
    ],
    [
      'a name with a slash',
      { file: { name: 'a/b.png', type: 'image/png', size: 10 }, kind: 'organization_file' },
      /file\.name/,
    ],
    [
      'a name ..',
      { file: { name: '..', type: 'image/png', size: 10 }, kind: 'organization_file' },
      /file\.name/,
    ],
    [
      'a long name',
      {
        file: { name: `${'é'.repeat(100)}.png`, type: 'image/png', size: 10 },
        kind: 'organization_file',
      },
      /file\.name/,
    ],
  ];
  for (const [what, body, message] of bad) {
    test(`400 for ${what}, naming the field`, async () => {
      assert.match(expectError(await ask(body), 400), message);
    });
  }

  test('404 for an organization the caller is not in; 403 below admin', async () => {
    expectError(
      await ask(
        { file: { name: 'a.png', type: 'image/png', size: 1 }, kind: 'organization_file' },
        'nope',
      ),
      404,
    );
    const editor = await memberWithRole(t, 'edit');
    const res = await requestAs(t, editor, {
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/storage/upload`,
      payload: { file: { name: 'a.png', type: 'image/png', size: 1 }, kind: 'organization_file' },
    });
    assert.match(expectError(res, 403), /admin/);
  });
});

describe('the upload URL', () => {
  test('takes the bytes once; the file is served from the file store with a year of cache', async () => {
    const bytes = png(3, 2);
    const { signed: s, uploaded } = await upload('My logo.png', 'image/png', bytes);
    assert.equal(uploaded.key, s.key);
    assert.equal(uploaded.contentType, 'image/png');
    assert.equal(uploaded.size, bytes.length);
    assert.match(
      uploaded.url,
      /^http:\/\/livery\.test\/s\/@livery\/files\/[\w-]{43}\/My%20logo\.png$/,
    );
    const served = await visit(t, pathOf(uploaded.url));
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.deepEqual(served.rawPayload, bytes);
    const again = await put(s.url, bytes, 'image/png');
    assert.match(expectError(again, 410), /used at .*one upload/);
    const object = await t.services.storage.objectOf(t.orgId, s.key);
    assert.deepEqual(object, {
      key: s.key,
      organizationId: t.orgId,
      kind: 'organization_file',
      name: 'My logo.png',
      contentType: 'image/png',
      size: bytes.length,
      hash: object?.hash,
      url: uploaded.url,
    });
    assert.equal(await t.services.storage.objectOf('another-org', s.key), undefined);
  });

  test('the same bytes are stored once, shared with revision files', async () => {
    const bytes = png(5, 5, [1, 2, 3]);
    const a = (await upload('a.png', 'image/png', bytes)).uploaded;
    const b = (await upload('b.png', 'image/png', bytes)).uploaded;
    assert.notEqual(a.key, b.key);
    const hash = new URL(a.url).pathname.split('/')[4] as string;
    const rows = await t.db
      .selectFrom('file_blobs')
      .select('hash')
      .where('hash', '=', hash)
      .execute();
    assert.equal(rows.length, 1);
  });

  test('an expired URL: 410, and nothing stored', async () => {
    const bytes = png(2, 2);
    const s = await signed('late.png', 'image/png', bytes.length);
    await t.db
      .updateTable('storage_uploads')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('key', '=', s.key)
      .execute();
    assert.match(expectError(await put(s.url, bytes, 'image/png'), 410), /expired at/);
    assert.equal(await t.services.storage.objectOf(t.orgId, s.key), undefined);
  });

  test("an expired URL's row is deleted a day after it expires (410 until then)", async () => {
    const old = await signed('old.png', 'image/png', 10);
    const recent = await signed('recent.png', 'image/png', 10);
    const ago = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
    await t.db
      .updateTable('storage_uploads')
      .set({ expires_at: ago(25) })
      .where('key', '=', old.key)
      .execute();
    await t.db
      .updateTable('storage_uploads')
      .set({ expires_at: ago(23) })
      .where('key', '=', recent.key)
      .execute();
    // A fresh service prunes at its first URL (then at most once a minute).
    const fresh = new StorageService(new StorageRepository(t.db), {
      key: t.services.serverKey,
      publicUrl: t.config.publicUrl,
      fileUrl: (file) => t.services.files.urlOf(file),
    });
    await fresh.createUploadUrl(
      t.orgId,
      { file: { name: 'a.png', type: 'image/png', size: 1 }, kind: 'organization_file' },
      null,
    );
    const keys = (await t.db.selectFrom('storage_uploads').select('key').execute()).map(
      (r) => r.key,
    );
    assert.ok(!keys.includes(old.key));
    assert.ok(keys.includes(recent.key));
    assert.match(expectError(await put(old.url, png(), 'image/png'), 410), /expired/);
  });

  test('an altered URL: 403', async () => {
    const s = await signed('x.png', 'image/png', 10);
    const url = s.url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    assert.match(expectError(await put(url, png(), 'image/png'), 403), /signed/);
    expectError(await put(`${s.url.split('.').slice(0, -1).join('.')}.x`, png(), 'image/png'), 403);
  });

  test('two racing PUTs of one URL: one stores, the other is 410', async () => {
    const bytes = png(6, 6);
    const s = await signed('race.png', 'image/png', bytes.length);
    const answers = await Promise.all([1, 2, 3].map(() => put(s.url, bytes, 'image/png')));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 410, 410]);
  });

  const refused: [string, string, string, () => Buffer, string, RegExp, number?][] = [
    [
      'a JPEG declared PNG (content, not name)',
      'a.png',
      'image/png',
      () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Array(20).fill(0)]),
      'image/png',
      /not a PNG image.*JPEG/,
    ],
    [
      'text declared PNG',
      'a.png',
      'image/png',
      () => Buffer.from('hello, world, not a png'),
      'image/png',
      /not a PNG image/,
    ],
    [
      'a gzipped SVG',
      'a.svg',
      'image/svg+xml',
      () => gzipSync(svgWithScript),
      'image/svg+xml',
      /gzip-compressed/,
    ],
    [
      'an SVG with entities (billion laughs)',
      'a.svg',
      'image/svg+xml',
      () =>
        Buffer.from(
          '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>',
        ),
      'image/svg+xml',
      /entities/,
    ],
    [
      'a PNG claiming 100000×100000 pixels',
      'a.png',
      'image/png',
      () => pngHeader(100_000, 100_000),
      'image/png',
      /pixels/,
    ],
    [
      'a PNG declared SVG',
      'a.svg',
      'image/svg+xml',
      () => png(),
      'image/svg+xml',
      /not an SVG image.*PNG/,
    ],
    [
      'another Content-Type than declared',
      'a.png',
      'image/png',
      () => png(),
      'image/jpeg',
      /Content-Type: must be image\/png/,
    ],
    ['no Content-Type', 'a.png', 'image/png', () => png(), '', /Content-Type/],
  ];
  for (const [what, name, type, bytes, sent, message] of refused) {
    test(`400 for ${what}; the URL stays usable`, async () => {
      const body = bytes();
      const s = await signed(name, type, body.length);
      const res = await t.app.inject({
        method: 'PUT',
        url: pathOf(s.url),
        payload: body,
        headers: sent === '' ? {} : { 'content-type': sent },
      });
      assert.match(expectError(res, 400), message);
      assert.equal(await t.services.storage.objectOf(t.orgId, s.key), undefined);
      const row = await t.db
        .selectFrom('storage_uploads')
        .select('used_at')
        .where('key', '=', s.key)
        .executeTakeFirst();
      assert.equal(row?.used_at, null);
    });
  }

  test('a body longer or shorter than file.size: 400', async () => {
    const bytes = png();
    const s = await signed('a.png', 'image/png', bytes.length - 1);
    assert.match(
      expectError(await put(s.url, bytes, 'image/png'), 400),
      /Content-Length: .* file\.size/,
    );
    const s2 = await signed('b.png', 'image/png', bytes.length + 5);
    assert.match(expectError(await put(s2.url, bytes, 'image/png'), 400), /Content-Length/);
  });

  test('a chunked body (no Content-Length) longer than file.size: 400, and it is not stored', async () => {
    const bytes = png(4, 4);
    const s = await signed('chunked.png', 'image/png', bytes.length - 3);
    const res = await t.app.inject({
      method: 'PUT',
      url: pathOf(s.url),
      payload: Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]),
      headers: { 'content-type': 'image/png', 'transfer-encoding': 'chunked' },
    });
    assert.match(expectError(res, 400), /larger than the file\.size/);
    assert.equal(await t.services.storage.objectOf(t.orgId, s.key), undefined);
    const exact = await signed('chunked2.png', 'image/png', bytes.length);
    const ok = await t.app.inject({
      method: 'PUT',
      url: pathOf(exact.url),
      payload: Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]),
      headers: { 'content-type': 'image/png', 'transfer-encoding': 'chunked' },
    });
    expectStatus(ok, 200);
  });

  test('fonts: checked by content, bounded in what they inflate to, named by their format', async () => {
    const { uploaded } = await upload('Inter', 'font/woff2', woff2, 'customization_font');
    assert.equal(uploaded.name, 'Inter.woff2');
    assert.equal(uploaded.contentType, 'font/woff2');
    const served = await visit(t, pathOf(uploaded.url));
    assert.equal(served.headers['content-type'], 'font/woff2');
    assert.equal(served.headers['access-control-allow-origin'], '*');
    // An OpenType name for TrueType outlines: one container, accepted.
    await upload('x.otf', 'font/otf', ttf, 'customization_font');
    const bomb = woff(1024 * 1024 * 1024);
    const s = await signed('x.woff', 'font/woff', bomb.length, 'customization_font');
    assert.match(expectError(await put(s.url, bomb, 'font/woff'), 400), /inflates to/);
    const fake = await signed('x.woff2', 'font/woff2', 100, 'customization_font');
    assert.match(
      expectError(await put(fake.url, Buffer.alloc(100, 0x41), 'font/woff2'), 400),
      /not a WOFF2 font/,
    );
  });

  test('an SVG is served under a policy that runs nothing', async () => {
    const { uploaded } = await upload('evil.svg', 'image/svg+xml', svgWithScript);
    const served = await visit(t, pathOf(uploaded.url));
    assert.equal(served.headers['content-type'], 'image/svg+xml');
    assert.match(String(served.headers['content-security-policy']), /default-src 'none'.*sandbox/);
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
    // An SVG named .png is served as SVG (its name gets its type's extension).
    const named = (await upload('logo.png', 'image/svg+xml', svgWithScript)).uploaded;
    assert.equal(named.name, 'logo.png.svg');
  });

  test('CORS: any origin may PUT (the URL is the credential)', async () => {
    const s = await signed('c.png', 'image/png', 10);
    const pre = await t.app.inject({
      method: 'OPTIONS',
      url: pathOf(s.url),
      headers: { origin: 'http://studio.example', 'access-control-request-method': 'PUT' },
    });
    assert.equal(pre.statusCode, 204);
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.equal(pre.headers['access-control-allow-methods'], 'PUT');
    const res = await put(s.url, png(), 'image/png');
    assert.equal(res.headers['access-control-allow-origin'], '*');
  });
});

describe('an uploaded image as a logo', () => {
  test("passes the settings' URL checks and shows on the published site", async () => {
    const site = await publishedSite(t, 'uploads-logo');
    const { uploaded } = await upload('brand.png', 'image/png', png(8, 4));
    await customize(t, site, {
      header: { logo: { light: uploaded.url, dark: uploaded.url } },
      favicon: { icon: { light: uploaded.url, dark: uploaded.url } },
      socialPreview: { url: uploaded.url },
    });
    const page = await visit(t, `${site.address}/`);
    assert.equal(page.statusCode, 200);
    const path = pathOf(uploaded.url);
    assert.ok(
      page.body.includes(`src="${uploaded.url}"`) || page.body.includes(`src="${path}"`),
      'the logo',
    );
    assert.ok(page.body.includes(uploaded.url), 'the favicon and social image');
    assert.equal((await visit(t, path)).statusCode, 200);
  });
});

describe("the studio's policy", () => {
  test("admits PUBLIC_URL's origin for uploads when it is another origin", () => {
    assert.match(studioCsp(), /connect-src 'self';/);
    const other = studioCsp('https://docs.example.com');
    assert.match(other, /connect-src 'self' https:\/\/docs\.example\.com;/);
    assert.match(other, /img-src 'self' https: data: https:\/\/docs\.example\.com;/);
    // The preview loads the organization's custom fonts from there (docs/customization.md).
    assert.match(other, /font-src 'self' data: https:\/\/docs\.example\.com;/);
  });
});
