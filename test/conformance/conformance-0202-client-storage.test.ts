/**
 * The official client of GitBook 0.202 drives generateStorageUploadURL against a listening
 * Livery (docs/uploads.md); the URL it answers takes the upload with a plain PUT, as a cloud
 * bucket's signed URL does, and the stored file becomes a site's logo through the same client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  failure0202,
  recordingClient,
  StorageUploadKind,
} from '../helpers/gitbook-0202.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';
import { png } from '../helpers/upload-samples.js';

let t: TestContext;
let api: Api0202;
let endpoint: string;
let site: PublishedSite;

before(async () => {
  t = await createTestApp();
  ({ api, endpoint } = await recordingClient(t));
  site = await publishedSite(t, 'client-uploads');
});
after(async () => t.close());

/** The URL as the listening server serves it (the test app's PUBLIC_URL names livery.test). */
const listening = (url: string) => new URL(new URL(url).pathname, endpoint).toString();

describe('the official 0.202 client against Livery: uploads', () => {
  test('a signed URL, a PUT of the bytes, the file as the logo', async () => {
    const bytes = png(10, 5);
    const { data: signed, status } = await api.orgs.generateStorageUploadUrl(t.orgId, {
      file: { name: 'brand.png', type: 'image/png', size: bytes.length },
      kind: StorageUploadKind.OrganizationFile,
    });
    assert.equal(status, 201);
    assert.equal(signed.object, 'storage-signed-url');
    assert.match(signed.key, /^orgs\/.+\/organization_file\//);

    const put = await fetch(listening(signed.url), {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    assert.equal(put.status, 200);
    const stored = (await put.json()) as { key: string; url: string };
    assert.equal(stored.key, signed.key);
    const again = await fetch(listening(signed.url), {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    assert.equal(again.status, 410);

    const { data: customization } = await api.orgs.updateSiteCustomizationById(
      t.orgId,
      site.siteId,
      {
        header: { logo: { light: stored.url, dark: stored.url } },
      } as never,
    );
    assert.equal(customization.header.logo?.light, stored.url);
    const served = await fetch(listening(stored.url));
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
  });

  test('a type the kind does not take: 400 through the client', async () => {
    const error = await failure0202(
      api.orgs.generateStorageUploadUrl(t.orgId, {
        file: { name: 'a.woff2', type: 'font/woff2', size: 10 },
        kind: StorageUploadKind.OrganizationFile,
      }),
    );
    assert.equal(error.code, 400);
    assert.match(error.message, /file\.type/);
  });
});
