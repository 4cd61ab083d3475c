/**
 * getSitePublishingPreviewById (issue 30, item 8; docs/sites.md, "Publishing previews"): a URL,
 * valid for one hour, that opens the site's published pages to whoever holds it, published or
 * not, whatever its visibility; kept in a cookie of the site after the first visit; refused once
 * expired or altered. Bad inputs name their parameter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { previewToken } from '../../src/modules/published/access/preview-token.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import {
  assertPlain404,
  cookieSet,
  type PublishedSite,
  publishedSite,
  visit,
} from '../helpers/published.js';

let t: TestContext;
let site: PublishedSite;
const PUBLIC = 'http://livery.test/s/';

before(async () => {
  t = await createTestApp();
  // Unpublished, and behind visitor authentication: nobody without a credential sees it.
  site = await publishedSite(t, 'preview-me', {
    visibility: 'visitor-auth',
    publish: false,
    second: true,
  });
});
after(async () => t.close());

const previewOf = async (query = '') =>
  expectStatus(await t.request({ url: `${site.base}/publishing/preview${query}` }), 200) as {
    url: string;
  };
/** The URL's path and query, as a visitor's request sends them. */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('getSitePublishingPreviewById', () => {
  test("a URL of the site's published address that opens it, not indexed, for an hour", async () => {
    const response = await t.request({ url: `${site.base}/publishing/preview` });
    assert.equal(response.headers['cache-control'], 'no-store');
    const { url } = expectStatus(response, 200) as { url: string };
    assert.match(
      url,
      /^http:\/\/livery\.test\/s\/preview-me\/\?preview=[0-9]+\.[A-Za-z0-9_-]{43}$/,
    );
    const expiry = Number(new URL(url).searchParams.get('preview')?.split('.')[0]);
    const hour = Math.floor(Date.now() / 1000) + 3600;
    assert.ok(Math.abs(expiry - hour) <= 5, `expires in an hour: ${expiry} vs ${hour}`);

    assertPlain404(await visit(t, '/s/preview-me/intro/child'), 'without the URL');
    // The credential goes from the address into a cookie of the site, as share links do.
    const arrival = await visit(t, local(url).replace('/?', '/intro/child?'));
    assert.equal(arrival.statusCode, 302, arrival.body);
    assert.equal(arrival.headers.location, '/s/preview-me/intro/child');
    const kept = cookieSet(arrival, 'livery_preview');
    const page = await visit(t, '/s/preview-me/intro/child', {
      cookie: `livery_preview=${encodeURIComponent(kept)}`,
    });
    assert.equal(page.statusCode, 200, page.body.slice(0, 200));
    assert.match(page.body, /<h1>Child<\/h1>/);
    assert.equal(page.headers['x-robots-tag'], 'noindex');
  });

  test('a site-space: its address; a target: that address of the site', async () => {
    const german = await previewOf(
      `?siteSpace=${site.second?.siteSpaceId}&draft=false&claims=(a:1)`,
    );
    assert.ok(german.url.startsWith(`${PUBLIC}preview-me/de/?preview=`), german.url);
    const first = await previewOf(`?siteSpace=${site.siteSpaceIds[0]}`);
    assert.ok(first.url.startsWith(`${PUBLIC}preview-me/?preview=`), first.url);
    const target = encodeURIComponent(`${PUBLIC}preview-me/de/über-uns?x=1#top`);
    const deep = await previewOf(`?target=${target}`);
    assert.ok(deep.url.startsWith(`${PUBLIC}preview-me/de/%C3%BCber-uns?x=1&preview=`), deep.url);
    // By the site's id too.
    const byId = await previewOf(`?target=${encodeURIComponent(`${PUBLIC}${site.siteId}/intro`)}`);
    const arrival = await visit(t, local(byId.url));
    assert.equal(arrival.statusCode, 302, arrival.body);
    const page = await visit(t, `/s/${site.siteId}/intro`, {
      cookie: `livery_preview=${encodeURIComponent(cookieSet(arrival, 'livery_preview'))}`,
    });
    assert.equal(page.statusCode, 200);
  });

  test('an expired, altered or other site’s preview opens nothing', async () => {
    const key = t.services.serverKey;
    const now = Math.floor(Date.now() / 1000);
    const expired = previewToken(key, site.siteId, now - 1);
    const other = previewToken(key, 'another-site', now + 3600);
    const { url } = await previewOf();
    const good = new URL(url).searchParams.get('preview') ?? '';
    const altered = `${Number(good.split('.')[0]) + 1}.${good.split('.')[1]}`;
    for (const token of [expired, other, altered, 'nonsense']) {
      assertPlain404(await visit(t, `/s/preview-me/intro?preview=${token}`), token);
      assertPlain404(
        await visit(t, '/s/preview-me/intro', { cookie: `livery_preview=${token}` }),
        `cookie ${token}`,
      );
    }
  });

  test('bad inputs: 400 naming the parameter; unknown site or site-space: 404', async () => {
    const bad = async (query: string, field: string) => {
      const message = expectError(
        await t.request({ url: `${site.base}/publishing/preview${query}` }),
        400,
      );
      assert.match(message, new RegExp(`^querystring\\.${field}`), query);
    };
    await bad('?draft=maybe', 'draft');
    await bad(`?claims=${'x'.repeat(2049)}`, 'claims');
    for (const target of [
      'javascript:alert(1)',
      'https://evil.test/s/preview-me/',
      `${PUBLIC}preview-meX/`,
      `${PUBLIC}other/`,
      '/s/preview-me/',
      `http://user:pw@livery.test/s/preview-me/`,
      `${PUBLIC}preview-me/../other/`,
    ]) {
      await bad(`?target=${encodeURIComponent(target)}`, 'target');
    }
    assert.match(
      expectError(await t.request({ url: `${site.base}/publishing/preview?siteSpace=nope` }), 404),
      /site-space/,
    );
    expectError(
      await t.request({ url: `/v1/orgs/${t.orgId}/sites/nosite/publishing/preview` }),
      404,
    );
  });
});
