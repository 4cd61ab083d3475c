import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { openChangeRequest } from '../helpers/content.js';
import {
  type ApiOperation,
  apiOperations,
  PROTOTYPE_NAMES,
  type Schema,
} from '../helpers/openapi-operations.js';
import { publishedSite } from '../helpers/published.js';

/**
 * Generated bad input to EVERY operation of `GET /openapi.json`, with the token of a real admin
 * of a real organization: odd path parameters (NUL, names every object inherits, very long,
 * broken percent-encoding, unicode), odd query values and parameter names, bodies of the wrong
 * type, deep, with NUL or forbidden keys, sometimes an Idempotency-Key. Whatever comes in, the
 * answer is never a 5xx, and every 4xx is exactly GitBook's envelope with `code` = the status.
 *
 * Path parameters are real ids half of the time, so requests also get past the lookups to the
 * validation of their query and body. Operations run GET first and DELETE last, so the fixtures
 * stay for most of the run. Few runs per operation keep the file fast on both backends.
 */
/** Runs per operation; BAD_INPUT_RUNS=200 for a longer hunt. */
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 12);
interface Operation {
  method: ApiOperation['method'];
  path: string;
  query: string[];
  bodySchema: Schema | undefined;
}

let t: TestContext;
let operations: Operation[];
/** Real values of each path parameter name, from the seeded fixtures. */
const real: Record<string, string[]> = {};

before(async () => {
  // No rate limit: a thousand requests from one token within a minute are the point here.
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  const site = await publishedSite(t, 'docs');
  const { spaceId } = site.tree;
  const created = async (method: 'POST' | 'PUT', url: string, payload: object) =>
    expectStatus(await t.request({ method, url, payload }), 201).id as string;
  const content = expectStatus(
    await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/content` }),
    200,
  );
  Object.assign(real, {
    organizationId: [t.orgId],
    ownerId: [t.orgId, t.userId],
    userId: [t.userId],
    spaceId: [spaceId],
    siteId: [site.siteId],
    siteSpaceId: site.siteSpaceIds,
    pageId: [site.tree.intro, site.tree.guides],
    pagePath: ['intro', 'intro/child'],
    revisionId: [content.id as string],
    changeRequestId: [(await openChangeRequest(t, spaceId)).id],
    visitorId: ['visitor-12345'],
    // Not the token of these requests: deleting it must not end the run.
    tokenId: [await created('POST', '/v1/user/tokens', { label: 'spare' })],
    teamId: [await created('PUT', `/v1/orgs/${t.orgId}/teams`, { title: 'Team' })],
    inviteId: [await created('POST', `/v1/orgs/${t.orgId}/link-invites`, { role: 'read' })],
    shareLinkId: [await created('POST', `${site.base}/share-links`, { name: 'Link' })],
  });
  operations = (await apiOperations(t)).map(({ method, path, parameters, bodySchema }) => ({
    method,
    path,
    query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
    bodySchema,
  }));
});
after(async () => t.close());

// ---------------------------------------------------------------------------------------------
// Generators

/** Text no well-behaved client sends. */
const oddText = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    ...PROTOTYPE_NAMES,
    '',
    ' ',
    '.',
    '..',
    'null',
    '-1',
    '0',
    '1e309',
    'true',
    '[]',
    '{}',
    '"',
    "'; drop table x; --",
    '<script>alert(1)</script>',
    '\u202e',
    '🎉',
    'é',
    '\ud800',
    'x'.repeat(255),
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** `encodeURIComponent`, or broken UTF-8 for text it cannot encode (a lone surrogate). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** Raw path segments that are not valid percent-encoding, or decode to something odd. */
const percentGarbage = fc.constantFrom(
  '%',
  '%zz',
  '%C0%80',
  '%FF',
  '%E0%A4%A',
  '%2F',
  '%2e%2e',
  '%00%00',
  '%25',
);

function segment(name: string): fc.Arbitrary<string> {
  const odd = fc.oneof(oddText.map(encode), percentGarbage);
  const ids = real[name];
  return ids === undefined || ids.length === 0 ? odd : fc.oneof(fc.constantFrom(...ids), odd);
}

function queryString(names: readonly string[]): fc.Arbitrary<string> {
  const value = fc.oneof(oddText, fc.constantFrom('1', '1000', 'asc', 'admin', 'true'));
  const known = names.map((name) =>
    fc.option(
      fc
        .array(value, { minLength: 1, maxLength: 2 })
        .map((vs) => vs.map((v) => `${name}=${encode(v)}`)),
      { nil: [] as string[] },
    ),
  );
  const unknown = fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, 'a\u0000'), fc.string({ maxLength: 5 })),
      value,
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...known), unknown).map(([k, u]) => {
    const pairs = [...k.flat(), ...u.map(([n, v]) => `${encode(n)}=${encode(v)}`)];
    return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
  });
}

const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepObject = (levels: number, leaf = '1') =>
  `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;

/** A body as sent: its text and media type, or none. */
const body: fc.Arbitrary<{ payload: string; type: string } | undefined> = fc.oneof(
  fc.constant(undefined),
  fc
    .oneof(
      fc.constantFrom(
        'null',
        '1',
        '"x"',
        '[]',
        'true',
        '{}',
        '',
        '{',
        '{"a":}',
        '{"title": "x",',
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
        '{"title":"a\\u0000b"}',
        '{"a\\u0000":1}',
        '{"title":"a\\\\u0000b"}',
        deepArray(10_000),
        deepObject(10_000),
        deepObject(100_000),
        deepObject(1_000, '"\\u0000"'),
      ),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc
        .dictionary(oddText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
        .map((v) => JSON.stringify(v)),
    )
    .chain((payload) =>
      fc.record({
        payload: fc.constant(payload),
        type: fc.constantFrom(
          'application/json',
          'application/json',
          'application/merge-patch+json',
          'text/plain',
        ),
      }),
    ),
);

const headers = fc.record(
  {
    'idempotency-key': fc.oneof(fc.constantFrom('k', 'same-key'), fc.uuid()),
    'if-match': fc.constantFrom('*', '"x"', 'W/"x"', 'garbage'),
    'if-none-match': fc.constantFrom('*', '"x"', ''),
  },
  { requiredKeys: [] },
);

/**
 * A body of the operation's own shape (its fields, arrays, enums), whose strings are real ids or
 * odd text and whose enums are sometimes odd: input that passes the first checks and goes deeper
 * (NUL in a well-formed body, an inherited name as an id in a list).
 */
function shaped(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives !== undefined) return fc.oneof(...alternatives.map((s) => shaped(s, depth)));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.oneof(fc.constantFrom(...schema.enum), oddText);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length > 1) return fc.oneof(...types.map((type) => shaped({ ...schema, type }, depth)));
  if (depth > 4) return fc.constant(null);
  switch (types[0]) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, shaped(value, depth + 1)]),
      );
      const required = ((schema.required ?? []) as string[]).filter((k) => k in model);
      return fc.record(model, { requiredKeys: required, noNullPrototype: true });
    }
    case 'array':
      return fc.array(shaped((schema.items ?? {}) as Schema, depth + 1), { maxLength: 2 });
    case 'string':
      return fc.oneof(fc.constantFrom(...Object.values(real).flat()), oddText);
    case 'integer':
    case 'number':
      return fc.oneof(fc.integer(), fc.constantFrom(-1, 0, 1.5, 2 ** 53, 1e308));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function bodyFor(op: Operation) {
  if (op.bodySchema === undefined) return fc.oneof(fc.constant(undefined), body);
  const ofShape = shaped(op.bodySchema).map((value) => ({
    payload: JSON.stringify(value),
    type: 'application/json',
  }));
  return fc.oneof(body, ofShape);
}

