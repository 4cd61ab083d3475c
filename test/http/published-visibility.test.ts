import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { signVisitorToken } from '../../src/modules/visitor-auth/jwt.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import {
  assertPlain404,
  cookieSet,
  customize,
  type PublishedSite,
  publishedSite,
  visit,
  visitorPost,
} from '../helpers/published.js';

/**
 * Who may see a published site, over HTTP (docs/published-site.md, "Who may see a site"): every
 * visibility, the credentials that arrive once in the query and are kept in a cookie, their
 * revocation on the very next request, members previewing with an API token. The theme and the
 * feedback endpoint follow the same rules as pages.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const CHILD = '/intro/child';
const served = (response: LightMyRequestResponse, what: string) => {
  assert.equal(response.statusCode, 200, `${what}: ${response.body.slice(0, 200)}`);
  assert.match(response.body, /<h1>Child<\/h1>/, what);
};
const noindexed = (response: LightMyRequestResponse, what: string) => {
  assert.equal(response.headers['x-robots-tag'], 'noindex', what);
  assert.match(response.body, /<meta name="robots" content="noindex">/, what);
};
const themeOf = (site: PublishedSite) =>
  `${site.address}/@livery/theme/${site.siteSpaceIds[0]}.css`;
const rating = (site: PublishedSite) => ({
  siteSpaceId: site.siteSpaceIds[0],
  pageId: site.tree.child,
  rating: 'good',
  visitorId: 'visitor-0001',
});

describe('public and unlisted', () => {
  test('public: served and indexable', async () => {
    const site = await publishedSite(t, 'vis-public');
    const page = await visit(t, `${site.address}${CHILD}`);
    served(page, 'public');
    assert.equal(page.headers['x-robots-tag'], undefined);
    assert.doesNotMatch(page.body, /name="robots"/);
    assert.equal(page.headers['cache-control'], 'no-cache');
  });

  test('unlisted: served with X-Robots-Tag and the meta tag', async () => {
    const site = await publishedSite(t, 'vis-unlisted', { visibility: 'unlisted' });
    const page = await visit(t, `${site.address}${CHILD}`);
    served(page, 'unlisted');
    noindexed(page, 'unlisted');
  });
});

describe('share-link', () => {
  async function shareLink(site: PublishedSite) {
    const created = await t.request({
      method: 'POST',
      url: `${site.base}/share-links`,
      payload: { name: 'Partners' },
    });
    const link = expectStatus(created, 201) as { id: string; urls: { published: string } };
    const key = new URL(link.urls.published).searchParams.get('share');
    assert.ok(key);
    return { id: link.id, key };
  }

  test('a valid key: 302 without it and a site cookie; the cookie serves; without: 404', async () => {
    const site = await publishedSite(t, 'vis-share', { visibility: 'share-link' });
    const { key } = await shareLink(site);
    assertPlain404(await visit(t, `${site.address}${CHILD}`), 'no key');
    assertPlain404(await visit(t, `${site.address}${CHILD}?share=not-a-key`), 'a wrong key');
    const arrival = await visit(t, `${site.address}${CHILD}?lang=x&share=${key}`);
    assert.equal(arrival.statusCode, 302);
    assert.equal(arrival.headers.location, `${site.address}${CHILD}?lang=x`);
    assert.equal(arrival.headers['cache-control'], 'no-store');
    assert.equal(cookieSet(arrival, 'livery_share'), key);
    const cookie = `livery_share=${encodeURIComponent(key)}`;
    const setCookie = [arrival.headers['set-cookie']].flat().join('\n');
    const shareCookie = setCookie.split('\n').find((line) => line.startsWith('livery_share='));
    for (const attribute of ['Path=/s/vis-share', 'SameSite=Lax', 'HttpOnly']) {
      assert.ok(shareCookie?.split('; ').includes(attribute), `${attribute} in ${shareCookie}`);
    }
    const page = await visit(t, `${site.address}${CHILD}`, { cookie });
    served(page, 'with the cookie');
    noindexed(page, 'share-link');
    assert.equal(page.headers['cache-control'], 'private, no-cache');
    assert.equal((await visit(t, themeOf(site), { cookie })).statusCode, 200, 'theme');
    assertPlain404(await visit(t, themeOf(site)), 'theme without the cookie');
    await customize(t, site, { feedback: { enabled: true } });
    const feedback = `${site.address}/@livery/feedback`;
    assertPlain404(await visitorPost(t, feedback, rating(site)), 'feedback without the cookie');
    assert.equal((await visitorPost(t, feedback, rating(site), { cookie })).statusCode, 201);
  });

  test('a deactivated link: its key and its kept cookie are refused at once', async () => {
    const site = await publishedSite(t, 'vis-share-off', { visibility: 'share-link' });
    const { id, key } = await shareLink(site);
    const cookie = `livery_share=${encodeURIComponent(key)}`;
    served(await visit(t, `${site.address}${CHILD}`, { cookie }), 'while active');
    const off = await t.request({
      method: 'PATCH',
      url: `${site.base}/share-links/${id}`,
      payload: { active: false },
    });
    expectStatus(off, 200);
    assertPlain404(await visit(t, `${site.address}${CHILD}`, { cookie }), 'the kept cookie');
    assertPlain404(await visit(t, `${site.address}${CHILD}?share=${key}`), 'the key');
    assertPlain404(await visit(t, themeOf(site), { cookie }), 'the theme');
  });

  test('a key of another site opens nothing here', async () => {
    const here = await publishedSite(t, 'vis-share-a', { visibility: 'share-link' });
    const there = await publishedSite(t, 'vis-share-b', { visibility: 'share-link' });
    const { key } = await shareLink(there);
    assertPlain404(await visit(t, `${here.address}${CHILD}?share=${key}`), 'in the query');
    const cookie = `livery_share=${encodeURIComponent(key)}`;
    assertPlain404(await visit(t, `${here.address}${CHILD}`, { cookie }), 'in a cookie');
    assert.equal((await visit(t, `${there.address}${CHILD}?share=${key}`)).statusCode, 302);
  });
});

describe('visitor-auth', () => {
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
  async function keyOf(site: PublishedSite): Promise<string> {
    const auth = await t.request({ method: 'GET', url: `${site.base}/publishing/auth` });
    return expectStatus(auth, 200).privateKey as string;
  }
  /** Not served: the 401 sign-in page, which shows none of the content. */
  const signIn = (response: LightMyRequestResponse, what: string) => {
    assert.equal(response.statusCode, 401, `${what}: ${response.body.slice(0, 200)}`);
    assert.match(response.body, /Sign in to read this documentation\./, what);
    assert.doesNotMatch(response.body, /Intro|Child|Install|Welcome/, `${what}: no content`);
  };

  test('a valid token: 302 and a cookie; the cookie serves; without: the 401 page', async () => {
    const site = await publishedSite(t, 'vis-jwt', { visibility: 'visitor-auth' });
    const key = await keyOf(site);
    const jwt = signVisitorToken({ aud: site.siteId, exp: inAnHour() }, key);
    signIn(await visit(t, `${site.address}${CHILD}`), 'no token');
    const arrival = await visit(t, `${site.address}${CHILD}?jwt_token=${jwt}`);
    assert.equal(arrival.statusCode, 302);
    assert.equal(arrival.headers.location, `${site.address}${CHILD}`);
    assert.equal(cookieSet(arrival, 'livery_visitor'), jwt);
    const cookie = `livery_visitor=${jwt}`;
    const page = await visit(t, `${site.address}${CHILD}`, { cookie });
    served(page, 'with the cookie');
    noindexed(page, 'visitor-auth');
    const expired = signVisitorToken({ aud: site.siteId, exp: inAnHour() - 7200 }, key);
    const query = `${site.address}${CHILD}?jwt_token=${expired}`;
    signIn(await visit(t, query, { cookie }), 'a bad token in the query wins over a good cookie');
    assert.equal((await visit(t, themeOf(site), { cookie })).statusCode, 200, 'theme');
    // Files and reports are fetched by scripts: a 401 in the API's envelope, not the sign-in page.
    assert.match(
      expectError(await visit(t, themeOf(site)), 401),
      /visitor authentication/,
      'theme without a token',
    );
    await customize(t, site, { feedback: { enabled: true } });
    const feedback = `${site.address}/@livery/feedback`;
    assert.equal((await visitorPost(t, feedback, rating(site))).statusCode, 401);
    assert.equal((await visitorPost(t, feedback, rating(site), { cookie })).statusCode, 201);
  });

  test('refused: expired, another site’s, signed for another audience', async () => {
    const site = await publishedSite(t, 'vis-jwt-bad', { visibility: 'visitor-auth' });
    const other = await publishedSite(t, 'vis-jwt-other', { visibility: 'visitor-auth' });
    const key = await keyOf(site);
    const tokens = {
      expired: signVisitorToken({ aud: site.siteId, exp: inAnHour() - 7200 }, key),
      'another site’s': signVisitorToken(
        { aud: other.siteId, exp: inAnHour() },
        await keyOf(other),
      ),
      'another audience': signVisitorToken({ aud: other.siteId, exp: inAnHour() }, key),
      'signed with the other site’s key': signVisitorToken(
        { aud: site.siteId, exp: inAnHour() },
        await keyOf(other),
      ),
    };
    for (const [what, jwt] of Object.entries(tokens)) {
      signIn(await visit(t, `${site.address}${CHILD}?jwt_token=${jwt}`), `${what}, query`);
      signIn(await visit(t, `${site.address}${CHILD}`, { cookie: `livery_visitor=${jwt}` }), what);
    }
  });

  test('a regenerated key locks out a kept cookie on the next request', async () => {
    const site = await publishedSite(t, 'vis-jwt-regen', { visibility: 'visitor-auth' });
    const jwt = signVisitorToken({ aud: site.siteId, exp: inAnHour() }, await keyOf(site));
    const cookie = `livery_visitor=${jwt}`;
    served(await visit(t, `${site.address}${CHILD}`, { cookie }), 'before');
    const regenerated = await t.request({
      method: 'POST',
      url: `${site.base}/publishing/auth/regenerate`,
    });
    expectStatus(regenerated, 200);
    signIn(await visit(t, `${site.address}${CHILD}`, { cookie }), 'the old key’s cookie');
    const fresh = signVisitorToken({ aud: site.siteId, exp: inAnHour() }, await keyOf(site));
    served(await visit(t, `${site.address}${CHILD}`, { cookie: `livery_visitor=${fresh}` }), 'new');
  });

  test('with a fallbackURL: every refusal redirects there', async () => {
    const site = await publishedSite(t, 'vis-jwt-fallback', { visibility: 'visitor-auth' });
    const key = await keyOf(site);
    const fallbackURL = 'https://login.acme.test/start';
    const patched = await t.request({
      method: 'PATCH',
      url: `${site.base}/publishing/auth`,
      payload: { backend: 'custom', fallbackURL },
    });
    expectStatus(patched, 200);
    const expired = signVisitorToken({ aud: site.siteId, exp: inAnHour() - 7200 }, key);
    for (const [what, path, headers] of [
      ['no token', CHILD, {}],
      ['an expired token', `${CHILD}?jwt_token=${expired}`, {}],
      ['an expired cookie', CHILD, { cookie: `livery_visitor=${expired}` }],
    ] as const) {
      const refused = await visit(t, `${site.address}${path}`, headers);
      assert.equal(refused.statusCode, 302, what);
      assert.equal(refused.headers.location, fallbackURL, what);
    }
    const valid = signVisitorToken({ aud: site.siteId, exp: inAnHour() }, key);
    served(await visit(t, `${site.address}${CHILD}`, { cookie: `livery_visitor=${valid}` }), 'ok');
  });
});

