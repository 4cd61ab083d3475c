import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { type PublishedSite, publishedSite, rawVisit, visit } from '../helpers/published.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

/**
 * Site redirects (docs/sites.md, "Redirects"; docs/published-site.md): GitBook 0.202's
 * operations, every refusal naming its field and changing nothing, and the published site
 * serving the rules as HTTP redirects (over a listening server too).
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Redirect = {
  id: string;
  source: string;
  draft: boolean;
  permanent: boolean;
  captureWildcard: boolean;
  destination: Record<string, unknown>;
  createdAt: string;
  updatedAt?: string;
};

let counter = 0;
const site = async (options: Parameters<typeof publishedSite>[2] = {}) =>
  publishedSite(t, `redir-${++counter}`, options);
const ext = (url: string) => ({ kind: 'external', url });
const own = (s: PublishedSite, path: string) => `http://livery.test/s/${s.basename}${path}`;

const create = (s: PublishedSite, payload: object) =>
  t.request({ method: 'POST', url: `${s.base}/redirects`, payload });
const bulk = (s: PublishedSite, redirects: object[]) =>
  t.request({ method: 'PUT', url: `${s.base}/redirects`, payload: { redirects } });
const list = async (s: PublishedSite, query = '') =>
  expectStatus(await t.request({ method: 'GET', url: `${s.base}/redirects${query}` }), 200) as {
    items: Redirect[];
    count: number;
    next?: { page: string };
  };
const all = async (s: PublishedSite) => [
  ...(await list(s, '?limit=1000')).items,
  ...(await list(s, '?limit=1000&draft=true')).items,
];

/** A request that must fail with `status`; the site's rules are unchanged. Returns the message. */
async function refused(
  s: PublishedSite,
  send: () => Promise<LightMyRequestResponse>,
  status: number,
): Promise<string> {
  const before = await all(s);
  const message = expectError(await send(), status);
  assert.deepEqual(await all(s), before, 'a refused request changes nothing');
  return message;
}

