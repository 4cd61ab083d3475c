import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';

let t: TestContext;
let siteBase: string;
before(async () => {
  t = await createTestApp();
  siteBase = (await createSite(t, 1)).base;
});
after(async () => t.close());

describe('Authorization: Bearer <token> on every /v1 request', () => {
  const REALM = 'Bearer realm="livery"';
  const rows: { name: string; header: string | undefined; challenge: string; message: RegExp }[] = [
    {
      name: 'no header',
      header: undefined,
      challenge: REALM,
      message: /Missing Authorization header/,
    },
    { name: 'empty header', header: '', challenge: REALM, message: /Missing Authorization header/ },
    { name: 'wrong scheme', header: 'Basic dXNlcjpwYXNz', challenge: REALM, message: /Malformed/ },
    { name: 'scheme without token', header: 'Bearer', challenge: REALM, message: /Malformed/ },
    {
      name: 'token with spaces',
      header: 'Bearer two words',
      challenge: REALM,
      message: /Malformed/,
    },
    {
      name: 'token with illegal characters',
      header: 'Bearer gb_é!',
      challenge: REALM,
      message: /Malformed/,
    },
    {
      name: 'unknown token',
      header: 'Bearer gb_unknownunknownunknownunknown',
      challenge: `${REALM}, error="invalid_token"`,
      message: /unknown, expired or has been revoked/,
    },
  ];

  for (const row of rows) {
    test(`${row.name} → 401`, async () => {
      for (const url of ['/v1/user', `${siteBase}/customization`]) {
        const res = await t.app.inject({
          method: 'GET',
          url,
          headers: row.header === undefined ? {} : { authorization: row.header },
        });
        assert.match(expectError(res, 401), row.message);
        assert.equal(res.headers['www-authenticate'], row.challenge);
      }
    });
  }

  test('the scheme is case-insensitive', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: `bearer ${t.token}` },
    });
    expectStatus(res, 200);
  });

  test('a revoked token stops working at once', async () => {
    const { id, token } = await t.services.identity.createToken(t.userId, { label: 'to revoke' });
    const headers = { authorization: `Bearer ${token}` };
    expectStatus(await t.app.inject({ method: 'GET', url: '/v1/user', headers }), 200);
    assert.equal(await t.services.identity.revokeToken(id), true);
    const res = await t.app.inject({ method: 'GET', url: '/v1/user', headers });
    expectError(res, 401);
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="livery", error="invalid_token"');
    assert.equal(await t.services.identity.revokeToken(id), false, 'revoking twice says no');
  });

  test('a token of another organization sees 404 for this one, whatever exists', async () => {
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other org',
      ownerName: 'Stranger',
    });
    const headers = { authorization: `Bearer ${other.token}` };
    const probes = [
      ['GET', `/v1/orgs/${t.orgId}`],
      ['GET', `/v1/orgs/${t.orgId}/sites`],
      ['GET', `${siteBase}/customization`],
      ['PUT', `${siteBase}/customization`],
      ['GET', `/v1/orgs/does-not-exist`],
    ] as const;
    const messages: string[] = [];
    for (const [method, url] of probes) {
      const res = await t.app.inject({
        method,
        url,
        headers,
        ...(method === 'PUT' ? { payload: {} } : {}),
      });
      messages.push(expectError(res, 404));
    }
    assert.match(messages[0] ?? '', /No organization found/);
    // An existing organization and a missing one read the same.
    assert.equal(messages[0]?.replace(t.orgId, 'X'), messages[4]?.replace('does-not-exist', 'X'));
    // The stranger's own organization works with the same token.
    expectStatus(
      await t.app.inject({ method: 'GET', url: `/v1/orgs/${other.organization.id}`, headers }),
      200,
    );
  });

  test('a space of another organization is a 404 too', async () => {
    const space = expectStatus(
      await t.request({ method: 'POST', url: `/v1/orgs/${t.orgId}/spaces`, payload: {} }),
      201,
    );
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Third',
      ownerName: 'X',
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/spaces/${String(space.id)}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    assert.match(expectError(res, 404), /No space found/);
  });

  test('tokens are stored only as SHA-256 hashes', async () => {
    const rows = await t.db.selectFrom('api_tokens').selectAll().execute();
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.match(row.token_hash, /^[0-9a-f]{64}$/);
      assert.equal(Object.values(row).includes(t.token), false);
    }
  });

  test('new tokens are gb_ + 32 random bytes', async () => {
    const { token } = await t.services.identity.createToken(t.userId);
    assert.match(token, /^gb_[A-Za-z0-9_-]{43}$/);
  });

  test('/healthz, /openapi.json and /docs need no token', async () => {
    for (const url of ['/healthz', '/openapi.json', '/docs/']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
    }
  });
});
