import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import { SCOPES } from '../../src/modules/access/permissions.js';
import type { ApiTokenSchema, CreatedApiTokenSchema } from '../../src/modules/identity/schemas.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import type { ListOf } from '../helpers/schemas.js';

/**
 * API tokens (Livery extension): GET/POST /v1/user/tokens and DELETE /v1/user/tokens/{tokenId};
 * what a token restricted to scopes may do (the intersection of its scopes and its user's role),
 * expiry, last use, revocation, and how the OpenAPI document describes them.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

type TokenList = ListOf<typeof ApiTokenSchema>;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

let t: TestContext;
let f: SiteFixture;
before(async () => {
  t = await createTestApp();
  f = await createSite(t, 1);
});
after(async () => t.close());

const call = (token: string, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload }),
  });

/** POST /v1/user/tokens with `token` (the owner's unless told), expecting a 201. */
async function mint(
  payload: object,
  token = t.token,
): Promise<Static<typeof CreatedApiTokenSchema>> {
  const res = await call(token, 'POST', '/v1/user/tokens', payload);
  const body = expectStatus(res, 201) as unknown as Static<typeof CreatedApiTokenSchema>;
  assert.equal(res.headers.location, body.urls.location);
  return body;
}

async function list(token = t.token, query = ''): Promise<TokenList> {
  return expectStatus(
    await call(token, 'GET', `/v1/user/tokens${query}`),
    200,
  ) as unknown as TokenList;
}

/** A new member of the organization with that role, and an unscoped token of theirs. */
async function member(role: string): Promise<{ userId: string; token: string }> {
  const user = await t.services.identity.createUser({ displayName: `A ${role}` });
  await t.services.identity.setMemberRole(t.orgId, user.id, role);
  const { token } = await t.services.identity.createToken(user.id, { label: role });
  return { userId: user.id, token };
}

const forbidden = (res: LightMyRequestResponse) => expectError(res, 403);

