/**
 * The kept page view (issue 26): a published page is answered from a representation kept while
 * the site's revision, settings and access are unchanged, with its ETag (304 to If-None-Match)
 * and its compressed forms made once. Over real HTTP (node:http, so that compressed bytes arrive
 * as sent), on the run's backend: repeat views are identical, and every change that bears on a
 * page (settings, a new revision, unpublishing, visibility, a share link deactivated, a visitor
 * key regenerated) is seen by the very next view, in this process and in another process on the
 * same database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { signVisitorToken } from '../../src/modules/visitor-auth/jwt.js';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';
import { publishChanges } from '../helpers/insights.js';
import { call, listen } from '../helpers/load.js';
import {
  type ServerProcess,
  startTwoOnFreshDatabase,
  type TwoProcesses,
} from '../helpers/process.js';
import { customize, type PublishedSite, publishedSite } from '../helpers/published.js';
import { type RawBytes, rawGet } from '../helpers/raw-http.js';

/** A raw GET (helpers/raw-http.ts), named as this file reads it. */
interface Raw {
  status: number;
  headers: RawBytes['headers'];
  body: Buffer;
}
async function get(origin: string, path: string, headers: Record<string, string> = {}) {
  const raw = await rawGet(origin, path, headers);
  return { status: raw.statusCode, headers: raw.headers, body: raw.bytes } satisfies Raw;
}

