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

let t: TestContext;
let site: SiteFixture;
let siteUrl: string;
let variantUrl: string;
before(async () => {
  t = await createTestApp();
  site = await createSite(t, 1);
  siteUrl = `${site.base}/customization`;
  variantUrl = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
});
after(async () => t.close());

const etagOf = async (url: string) =>
  String((await t.request({ method: 'GET', url })).headers.etag);

describe('ETag and Last-Modified', () => {
  test('reads and writes carry a strong ETag and Last-Modified; writes change the ETag', async () => {
    const read = await t.request({ method: 'GET', url: siteUrl });
    const put = await t.request({ method: 'PUT', url: siteUrl, payload: { title: 'Versioned' } });
    const patch = await t.request({
      method: 'PATCH',
      url: variantUrl,
      payload: { title: 'Variant' },
    });
    for (const res of [read, put, patch]) {
      expectStatus(res, 200);
      assert.match(String(res.headers.etag), /^"[\w.]+"$/);
      assert.ok(!Number.isNaN(Date.parse(String(res.headers['last-modified']))));
    }
    assert.notEqual(put.headers.etag, read.headers.etag);
    assert.equal(await etagOf(siteUrl), put.headers.etag);
    assert.equal(await etagOf(variantUrl), patch.headers.etag);
  });
});

describe('If-None-Match on GET', () => {
  for (const which of ['site', 'variant'] as const) {
    test(`${which}: the current ETag (strong or weak, or in a list) → 304 with no body`, async () => {
      const url = which === 'site' ? siteUrl : variantUrl;
      const etag = await etagOf(url);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await t.request({ method: 'GET', url, headers: { 'if-none-match': header } });
        assert.equal(res.statusCode, 304, header);
        assert.equal(res.body, '');
        assert.equal(res.headers.etag, etag);
      }
      const stale = await t.request({
        method: 'GET',
        url,
        headers: { 'if-none-match': '"c1.0.999"' },
      });
      expectStatus(stale, 200);
    });
  }
});

describe('If-Match on writes', () => {
  test('PUT: a stale ETag → 412 (with the current ETag), nothing written; the current one → 200', async () => {
    const current = await etagOf(siteUrl);
    const stale = await t.request({
      method: 'PUT',
      url: siteUrl,
      headers: { 'if-match': '"c1.0"' },
      payload: { title: 'Lost update' },
    });
    assert.match(expectError(stale, 412), /If-Match does not match/);
    assert.equal(stale.headers.etag, current);
    assert.equal(await etagOf(siteUrl), current);
    const ok = await t.request({
      method: 'PUT',
      url: siteUrl,
      headers: { 'if-match': current },
      payload: { title: 'Guarded' },
    });
    assert.equal(expectStatus(ok, 200).title, 'Guarded');
    const star = await t.request({
      method: 'PUT',
      url: siteUrl,
      headers: { 'if-match': '*' },
      payload: { title: 'Any' },
    });
    expectStatus(star, 200);
    const weak = await t.request({
      method: 'PUT',
      url: siteUrl,
      headers: { 'if-match': `W/${String(star.headers.etag)}` },
      payload: { title: 'Weak' },
    });
    expectError(weak, 412); // If-Match compares strongly
  });

  test('PATCH: a stale ETag → 412, the override unchanged', async () => {
    const before = await t.request({ method: 'GET', url: variantUrl });
    const res = await t.request({
      method: 'PATCH',
      url: variantUrl,
      headers: { 'if-match': '"c1.0.0"' },
      payload: { title: 'Lost' },
    });
    expectError(res, 412);
    const afterwards = await t.request({ method: 'GET', url: variantUrl });
    assert.equal(afterwards.body, before.body);
  });

  test('DELETE: a stale ETag → 412 and the override stays; the current one → 205', async () => {
    await t.request({ method: 'PATCH', url: variantUrl, payload: { favicon: { emoji: '🎯' } } });
    const current = await etagOf(variantUrl);
    expectError(
      await t.request({ method: 'DELETE', url: variantUrl, headers: { 'if-match': '"c1.0.0"' } }),
      412,
    );
    assert.equal(await etagOf(variantUrl), current);
    const removed = await t.request({
      method: 'DELETE',
      url: variantUrl,
      headers: { 'if-match': current },
    });
    assert.equal(removed.statusCode, 205);
  });

  test('a site change moves the variant ETag, so a variant If-Match taken before it fails', async () => {
    const variantEtag = await etagOf(variantUrl);
    await t.request({ method: 'PUT', url: siteUrl, payload: { styling: { corners: 'straight' } } });
    const res = await t.request({
      method: 'PATCH',
      url: variantUrl,
      headers: { 'if-match': variantEtag },
      payload: { title: 'Based on an old view' },
    });
    expectError(res, 412);
  });
});
