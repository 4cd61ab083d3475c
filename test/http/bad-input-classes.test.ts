import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { apiOperations, PROTOTYPE_NAMES } from '../helpers/openapi-operations.js';
import { assertPlain404, type PublishedSite, publishedSite } from '../helpers/published.js';
import { rawRequest } from '../helpers/raw-http.js';

/**
 * Classes of bad input (issue 16), each over every place it can reach, on the run's backend:
 * the NUL character (PostgreSQL cannot store it: D3), the names an object inherits as path
 * segments (D2), deep bodies with an Idempotency-Key (D1), `Expect` headers other than
 * 100-continue (D8). test/http/bad-input-routes.test.ts sends generated bad input to every route.
 */
let t: TestContext;
let site: PublishedSite;
let routes: { method: string; path: string }[];
/** The routes that document an `Idempotency-Key` header. */
let idempotent: { method: string; path: string }[];

before(async () => {
  // Every class is sent to every operation, over a thousand requests a minute: not a rate test.
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  site = await publishedSite(t, 'docs');
  const operations = await apiOperations(t);
  routes = operations.map(({ method, path }) => ({ method: method.toUpperCase(), path }));
  idempotent = operations
    .filter(({ parameters }) => parameters.some((p) => p.name === 'Idempotency-Key'))
    .map(({ method, path }) => ({ method: method.toUpperCase(), path }));
});
after(async () => t.close());

const NUL_MESSAGE = / must not contain the NUL character \(U\+0000\)$/;

/** Every path parameter of an OpenAPI path replaced by `value` (encoded). */
const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, encodeURIComponent(value));

/** Never a 5xx; a 4xx in exactly GitBook's envelope. */
function assertNo5xx(res: { statusCode: number; body: string }, what: string) {
  assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body}`);
  if (res.statusCode >= 400) assertEnvelope(res, what);
}

/** A 4xx answered in exactly GitBook's envelope. */
function assertEnvelope(res: { statusCode: number; body: string }, what: string) {
  assert.ok(
    res.statusCode >= 400 && res.statusCode < 500,
    `${what}: ${res.statusCode} ${res.body}`,
  );
  const body = JSON.parse(res.body) as { error: { code: number; message: string } };
  assert.deepEqual(Object.keys(body), ['error'], what);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message'], what);
  assert.equal(body.error.code, res.statusCode, what);
  assert.equal(typeof body.error.message, 'string', what);
}

describe('the NUL character is a 400 naming the field, on both backends (D3)', () => {
  test('in any path parameter of any API route', async () => {
    for (const { method, path } of routes.filter((r) => r.path.includes('{'))) {
      const res = await t.request({ method: method as 'GET', url: fill(path, 'a\u0000b') });
      const message = expectError(res, 400);
      assert.match(
        message,
        /^params\.[\w*]+ must not contain the NUL character/,
        `${method} ${path}`,
      );
    }
  });

  test('in a path parameter alone, with real ids around it', async () => {
    const res = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites/a%00b` });
    assert.equal(
      expectError(res, 400),
      'params.siteId must not contain the NUL character (U+0000)',
    );
    const page = await t.request({
      method: 'GET',
      url: `/v1/spaces/${site.tree.spaceId}/content/path/intro%00`,
    });
    assert.match(expectError(page, 400), NUL_MESSAGE);
  });

  test('in a query parameter, its name, or one of its repeated values', async () => {
    for (const query of [
      'search=%00',
      'search=a%00b',
      'role=%00',
      'page=%00',
      'search=x&search=%00',
    ]) {
      const res = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/members?${query}` });
      assert.match(
        expectError(res, 400),
        /^querystring\.(search|role|page) must not contain/,
        query,
      );
    }
    const name = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites?a%00=1` });
    assert.match(expectError(name, 400), /^querystring\["a\\u0000"\] must not contain/);
    const sites = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites?title=%00` });
    assert.match(expectError(sites, 400), /^querystring\.title must not contain/);
  });

  test('in a body field at any depth or in a field name; nothing is stored', async () => {
    const spaces = `/v1/orgs/${t.orgId}/spaces`;
    const cases: [string, string, string, RegExp][] = [
      ['POST', spaces, '{"title":"a\\u0000b"}', /^body\.title must not/],
      ['PATCH', site.base, '{"title":"\\u0000"}', /^body\.title must not/],
      [
        'PUT',
        `${site.base}/customization`,
        '{"header":{"links":[{"title":"x\\u0000","to":null,"links":[]}]}}',
        /^body\.header\.links\[0\]\.title must not/,
      ],
      ['PUT', `${site.base}/customization`, '{"a\\u0000":1}', /^body\["a\\u0000"\] must not/],
      [
        'POST',
        `/v1/spaces/${site.tree.spaceId}/change-requests`,
        `${'{"a":'.repeat(5000)}"\\u0000"${'}'.repeat(5000)}`,
        /^body(\.a)+ must not/,
      ],
    ];
    const before = await t.request({ method: 'GET', url: spaces });
    for (const [method, url, payload, message] of cases) {
      const res = await t.request({
        method: method as 'POST',
        url,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.match(expectError(res, 400), message, `${method} ${url} ${payload.slice(0, 40)}`);
    }
    const afterwards = await t.request({ method: 'GET', url: spaces });
    assert.equal(afterwards.body, before.body, 'no space created');
  });

  test('an escaped backslash before "u0000" is no NUL: the text is stored as sent', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: '{"title":"a\\\\u0000b"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(expectStatus(res, 201).title, 'a\\u0000b');
  });

  test('on a published site: the plain 404 for a NUL in the path or the query', async () => {
    for (const url of [
      '/s/a%00b',
      `/s/${site.basename}%00`,
      `/s/${site.basename}/intro%00`,
      `/s/${site.basename}?share=%00`,
      `/s/${site.basename}/@livery/search?q=%00`,
      `/s/${site.basename}/@livery/theme/${site.siteSpaceIds[0]}.css%00`,
      '/s/@livery/site.css%00',
      '/s/@livery/fonts/a%00',
    ]) {
      assertPlain404(await t.app.inject({ method: 'GET', url }), url);
    }
  });

  test("in a published site's feedback body: a 400 naming the field", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/s/${site.basename}/@livery/feedback`,
      payload: {
        siteSpaceId: site.siteSpaceIds[0],
        pageId: 'a\u0000',
        rating: 'good',
        visitorId: 'visitor-12345',
      },
    });
    assert.equal(expectError(res, 400), 'body.pageId must not contain the NUL character (U+0000)');
  });
});