describe('POST /v1/user/tokens', () => {
  test('201 with Location and the token, its secret shown only here', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const started = Date.now();
    const created = await mint({ label: 'CI', scopes: ['site:read', 'user:read'], expiresAt });
    assert.deepEqual(Object.keys(created).sort(), [
      'createdAt',
      'expiresAt',
      'id',
      'label',
      'object',
      'scopes',
      'token',
      'urls',
    ]);
    assert.equal(created.object, 'api-token');
    assert.match(created.id, /^tok_/);
    assert.equal(created.label, 'CI');
    assert.deepEqual(created.scopes, ['site:read', 'user:read']);
    assert.equal(created.expiresAt, expiresAt);
    assert.match(created.createdAt, ISO);
    assert.ok(Math.abs(Date.parse(created.createdAt) - started) < 5_000, created.createdAt);
    assert.equal(created.urls.location, `http://livery.test/v1/user/tokens/${created.id}`);
    assert.match(created.token, /^gb_[A-Za-z0-9_-]{43}$/);

    // Listed without the secret; stored only as its hash.
    const listed = (await list()).items.find((item) => item.id === created.id);
    const { token: secret, ...withoutSecret } = created;
    assert.deepEqual(listed, withoutSecret);
    // Its Location answers it (getUserTokenById), without the secret too.
    const one = await t.request({ method: 'GET', url: new URL(created.urls.location).pathname });
    assert.deepEqual(expectStatus(one, 200), withoutSecret);
    const revoked = await t.request({
      method: 'DELETE',
      url: new URL(created.urls.location).pathname,
    });
    assert.equal(revoked.statusCode, 205);
    expectError(
      await t.request({ method: 'GET', url: new URL(created.urls.location).pathname }),
      404,
    );
    const row = await t.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.token_hash, createHash('sha256').update(secret).digest('hex'));
    for (const value of Object.values(row)) {
      assert.equal(String(value).includes(secret), false, 'the secret is not stored');
    }
  });

  test('without scopes or expiry: neither is in the answer, and the time is normalized', async () => {
    const plain = await mint({ label: 'plain' });
    assert.equal(plain.scopes, undefined);
    assert.equal(plain.expiresAt, undefined);
    const offset = await mint({ label: 'offset', expiresAt: '2099-01-01T02:00:00+02:00' });
    assert.equal(offset.expiresAt, '2099-01-01T00:00:00.000Z');
  });

  test('each token is new: two creations, two ids and two secrets', async () => {
    const a = await mint({ label: 'same' });
    const b = await mint({ label: 'same' });
    assert.notEqual(a.id, b.id);
    assert.notEqual(a.token, b.token);
  });

  test('the list never holds a secret', async () => {
    const created = await mint({ label: 'secretive', scopes: ['space:read'] });
    const res = await call(t.token, 'GET', '/v1/user/tokens');
    const body = expectStatus(res, 200) as unknown as TokenList;
    assert.ok(body.items.length >= 2);
    for (const item of body.items) assert.equal('token' in item, false, item.id);
    assert.equal(res.body.includes(created.token), false);
    assert.equal(res.body.includes(t.token), false);
  });

  const invalid: [string, unknown, RegExp][] = [
    ['an empty label', { label: '' }, /body\.label/],
    ['a label of 51 characters', { label: 'x'.repeat(51) }, /body\.label/],
    ['no label', { scopes: ['site:read'] }, /body\.label/],
    ['an unknown scope', { label: 'x', scopes: ['site:admin'] }, /body\.scopes/],
    ['no scopes at all', { label: 'x', scopes: [] }, /body\.scopes/],
    ['a scope twice', { label: 'x', scopes: ['site:read', 'site:read'] }, /body\.scopes/],
    ['scopes not an array', { label: 'x', scopes: 'site:read' }, /body\.scopes/],
    ['an expiry in the past', { label: 'x', expiresAt: '2001-01-01T00:00:00Z' }, /body\.expiresAt/],
    [
      'an expiry already reached',
      { label: 'x', expiresAt: new Date().toISOString() },
      /body\.expiresAt/,
    ],
    ['an expiry that is not a time', { label: 'x', expiresAt: 'tomorrow' }, /body\.expiresAt/],
    ['an unknown field', { label: 'x', admin: true }, /body\.admin/],
  ];
  for (const [name, payload, message] of invalid) {
    test(`${name} → 400 naming the field, and no token`, async () => {
      const before = (await list()).count;
      const res = await call(t.token, 'POST', '/v1/user/tokens', payload as object);
      assert.match(expectError(res, 400), message, JSON.stringify(payload));
      assert.equal((await list()).count, before, 'no token created');
    });
  }
});