const text = (raw: Raw) => raw.body.toString('utf8');
const page = (raw: Raw, what: string) => {
  assert.equal(raw.status, 200, `${what}: ${text(raw).slice(0, 200)}`);
  assert.equal(raw.headers['content-encoding'], undefined, what);
  return text(raw);
};
const notFound = (raw: Raw, what: string) => {
  assert.equal(raw.status, 404, what);
  assert.match(text(raw), /<h1>Not found<\/h1>/, what);
  assert.equal(raw.headers.etag, undefined, what);
};
const CHILD = '/intro/child';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe(`kept page views (${BACKEND})`, () => {
  let t: TestContext;
  let origin: string;
  before(async () => {
    t = await createTestApp();
    origin = await listen(t);
  });
  after(async () => t.close());

  test('a repeat view: the same bytes and ETag; If-None-Match answers 304 without a body', async () => {
    const site = await publishedSite(t, 'kept-repeat');
    const first = await get(origin, `${site.address}${CHILD}`);
    const html = page(first, 'first view');
    assert.match(html, /<h1>Child<\/h1>/);
    const etag = first.headers.etag;
    assert.match(String(etag), /^"[A-Za-z0-9_-]{22}"$/);
    assert.equal(first.headers['cache-control'], 'no-cache');
    assert.equal(first.headers.vary, 'accept-encoding');
    assert.equal(first.headers['referrer-policy'], 'same-origin');
    assert.ok(first.headers['content-security-policy']);
    for (let i = 0; i < 3; i++) {
      const again = await get(origin, `${site.address}${CHILD}`);
      assert.deepEqual(again.body, first.body, `repeat ${i}: the same bytes`);
      assert.equal(again.headers.etag, etag, `repeat ${i}: the same ETag`);
      assert.equal(
        again.headers['content-security-policy'],
        first.headers['content-security-policy'],
      );
    }
    for (const header of [String(etag), `W/${etag}`, `"other", ${etag}`, '*']) {
      const revalidated = await get(origin, `${site.address}${CHILD}`, {
        'if-none-match': header,
      });
      assert.equal(revalidated.status, 304, `If-None-Match: ${header}`);
      assert.equal(revalidated.body.length, 0, 'no body');
      assert.equal(revalidated.headers.etag, etag);
      assert.equal(revalidated.headers['cache-control'], 'no-cache');
    }
    const other = await get(origin, `${site.address}${CHILD}`, { 'if-none-match': '"other"' });
    assert.deepEqual(other.body, first.body, 'a tag that does not match: the page');
    // The query names no other page: the same answer.
    const queried = await get(origin, `${site.address}${CHILD}?utm_source=x`);
    assert.deepEqual(queried.body, first.body);
  });

  test('compressed answers: brotli and gzip decode to the page, each with its own ETag', async () => {
    const site = await publishedSite(t, 'kept-coded');
    const path = `${site.address}${CHILD}`;
    const plain = await get(origin, path);
    const html = page(plain, 'identity');
    const codings: [string, string | undefined, (body: Buffer) => Buffer][] = [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0.5, gzip', 'gzip', gunzipSync],
      ['*', 'br', brotliDecompressSync],
      ['br;q=0, gzip;q=0', undefined, (body) => body],
      ['identity', undefined, (body) => body],
    ];
    const etags = new Map<string | undefined, string>();
    for (const [accept, coding, decode] of codings) {
      for (const view of ['first', 'repeat']) {
        const answer = await get(origin, path, { 'accept-encoding': accept });
        const what = `Accept-Encoding: ${accept} (${view})`;
        assert.equal(answer.status, 200, what);
        assert.equal(answer.headers['content-encoding'], coding, what);
        assert.equal(answer.headers.vary, 'accept-encoding', what);
        assert.equal(decode(answer.body).toString('utf8'), html, `${what}: the same page`);
        if (coding !== undefined) assert.ok(answer.body.length < plain.body.length, what);
        const etag = String(answer.headers.etag);
        assert.equal(etags.get(coding) ?? etag, etag, `${what}: one ETag per coding`);
        etags.set(coding, etag);
        const revalidated = await get(origin, path, {
          'accept-encoding': accept,
          'if-none-match': etag,
        });
        assert.equal(revalidated.status, 304, what);
        assert.equal(revalidated.body.length, 0, what);
      }
    }
    assert.equal(new Set(etags.values()).size, 3, 'br, gzip and identity: three ETags');
    // The identity's tag does not validate the brotli answer: its bytes are other bytes.
    const crossed = await get(origin, path, {
      'accept-encoding': 'br',
      'if-none-match': String(etags.get(undefined)),
    });
    assert.equal(crossed.status, 200);
    assert.equal(crossed.headers['content-encoding'], 'br');
  });

  test('a settings change, a new revision, a visibility change, an unpublish: seen by the next view', async () => {
    const site = await publishedSite(t, 'kept-changes');
    const path = `${site.address}${CHILD}`;
    const warm = async () => {
      const first = await get(origin, path, { 'accept-encoding': 'br' });
      const second = await get(origin, path, { 'accept-encoding': 'br' });
      assert.deepEqual(second.body, first.body);
      return first;
    };
    const before = await warm();
    await customize(t, site, { title: 'Renamed handbook' });
    const renamed = await get(origin, path);
    assert.match(page(renamed, 'after the settings change'), /Renamed handbook/);
    const renamedBr = await get(origin, path, { 'accept-encoding': 'br' });
    assert.notEqual(renamedBr.headers.etag, before.headers.etag, 'a new ETag');
    const stale = await get(origin, path, {
      'accept-encoding': 'br',
      'if-none-match': String(before.headers.etag),
    });
    assert.equal(stale.status, 200, 'the old ETag no longer validates');

    await warm();
    await publishChanges(t, site.tree.spaceId, [
      { operation: 'insert_page', title: 'Brand new page', document: { markdown: 'New' } },
    ]);
    assert.match(page(await get(origin, path), 'after a new revision'), /Brand new page/);

    await warm();
    const visibility = (value: string) =>
      t.request({ method: 'PATCH', url: site.base, payload: { visibility: value } });
    expectStatus(await visibility('share-link'), 200);
    notFound(await get(origin, path), 'share-link, no key');
    notFound(
      await get(origin, path, { 'if-none-match': String(before.headers.etag) }),
      'share-link, no key, a kept ETag',
    );
    expectStatus(await visibility('unlisted'), 200);
    const unlisted = await get(origin, path);
    page(unlisted, 'unlisted');
    assert.equal(unlisted.headers['x-robots-tag'], 'noindex');
    assert.equal(unlisted.headers['cache-control'], 'private, no-cache');
    expectStatus(await visibility('public'), 200);
    const republic = await get(origin, path);
    page(republic, 'public again');
    assert.equal(republic.headers['x-robots-tag'], undefined);

    await warm();
    expectStatus(await t.request({ method: 'POST', url: `${site.base}/unpublish` }), 200);
    notFound(await get(origin, path), 'unpublished');
    notFound(await get(origin, path, { 'accept-encoding': 'br' }), 'unpublished, br');
    // A member previews it with a token; that view is never kept for anyone else.
    const preview = await get(origin, path, { authorization: `Bearer ${t.token}` });
    assert.equal(preview.status, 200);
    assert.equal(preview.headers['cache-control'], 'private, no-cache');
    notFound(await get(origin, path), 'unpublished, after a member’s preview');
  });

  test('a share link deactivated, a visitor key regenerated: the next view is refused', async () => {
    const shared = await publishedSite(t, 'kept-share', { visibility: 'share-link' });
    const link = expectStatus(
      await t.request({
        method: 'POST',
        url: `${shared.base}/share-links`,
        payload: { name: 'Partners' },
      }),
      201,
    ) as { id: string; urls: { published: string } };
    const key = new URL(link.urls.published).searchParams.get('share') ?? '';
    const cookie = `livery_share=${encodeURIComponent(key)}`;
    const path = `${shared.address}${CHILD}`;
    const first = await get(origin, path, { cookie, 'accept-encoding': 'gzip' });
    assert.equal(first.status, 200);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    const again = await get(origin, path, { cookie, 'accept-encoding': 'gzip' });
    assert.deepEqual(again.body, first.body);
    const etag = String(first.headers.etag);
    const revalidated = await get(origin, path, {
      cookie,
      'accept-encoding': 'gzip',
      'if-none-match': etag,
    });
    assert.equal(revalidated.status, 304);
    notFound(await get(origin, path), 'no cookie, after a visitor with one');
    notFound(await get(origin, path, { 'if-none-match': etag }), 'no cookie, the ETag');
    const off = await t.request({
      method: 'PATCH',
      url: `${shared.base}/share-links/${link.id}`,
      payload: { active: false },
    });
    expectStatus(off, 200);
    notFound(await get(origin, path, { cookie }), 'the kept cookie of a deactivated link');
    notFound(await get(origin, path, { cookie, 'if-none-match': etag }), 'and its ETag');

    const guarded = await publishedSite(t, 'kept-jwt', { visibility: 'visitor-auth' });
    const keyOf = async () =>
      expectStatus(await t.request({ method: 'GET', url: `${guarded.base}/publishing/auth` }), 200)
        .privateKey as string;
    const jwt = signVisitorToken({ aud: guarded.siteId, exp: inAnHour() }, await keyOf());
    const visitor = { cookie: `livery_visitor=${jwt}` };
    const guardedPath = `${guarded.address}${CHILD}`;
    const signedIn = await get(origin, guardedPath, visitor);
    assert.equal(signedIn.status, 200);
    assert.deepEqual((await get(origin, guardedPath, visitor)).body, signedIn.body);
    assert.equal((await get(origin, guardedPath)).status, 401, 'no cookie: the sign-in page');
    const regenerated = await t.request({
      method: 'POST',
      url: `${guarded.base}/publishing/auth/regenerate`,
    });
    expectStatus(regenerated, 200);
    assert.equal((await get(origin, guardedPath, visitor)).status, 401, 'the old key’s token');
    const fresh = signVisitorToken({ aud: guarded.siteId, exp: inAnHour() }, await keyOf());
    const renewed = await get(origin, guardedPath, { cookie: `livery_visitor=${fresh}` });
    assert.equal(renewed.status, 200, 'a token of the new key');
  });

  test('the tracking cookie is still given to each new visitor of a kept view', async () => {
    const site: PublishedSite = await publishedSite(t, 'kept-tracking');
    await customize(t, site, { insights: { trackingCookie: true } });
    const path = `${site.address}${CHILD}`;
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const answer = await get(origin, path);
      assert.equal(answer.status, 200);
      const cookie = [answer.headers['set-cookie']]
        .flat()
        .find((c) => c?.startsWith('livery_vid='));
      assert.ok(cookie, `view ${i}: a tracking cookie`);
      ids.add(cookie.split(';', 1)[0] ?? '');
    }
    assert.equal(ids.size, 3, 'a new id for each new visitor');
    const known = await get(origin, path, { cookie: [...ids][0] ?? '' });
    assert.equal(known.headers['set-cookie'], undefined, 'a visitor who has one keeps it');
  });
});

