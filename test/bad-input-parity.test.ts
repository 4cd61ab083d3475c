import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from './helpers/app.js';
import { BACKEND } from './helpers/backend.js';
import { type PublishedSite, publishedSite } from './helpers/published.js';

/**
 * The same request answers the same status on both backends (the suite runs once per backend,
 * and each input here has one expected status): integers in paths and queries, which PostgreSQL
 * once turned into 500s that SQLite never gave (a revision number of 2³¹ or more) and `0x1` read
 * as 1 on both.
 */
let t: TestContext;
let site: PublishedSite;
let variant: string;

before(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  site = await publishedSite(t, 'docs', { second: true });
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
