import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const red = { light: '#ff0000', dark: '#880000' };
const urlLink = (title: string) => ({
  title,
  to: { kind: 'url', url: `https://example.com/${title}` },
  links: [],
});

/** A site with `variants` site-spaces whose own settings carry the title "Site title". */
async function siteTitled(t: TestContext, variants: number): Promise<SiteFixture> {
  const site = await createSite(t, variants);
  const put = await t.request({
    method: 'PUT',
    url: `${site.base}/customization`,
    payload: { title: 'Site title' },
  });
  expectStatus(put, 200);
  return site;
}

const variantUrl = (site: SiteFixture, index = 0) =>
  `${site.base}/site-spaces/${site.siteSpaceIds[index]}/customization`;

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/customization', () => {
  test('a site never customized answers the complete defaults, deprecated', async () => {
    const site = await createSite(t, 1);
    const res = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.deepEqual(expectStatus(res, 200), DEFAULT_SETTINGS);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.match(String(res.headers.etag), /^"[^"]+"$/, 'strong ETag');
    assert.ok(!Number.isNaN(Date.parse(String(res.headers['last-modified']))));
    assert.equal(res.headers.deprecation, '@1753833600');
    assert.equal(
      res.headers.link,
      '<http://livery.test/docs/deprecations>; rel="deprecation"; type="text/markdown"',
    );
  });

  test('accepts the deprecated unmasked parameter, and only booleans in it', async () => {
    const site = await createSite(t, 1);
    for (const value of ['true', 'false']) {
      const res = await t.request({
        method: 'GET',
        url: `${site.base}/customization?unmasked=${value}`,
      });
      assert.deepEqual(expectStatus(res, 200), DEFAULT_SETTINGS);
    }
    const bad = await t.request({
      method: 'GET',
      url: `${site.base}/customization?unmasked=maybe`,
    });
    assert.match(expectError(bad, 400), /querystring\.unmasked must be a boolean/);
  });

  test('the deprecation link points at a page that explains it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/deprecations' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/markdown/);
    assert.match(res.body, /getSiteCustomizationById/);
    assert.match(res.body, /unmasked/);
  });
});

describe('PUT /v1/orgs/{organizationId}/sites/{siteId}/customization', () => {
  test('stores a full replacement and answers the complete stored object', async () => {
    const site = await createSite(t, 1);
    const put = await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { title: 'My docs', styling: { corners: 'straight', primaryColor: red } },
    });
    const stored = expectStatus(put, 200);
    assert.deepEqual(stored, {
      ...DEFAULT_SETTINGS,
      title: 'My docs',
      styling: { ...DEFAULT_SETTINGS.styling, corners: 'straight', primaryColor: red },
    });
    assert.ok(put.headers.etag);
    const get = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.deepEqual(expectStatus(get, 200), stored);
    assert.equal(get.headers.etag, put.headers.etag);
  });

  test('fields left out, or null, take their defaults (nothing of the previous state survives)', async () => {
    const site = await createSite(t, 1);
    await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: {
        title: 'Old',
        styling: { corners: 'straight' },
        themes: { default: 'dark', toggeable: true },
      },
    });
    const res = await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { title: null, themes: null, feedback: { enabled: true } },
    });
    assert.deepEqual(expectStatus(res, 200), { ...DEFAULT_SETTINGS, feedback: { enabled: true } });
  });

  test('the same settings twice keep the same ETag', async () => {
    const site = await createSite(t, 1);
    const payload = { styling: { icons: 'duotone' } };
    const first = await t.request({ method: 'PUT', url: `${site.base}/customization`, payload });
    const second = await t.request({ method: 'PUT', url: `${site.base}/customization`, payload });
    assert.equal(expectStatus(second, 200).styling !== undefined, true);
    assert.equal(second.headers.etag, first.headers.etag);
  });

  test('accepts the header colors GitBook 0.91 had', async () => {
    const site = await createSite(t, 1);
    const res = await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { header: { backgroundColor: red, linkColor: red, links: [urlLink('a')] } },
    });
    const body = expectStatus(res, 200) as { header: Record<string, unknown> };
    assert.deepEqual(body.header.backgroundColor, red);
    assert.deepEqual(body.header.links, [urlLink('a')]);
  });
});