describe('names an object inherits are ordinary unknown names (D2)', () => {
  test("every published site's route: the plain 404", async () => {
    const b = site.basename;
    for (const name of PROTOTYPE_NAMES) {
      for (const url of [
        `/s/@livery/${name}`,
        `/s/@livery/fonts/${name}`,
        `/s/${name}`,
        `/s/${name}/intro`,
        `/s/${b}/@livery/theme/${name}`,
        `/s/${b}/@livery/theme/${name}.css`,
        `/s/${name}/@livery/theme/${site.siteSpaceIds[0]}.css`,
        `/s/${name}/@livery/search?q=x`,
      ]) {
        assertPlain404(await t.app.inject({ method: 'GET', url }), url);
      }
      // A page the site does not have: the site's own "Page not found".
      for (const url of [`/s/${b}/${name}`, `/s/${b}/${name}/${name}`, `/s/${b}/de/${name}`]) {
        const res = await t.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 404, url);
        assert.match(res.body, /Page not found/, url);
      }
      for (const what of ['feedback', 'view']) {
        const body = {
          siteSpaceId: name,
          pageId: name,
          rating: 'good',
          visitorId: 'visitor-12345',
        };
        const payload = what === 'view' ? { siteSpaceId: name, pageId: name } : body;
        const unknownSite = await t.app.inject({
          method: 'POST',
          url: `/s/${name}/@livery/${what}`,
          payload,
        });
        assertPlain404(unknownSite, `POST /s/${name}/@livery/${what}`);
        const unknownVariant = await t.app.inject({
          method: 'POST',
          url: `/s/${b}/@livery/${what}`,
          payload,
        });
        expectError(unknownVariant, 404);
      }
      const search = await t.app.inject({
        method: 'GET',
        url: `/s/${b}/@livery/search?q=x&siteSpaceId=${name}`,
      });
      expectError(search, 404);
    }
  });

  test('every API route with every path parameter named so: a 4xx envelope', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const { method, path } of routes.filter((r) => r.path.includes('{'))) {
        const res = await t.request({ method: method as 'GET', url: fill(path, name) });
        assertNo5xx(res, `${method} ${fill(path, name)}`);
      }
      // And beside real ids: only the last one inherited.
      for (const url of [
        `/v1/orgs/${t.orgId}/sites/${name}`,
        `/v1/orgs/${t.orgId}/members/${name}`,
        `/v1/spaces/${site.tree.spaceId}/content/page/${name}`,
        `/v1/spaces/${site.tree.spaceId}/content/path/${name}`,
        `${site.base}/site-spaces/${name}/customization`,
      ]) {
        assertEnvelope(await t.request({ method: 'GET', url }), url);
      }
    }
  });
  test("a custom font file whose URL ends in an inherited name: the site's theme CSS answers", async () => {
    for (const name of ['constructor', 'valueof', 'tostring']) {
      const font = {
        id: 'f',
        custom: true,
        fontFamily: 'F',
        fontFaces: [{ weight: 400, sources: [{ url: `https://fonts.test/f.${name}` }] }],
      };
      const url = `${site.base}/customization`;
      expectStatus(await t.request({ method: 'PUT', url, payload: { styling: { font } } }), 200);
      const variant = site.siteSpaceIds[0];
      for (const res of [
        await t.request({
          method: 'GET',
          url: `${site.base}/site-spaces/${variant}/customization/theme.css`,
        }),
        await t.app.inject({
          method: 'GET',
          url: `/s/${site.basename}/@livery/theme/${variant}.css`,
        }),
      ]) {
        assert.equal(res.statusCode, 200, res.body);
        assert.match(
          res.body,
          new RegExp(`url\\("https://fonts.test/f.${name}"\\);`),
          'no format()',
        );
      }
    }
    expectStatus(
      await t.request({ method: 'PUT', url: `${site.base}/customization`, payload: {} }),
      200,
    );
  });
});

