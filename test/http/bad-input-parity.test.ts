import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';
import { type ApiOperation, apiOperations } from '../helpers/openapi-operations.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';
import { filled, realIds } from '../helpers/real-ids.js';

/**
 * The same request answers the same status on both backends (the suite runs once per backend,
 * and each input here has one expected status): integers in paths and queries, and list cursors,
 * which PostgreSQL once turned into 500s that SQLite never gave (a revision number of 2³¹ or
 * more, a forged cursor key, a NUL inside a cursor) and `0x1` read as 1 on both.
 */
let t: TestContext;
let site: PublishedSite;
let ids: Record<string, string>;
let operations: ApiOperation[];
let variant: string;

before(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  site = await publishedSite(t, 'docs', { second: true });
  ids = await realIds(t, site);
  operations = await apiOperations(t);
  variant = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
  for (const title of ['One', 'Two']) {
    const put = { method: 'PUT' as const, url: `${site.base}/customization`, payload: { title } };
    expectStatus(await t.request(put), 200);
    const patch = { method: 'PATCH' as const, url: variant, payload: { title } };
    expectStatus(await t.request(patch), 200);
  }
});
after(async () => t.close());

/** Status and message of a request, for one assertion that names the request. */
async function answer(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await t.request({ method, url, ...(payload === undefined ? {} : { payload }) });
  const message =
    res.statusCode >= 400 ? (res.json() as { error: { message: string } }).error.message : '';
  return { status: res.statusCode, message };
}

const INTEGER = /must be an integer/;
describe(`integers in a path or a query: strict decimal, 32 bits (${BACKEND})`, () => {
  /** Text of a revision number → expected status and message. */
  const numbers: [string, number, RegExp?][] = [
    ['1', 200],
    ['01', 200], // decimal digits, as any decimal reader reads them
    ['2147483647', 404], // a number PostgreSQL can hold, of no revision
    ['2147483648', 400, /must be <= 2147483647 \(got "2147483648"\)$/],
    ['4294967296', 400, /must be <= 2147483647/],
    ['99999999999999999999', 400, /must be <= 2147483647/],
    ['-2147483649', 400, /must be >= -2147483648/],
    ['0', 400, /must be >= 1/],
    ['-1', 400, /must be >= 1/],
    ['0x1', 400, INTEGER],
    ['0b1', 400, INTEGER],
    ['0o1', 400, INTEGER],
    ['1e0', 400, INTEGER],
    ['1e3', 400, INTEGER],
    ['+1', 400, INTEGER],
    [' 1', 400, INTEGER],
    ['1 ', 400, INTEGER],
    ['1.0', 400, INTEGER],
    ['1.5', 400, INTEGER],
    ['Infinity', 400, INTEGER],
    ['١', 400, INTEGER], // an Arabic-Indic digit one
  ];

  test('a revision number: GET, restore, for a site and a variant', async () => {
    for (const base of [`${site.base}/customization`, variant]) {
      for (const [text, status, message] of numbers) {
        const at = `${base}/revisions/${encodeURIComponent(text)}`;
        for (const [method, url] of [
          ['GET', at],
          ['POST', `${at}/restore`],
        ] as const) {
          const got = await answer(method, url);
          assert.equal(got.status, status, `${method} ${url}: ${got.message}`);
          if (message !== undefined)
            assert.match(got.message, new RegExp(`^params\\.number ${message.source}`));
        }
      }
    }
  });

  test('compare: from and to', async () => {
    for (const base of [`${site.base}/customization`, variant]) {
      for (const [text, status, message] of numbers) {
        for (const [name, query] of [
          ['to', `from=0&to=${encodeURIComponent(text)}`],
          ['from', `from=${encodeURIComponent(text)}&to=1`],
        ] as const) {
          const url = `${base}/revisions/compare?${query}`;
          const got = await answer('GET', url);
          // 0 is a document (the defaults, no override), never a revision: 200, not 400.
          const expected = text === '0' ? 200 : text === '-1' ? 400 : status;
          assert.equal(got.status, expected, `${url}: ${got.message}`);
          if (message !== undefined && expected === 400) {
            assert.match(got.message, new RegExp(`^querystring\\.${name} `), url);
          }
        }
      }
    }
  });

  test('limit', async () => {
    for (const [limit, status] of [
      ['10', 200],
      ['0x10', 400],
      ['1e1', 400],
      ['+10', 400],
      ['2147483648', 400],
    ] as const) {
      const got = await answer(
        'GET',
        `/v1/orgs/${t.orgId}/sites?limit=${encodeURIComponent(limit)}`,
      );
      assert.equal(got.status, status, `limit=${limit}: ${got.message}`);
    }
  });
});

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const rawCursor = (text: string) => Buffer.from(text).toString('base64url');