describe('what a token restricted to scopes may do', () => {
  test('site:read: lists and reads sites, nothing else', async () => {
    const { token } = await mint({ label: 'reader', scopes: ['site:read'] });
    expectStatus(await call(token, 'GET', `/v1/orgs/${t.orgId}/sites`), 200);
    assert.equal(expectStatus(await call(token, 'GET', f.base), 200).id, f.siteId);
    expectStatus(await call(token, 'GET', `${f.base}/customization`), 200);

    const refusals: [Method, string, object | undefined, string][] = [
      ['PATCH', f.base, { title: 'Nope' }, 'site:write'],
      ['POST', `${f.base}/publish`, undefined, 'site:publish'],
      ['GET', `${f.base}/share-links`, undefined, 'site:auth:read'],
      ['GET', `${f.base}/publishing/auth`, undefined, 'site:auth:read'],
      ['GET', '/v1/user', undefined, 'user:read'],
      ['GET', `/v1/orgs/${t.orgId}`, undefined, 'organization:read'],
      ['GET', `/v1/spaces/${f.spaceIds[0]}`, undefined, 'space:read'],
    ];
    for (const [method, url, payload, scope] of refusals) {
      const message = forbidden(await call(token, method, url, payload));
      assert.ok(message.includes(`lacks the scope ${scope}`), `${method} ${url}: ${message}`);
      assert.match(message, /the token has: site:read\)/);
    }
    const site = expectStatus(await t.request({ method: 'GET', url: f.base }), 200);
    assert.notEqual(site.title, 'Nope');
    assert.equal(site.published, false, 'not published');
  });

  test('a scope is refused before the body is validated', async () => {
    const { token } = await mint({ label: 'reader', scopes: ['site:read'] });
    const message = forbidden(await call(token, 'PATCH', f.base, { visibility: 'secret' }));
    assert.match(message, /site:write/);
  });

  test('rights are the intersection: a read member with site:write still cannot update a site', async () => {
    const reader = await member('read');
    const { token } = await mint(
      { label: 'writer?', scopes: ['site:write', 'site:read'] },
      reader.token,
    );
    expectStatus(await call(token, 'GET', f.base), 200);
    const message = forbidden(await call(token, 'PATCH', f.base, { title: 'Nope' }));
    assert.match(message, /updateSiteById needs the admin role/);
    assert.match(message, /your role is read/);
    // And an admin's token without the scope cannot either.
    const admin = await mint({ label: 'admin reader', scopes: ['site:read'] });
    assert.match(
      forbidden(await call(admin.token, 'PATCH', f.base, { title: 'Nope' })),
      /site:write/,
    );
    // The scope the user's role allows, with the role: allowed.
    const writer = await mint({ label: 'admin writer', scopes: ['site:write'] });
    expectStatus(await call(writer.token, 'PATCH', f.base, { title: 'Written' }), 200);
  });

  test('updateSpaceById: the deprecated site fields need site:write or site:publish too', async () => {
    const { token } = await mint({ label: 'spaces', scopes: ['space:write', 'space:read'] });
    const url = `/v1/spaces/${f.spaceIds[0]}`;
    const spaceBefore = expectStatus(await t.request({ method: 'GET', url }), 200);
    const siteBefore = expectStatus(await t.request({ method: 'GET', url: f.base }), 200);
    const refusals: [object, string][] = [
      [{ title: 'Changed', published: true }, 'site:publish'],
      [{ title: 'Changed', visibility: 'unlisted' }, 'site:write'],
    ];
    for (const [payload, scope] of refusals) {
      const message = forbidden(await call(token, 'PATCH', url, payload));
      assert.ok(message.includes(`lacks the scope ${scope}`), message);
      assert.deepEqual(expectStatus(await t.request({ method: 'GET', url }), 200), spaceBefore);
      assert.deepEqual(
        expectStatus(await t.request({ method: 'GET', url: f.base }), 200),
        siteBefore,
      );
    }
    const renamed = expectStatus(await call(token, 'PATCH', url, { title: 'Renamed' }), 200);
    assert.equal(renamed.title, 'Renamed');
  });

  test('a non-member’s token lacking the scope gets the 404, not a 403', async () => {
    const stranger = await t.services.identity.createUser({ displayName: 'Stranger' });
    const { token } = await t.services.identity.createToken(stranger.id, {
      label: 'stranger',
      scopes: ['user:read'],
    });
    assert.match(expectError(await call(token, 'GET', f.base), 404), /No organization found/);
    assert.match(
      expectError(await call(token, 'GET', `/v1/spaces/${f.spaceIds[0]}/share-links`), 404),
      /No space found/,
    );
    expectStatus(await call(token, 'GET', '/v1/user'), 200);
  });

  test('a token restricted to scopes, even all of them, cannot manage tokens', async () => {
    const { token, id } = await mint({ label: 'all scopes', scopes: [...SCOPES] });
    const other = await mint({ label: 'target' });
    const attempts: [Method, string, object | undefined][] = [
      ['GET', '/v1/user/tokens', undefined],
      ['POST', '/v1/user/tokens', { label: 'broader' }],
      ['POST', '/v1/user/tokens', { label: '' }],
      ['DELETE', `/v1/user/tokens/${other.id}`, undefined],
      ['DELETE', `/v1/user/tokens/${id}`, undefined],
    ];
    const before = (await list()).count;
    for (const [method, url, payload] of attempts) {
      const message = forbidden(await call(token, method, url, payload));
      assert.match(message, /needs an API token without scopes/, `${method} ${url}`);
    }
    assert.equal((await list()).count, before, 'nothing created nor revoked');
    expectStatus(await call(other.token, 'GET', '/v1/user'), 200);
    // Every other operation its scopes and its user's role allow works.
    expectStatus(await call(token, 'GET', '/v1/user'), 200);
    expectStatus(await call(token, 'GET', `${f.base}/share-links`), 200);
  });

  test('an unscoped token has all of its user’s rights', async () => {
    const { token } = await mint({ label: 'everything' });
    expectStatus(await call(token, 'GET', '/v1/user'), 200);
    expectStatus(await call(token, 'GET', `/v1/orgs/${t.orgId}`), 200);
    expectStatus(await call(token, 'PATCH', f.base, { title: 'Unscoped' }), 200);
    expectStatus(await call(token, 'POST', `${f.base}/publish`), 200);
    expectStatus(await call(token, 'POST', `${f.base}/unpublish`), 200);
    expectStatus(await call(token, 'GET', `${f.base}/share-links`), 200);
    expectStatus(await call(token, 'GET', `${f.base}/publishing/auth`), 200);
    expectStatus(await call(token, 'GET', '/v1/user/tokens'), 200);
    const minted = await mint({ label: 'from unscoped' }, token);
    expectStatus(await call(token, 'DELETE', `/v1/user/tokens/${minted.id}`), 205);
    // …and no more: an unscoped token of a read member is refused what read may not do.
    const reader = await member('read');
    const mine = await mint({ label: 'reader, unscoped' }, reader.token);
    expectStatus(await call(mine.token, 'GET', f.base), 200);
    assert.match(
      forbidden(await call(mine.token, 'PATCH', f.base, { title: 'Nope' })),
      /needs the admin role/,
    );
  });
});