describe('deep bodies with an Idempotency-Key (D1)', () => {
  const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  test('every idempotent route: no 5xx; the answer is stored and replayed under the key', async () => {
    assert.ok(idempotent.length >= 5, 'the idempotent routes are found in /openapi.json');
    for (const [index, { method, path }] of idempotent.entries()) {
      const url = path
        .replace('{organizationId}', t.orgId)
        .replace('{siteId}', site.siteId)
        .replace('{spaceId}', site.tree.spaceId);
      for (const [kind, payload] of [
        ['array', deepArray(10_000)],
        ['object', deepObject(100_000)],
      ] as const) {
        const headers = {
          'content-type': 'application/json',
          'idempotency-key': `deep-${index}-${kind}`,
        };
        const send = () => t.request({ method: method as 'POST', url, payload, headers });
        const first = await send();
        assertNo5xx(first, `${method} ${url} (${kind})`);
        const again = await send();
        assert.equal(again.headers['idempotent-replayed'], 'true', `${method} ${url} (${kind})`);
        assert.equal(again.body, first.body);
      }
    }
  });

  test('createSpace with a 10,000-deep array body: 400, then replayed; another body: 422', async () => {
    const send = (payload: string) =>
      t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/spaces`,
        payload,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
      });
    const first = await send(deepArray(10_000));
    assert.match(expectError(first, 400), /^body must be an object/);
    const again = await send(deepArray(10_000));
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    expectError(await send(deepArray(9_999)), 422);
  });
});

describe('an Expect header other than 100-continue: 417 in the envelope (D8)', () => {
  /** Over a real connection: Node's HTTP server answers Expect before any route. */
  const send = (path: string, headers: Record<string, string>) => rawRequest(t.app, path, headers);

  test('on the API, a published site and the probes', async () => {
    const auth = { authorization: `Bearer ${t.token}` };
    for (const path of [
      '/v1/user',
      `/s/${site.basename}`,
      '/s/@livery/site.css',
      '/healthz',
      '/readyz',
    ]) {
      for (const expect of ['weird', '200-ok', '101-continue', 'x']) {
        const res = await send(path, { ...auth, expect });
        assertEnvelope(res, `${path} Expect: ${expect}`);
        assert.equal(res.statusCode, 417);
        assert.match(String(res.headers['x-request-id']), /\S/, 'a request id');
        assert.match(JSON.parse(res.body).error.message, /100-continue/);
      }
      const ok = await send(path, { ...auth, expect: '100-continue' });
      assert.ok(ok.statusCode < 400, `${path} with Expect: 100-continue → ${ok.statusCode}`);
    }
    const kept = await send('/healthz', { expect: 'weird', 'x-request-id': 'abc-123' });
    assert.equal(kept.headers['x-request-id'], 'abc-123');
  });
});
