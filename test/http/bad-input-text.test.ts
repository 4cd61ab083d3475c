import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import {
  ENCODED_LONE,
  LONE_HIGH,
  LONE_LOW,
  SURROGATE_MESSAGE,
  stringFields,
} from '../helpers/ill-formed.js';
import { type ApiOperation, apiOperations } from '../helpers/openapi-operations.js';
import { assertPlain404, type PublishedSite, publishedSite } from '../helpers/published.js';
import { filled, realIds } from '../helpers/real-ids.js';
import { cookiesOf } from '../helpers/studio.js';

/**
 * Lone surrogates (src/well-formed-text.ts) wherever a client's text comes in, on the run's
 * backend. One stored in a social handle once made every page of its site answer 500: now, as a
 * NUL (test/http/bad-input-classes.test.ts), it is a 400 naming the field, and nothing is stored. JSON
 * carries one as the escape `\ud800`, a URL as the bytes `%ED%A0%80`.
 */
let t: TestContext;
let site: PublishedSite;
let operations: ApiOperation[];
let ids: Record<string, string>;
/** The headers of a JSON write; the studio's also carry its CSRF token and cookie. */
let headersOf: (path: string) => Record<string, string>;

before(async () => {
  // No rate limit: a request per string field of every body is the point here.
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  site = await publishedSite(t, 'docs');
  ids = await realIds(t, site);
  operations = await apiOperations(t);
  const session = await t.app.inject({ method: 'GET', url: '/studio/session' });
  const studio = {
    cookie: cookiesOf(session),
    'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken,
  };
  headersOf = (path) => (path.startsWith('/studio') ? { ...json, ...studio } : json);
});
after(async () => t.close());

const json = { 'content-type': 'application/json' };

/** What the API answers to read, to show that refused writes stored nothing. */
async function state() {
  const reads = [
    `${site.base}/customization`,
    `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`,
    `/v1/orgs/${t.orgId}/spaces`,
    `/v1/orgs/${t.orgId}/sites`,
    `/v1/orgs/${t.orgId}/teams`,
    `/v1/spaces/${site.tree.spaceId}/change-requests`,
  ];
  return Promise.all(reads.map(async (url) => (await t.request({ method: 'GET', url })).body));
}

