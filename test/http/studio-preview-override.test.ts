import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

// What Livery Studio reads and renders besides the customization API itself (issue 18, items
// 5 and 6): a variant's stored override with its ETag, and the preview of a draft of the site's
// settings (`site`) under a draft of the variant's override (`customization`).

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const variantOf = (site: SiteFixture, index = 0) =>
  `${site.base}/site-spaces/${site.siteSpaceIds[index]}/customization`;

const get = (url: string) => t.request({ method: 'GET', url });

describe('GET …/site-spaces/{id}/customization/override', () => {
  test("{} at first, with the variant's ETag; after a PATCH, the override and an ETag If-Match takes", async () => {
    const site = await createSite(t, 2);
    const variant = variantOf(site, 1);
    const first = await get(`${variant}/override`);
    assert.deepEqual(expectStatus(first, 200), { override: {} });
    const etag = first.headers.etag;
    assert.equal(typeof etag, 'string');
    assert.equal(etag, (await get(variant)).headers.etag);

    const patched = await t.request({
      method: 'PATCH',
      url: variant,
      headers: { 'if-match': String(etag) },
      payload: { title: 'Vv' },
    });
    expectStatus(patched, 200);
    const now = await get(`${variant}/override`);
    assert.deepEqual(expectStatus(now, 200), { override: { title: 'Vv' } });
    assert.notEqual(now.headers.etag, etag);
    assert.equal(now.headers.etag, (await get(variant)).headers.etag);

    const stale = await t.request({
      method: 'PATCH',
      url: variant,
      headers: { 'if-match': String(etag) },
      payload: { title: 'Ww' },
    });
    expectError(stale, 412);
    const fresh = await t.request({
      method: 'PATCH',
      url: variant,
      headers: { 'if-match': String(now.headers.etag) },
      payload: { title: 'Ww' },
    });
    expectStatus(fresh, 200);
    const other = await get(`${variantOf(site, 0)}/override`);
    assert.deepEqual(expectStatus(other, 200), { override: {} }, 'the other variant keeps none');
  });

  test("after a change of the site's settings, the ETag is still the variant's", async () => {
    const site = await createSite(t, 1);
    const variant = variantOf(site);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${site.base}/customization`,
        payload: { title: 'Ss' },
      }),
      200,
    );
    const override = await get(`${variant}/override`);
    assert.equal(override.headers.etag, (await get(variant)).headers.etag);
    const patched = await t.request({
      method: 'PATCH',
      url: variant,
      headers: { 'if-match': String(override.headers.etag) },
      payload: { title: 'Vv' },
    });
    expectStatus(patched, 200);
  });

  test('unknown site or site-space: 404; a reader may read it', async () => {
    const site = await createSite(t, 1);
    const base = `/v1/orgs/${t.orgId}/sites`;
    expectError(
      await get(`${base}/site_nope/site-spaces/${site.siteSpaceIds[0]}/customization/override`),
      404,
    );
    expectError(await get(`${site.base}/site-spaces/sitesp_nope/customization/override`), 404);
    const other = await createSite(t, 1);
    expectError(
      await get(`${site.base}/site-spaces/${other.siteSpaceIds[0]}/customization/override`),
      404,
    );

    expectStatus(
      await t.request({ method: 'PATCH', url: variantOf(site), payload: { title: 'Read me' } }),
      200,
    );
    const reader = await memberWithRole(t, 'read');
    const read = await requestAs(t, reader, { method: 'GET', url: `${variantOf(site)}/override` });
    assert.deepEqual(expectStatus(read, 200), { override: { title: 'Read me' } });
  });
});

describe('POST …/preview with `site`', () => {
  const preview = (site: SiteFixture, payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: `${site.base}/preview`, payload });

  /** What preview must not change: the settings, their ETags and the revision counts. */
  async function stored(site: SiteFixture) {
    const siteSettings = await get(`${site.base}/customization`);
    const variant = await get(variantOf(site));
    const revisions = await get(`${site.base}/customization/revisions`);
    const variantRevisions = await get(`${variantOf(site)}/revisions`);
    return {
      site: [expectStatus(siteSettings, 200), siteSettings.headers.etag],
      variant: [expectStatus(variant, 200), variant.headers.etag],
      revisions: [expectStatus(revisions, 200).count, expectStatus(variantRevisions, 200).count],
    };
  }

  test("renders the draft of the site's settings and stores nothing", async () => {
    const site = await createSite(t, 1);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${site.base}/customization`,
        payload: { title: 'Stored title' },
      }),
      200,
    );
    const before = await stored(site);
    const response = await preview(site, { site: { title: 'Draft title' } });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.match(response.body, /<title>Draft title<\/title>/);
    assert.doesNotMatch(response.body, /Stored title/);
    assert.deepEqual(await stored(site), before);
  });

  test('an invalid field of `site`: 400 naming body.site.<field>', async () => {
    const site = await createSite(t, 1);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 5 }, /^body\.site\.title /],
      [{ nope: 1 }, /^body\.site\.nope /],
      [
        { styling: { primaryColor: { light: 'not a color', dark: '#000000' } } },
        /^body\.site\.styling\.primaryColor\.light /,
      ],
    ];
    for (const [draft, message] of cases) {
      assert.match(expectError(await preview(site, { site: draft }), 400), message);
    }
  });

  test("with `customization` on a variant: the variant's draft wins where both set a field", async () => {
    const site = await createSite(t, 2);
    const variant = site.siteSpaceIds[1] as string;
    // The variant's stored override sets the primary color.
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: variantOf(site, 1),
        payload: { styling: { primaryColor: { light: '#4d5e6f', dark: '#4d5e6f' } } },
      }),
      200,
    );
    const before = await stored(site);
    const response = await preview(site, {
      siteSpaceId: variant,
      site: {
        title: 'Site draft',
        styling: { primaryColor: { light: '#1a2b3c', dark: '#1a2b3c' } },
        footer: { copyright: 'Copyright of the site draft' },
      },
      customization: { title: 'Variant draft' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const html = response.body;
    assert.match(html, /<title>Variant draft<\/title>/, "the variant's draft wins");
    assert.doesNotMatch(html, /Site draft/);
    assert.match(html, /--primary-9: #4d5e6f/i, "the variant's stored override wins too");
    assert.doesNotMatch(html, /#1a2b3c/i);
    assert.match(html, /Copyright of the site draft/, 'the site draft shows where neither sets');
    assert.deepEqual(await stored(site), before);
  });
});