describe('createSiteRedirect, listSiteRedirects, updateSiteRedirectById, deleteSiteRedirectById', () => {
  test('a rule made, listed, changed and deleted; its source canonical', async () => {
    const s = await site();
    const res = await create(s, { source: '/caf%c3%a9', destination: ext('https://example.com/') });
    const made = expectStatus(res, 201) as Redirect;
    assert.equal(made.source, '/caf%C3%A9');
    assert.equal(made.draft, false);
    assert.equal(made.permanent, false);
    assert.equal(made.captureWildcard, false);
    assert.equal(made.updatedAt, undefined);
    assert.equal(res.headers.location, `http://livery.test${s.base}/redirects/${made.id}`);
    assert.deepEqual((await list(s)).items, [made]);
    const changed = expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${s.base}/redirects/${made.id}`,
        payload: { permanent: true, source: '/old/*', captureWildcard: true },
      }),
      200,
    ) as Redirect;
    assert.equal(changed.source, '/old/*');
    assert.equal(changed.permanent, true);
    assert.ok(changed.updatedAt);
    const url = `${s.base}/redirects/${made.id}`;
    assert.equal((await t.request({ method: 'DELETE', url })).statusCode, 205);
    assert.equal((await t.request({ method: 'DELETE', url })).statusCode, 204);
    assert.equal((await list(s)).count, 0);
  });

  test('the list: live by default, drafts apart, search, order, pages', async () => {
    const s = await site();
    for (const source of ['/b', '/a', '/c']) {
      expectStatus(await create(s, { source, destination: ext('https://example.com/') }), 201);
    }
    expectStatus(
      await create(s, { source: '/a', draft: true, destination: ext('https://x.test/') }),
      201,
    );
    assert.deepEqual(
      (await list(s)).items.map((r) => r.source),
      ['/c', '/a', '/b'],
    );
    assert.deepEqual(
      (await list(s, '?orderBy=source')).items.map((r) => r.source),
      ['/a', '/b', '/c'],
    );
    assert.deepEqual(
      (await list(s, '?draft=true')).items.map((r) => r.source),
      ['/a'],
    );
    assert.deepEqual(
      (await list(s, '?search=B')).items.map((r) => r.source),
      ['/b'],
    );
    const first = await list(s, '?orderBy=source&limit=2');
    assert.equal(first.count, 3);
    assert.ok(first.next);
    const second = await list(s, `?orderBy=source&limit=2&page=${first.next.page}`);
    assert.deepEqual(
      second.items.map((r) => r.source),
      ['/c'],
    );
    assert.equal(second.next, undefined);
    const forged = await t.request({ method: 'GET', url: `${s.base}/redirects?page=nope` });
    assert.match(expectError(forged, 400), /querystring\.page/);
  });

  test('destinations: a page by id or path, a variant; stored as GitBook shapes', async () => {
    const s = await site({ second: true });
    const [main, de] = s.siteSpaceIds as [string, string];
    const byPath = expectStatus(
      await create(s, {
        source: '/p',
        destination: { kind: 'path', spaceId: s.tree.spaceId, path: 'intro/child' },
      }),
      201,
    ) as Redirect;
    assert.deepEqual(byPath.destination, {
      kind: 'site-page',
      siteSpaceId: main,
      pageId: s.tree.child,
    });
    const variant = expectStatus(
      await create(s, { source: '/v', destination: { kind: 'site-space', siteSpaceId: de } }),
      201,
    ) as Redirect;
    assert.deepEqual(variant.destination, { kind: 'site-space', siteSpaceId: de });
  });

  test('refusals name the field and change nothing', async () => {
    const s = await site();
    const ok = expectStatus(
      await create(s, { source: '/taken', destination: ext('https://example.com/') }),
      201,
    ) as Redirect;
    const cases: [object, number, RegExp][] = [
      [
        { source: 'no-slash', destination: ext('https://e.test/') },
        400,
        /body\/source|body\.source/,
      ],
      [{ source: '/*', destination: ext('https://e.test/') }, 400, /source/],
      [{ source: '/a*b', destination: ext('https://e.test/') }, 400, /source/],
      [{ source: '/a/', destination: ext('https://e.test/') }, 400, /source/],
      [{ source: '/a/../b', destination: ext('https://e.test/') }, 400, /body\.source: .*"\.\."/],
      [{ source: '/x', destination: ext('javascript:alert(1)') }, 400, /body\.destination\.url/],
      [{ source: '/x', destination: ext('not a url') }, 400, /destination/],
      [
        { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
        400,
        /body\.destination\.siteSpaceId/,
      ],
      [
        {
          source: '/x',
          destination: { kind: 'site-page', siteSpaceId: s.siteSpaceIds[0], pageId: 'nope' },
        },
        400,
        /body\.destination\.pageId/,
      ],
      [
        { source: '/x', destination: { kind: 'site-section', siteSectionId: 'sec' } },
        400,
        /body\.destination\.siteSectionId/,
      ],
      [
        { source: '/x', destination: { kind: 'path', spaceId: 'nope', path: 'a' } },
        400,
        /body\.destination\.spaceId/,
      ],
      [
        { source: '/x', destination: { kind: 'path', spaceId: s.tree.spaceId, path: 'missing' } },
        400,
        /body\.destination\.path/,
      ],
      [{ source: '/x', destination: ext('https://e.test/'), extra: 1 }, 400, /extra|additional/i],
      [{ source: '/TAKEN', destination: ext('https://e.test/') }, 201, /./],
      [{ source: '/taken', destination: ext('https://e.test/') }, 409, /body\.source/],
    ];
    for (const [payload, status, pattern] of cases) {
      if (status === 201) {
        // Sources are case-sensitive, as paths are.
        expectStatus(await create(s, payload), 201);
        continue;
      }
      const message = await refused(s, () => create(s, payload), status);
      assert.match(message, pattern, JSON.stringify(payload));
    }
    const url = `${s.base}/redirects/${ok.id}`;
    assert.match(
      await refused(
        s,
        () => t.request({ method: 'PATCH', url, payload: { source: '/TAKEN' } }),
        409,
      ),
      /body\.source/,
    );
    assert.match(
      await refused(
        s,
        () => t.request({ method: 'PATCH', url, payload: { destination: ext('vbscript:x') } }),
        400,
      ),
      /body\.destination\.url/,
    );
    expectError(
      await t.request({
        method: 'PATCH',
        url: `${s.base}/redirects/nope`,
        payload: { permanent: true },
      }),
      404,
    );
    expectError(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites/nope/redirects` }),
      404,
    );
    expectError(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites/nope/redirects`,
        payload: { source: '/a', destination: ext('https://e.test/') },
      }),
      404,
    );
  });

  test('a loop, a prefix capturing its own destination, a chain of 6: 400 naming the field', async () => {
    const s = await site();
    expectStatus(await create(s, { source: '/a', destination: ext(own(s, '/b')) }), 201);
    const loop = await refused(
      s,
      () => create(s, { source: '/b', destination: ext(own(s, '/a')) }),
      400,
    );
    assert.match(loop, /^body\.destination: makes a redirect loop \(\/b → \/a → \/b\)/);
    const selfPrefix = await refused(
      s,
      () =>
        create(s, {
          source: '/old/*',
          captureWildcard: true,
          destination: ext(own(s, '/old/new')),
        }),
      400,
    );
    assert.match(selfPrefix, /^body\.destination: makes a redirect loop/);
    // A chain of 5 is accepted; a sixth hop is not, wherever it is added.
    const hops = ['/c1', '/c2', '/c3', '/c4', '/c5'];
    for (const [i, source] of hops.entries()) {
      expectStatus(await create(s, { source, destination: ext(own(s, `/c${i + 2}`)) }), 201);
    }
    const long = await refused(
      s,
      () => create(s, { source: '/c6', destination: ext('https://e.test/') }),
      400,
    );
    assert.match(long, /^body\.source: makes a chain of more than 5 redirects/);
    const before = await refused(
      s,
      () => create(s, { source: '/c0', destination: ext(own(s, '/c1')) }),
      400,
    );
    assert.match(before, /^body\.destination: makes a chain/);
  });
});

describe('bulkUpsertSiteRedirects', () => {
  test('upsert by source and intent, delete with null, publish a draft', async () => {
    const s = await site();
    const first = expectStatus(
      await bulk(s, [
        { source: '/one', destination: ext('https://e.test/1') },
        { source: '/two', intent: 'draft', destination: ext('https://e.test/2'), permanent: true },
      ]),
      200,
    ).results as { status: string; id?: string; draft: boolean }[];
    assert.deepEqual(
      first.map((r) => [r.status, r.draft]),
      [
        ['created', false],
        ['created', true],
      ],
    );
    const liveTwo = expectStatus(
      await create(s, { source: '/two', destination: ext('https://e.test/old') }),
      201,
    ) as Redirect;
    const second = expectStatus(
      await bulk(s, [
        { source: '/one', destination: ext('https://e.test/one') },
        { source: '/two', intent: 'publish' },
        { source: '/gone', destination: null },
      ]),
      200,
    ).results as { status: string; id?: string; draft: boolean }[];
    assert.deepEqual(
      second.map((r) => r.status),
      ['updated', 'published', 'deleted'],
    );
    assert.equal(second[1]?.id, liveTwo.id, 'the live rule keeps its id');
    const live = await list(s, '?orderBy=source');
    assert.deepEqual(
      live.items.map((r) => [r.source, r.destination.url, r.permanent]),
      [
        ['/one', 'https://e.test/one', false],
        ['/two', 'https://e.test/2', true],
      ],
    );
    assert.equal((await list(s, '?draft=true')).count, 0);
    const third = expectStatus(await bulk(s, [{ source: '/one', destination: null }]), 200);
    assert.deepEqual(third.results, [{ status: 'deleted', source: '/one', draft: false }]);
  });

  test('all or nothing: an item refused fails the request naming it', async () => {
    const s = await site();
    expectStatus(await create(s, { source: '/a', destination: ext(own(s, '/b')) }), 201);
    const items = [
      { source: '/x1', destination: ext('https://e.test/') },
      { source: '/x2', destination: ext('https://e.test/') },
      { source: '/x3', destination: ext('https://e.test/') },
      { source: '/b', destination: ext(own(s, '/a')) },
    ];
    assert.match(
      await refused(s, () => bulk(s, items), 400),
      /^body\.redirects\[3\]\.destination: makes a redirect loop/,
    );
    const reached = [
      { source: '/x', destination: ext(own(s, '/a')) },
      { source: '/b', destination: ext(own(s, '/x')) },
    ];
    assert.match(
      await refused(s, () => bulk(s, reached), 400),
      /^body\.redirects\[\d\]\.(source|destination): makes a redirect loop/,
    );
    const scheme = [
      { source: '/y', destination: ext('https://e.test/') },
      { source: '/z', destination: ext('javascript:1') },
    ];
    assert.match(
      await refused(s, () => bulk(s, scheme), 400),
      /^body\.redirects\[1\]\.destination\.url/,
    );
    assert.match(
      await refused(s, () => bulk(s, [{ source: '/nodraft', intent: 'publish' }]), 400),
      /^body\.redirects\[0\]\.source: no draft/,
    );
    assert.match(await refused(s, () => bulk(s, []), 400), /redirects/);
    const many = Array.from({ length: 501 }, (_, i) => ({
      source: `/m${i}`,
      destination: ext('https://e.test/'),
    }));
    assert.match(await refused(s, () => bulk(s, many), 400), /redirects/);
    assert.match(
      await refused(
        s,
        () => bulk(s, [{ source: '/p', intent: 'publish', destination: null }]),
        400,
      ),
      /redirects\/0|redirects\[0\]/,
    );
  });

  test('500 items at once', async () => {
    const s = await site();
    const many = Array.from({ length: 500 }, (_, i) => ({
      source: `/m${i}`,
      destination: ext(`https://e.test/${i}`),
    }));
    const res = expectStatus(await bulk(s, many), 200).results as unknown[];
    assert.equal(res.length, 500);
    assert.equal((await list(s)).count, 500);
  });
});