describe('site-space customization (effective settings, override PATCH, DELETE)', () => {
  test('GET with no override answers the site settings, deprecated', async () => {
    const site = await siteTitled(t, 2);
    const res = await t.request({ method: 'GET', url: variantUrl(site) });
    assert.deepEqual(expectStatus(res, 200), { ...DEFAULT_SETTINGS, title: 'Site title' });
    assert.equal(res.headers.deprecation, '@1753833600');
    assert.match(String(res.headers.link), /rel="deprecation"/);
    assert.ok(res.headers.etag);
  });

  test('PATCH answers the new effective settings; only that variant changes', async () => {
    const site = await siteTitled(t, 2);
    const patch = await t.request({
      method: 'PATCH',
      url: variantUrl(site, 0),
      payload: {
        title: 'Deutsch',
        internationalization: { locale: 'de' },
        styling: { primaryColor: red },
      },
    });
    const effective = expectStatus(patch, 200);
    assert.equal(effective.title, 'Deutsch');
    assert.deepEqual(effective.internationalization, { locale: 'de' });
    assert.deepEqual((effective.styling as Record<string, unknown>).primaryColor, red);
    assert.equal(
      (effective.styling as Record<string, unknown>).corners,
      'rounded',
      'site value kept',
    );

    const again = await t.request({ method: 'GET', url: variantUrl(site, 0) });
    assert.deepEqual(expectStatus(again, 200), effective);
    assert.equal(again.headers.etag, patch.headers.etag);

    const other = await t.request({ method: 'GET', url: variantUrl(site, 1) });
    assert.deepEqual(expectStatus(other, 200), { ...DEFAULT_SETTINGS, title: 'Site title' });
    const siteSettings = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.deepEqual(expectStatus(siteSettings, 200), { ...DEFAULT_SETTINGS, title: 'Site title' });
  });

  test('title null hides the site title; DELETE brings it back (205, then 204)', async () => {
    const site = await siteTitled(t, 1);
    const patch = await t.request({
      method: 'PATCH',
      url: variantUrl(site),
      payload: { title: null },
    });
    assert.equal('title' in expectStatus(patch, 200), false);
    const unrelated = await t.request({
      method: 'PATCH',
      url: variantUrl(site),
      payload: { pagination: { enabled: false } },
    });
    assert.equal('title' in expectStatus(unrelated, 200), false, 'an absent title leaves it unset');

    const removed = await t.request({ method: 'DELETE', url: variantUrl(site) });
    assert.equal(removed.statusCode, 205);
    assert.equal(removed.body, '');
    const get = await t.request({ method: 'GET', url: variantUrl(site) });
    assert.deepEqual(expectStatus(get, 200), { ...DEFAULT_SETTINGS, title: 'Site title' });

    const none = await t.request({ method: 'DELETE', url: variantUrl(site) });
    assert.equal(none.statusCode, 204);
    assert.equal(none.body, '');
  });

  test('favicon: null resets the favicon override; arrays replace the site array', async () => {
    const site = await createSite(t, 1);
    await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { favicon: { emoji: '📘' }, header: { links: [urlLink('a'), urlLink('b')] } },
    });
    const patched = await t.request({
      method: 'PATCH',
      url: variantUrl(site),
      payload: { favicon: { emoji: '🎉' }, header: { links: [urlLink('c')] } },
    });
    const body = expectStatus(patched, 200) as { favicon: unknown; header: { links: unknown } };
    assert.deepEqual(body.favicon, { emoji: '🎉' });
    assert.deepEqual(body.header.links, [urlLink('c')]);

    const reset = await t.request({
      method: 'PATCH',
      url: variantUrl(site),
      payload: { favicon: null },
    });
    assert.deepEqual((expectStatus(reset, 200) as { favicon: unknown }).favicon, { emoji: '📘' });
  });

  test('a later change of the site settings shows through where the variant does not override', async () => {
    const site = await createSite(t, 1);
    const first = await t.request({
      method: 'PATCH',
      url: variantUrl(site),
      payload: { styling: { icons: 'thin' } },
    });
    expectStatus(first, 200);
    await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { styling: { corners: 'circular' } },
    });
    const get = await t.request({ method: 'GET', url: variantUrl(site) });
    const styling = expectStatus(get, 200).styling as Record<string, unknown>;
    assert.equal(styling.corners, 'circular');
    assert.equal(styling.icons, 'thin');
    assert.notEqual(get.headers.etag, first.headers.etag, 'the variant ETag follows site changes');
  });

  test('ai, advancedCustomization and insights cannot be overridden: 400 naming the field', async () => {
    const site = await createSite(t, 1);
    const before = await t.request({ method: 'GET', url: variantUrl(site) });
    for (const [field, value] of [
      ['ai', { mode: 'none' }],
      ['advancedCustomization', { enabled: false }],
      ['insights', { trackingCookie: false }],
    ] as const) {
      const res = await t.request({
        method: 'PATCH',
        url: variantUrl(site),
        payload: { [field]: value },
      });
      const message = expectError(res, 400);
      assert.match(message, new RegExp(`^body\\.${field} is not allowed`));
      assert.match(message, /site level only/);
    }
    const afterwards = await t.request({ method: 'GET', url: variantUrl(site) });
    assert.equal(afterwards.body, before.body);
  });

  test('PATCH {} changes nothing, not even the ETag', async () => {
    const site = await createSite(t, 1);
    const first = await t.request({
      method: 'PATCH',
      url: variantUrl(site),
      payload: { styling: { icons: 'solid' } },
    });
    const noop = await t.request({ method: 'PATCH', url: variantUrl(site), payload: {} });
    assert.equal(noop.body, first.body);
    assert.equal(noop.headers.etag, first.headers.etag);
  });
});