const TOKEN = 'gb_kept-view-test-token-0123456789abcd';

describe(`kept page views, two processes on one database (${BACKEND})`, () => {
  let two: TwoProcesses;
  let a: ServerProcess;
  let b: ServerProcess;
  let base: string;
  let siteId: string;
  const path = '/s/two/welcome';
  const api = (method: string, url: string, payload?: unknown) =>
    call(a.url, TOKEN, method, url, payload);
  before(async () => {
    two = await startTwoOnFreshDatabase(TOKEN);
    ({ a, b } = two);
    const space = await api('POST', `/v1/orgs/${two.orgId}/spaces`, { title: 'Docs' });
    await merge(String(space.body.id), 'Welcome');
    const site = await api('POST', `/v1/orgs/${two.orgId}/sites`, {
      title: 'Docs',
      spaces: [space.body.id],
    });
    siteId = String(site.body.id);
    base = `/v1/orgs/${two.orgId}/sites/${siteId}`;
    assert.equal((await api('PATCH', base, { basename: 'two' })).status, 200);
    assert.equal((await api('POST', `${base}/publish`)).status, 200);
    spaceId = String(space.body.id);
  });
  after(async () => two?.close());
  let spaceId = '';

  async function merge(space: string, title: string) {
    const crs = `/v1/spaces/${space}/change-requests`;
    const cr = String((await api('POST', crs, {})).body.id);
    const changes = [{ operation: 'insert_page', title, document: { markdown: title } }];
    assert.equal((await api('POST', `${crs}/${cr}/content`, { changes })).status, 200);
    assert.equal((await api('POST', `${crs}/${cr}/merge`)).status, 200);
  }

  /** Both processes answer the page twice (so that each keeps its view) with the same bytes. */
  async function warm(): Promise<Raw> {
    const views = [];
    for (const server of [a, b, a, b]) {
      views.push(await get(server.url, path, { 'accept-encoding': 'br' }));
    }
    for (const view of views) assert.deepEqual(view.body, views[0]?.body);
    return views[0] as Raw;
  }

  test('each change made through one process is what the other answers next', async () => {
    const first = await warm();
    assert.equal(first.status, 200);
    assert.equal(first.headers['content-encoding'], 'br');
    assert.equal(
      (
        await get(b.url, path, {
          'accept-encoding': 'br',
          'if-none-match': String(first.headers.etag),
        })
      ).status,
      304,
    );

    assert.equal((await api('PUT', `${base}/customization`, { title: 'Other title' })).status, 200);
    assert.match(page(await get(b.url, path), 'settings'), /Other title/);

    await warm();
    await merge(spaceId, 'Second page');
    assert.match(page(await get(b.url, path), 'a new revision'), /Second page/);

    await warm();
    assert.equal((await api('PATCH', base, { visibility: 'share-link' })).status, 200);
    notFound(await get(b.url, path), 'share-link');
    const link = await api('POST', `${base}/share-links`, { name: 'Partners' });
    const key = new URL((link.body.urls as { published: string }).published).searchParams.get(
      'share',
    );
    const cookie = `livery_share=${encodeURIComponent(key ?? '')}`;
    page(await get(b.url, path, { cookie }), 'with the share cookie');
    page(await get(b.url, path, { cookie }), 'with the share cookie, again');
    const off = await api('PATCH', `${base}/share-links/${String(link.body.id)}`, {
      active: false,
    });
    assert.equal(off.status, 200);
    notFound(await get(b.url, path, { cookie }), 'a deactivated link');

    assert.equal((await api('PATCH', base, { visibility: 'visitor-auth' })).status, 200);
    const auth = await api('GET', `${base}/publishing/auth`);
    const jwt = signVisitorToken({ aud: siteId, exp: inAnHour() }, String(auth.body.privateKey));
    const visitor = { cookie: `livery_visitor=${jwt}` };
    page(await get(b.url, path, visitor), 'a visitor token');
    page(await get(b.url, path, visitor), 'a visitor token, again');
    assert.equal((await api('POST', `${base}/publishing/auth/regenerate`)).status, 200);
    assert.equal((await get(b.url, path, visitor)).status, 401, 'a regenerated key');

    assert.equal((await api('PATCH', base, { visibility: 'public' })).status, 200);
    await warm();
    assert.equal((await api('POST', `${base}/unpublish`)).status, 200);
    notFound(await get(b.url, path), 'unpublished');
    notFound(await get(b.url, path, { 'accept-encoding': 'br' }), 'unpublished, br');
    assert.equal((await api('POST', `${base}/publish`)).status, 200);
    page(await get(b.url, path), 'published again');
  });
});