describe('unpublished, and members previewing', () => {
  test('anonymous: 404; a member’s token: served, not indexed; a bad token: 401 envelope', async () => {
    const site = await publishedSite(t, 'vis-draft', { publish: false });
    assertPlain404(await visit(t, `${site.address}${CHILD}`), 'anonymous');
    assertPlain404(await visit(t, themeOf(site)), 'anonymous theme');
    const member = { authorization: `Bearer ${t.token}` };
    const page = await visit(t, `${site.address}${CHILD}`, member);
    served(page, 'member');
    noindexed(page, 'member');
    assert.equal((await visit(t, themeOf(site), member)).statusCode, 200, 'member theme');
    const bad = await visit(t, `${site.address}${CHILD}`, { authorization: 'Bearer nope' });
    assert.match(expectError(bad, 401), /token/i);
    assertPlain404(
      await visitorPost(t, `${site.address}/@livery/feedback`, rating(site)),
      'anonymous feedback',
    );
  });

  test('a valid token of a non-member counts for nothing: 404', async () => {
    const site = await publishedSite(t, 'vis-draft-stranger', { publish: false });
    const stranger = await t.services.identity.createOrganizationWithOwner({
      title: 'Elsewhere',
      ownerName: 'Stranger',
    });
    const headers = { authorization: `Bearer ${stranger.token}` };
    assertPlain404(await visit(t, `${site.address}${CHILD}`, headers), 'a stranger');
    assertPlain404(await visit(t, themeOf(site), headers), 'a stranger’s theme');
  });

  test('a reader previews; a scoped token needs site:read', async () => {
    const site = await publishedSite(t, 'vis-draft-scoped', { publish: false });
    const user = await t.services.identity.createUser({ displayName: 'Reader' });
    await t.services.identity.setMemberRole(t.orgId, user.id, 'read');
    const reader = await t.services.identity.createToken(user.id, { label: 'read' });
    const siteRead = await t.services.identity.createToken(user.id, { scopes: ['site:read'] });
    const other = await t.services.identity.createToken(user.id, { scopes: ['space:read'] });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    served(await visit(t, `${site.address}${CHILD}`, as(reader.token)), 'a reader');
    served(await visit(t, `${site.address}${CHILD}`, as(siteRead.token)), 'site:read');
    assertPlain404(await visit(t, `${site.address}${CHILD}`, as(other.token)), 'no site:read');
  });
});