describe('unknown organization, site or site-space: 404 in the error envelope', () => {
  test('each missing level answers 404 and names it', async () => {
    const site = await createSite(t, 1);
    const other = await createSite(t, 1);
    const [ss] = site.siteSpaceIds;
    const cases: [string, string, RegExp][] = [
      [
        'GET',
        `/v1/orgs/nope/sites/${site.siteId}/customization`,
        /No organization found with id "nope"/,
      ],
      ['GET', `/v1/orgs/${t.orgId}/sites/nope/customization`, /No site found with id "nope"/],
      ['PUT', `/v1/orgs/${t.orgId}/sites/nope/customization`, /No site found with id "nope"/],
      ['GET', `${site.base}/site-spaces/nope/customization`, /No site-space found with id "nope"/],
      [
        'PATCH',
        `${site.base}/site-spaces/nope/customization`,
        /No site-space found with id "nope"/,
      ],
      [
        'DELETE',
        `${site.base}/site-spaces/nope/customization`,
        /No site-space found with id "nope"/,
      ],
      // a real site-space, but of another site
      ['GET', `${other.base}/site-spaces/${ss}/customization`, /site-space/],
    ];
    for (const [method, url, message] of cases) {
      const res = await t.request({
        method: method as 'GET',
        url,
        ...(method === 'PUT' || method === 'PATCH' ? { payload: {} } : {}),
      });
      assert.match(expectError(res, 404), message, `${method} ${url}`);
    }
  });
});

describe('concurrency: every PATCH is an atomic read-merge-write', () => {
  test('parallel PATCHes of different fields all land', async () => {
    const site = await createSite(t, 1);
    const fields = [
      { styling: { corners: 'straight' } },
      { styling: { icons: 'solid' } },
      { styling: { links: 'accent' } },
      { styling: { search: 'subtle' } },
      { styling: { sidebar: { list: 'pill' } } },
      { styling: { sidebar: { background: 'filled' } } },
      { themes: { default: 'dark' } },
      { themes: { toggeable: true } },
      { pdf: { enabled: false } },
      { feedback: { enabled: true } },
      { title: 'Parallel' },
      { footer: { copyright: '© Livery' } },
    ];
    const responses = await Promise.all(
      fields.map((payload) => t.request({ method: 'PATCH', url: variantUrl(site), payload })),
    );
    for (const res of responses) expectStatus(res, 200);
    const final = expectStatus(
      await t.request({ method: 'GET', url: variantUrl(site) }),
      200,
    ) as Record<string, Record<string, unknown>>;
    assert.deepEqual(final.styling?.sidebar, { background: 'filled', list: 'pill' });
    assert.equal(final.styling?.corners, 'straight');
    assert.equal(final.styling?.icons, 'solid');
    assert.equal(final.styling?.links, 'accent');
    assert.equal(final.styling?.search, 'subtle');
    assert.deepEqual(final.themes, { default: 'dark', toggeable: true });
    assert.deepEqual(final.pdf, { enabled: false });
    assert.deepEqual(final.feedback, { enabled: true });
    assert.equal(final.title, 'Parallel');
    assert.equal(final.footer?.copyright, '© Livery');
  });

  test('with If-Match, exactly one of N racing writers wins; the others get 412', async () => {
    const site = await createSite(t, 1);
    const current = await t.request({ method: 'GET', url: variantUrl(site) });
    const etag = String(current.headers.etag);
    const racers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request({
          method: 'PATCH',
          url: variantUrl(site),
          headers: { 'if-match': etag },
          payload: { footer: { copyright: `writer ${i}` } },
        }),
      ),
    );
    const winners = racers.filter((r) => r.statusCode === 200);
    assert.equal(winners.length, 1);
    for (const loser of racers.filter((r) => r.statusCode !== 200)) expectError(loser, 412);
    const final = await t.request({ method: 'GET', url: variantUrl(site) });
    assert.equal(final.body, winners[0]?.body);
  });
});
