/**
 * `POST /v1/urls/published` (issue 15, docs/renderer.md): which published site, variant and page
 * a URL names, prefix by prefix as GitBook's renderer asks; share-link and visitor-auth sites;
 * the site token it mints.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { signVisitorToken } from '../../src/modules/visitor-auth/jwt.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';

const PUBLIC = 'http://docs.acme.test/s/';
let t: TestContext;
let site: PublishedSite;

before(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC });
  site = await publishedSite(t, 'acme', { second: true });
});
after(async () => t.close());

const lookup = (payload: object, token = t.token) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/urls/published',
    payload,
    headers: { authorization: `Bearer ${token}` },
  });
const resolve = async (url: string, extra: object = {}) =>
  expectStatus(await lookup({ url, ...extra }), 200);

describe('URL lookup: addresses and prefixes', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    [
      'the site root (other variants may follow: incomplete)',
      'acme',
      { pathname: '', basePath: '/s/acme/', siteBasePath: '/s/acme/', complete: false },
    ],
    [
      'a page of the default variant',
      'acme/intro',
      { pathname: 'intro', basePath: '/s/acme/', complete: true },
    ],
    [
      'a nested page of the default variant',
      'acme/intro/child',
      {
        pathname: 'intro/child',
        canonicalUrl: 'http://docs.acme.test/s/acme/intro/child',
        complete: true,
      },
    ],
    [
      'the German variant',
      'acme/de',
      { pathname: '', basePath: '/s/acme/de/', siteBasePath: '/s/acme/', complete: true },
    ],
    [
      'a page of the German variant, non-ASCII slug',
      'acme/de/%C3%BCber-uns',
      {
        pathname: 'über-uns',
        basePath: '/s/acme/de/',
        canonicalUrl: 'http://docs.acme.test/s/acme/de/%C3%BCber-uns',
        complete: true,
      },
    ],
  ];
  for (const [name, path, expected] of cases) {
    test(name, async () => {
      const answer = await resolve(`${PUBLIC}${path}`);
      const german = path.startsWith('acme/de');
      assert.equal(answer.site, site.siteId);
      assert.equal(answer.organization, t.orgId);
      assert.equal(answer.siteSpace, site.siteSpaceIds[german ? 1 : 0]);
      assert.equal(answer.space, german ? site.second?.spaceId : site.tree.spaceId);
      for (const [field, value] of Object.entries(expected)) {
        assert.deepEqual(answer[field], value, field);
      }
      assert.equal(typeof answer.apiToken, 'string');
      assert.equal(answer.shareKey, undefined);
    });
  }

  test('a prefix and its extra path give the full URL’s answer (the renderer joins them)', async () => {
    const full = await resolve(`${PUBLIC}acme/de/%C3%BCber-uns`);
    const prefix = await resolve(`${PUBLIC}acme/de`);
    assert.equal(prefix.complete, true);
    assert.equal(`${prefix.canonicalUrl}%C3%BCber-uns`, full.canonicalUrl);
    assert.equal(prefix.apiToken, full.apiToken, 'one token per variant and hour');
  });

  test("the default variant's own path redirects to the root", async () => {
    const answer = await resolve(`${PUBLIC}acme/${site.defaultPath}/intro`);
    assert.deepEqual(answer, { target: 'content', redirect: `${PUBLIC}acme/intro` });
  });

  test('the site by its id as well as its basename; trailing slashes ignored', async () => {
    const answer = await resolve(`${PUBLIC}${site.siteId}/de/`);
    assert.equal(answer.siteSpace, site.siteSpaceIds[1]);
    assert.equal(answer.basePath, `/s/${site.siteId}/de/`);
  });

  test('404 for what names no published site: host root, mount, other host, unknown, assets', async () => {
    for (const url of [
      'http://docs.acme.test/',
      'http://docs.acme.test/s',
      'http://docs.acme.test/s/',
      'http://other.test/s/acme',
      'http://docs.acme.test:8080/s/acme',
      `${PUBLIC}nope`,
      `${PUBLIC}@livery/site.js`,
      'http://docs.acme.test/elsewhere/acme',
    ]) {
      const message = expectError(await lookup({ url }), 404);
      assert.match(message, /No published content/, url);
    }
  });

  test('answers kept for speed follow every change at once: unpublished, then published again', async () => {
    const temp = await publishedSite(t, 'kept');
    const url = `${PUBLIC}kept/intro`;
    await resolve(url);
    await resolve(url);
    expectStatus(await t.request({ method: 'POST', url: `${temp.base}/unpublish` }), 200);
    expectError(await lookup({ url }), 404);
    expectStatus(await t.request({ method: 'POST', url: `${temp.base}/publish` }), 200);
    assert.equal((await resolve(url)).site, temp.siteId);
    expectStatus(
      await t.request({ method: 'PATCH', url: temp.base, payload: { basename: 'kept-renamed' } }),
      200,
    );
    expectError(await lookup({ url }), 404);
  });

  test('an unpublished site is a 404, even for its own members', async () => {
    const draft = await publishedSite(t, 'draft', { publish: false });
    expectError(await lookup({ url: `${PUBLIC}${draft.basename}` }), 404);
  });

  test('bad bodies: 400 naming the field; cacheBust and visitor.unsignedClaims are accepted', async () => {
    assert.match(expectError(await lookup({}), 400), /url/);
    assert.match(expectError(await lookup({ url: 'not a url' }), 400), /url/);
    assert.match(expectError(await lookup({ url: PUBLIC, extra: 1 }), 400), /extra/);
    assert.match(
      expectError(await lookup({ url: `${PUBLIC}acme`, visitor: { type: 'robot' } }), 400),
      /visitor\.type|type/,
    );
    await resolve(`${PUBLIC}acme`, {
      cacheBust: 'x1',
      visitor: { type: 'agent', unsignedClaims: { plan: 'pro' } },
      redirectOnError: false,
    });
  });

  test('needs an API token (401 without one)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/urls/published',
      payload: { url: `${PUBLIC}acme` },
    });
    expectError(response, 401);
  });
});

describe('URL lookup: the site token', () => {
  test("GitBook's SiteAPIToken claims, HS256 with a key id, expiring after the hour + 5 min", async () => {
    const answer = await resolve(`${PUBLIC}acme/de`);
    const token = answer.apiToken as string;
    const header = decodeProtectedHeader(token);
    assert.equal(header.alg, 'HS256');
    assert.equal(typeof header.kid, 'string');
    const claims = decodeJwt(token);
    assert.equal(claims.kind, 'site');
    assert.equal(claims.organization, t.orgId);
    assert.equal(claims.site, site.siteId);
    assert.equal(claims.siteSpace, site.siteSpaceIds[1]);
    assert.equal(claims.space, site.second?.spaceId);
    assert.deepEqual(
      [...(claims.spaces as string[])].sort(),
      [site.tree.spaceId, site.second?.spaceId].sort(),
    );
    const now = Date.now() / 1000;
    assert.ok((claims.exp as number) > now + 300, 'more than 5 minutes left');
    assert.ok((claims.exp as number) <= now + 3600 + 300);
    assert.equal((claims.iat as number) % 3600, 0, 'minted per hour');
  });
});

describe('URL lookup: share-link sites', () => {
  let shared: PublishedSite;
  let key: string;
  before(async () => {
    shared = await publishedSite(t, 'shared', { visibility: 'share-link' });
    const link = expectStatus(
      await t.request({
        method: 'POST',
        url: `${shared.base}/share-links`,
        payload: { name: 'review' },
      }),
      201,
    );
    key = new URL((link.urls as { published: string }).published).searchParams.get('share') ?? '';
    assert.ok(key.length > 20);
  });

  test('without the key: 404, as for a site that does not exist', async () => {
    expectError(await lookup({ url: `${PUBLIC}shared` }), 404);
    expectError(await lookup({ url: `${PUBLIC}shared/intro` }), 404);
    expectError(await lookup({ url: `${PUBLIC}shared/wrong-key/intro` }), 404);
  });

  test('the key as a path segment (what the renderer sends) or as ?share=', async () => {
    const byPath = await resolve(`${PUBLIC}shared/${key}/intro`);
    assert.equal(byPath.shareKey, key);
    assert.equal(byPath.pathname, 'intro');
    assert.equal(byPath.siteBasePath, `/s/shared/${key}/`);
    assert.equal(byPath.complete, true);
    const byQuery = await resolve(`${PUBLIC}shared/intro?share=${key}`);
    assert.equal(byQuery.shareKey, key);
    assert.equal(byQuery.pathname, 'intro');
  });
});

describe('URL lookup: visitor-authentication sites', () => {
  let closed: PublishedSite;
  let privateKey: string;
  const auth = () => `${closed.base}/publishing/auth`;
  before(async () => {
    closed = await publishedSite(t, 'closed', { visibility: 'visitor-auth' });
    privateKey = expectStatus(await t.request({ method: 'GET', url: auth() }), 200)
      .privateKey as string;
  });
  const visitorToken = (claims: object = {}) =>
    signVisitorToken(
      { aud: closed.siteId, exp: Math.floor(Date.now() / 1000) + 600, ...claims },
      privateKey,
    );

  test('no fallback URL: 401 without a token, 401 with a refused one', async () => {
    assert.match(expectError(await lookup({ url: `${PUBLIC}closed` }), 401), /jwtToken/);
    const forged = signVisitorToken({ aud: closed.siteId, exp: 9e9 }, 'another key');
    expectError(
      await lookup({
        url: `${PUBLIC}closed`,
        visitor: { jwtToken: forged },
        redirectOnError: true,
      }),
      401,
    );
  });

  test('with a fallback URL: no token → redirect there; a refused one → redirect only when asked', async () => {
    const payload = { backend: 'custom', fallbackURL: 'https://login.acme.test/start' };
    expectStatus(await t.request({ method: 'PATCH', url: auth(), payload }), 200);
    const answer = await resolve(`${PUBLIC}closed/intro/child`);
    assert.deepEqual(answer, {
      target: 'external',
      site: closed.siteId,
      redirect: 'https://login.acme.test/start?location=intro%2Fchild',
    });
    const expired = visitorToken({ exp: Math.floor(Date.now() / 1000) - 3600 });
    const url = `${PUBLIC}closed/intro`;
    expectError(await lookup({ url, visitor: { jwtToken: expired } }), 401);
    const redirected = await resolve(url, {
      visitor: { jwtToken: expired },
      redirectOnError: true,
    });
    assert.equal(redirected.target, 'external');
  });

  test('a valid visitor token: content, its claims in the site token, which expires with it', async () => {
    // Sooner than the site token's own end, which is at least 5 minutes away (its hour's end plus
    // 300 s): 400 s failed in the last minutes of every hour, the hour's bound coming first.
    const exp = Math.floor(Date.now() / 1000) + 60;
    const answer = await resolve(`${PUBLIC}closed/intro`, {
      visitor: { jwtToken: visitorToken({ exp, plan: 'enterprise' }) },
    });
    assert.equal(answer.pathname, 'intro');
    const claims = decodeJwt(answer.apiToken as string);
    assert.deepEqual(claims.claims, { plan: 'enterprise' });
    assert.equal(claims.exp, exp);
  });
});
