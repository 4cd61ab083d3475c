/**
 * Resolving URLs (docs/api.md, "Resolving URLs"): `GET /v1/urls/published`
 * (getPublishedContentByUrl, the deprecated GET form of resolvePublishedContentByUrl, same
 * answer) and `GET /v1/urls/content` (getContentByUrl: the space, change request and page an API,
 * studio or published URL names, for a caller who reads that space), and what they refuse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';
import { memberWithRole } from '../helpers/roles.js';

let t: TestContext;
let site: PublishedSite;
let stranger: string;
const API = 'http://livery.test';
const PUBLIC = `${API}/s/`;

before(async () => {
  t = await createTestApp();
  site = await publishedSite(t, 'acme', { second: true });
  stranger = (
    await t.services.identity.createOrganizationWithOwner({ title: 'Other', ownerName: 'S' })
  ).token;
});
after(async () => t.close());

const get = (url: string, token?: string) =>
  t.request({
    method: 'GET',
    url,
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
  });
const q = encodeURIComponent;

describe('getPublishedContentByUrl', () => {
  test('the same answer as the POST form, marked deprecated', async () => {
    const url = `${PUBLIC}acme/guides/install`;
    const viaGet = await get(`/v1/urls/published?url=${q(url)}`);
    const body = expectStatus(viaGet, 200);
    assert.equal(viaGet.headers.deprecation, '@1753833600');
    assert.match(String(viaGet.headers.link), /rel="deprecation"/);
    assert.match(String(viaGet.headers.link), /\/v1\/urls\/published>; rel="successor-version"/);
    const viaPost = expectStatus(
      await t.request({ method: 'POST', url: '/v1/urls/published', payload: { url } }),
      200,
    );
    const { apiToken: _a, ...got } = body;
    const { apiToken: _b, ...posted } = viaPost;
    assert.deepEqual(got, posted);
    assert.equal(got.pathname, 'guides/install');
    assert.equal(got.space, site.tree.spaceId);
    // The default variant's own path: the same redirect as the POST form.
    const redirect = expectStatus(
      await get(`/v1/urls/published?url=${q(`${PUBLIC}acme/${site.defaultPath}/intro`)}`),
      200,
    );
    assert.deepEqual(redirect, { target: 'content', redirect: `${PUBLIC}acme/intro` });
  });

  test('bad inputs: field-named 400s; no published site: 404', async () => {
    for (const [query, field] of [
      ['', 'url'],
      ['?url=', 'url'],
      ['?url=not-a-url', 'querystring.url'],
      [`?url=${q(`${PUBLIC}acme`)}&redirectOnError=maybe`, 'redirectOnError'],
      [`?url=${q(`${PUBLIC}acme`)}&visitor=1`, 'visitor'],
      [`?url=${'x'.repeat(2049)}`, 'url'],
    ] as const) {
      const message = expectError(await get(`/v1/urls/published${query}`), 400);
      assert.match(message, new RegExp(field), query);
    }
    expectError(await get(`/v1/urls/published?url=${q(`${PUBLIC}nowhere`)}`), 404);
    expectError(await get(`/v1/urls/published?url=${q('https://example.com/docs')}`), 404);
  });
});

describe('getContentByUrl', () => {
  const content = async (url: string) =>
    expectStatus(await get(`/v1/urls/content?url=${q(url)}`), 200) as {
      space: { id: string; object: string };
      changeRequest?: { id: string; object: string };
      page?: { id: string; title: string; type: string; path: string };
    };

  test('API URLs: a space, a page by id or path, a revision, a change request', async () => {
    const spaceId = site.tree.spaceId;
    const space = `${API}/v1/spaces/${spaceId}`;
    const bare = await content(space);
    assert.deepEqual([bare.space.object, bare.space.id, bare.page], ['space', spaceId, undefined]);
    const byId = await content(`${space}/content/page/${site.tree.install}#anchor`);
    assert.deepEqual(
      [byId.page?.id, byId.page?.title, byId.page?.path],
      [site.tree.install, 'Install', 'guides/install'],
    );
    assert.equal(
      (await content(`${space}/content/path/guides/install`)).page?.id,
      site.tree.install,
    );
    const group = await content(`${space}/content/page/${site.tree.guides}`);
    assert.equal(group.page?.type, 'group');
    // A link page is not content: the space alone.
    assert.equal((await content(`${space}/content/page/${site.tree.elsewhere}`)).page, undefined);
    assert.equal((await content(`${space}/search`)).space.id, spaceId);
    const current = expectStatus(await get(`/v1/spaces/${spaceId}/content`), 200);
    const inRevision = await content(`${space}/revisions/${current.id}/page/${site.tree.intro}`);
    assert.equal(inRevision.page?.title, 'Intro');
    const cr = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${spaceId}/change-requests`,
        payload: {},
      }),
      201,
    );
    const inCr = await content(`${space}/change-requests/${cr.id}/content/page/${site.tree.intro}`);
    assert.deepEqual(
      [inCr.changeRequest?.object, inCr.changeRequest?.id, inCr.page?.title],
      ['change-request', cr.id, 'Intro'],
    );
    // The search results' urls.app resolve.
    const found = expectStatus(await get(`/v1/spaces/${spaceId}/search?query=npm`), 200) as {
      items: { urls: { app: string } }[];
    };
    assert.equal((await content(found.items[0]?.urls.app ?? '')).page?.id, site.tree.install);
  });

  test('published and studio URLs: the variant, then the page by its path', async () => {
    const root = await content(`${PUBLIC}acme`);
    assert.deepEqual([root.space.id, root.page], [site.tree.spaceId, undefined]);
    assert.equal((await content(`${PUBLIC}acme/guides/install`)).page?.id, site.tree.install);
    const german = await content(`${PUBLIC}acme/de/über-uns`);
    assert.deepEqual([german.space.id, german.page?.id], [site.second?.spaceId, site.second?.uber]);
    const studio = `${API}/studio#/orgs/${t.orgId}/sites/${site.siteId}/variants/${site.second?.siteSpaceId}`;
    assert.equal((await content(studio)).space.id, site.second?.spaceId);
  });

  test('bad inputs: field-named 400s; nothing readable there: one 404', async () => {
    for (const [query, field] of [
      ['', 'url'],
      ['?url=', 'url'],
      ['?url=nope', 'querystring.url'],
      [`?url=${q('ftp://livery.test/v1/spaces/x')}`, 'querystring.url'],
      [`?url=${q(`${API}/v1/spaces/x`)}&extra=1`, 'extra'],
    ] as const) {
      const message = expectError(await get(`/v1/urls/content${query}`), 400);
      assert.match(message, new RegExp(field), query);
    }
    const space = `${API}/v1/spaces/${site.tree.spaceId}`;
    const nothing = /No content the caller may read/;
    for (const url of [
      `${API}/v1/spaces/space_nope`,
      `${API}/v1/orgs/${t.orgId}`,
      `${API}/studio#/orgs/${t.orgId}/sites/${site.siteId}`,
      `${API}/studio#/orgs/org_other/sites/${site.siteId}/variants/${site.siteSpaceIds[0]}`,
      `${PUBLIC}nowhere/intro`,
      'https://example.com/v1/spaces/x',
    ]) {
      assert.match(expectError(await get(`/v1/urls/content?url=${q(url)}`), 404), nothing, url);
    }
    // A page the space lacks: the usual 404 naming it (the caller reads the space).
    expectError(await get(`/v1/urls/content?url=${q(`${space}/content/page/page_nope`)}`), 404);
    expectError(await get(`/v1/urls/content?url=${q(`${PUBLIC}acme/no/such/page`)}`), 404);
    // A guest reads no space: the same 404; a reader gets the answer.
    const guest = await memberWithRole(t, 'guest');
    const reader = await memberWithRole(t, 'read');
    const named = `/v1/urls/content?url=${q(`${space}/content/page/${site.tree.intro}`)}`;
    assert.match(expectError(await get(named, guest.token), 404), nothing);
    const read = expectStatus(await get(named, reader.token), 200) as { space: { id: string } };
    assert.equal(read.space.id, site.tree.spaceId);
    // Another organization's member learns nothing, whatever the URL's form.
    for (const url of [space, `${space}/content/page/${site.tree.intro}`, `${PUBLIC}acme/intro`]) {
      const refused = await get(`/v1/urls/content?url=${q(url)}`, stranger);
      assert.match(expectError(refused, 404), nothing, url);
    }
  });
});