describe(`list cursors are decoded and checked before any query (${BACKEND})`, () => {
  /** Forged in every way a list must refuse, whatever it sorts by. */
  const refusedEverywhere = [
    cursor(['2024-01-01T00:00:00.000Z', 'a\u0000b']),
    rawCursor('["2024-01-01T00:00:00.000Z","a\\ud800b"]'),
    cursor([2147483648, 'x']),
    cursor([1e20, 'x']),
    cursor([1.5, 'x']),
    cursor({ key: 1, id: 'x' }),
    cursor(['x']),
    cursor([1, 2]),
    rawCursor('not json'),
    'garbage!',
  ];
  /** Lists ordered by a number (revision, position) take only integer keys; the others only text. */
  const byNumber = (path: string) =>
    /\/(revisions|site-spaces|sections|section-groups)$/.test(path);

  test('every paginated list: 400 for a forged cursor, 200 for one of the right type', async () => {
    // The searches' cursors are positions in a ranking, not keyset cursors: tested below.
    const lists = operations.filter(
      // A list has a `limit` beside its `page` cursor (getSpacePDF's `page` is a page id).
      (op) =>
        op.method === 'get' &&
        op.parameters.some((p) => p.name === 'page') &&
        op.parameters.some((p) => p.name === 'limit') &&
        !op.path.endsWith('/search'),
    );
    assert.ok(lists.length >= 15, `paginated lists found (${lists.length})`);
    for (const { path } of lists) {
      const numbered = byNumber(path);
      const refused = [
        ...refusedEverywhere,
        numbered ? cursor(['x', '1']) : cursor([5, 'x']),
        numbered ? cursor(['1', '1']) : cursor(['a\u0000', 'x']),
        numbered ? rawCursor('["\\udc00","1"]') : rawCursor('["a\\udc00","x"]'),
      ];
      for (const page of refused) {
        const url = `${filled(path, ids)}?page=${page}`;
        const got = await answer('GET', url);
        assert.equal(
          got.status,
          400,
          `${url} (${Buffer.from(page, 'base64url').toString()}): ${got.message}`,
        );
        assert.equal(
          got.message,
          'querystring.page is not a page cursor returned by this list',
          url,
        );
      }
      const accepted = numbered
        ? [cursor([5, 'x']), cursor([2147483647, 'x'])]
        : [cursor(['x', '1'])];
      for (const page of accepted) {
        const url = `${filled(path, ids)}?page=${page}`;
        const got = await answer('GET', url);
        assert.equal(got.status, 200, `${url}: ${got.message}`);
      }
    }
  });

  test('the cursor a list answers leads to its next page', async () => {
    for (const path of [
      `${site.base}/customization/revisions`,
      `${site.base}/site-spaces`,
      `/v1/orgs/${t.orgId}/spaces`,
    ]) {
      const first = expectStatus(await t.request({ method: 'GET', url: `${path}?limit=1` }), 200);
      const next = (first.next as { page: string } | undefined)?.page;
      assert.ok(next !== undefined, `${path} has a second page`);
      const second = expectStatus(
        await t.request({ method: 'GET', url: `${path}?limit=1&page=${next}` }),
        200,
      );
      assert.notDeepEqual(second.items, first.items, path);
    }
  });

  test("the site search's own cursor", async () => {
    const search = `${site.base}/search`;
    for (const page of [rawCursor('o1\u0000'), rawCursor('o99999999999'), 'garbage!']) {
      const got = await answer('POST', `${search}?page=${page}`, { query: 'welcome' });
      assert.equal(got.status, 400, `${page}: ${got.message}`);
    }
    // The space's and the organization's search (searchSpaceContent, searchOrganizationContent).
    for (const path of ['/v1/spaces/{spaceId}/search', '/v1/orgs/{organizationId}/search']) {
      for (const page of [rawCursor('o1\u0000'), rawCursor('o99999999999'), 'garbage!']) {
        const got = await answer('GET', `${filled(path, ids)}?query=welcome&page=${page}`);
        assert.equal(got.status, 400, `${path} ${page}: ${got.message}`);
        assert.match(got.message, /^querystring\.page /);
      }
    }
  });
});