describe('a lone surrogate is a 400 naming the field, on both backends', () => {
  test('in every string field of every write body, customization settings included', async () => {
    const before = await state();
    let checked = 0;
    /** Bodies with no string field at all: named, so that none is left out unseen. */
    const withoutStrings: string[] = [];
    const writes = operations.filter((op) => op.bodySchema !== undefined);
    assert.ok(writes.length >= 30, `write operations found (${writes.length})`);
    for (const { method, path, bodySchema } of writes) {
      const url = filled(path, ids);
      const fields = stringFields(bodySchema ?? {});
      if (fields.length === 0) {
        withoutStrings.push(`${method} ${path}`);
        continue;
      }
      for (const [index, field] of fields.entries()) {
        const text = index % 2 === 0 ? LONE_HIGH : LONE_LOW; // high and low surrogates alike
        const payload = JSON.stringify(field.body(text));
        assert.match(payload, /\\ud[8-9a-f]/, 'sent as JSON sends it: an escape');
        const res = await t.request({
          method: method.toUpperCase() as 'POST',
          url,
          payload,
          headers: headersOf(path),
        });
        assert.equal(
          expectError(res, 400),
          `body${field.where}${SURROGATE_MESSAGE}`,
          `${method} ${path} ${payload.slice(0, 120)}`,
        );
        checked += 1;
      }
    }
    assert.ok(checked >= 300, `string fields checked (${checked})`);
    // duplicateSiteSpace's body is `{draft?: boolean}`: no text to send a surrogate in.
    assert.deepEqual(withoutStrings, [
      'post /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/duplicate',
    ]);
    assert.deepEqual(await state(), before, 'nothing stored');
  });

  test('every setting of the customization: PUT of the site and PATCH of a variant', async () => {
    const put = operations.find((op) => op.method === 'put' && op.path.endsWith('/customization'));
    const settings = stringFields(put?.bodySchema ?? {}).map((field) => field.where);
    for (const where of [
      '.title',
      '.localizedTitle.en',
      '.socialAccounts[0].handle',
      '.header.links[0].title',
      '.header.links[0].links[0].to.url',
      '.footer.copyright',
      '.announcement.message',
      '.favicon.emoji',
      '.styling.font.fontFamily',
      '.styling.font.fontFaces[0].sources[0].url',
      '.ai.suggestions[0]',
      '.pageActions.items[0]',
    ]) {
      assert.ok(settings.includes(where), `${where} is among the fields checked`);
    }
  });

  test('in a field name', async () => {
    for (const { method, path } of operations.filter((op) => op.bodySchema !== undefined)) {
      const res = await t.request({
        method: method.toUpperCase() as 'POST',
        url: filled(path, ids),
        payload: JSON.stringify({ [LONE_HIGH]: 1 }),
        headers: headersOf(path),
      });
      assert.equal(expectError(res, 400), `body["a\\ud800b"]${SURROGATE_MESSAGE}`, path);
    }
  });

  test('in every query parameter of every route, and in a parameter name', async () => {
    let checked = 0;
    for (const { method, path, parameters } of operations) {
      for (const { name } of parameters.filter((p) => p.in === 'query')) {
        const url = `${filled(path, ids)}?${encodeURIComponent(name)}=${ENCODED_LONE}`;
        const res = await t.request({ method: method.toUpperCase() as 'GET', url });
        assert.equal(expectError(res, 400), `querystring.${name}${SURROGATE_MESSAGE}`, url);
        checked += 1;
      }
    }
    assert.ok(checked >= 50, `query parameters checked (${checked})`);
    const named = await t.request({
      method: 'GET',
      url: `/v1/orgs/${t.orgId}/sites?${ENCODED_LONE}=1`,
    });
    assert.equal(expectError(named, 400), `querystring["${ENCODED_LONE}"]${SURROGATE_MESSAGE}`);
  });

  test("in every path parameter of every route: the router's 400", async () => {
    for (const { method, path } of operations.filter((op) => op.path.includes('{'))) {
      const url = path.replace(/\{[^}]+\}/g, ENCODED_LONE);
      const res = await t.request({ method: method.toUpperCase() as 'GET', url });
      assert.equal(
        expectError(res, 400),
        'path: the URL path is not valid percent-encoding (UTF-8)',
        url,
      );
    }
  });

  test('an escaped surrogate pair is no lone surrogate: stored as sent', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: '{"title":"\\ud83d\\udcd8 Guide"}',
      headers: json,
    });
    assert.equal(expectStatus(res, 201).title, '📘 Guide');
  });

  test('in an Idempotency-Key header', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: { title: 'Keyed' },
      headers: { 'idempotency-key': LONE_HIGH },
    });
    assert.match(expectError(res, 400), /^The Idempotency-Key header must be/);
  });
});

describe('on a published site', () => {
  test('in the address or the query: the plain 404', async () => {
    for (const url of [
      `/s/${ENCODED_LONE}`,
      `/s/${site.basename}/${ENCODED_LONE}`,
      `/s/${site.basename}?share=${ENCODED_LONE}`,
      `/s/${site.basename}?${ENCODED_LONE}=1`,
      `/s/${site.basename}/@livery/search?q=${ENCODED_LONE}`,
      `/s/@livery/fonts/${ENCODED_LONE}`,
    ]) {
      assertPlain404(await t.app.inject({ method: 'GET', url }), url);
    }
  });

  test('in a feedback or view body: a 400 naming the field', async () => {
    for (const what of ['feedback', 'view']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/s/${site.basename}/@livery/${what}`,
        payload: {
          siteSpaceId: site.siteSpaceIds[0],
          pageId: LONE_HIGH,
          ...(what === 'feedback' ? { rating: 'good', visitorId: 'visitor-12345' } : {}),
        },
      });
      assert.equal(expectError(res, 400), `body.pageId${SURROGATE_MESSAGE}`, what);
    }
  });
});