describe('expiry and last use', () => {
  test('a token stops working once it has expired, and is no longer listed', async () => {
    const expiresAt = Date.now() + 2_000;
    const created = await mint({ label: 'short', expiresAt: new Date(expiresAt).toISOString() });
    expectStatus(await call(created.token, 'GET', '/v1/user'), 200);
    assert.ok(
      (await list()).items.some((item) => item.id === created.id),
      'listed while valid',
    );

    const deadline = Date.now() + 4_000;
    while (Date.now() <= expiresAt && Date.now() < deadline) await sleep(50);
    assert.ok(Date.now() > expiresAt, 'waited until past the expiry');
    const res = await call(created.token, 'GET', '/v1/user');
    assert.match(expectError(res, 401), /expired/);
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="livery", error="invalid_token"');
    assert.match(expectError(await call(created.token, 'GET', f.base), 401), /expired/);
    assert.equal(
      (await list()).items.some((item) => item.id === created.id),
      false,
      'not listed once expired',
    );
  });

  test('lastUsedAt: absent before the first use, then the time of a use', async () => {
    const created = await mint({ label: 'unused' });
    const find = async () => (await list()).items.find((item) => item.id === created.id);
    const before = await find();
    assert.ok(before);
    assert.equal('lastUsedAt' in before, false);

    const usedAround = Date.now();
    expectStatus(await call(created.token, 'GET', `/v1/orgs/${t.orgId}/sites`), 200);
    // Recorded without holding up the request: it lands a moment later.
    let afterUse = await find();
    for (let i = 0; i < 50 && afterUse?.lastUsedAt === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      afterUse = await find();
    }
    assert.ok(afterUse?.lastUsedAt, 'set after a use');
    assert.match(afterUse.lastUsedAt, ISO);
    assert.ok(
      Math.abs(Date.parse(afterUse.lastUsedAt) - usedAround) < 5_000,
      `${afterUse.lastUsedAt} is close to now`,
    );
  });
});

