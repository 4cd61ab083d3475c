/**
 * Site tokens (issue 15, docs/renderer.md): the public `apiToken` of the URL lookup reads its own
 * published site — the reads GitBook's renderer makes — and nothing else. Each way a public
 * token could be abused is a case here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { SiteTokenKeys } from '../../src/modules/site-tokens/keys.js';
import { SiteTokens } from '../../src/modules/site-tokens/site-token.js';
import { signVisitorToken } from '../../src/modules/visitor-auth/jwt.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { spacePages } from '../helpers/content.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';

const PUBLIC = 'http://docs.acme.test/s/';
let t: TestContext;
let site: PublishedSite;
let other: PublishedSite;
let token: string;
let revisionId: string;
let pageId: string;

before(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC });
  site = await publishedSite(t, 'acme', { second: true });
  other = await publishedSite(t, 'other');
  token = await siteToken('acme/de');
  const space = expectStatus(
    await t.request({ method: 'GET', url: `/v1/spaces/${site.tree.spaceId}` }),
    200,
  );
  revisionId = space.revision as string;
  const pages = await spacePages(t, site.tree.spaceId);
  pageId = pages.find((p) => p.type === 'document')?.id as string;
});
after(async () => t.close());

async function siteToken(path: string, extra: object = {}): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/v1/urls/published',
    payload: { url: `${PUBLIC}${path}`, ...extra },
  });
  return expectStatus(response, 200).apiToken as string;
}

const as = (
  bearer: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${bearer}` },
    ...(payload === undefined ? {} : { payload }),
  });

describe('site tokens: the reads of its own site', () => {
  test('published view, spaces, revisions, pages by id and path, meta links, redirects', async () => {
    const space = site.tree.spaceId;
    const reads: [string, number][] = [
      [`${site.base}/published`, 200],
      [`${site.base}/published?shareKey=x`, 200],
      [`/v1/spaces/${space}`, 200],
      [`/v1/spaces/${site.second?.spaceId}`, 200],
      [`/v1/spaces/${space}/revisions/${revisionId}`, 200],
      [`/v1/spaces/${space}/revisions/${revisionId}?metadata=true`, 200],
      [`/v1/spaces/${space}/revisions/${revisionId}/pages`, 200],
      [`/v1/spaces/${space}/revisions/${revisionId}/page/${pageId}`, 200],
      [`/v1/spaces/${space}/revisions/${revisionId}/page/${pageId}?format=markdown`, 200],
      [`/v1/spaces/${space}/revisions/${revisionId}/path/intro`, 200],
      [`/v1/spaces/${space}/revisions/${revisionId}/page/${pageId}/meta-links`, 200],
      [`${site.base}/redirect?source=/old`, 404],
    ];
    for (const [url, status] of reads) {
      const response = await as(token, 'GET', url);
      assert.equal(response.statusCode, status, `${url}: ${response.body.slice(0, 200)}`);
    }
  });

  test('search of its own site, not of another', async () => {
    const found = expectStatus(
      await as(token, 'POST', `${site.base}/search`, { query: 'welcome' }),
      200,
    );
    assert.ok(Array.isArray(found.items));
    expectError(await as(token, 'POST', `${other.base}/search`, { query: 'welcome' }), 404);
  });

  test('the published view: effective settings of the site and of every variant', async () => {
    const view = expectStatus(await as(token, 'GET', `${site.base}/published`), 200);
    assert.equal(view.object, 'published-content-site');
    assert.equal((view.site as { id: string }).id, site.siteId);
    const structure = view.structure as { type: string; structure: { id: string }[] };
    assert.equal(structure.type, 'siteSpaces');
    assert.deepEqual(
      structure.structure.map((s) => s.id),
      site.siteSpaceIds,
    );
    const customizations = view.customizations as {
      site: Record<string, unknown>;
      siteSpaces: Record<string, Record<string, unknown>>;
    };
    assert.deepEqual(Object.keys(customizations.siteSpaces).sort(), [...site.siteSpaceIds].sort());
    assert.ok('styling' in customizations.site);
    assert.deepEqual(view.scripts, []);
  });

  test('the published view is sent as kept: br or gzip as accepted, its ETag, 304 on a repeat, fresh after a change', async () => {
    const read = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: `${site.base}/published`,
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
    const plain = await read({});
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'accept-encoding');
    const etag = String(plain.headers.etag);
    assert.match(etag, /^"[\w-]{22}"$/);
    for (const [accepted, coding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const compressed = await read({ 'accept-encoding': accepted });
      assert.equal(compressed.headers['content-encoding'], coding);
      assert.ok(compressed.rawPayload.length < plain.rawPayload.length / 3);
      assert.equal(decode(compressed.rawPayload).toString(), plain.body);
      assert.notEqual(compressed.headers.etag, etag, 'each coding is a representation of its own');
      const again = await read({
        'accept-encoding': accepted,
        'if-none-match': String(compressed.headers.etag),
      });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
      assert.equal(again.headers['x-gitbook-cache-tag'], `site:${site.siteId}`);
    }
    const repeat = await read({ 'if-none-match': etag });
    assert.equal(repeat.statusCode, 304);
    // A change of the site is a new representation: the old ETag no longer matches.
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: site.base,
        payload: { title: 'Changed for the ETag' },
      }),
      200,
    );
    const changed = await read({ 'if-none-match': etag });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
    assert.match(changed.body, /Changed for the ETag/);
    expectStatus(
      await t.request({ method: 'PATCH', url: site.base, payload: { title: 'Docs' } }),
      200,
    );
  });

  test("the renderer's cache headers: the published view, search and meta links by site", async () => {
    const view = await as(token, 'GET', `${site.base}/published`);
    assert.equal(view.headers['x-gitbook-cache-tag'], `site:${site.siteId}`);
    assert.match(String(view.headers['x-gitbook-cache-control']), /max-age=\d+/);
    const found = await as(token, 'POST', `${site.base}/search`, { query: 'welcome' });
    assert.equal(found.headers['x-gitbook-cache-tag'], `site:${site.siteId}`);
    const meta = await as(
      token,
      'GET',
      `/v1/spaces/${site.tree.spaceId}/revisions/${revisionId}/page/${pageId}/meta-links`,
    );
    assert.equal(
      meta.headers['x-gitbook-cache-tag'],
      `space:${site.tree.spaceId},site:${site.siteId}`,
    );
  });

  test('the published view follows every change at once (it is kept only while nothing changed)', async () => {
    const read = async () =>
      expectStatus(await as(token, 'GET', `${site.base}/published`), 200) as {
        customizations: { siteSpaces: Record<string, { styling: { primaryColor: unknown } }> };
      };
    await read();
    const german = site.siteSpaceIds[1] as string;
    const color = { light: '#123456', dark: '#654321' };
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${site.base}/site-spaces/${german}/customization`,
        payload: { styling: { primaryColor: color } },
      }),
      200,
    );
    assert.deepEqual((await read()).customizations.siteSpaces[german]?.styling.primaryColor, color);
  });

  test('meta links name the same page in the other variant, when it has one', async () => {
    const links = expectStatus(
      await as(
        token,
        'GET',
        `/v1/spaces/${site.second?.spaceId}/revisions/${(await spaceOf(site.second?.spaceId as string)).revision}/page/${site.second?.start}/meta-links`,
      ),
      200,
    );
    assert.deepEqual(links, { alternates: [] }, 'the default variant has no page "start"');
  });
});

async function spaceOf(spaceId: string) {
  return expectStatus(await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}` }), 200);
}

describe('site tokens: nothing else', () => {
  test('no write: customization, site, space, content, share links → 403', async () => {
    const writes: ['PUT' | 'PATCH' | 'POST' | 'DELETE', string, object?][] = [
      ['PUT', `${site.base}/customization`, {}],
      ['PATCH', `${site.base}/site-spaces/${site.siteSpaceIds[1]}/customization`, { title: 'x' }],
      ['PATCH', site.base, { title: 'x' }],
      ['POST', `${site.base}/unpublish`],
      ['DELETE', site.base],
      ['PATCH', `/v1/spaces/${site.tree.spaceId}`, { title: 'x' }],
      ['POST', `/v1/spaces/${site.tree.spaceId}/change-requests`, {}],
      ['POST', `${site.base}/share-links`, { name: 'x' }],
      ['POST', '/v1/urls/published', { url: `${PUBLIC}acme` }],
    ];
    for (const [method, url, payload] of writes) {
      const response = await as(token, method, url, payload);
      assert.equal(response.statusCode, 403, `${method} ${url}: ${response.body}`);
      assert.match(response.json().error.message, /site token/);
    }
    const site2 = expectStatus(await t.request({ method: 'GET', url: site.base }), 200);
    assert.equal(site2.title, 'Docs', 'nothing changed');
  });

  test('no member, token, organization or unpublished data → 403', async () => {
    for (const url of [
      '/v1/user',
      '/v1/user/tokens',
      '/v1/orgs',
      `/v1/orgs/${t.orgId}`,
      `/v1/orgs/${t.orgId}/members`,
      `/v1/orgs/${t.orgId}/spaces`,
      `/v1/orgs/${t.orgId}/sites`,
      site.base,
      `${site.base}/customization`,
      `${site.base}/publishing/auth`,
      `${site.base}/share-links`,
      `/v1/spaces/${site.tree.spaceId}/change-requests`,
      `/v1/spaces/${site.tree.spaceId}/content`,
    ]) {
      const response = await as(token, 'GET', url);
      assert.equal(response.statusCode, 403, `${url}: ${response.body}`);
    }
  });

  test('another site, another organization, a space the site does not show → 404', async () => {
    const foreign = await createTestApp({ PUBLIC_URL: PUBLIC });
    try {
      for (const url of [
        `${other.base}/published`,
        `/v1/orgs/org_elsewhere/sites/${site.siteId}/published`,
        `/v1/spaces/${other.tree.spaceId}`,
        `/v1/spaces/${other.tree.spaceId}/revisions/${(await spaceOf(other.tree.spaceId)).revision}`,
        `/v1/spaces/nope`,
      ]) {
        const response = await as(token, 'GET', url);
        assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
      }
    } finally {
      await foreign.close();
    }
  });

  test("a change request's revision is not published → 404; the merged one is", async () => {
    const space = site.tree.spaceId;
    const cr = expectStatus(
      await t.request({ method: 'POST', url: `/v1/spaces/${space}/change-requests`, payload: {} }),
      201,
    );
    const change = { operation: 'insert_page', title: 'Draft', document: { markdown: 'secret' } };
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${space}/change-requests/${cr.id}/content`,
        payload: { changes: [change] },
      }),
      200,
    );
    const draft = expectStatus(
      await t.request({
        method: 'GET',
        url: `/v1/spaces/${space}/change-requests/${cr.id}/content`,
      }),
      200,
    );
    expectError(await as(token, 'GET', `/v1/spaces/${space}/revisions/${draft.id}`), 404);
    expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/spaces/${space}/change-requests/${cr.id}/merge`,
      }),
      200,
    );
    const merged = (await spaceOf(space)).revision as string;
    expectStatus(await as(token, 'GET', `/v1/spaces/${space}/revisions/${merged}`), 200);
    expectStatus(await as(token, 'GET', `/v1/spaces/${space}/revisions/${revisionId}`), 200);
  });
});

describe('site tokens: forged, altered, expired, revoked', () => {
  const url = () => `${site.base}/published`;

  test('forged with another key, altered, alg none, garbage → 401', async () => {
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const kid = JSON.parse(Buffer.from(header, 'base64url').toString()).kid;
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid })
      .sign(new TextEncoder().encode('a guess at the key, 32 bytes long!'));
    const widened = Buffer.from(JSON.stringify({ ...claims, site: other.siteId })).toString(
      'base64url',
    );
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    for (const bad of [forged, `${header}.${widened}.${signature}`, none, 'eyJhbGciOi.x.y']) {
      const response = await as(bad, 'GET', url());
      assert.equal(response.statusCode, 401, `${bad}: ${response.body}`);
    }
  });

  test('parsed strictly: anything but the three segments as minted → 401', async () => {
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // The signature's last character carries 4 bits and 2 unused ones: setting an unused bit
    // spells the same bytes differently, which lenient decoders accept.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.slice(-1));
    const respelled = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
    assert.deepEqual(Buffer.from(respelled, 'base64url'), Buffer.from(signature, 'base64url'));
    for (const bad of [
      `${token}=`,
      `${token}==`,
      `${token} `,
      `${token}\t`,
      `${token} x`,
      `${token}.`,
      `${token}.${signature}`,
      `${header}=.${payload}.${signature}`,
      `${header}.${payload}=.${signature}`,
      `${header}..${payload}.${signature}`,
      `${header}.${payload}.${respelled}`,
      `${header}.${payload}.${signature}%3D`,
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: url(),
        headers: { authorization: `Bearer ${bad}` },
      });
      assert.equal(
        response.statusCode,
        401,
        `${JSON.stringify(bad)}: ${response.body.slice(0, 200)}`,
      );
      expectError(response, 401);
    }
    expectStatus(await as(token, 'GET', url()), 200);
  });

  test('an expired token → 401; minted in the past by the same keys', async () => {
    const past = new SiteTokens(new SiteTokenKeys(t.db), () => Date.now() - 3 * 3600_000);
    const old = await past.mint({
      organization: t.orgId,
      site: site.siteId,
      siteSpace: site.siteSpaceIds[0] as string,
      space: site.tree.spaceId,
      spaces: [site.tree.spaceId],
    });
    assert.match(expectError(await as(old, 'GET', url()), 401), /expired/);
  });

  test('key rotation: old tokens keep working until they expire; new ones use the new key', async () => {
    const before = token;
    const keys = new SiteTokenKeys(t.db);
    const rotated = await keys.rotate();
    expectStatus(await as(before, 'GET', url()), 200);
    const fresh = await siteToken('acme/de');
    assert.notEqual(fresh, before);
    assert.equal(
      JSON.parse(Buffer.from(fresh.split('.')[0] as string, 'base64url').toString()).kid,
      rotated,
    );
    expectStatus(await as(fresh, 'GET', url()), 200);
  });

  test('unpublishing the site closes its tokens at once; publishing again reopens them', async () => {
    const fresh = await siteToken('acme');
    expectStatus(await t.request({ method: 'POST', url: `${site.base}/unpublish` }), 200);
    assert.match(expectError(await as(fresh, 'GET', url()), 401), /not published/);
    expectStatus(await t.request({ method: 'POST', url: `${site.base}/publish` }), 200);
    expectStatus(await as(fresh, 'GET', url()), 200);
  });

  test('closing a public site to share links closes its public tokens', async () => {
    const pub = await publishedSite(t, 'closing');
    const open = await siteToken('closing');
    const path = `${pub.base}/published`;
    expectStatus(await as(open, 'GET', path), 200);
    expectStatus(
      await t.request({ method: 'PATCH', url: pub.base, payload: { visibility: 'share-link' } }),
      200,
    );
    expectError(await as(open, 'GET', path), 401);
  });

  test('a share link deactivated: its tokens stop at once', async () => {
    const shared = await publishedSite(t, 'shared-tokens', { visibility: 'share-link' });
    const link = expectStatus(
      await t.request({
        method: 'POST',
        url: `${shared.base}/share-links`,
        payload: { name: 'r' },
      }),
      201,
    );
    const key = new URL((link.urls as { published: string }).published).searchParams.get('share');
    const shareToken = await siteToken(`shared-tokens/${key}`);
    const path = `${shared.base}/published`;
    expectStatus(await as(shareToken, 'GET', path), 200);
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${shared.base}/share-links/${link.id}`,
        payload: { active: false },
      }),
      200,
    );
    expectError(await as(shareToken, 'GET', path), 401);
  });

  test('a regenerated visitor key: the tokens minted for its visitors stop at once', async () => {
    const closed = await publishedSite(t, 'closed-tokens', { visibility: 'visitor-auth' });
    const auth = `${closed.base}/publishing/auth`;
    const key = expectStatus(await t.request({ method: 'GET', url: auth }), 200)
      .privateKey as string;
    const jwtToken = signVisitorToken(
      { aud: closed.siteId, exp: Math.floor(Date.now() / 1000) + 900 },
      key,
    );
    const visitorSiteToken = await siteToken('closed-tokens', { visitor: { jwtToken } });
    const path = `${closed.base}/published`;
    expectStatus(await as(visitorSiteToken, 'GET', path), 200);
    expectStatus(await t.request({ method: 'POST', url: `${auth}/regenerate` }), 200);
    expectError(await as(visitorSiteToken, 'GET', path), 401);
  });
});