// ---------------------------------------------------------------------------------------------

function assertNaturalAnswer(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  what: string,
) {
  assert.ok(res.statusCode < 500, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (res.statusCode < 400) return;
  assert.match(String(res.headers['content-type']), /^application\/json/, what);
  const parsed = JSON.parse(res.body) as unknown;
  const message = (parsed as { error?: { message?: unknown } }).error?.message;
  assert.equal(typeof message, 'string', `${what}: ${res.body}`);
  assert.deepEqual(parsed, { error: { code: res.statusCode, message } }, what);
}

describe('bad input to every route of /openapi.json: never a 5xx, every 4xx the envelope', () => {
  test('every operation', async () => {
    assert.ok(operations.length >= 100, `operations found (${operations.length})`);
    for (const op of operations) {
      const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
      const sent = fc.record({
        segments: fc.tuple(...names.map(segment)),
        query: queryString(op.query),
        // Bodies also to operations that take none: they must be refused or ignored alike.
        body: bodyFor(op),
        headers,
      });
      await fc.assert(
        fc.asyncProperty(sent, async ({ segments, query, body: sentBody, headers: extra }) => {
          let index = 0;
          const url = op.path.replace(/\{[^}]+\}/g, () => segments[index++] as string) + query;
          const options: InjectOptions = {
            method: op.method.toUpperCase() as 'GET',
            url,
            headers: {
              ...extra,
              ...(sentBody === undefined ? {} : { 'content-type': sentBody.type }),
            },
            ...(sentBody === undefined ? {} : { payload: sentBody.payload }),
          };
          const res = await t.request(options);
          assertNaturalAnswer(
            res,
            `${options.method} ${url} ${sentBody?.payload.slice(0, 80) ?? ''}`,
          );
        }),
        { numRuns: RUNS },
      );
    }
  });
});