describe('DELETE /v1/user/tokens/{tokenId}', () => {
  test('205, then 204; the revoked token is refused at once and no longer listed', async () => {
    const created = await mint({ label: 'to revoke' });
    expectStatus(await call(created.token, 'GET', '/v1/user'), 200);
    const first = await call(t.token, 'DELETE', `/v1/user/tokens/${created.id}`);
    assert.equal(first.statusCode, 205, first.body);
    assert.equal(first.body, '');
    const res = await call(created.token, 'GET', '/v1/user');
    assert.match(expectError(res, 401), /revoked/);
    assert.equal((await call(t.token, 'DELETE', `/v1/user/tokens/${created.id}`)).statusCode, 204);
    assert.equal(
      (await list()).items.some((item) => item.id === created.id),
      false,
      'not listed once revoked',
    );
    assert.equal((await call(t.token, 'DELETE', '/v1/user/tokens/tok_unknown')).statusCode, 204);
  });

  test('a token may revoke itself', async () => {
    const created = await mint({ label: 'self' });
    expectStatus(await call(created.token, 'DELETE', `/v1/user/tokens/${created.id}`), 205);
    expectError(await call(created.token, 'GET', '/v1/user'), 401);
  });

  test('another user’s token id answers 204 and that token keeps working', async () => {
    const other = await member('edit');
    const theirs = await mint({ label: 'theirs' }, other.token);
    const res = await call(t.token, 'DELETE', `/v1/user/tokens/${theirs.id}`);
    assert.equal(res.statusCode, 204, res.body);
    expectStatus(await call(theirs.token, 'GET', '/v1/user'), 200);
    assert.ok((await list(other.token)).items.some((item) => item.id === theirs.id));
    assert.equal(
      (await list()).items.some((item) => item.id === theirs.id),
      false,
      'nor is it in my list',
    );
  });

  test('the list is paginated: limit=1 walks every active token once', async () => {
    const owner = await member('read');
    const revoked = await mint({ label: 'revoked' }, owner.token);
    const kept = [
      await mint({ label: 'one' }, owner.token),
      await mint({ label: 'two' }, owner.token),
    ];
    expectStatus(await call(owner.token, 'DELETE', `/v1/user/tokens/${revoked.id}`), 205);

    const all = await list(owner.token);
    assert.equal(all.count, 3, 'the member’s own token and the two kept');
    assert.equal(all.next, undefined);
    const seen: string[] = [];
    let query = '?limit=1';
    for (let pages = 0; pages < 10; pages++) {
      const page = await list(owner.token, query);
      assert.equal(page.items.length, 1);
      assert.equal(page.count, 3);
      seen.push(...page.items.map((item) => item.id));
      if (page.next === undefined) break;
      query = `?limit=1&page=${encodeURIComponent(page.next.page)}`;
    }
    assert.deepEqual(
      seen,
      all.items.map((item) => item.id),
    );
    assert.equal(new Set(seen).size, 3);
    for (const token of kept) assert.ok(seen.includes(token.id));
    assert.equal(seen.includes(revoked.id), false);
  });
});

describe('GET /openapi.json', () => {
  type Operation = { operationId?: string; tags?: string[]; responses?: Record<string, unknown> };
  let paths: Record<string, Record<string, Operation>>;
  before(async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    paths = (expectStatus(res, 200) as { paths: typeof paths }).paths;
  });

  test('the three token operations are tagged livery', () => {
    const operations: [string, string, string][] = [
      ['/v1/user/tokens', 'get', 'listUserTokens'],
      ['/v1/user/tokens', 'post', 'createUserToken'],
      ['/v1/user/tokens/{tokenId}', 'delete', 'deleteUserTokenById'],
    ];
    for (const [path, method, operationId] of operations) {
      const op = paths[path]?.[method];
      assert.ok(op, `${method} ${path}`);
      assert.equal(op.operationId, operationId);
      assert.deepEqual(op.tags, ['livery'], operationId);
    }
  });

  test('every /v1 operation documents a 403', () => {
    let count = 0;
    for (const [path, methods] of Object.entries(paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, op] of Object.entries(methods)) {
        count += 1;
        assert.ok(op.responses?.['403'], `${method.toUpperCase()} ${path} documents 403`);
      }
    }
    assert.ok(count >= 40, `${count} operations`);
  });
});