describe('permissions and audit', () => {
  test('read lists, admin changes; each change is in the audit log', async () => {
    const s = await site();
    const reader = await memberWithRole(t, 'read');
    const editor = await memberWithRole(t, 'edit');
    assert.equal(
      (await requestAs(t, reader, { method: 'GET', url: `${s.base}/redirects` })).statusCode,
      200,
    );
    const payload = { source: '/a', destination: ext('https://e.test/') };
    for (const who of [reader, editor]) {
      expectError(
        await requestAs(t, who, { method: 'POST', url: `${s.base}/redirects`, payload }),
        403,
      );
      expectError(
        await requestAs(t, who, {
          method: 'PUT',
          url: `${s.base}/redirects`,
          payload: { redirects: [payload] },
        }),
        403,
      );
    }
    const made = expectStatus(await create(s, payload), 201) as Redirect;
    await t.request({ method: 'DELETE', url: `${s.base}/redirects/${made.id}` });
    const log = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/audit-log?limit=1000` }),
      200,
    ).items as { action: string; target: { id: string }; details: { redirect?: string } }[];
    const mine = log.filter((e) => e.details.redirect === made.id).map((e) => e.action);
    assert.deepEqual(mine.sort(), ['site.redirect.created', 'site.redirect.deleted']);
  });
});

describe('the published site serves the rules', () => {
  test('exact and prefix sources, capture, query kept, page first, drafts not served', async () => {
    const s = await site({ second: true });
    const [main] = s.siteSpaceIds as [string];
    expectStatus(
      await bulk(s, [
        { source: '/old', destination: ext('https://example.com/new'), permanent: true },
        { source: '/docs/*', captureWildcard: true, destination: ext('https://example.com/v2/') },
        {
          source: '/legacy*',
          destination: { kind: 'site-page', siteSpaceId: main, pageId: s.tree.child },
        },
        { source: '/intro', destination: ext('https://example.com/never') },
        {
          source: '/de/alt',
          destination: { kind: 'site-space', siteSpaceId: s.second?.siteSpaceId ?? '' },
        },
        { source: '/draft', intent: 'draft', destination: ext('https://example.com/draft') },
      ]),
      200,
    );
    const at = async (path: string) => visit(t, `${s.address}${path}`);
    let res = await at('/old');
    assert.equal(res.statusCode, 308, 'permanent, public live traffic');
    assert.equal(res.headers.location, 'https://example.com/new');
    res = await at('/old?utm=1');
    assert.equal(res.headers.location, 'https://example.com/new?utm=1');
    res = await at('/docs/a/b');
    assert.equal(res.statusCode, 307);
    assert.equal(res.headers.location, 'https://example.com/v2/a/b');
    res = await at('/docs');
    assert.equal(res.headers.location, 'https://example.com/v2/');
    res = await at('/legacy-stuff/x');
    assert.equal(res.headers.location, `${s.address}/intro/child`);
    res = await at('/de/alt');
    assert.equal(res.headers.location, `${s.address}/de/`);
    assert.equal((await at('/intro')).statusCode, 200, 'a page wins over a rule');
    assert.equal((await at('/draft')).statusCode, 404, 'a draft is not served');
    assert.equal((await at('/nothing')).statusCode, 404);
  });

  test('a permanent rule of a site readers need a share link for: 307', async () => {
    const s = await site({ visibility: 'share-link' });
    expectStatus(
      await create(s, {
        source: '/old',
        permanent: true,
        destination: ext('https://example.com/'),
      }),
      201,
    );
    const links = expectStatus(
      await t.request({ method: 'POST', url: `${s.base}/share-links`, payload: { name: 'x' } }),
      201,
    ) as { urls: { published: string } };
    const key = new URL(links.urls.published).searchParams.get('share');
    const first = await visit(t, `${s.address}/old?share=${key}`);
    const cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
    const res = await visit(t, `${s.address}/old`, { cookie });
    assert.equal(res.statusCode, 307);
    assert.equal(res.headers.location, 'https://example.com/');
  });

  test('followed over a listening server: status and Location as sent', async () => {
    const s = await site();
    expectStatus(
      await create(s, {
        source: '/moved/*',
        captureWildcard: true,
        permanent: true,
        destination: ext(own(s, '/intro')),
      }),
      201,
    );
    const res = await rawVisit(t, `${s.address}/moved/child`);
    assert.equal(res.statusCode, 308);
    assert.equal(res.headers.location, own(s, '/intro/child'));
    const followed = await rawVisit(t, new URL(res.headers.location ?? '').pathname);
    assert.equal(followed.statusCode, 200);
    assert.match(followed.body, /Child/);
    // A rule changed is served at once (the per-site index is dropped on commit).
    const [rule] = (await list(s)).items;
    assert.ok(rule);
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: `${s.base}/redirects/${rule.id}`,
        payload: { permanent: false },
      }),
      200,
    );
    assert.equal((await rawVisit(t, `${s.address}/moved/child`)).statusCode, 307);
  });

  test('getSiteRedirectBySource answers the stored rules', async () => {
    const s = await site();
    const made = expectStatus(
      await create(s, {
        source: '/guide/*',
        captureWildcard: true,
        destination: ext('https://example.com/g'),
      }),
      201,
    ) as Redirect;
    const res = expectStatus(
      await t.request({
        method: 'GET',
        url: `${s.base}/redirect?source=${encodeURIComponent('/guide/a')}`,
      }),
      200,
    );
    assert.deepEqual(res, { redirect: made, target: 'https://example.com/g/a' });
    expectError(
      await t.request({ method: 'GET', url: `${s.base}/redirect?source=/elsewhere` }),
      404,
    );
  });
});
