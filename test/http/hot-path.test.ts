import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';

/**
 * The GET hot path (issue 16): a repeated read is answered from values kept in memory while the
 * database is unchanged, without a promise (db/prepared.ts `peek`, IdentityService
 * authenticateCached, CustomizationService.peekVariant). These tests warm those values first,
 * then change what they were made from, by this app or by another connection (another process),
 * and check that the very next request sees the change: a revoked token, a removed member, a new
 * override. The other customization, auth and token tests run through the same path.
 */

let t: TestContext;
let f: SiteFixture;
let variant: string;
before(async () => {
  t = await createTestApp();
  f = await createSite(t, 2);
  variant = `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization`;
});
after(async () => t.close());

const get = (token: string, url = variant) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

/** A new user, a member of the organization with `role`, and a token of theirs. */
async function member(role: string): Promise<{ id: string; token: string }> {
  const user = await t.services.identity.createUser({ displayName: `Hot ${role}` });
  await t.services.identity.setMemberRole(t.orgId, user.id, role);
  const { token } = await t.services.identity.createToken(user.id, { label: 'hot' });
  return { id: user.id, token };
}

/** Two reads: the second is answered from the kept token row and customization. */
async function warm(token: string): Promise<void> {
  const first = expectStatus(await get(token), 200);
  const second = await get(token);
  assert.deepEqual(expectStatus(second, 200), first);
}

describe('GET hot path: kept values never outlive a change', () => {
  test('a token revoked through the API is refused at the next request', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/v1/user/tokens',
      payload: { label: 'hot' },
    });
    const { id, token } = expectStatus(created, 201) as { id: string; token: string };
    await warm(token);
    expectStatus(await t.request({ method: 'DELETE', url: `/v1/user/tokens/${id}` }), 205);
    const refused = await get(token);
    assert.match(expectError(refused, 401), /revoked/);
    assert.equal(refused.headers['x-ratelimit-limit'], undefined, 'a 401 carries no budget');
  });

  test('a token revoked by another connection (another process) is refused at once', async () => {
    const { id, token } = await member('admin').then(async (m) => {
      const tokens = await t.db
        .selectFrom('api_tokens')
        .select('id')
        .where('user_id', '=', m.id)
        .execute();
      return { id: tokens[0]?.id ?? '', token: m.token };
    });
    await warm(token);
    const other = openDatabase(loadConfig({ DATABASE_URL: t.databaseUrl }).database);
    try {
      await other
        .updateTable('api_tokens')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    } finally {
      await other.destroy();
    }
    assert.match(expectError(await get(token), 401), /revoked/);
  });

  test('a member removed from the organization gets a 404 at once', async () => {
    const reader = await member('read');
    await warm(reader.token);
    const removed = await t.request({
      method: 'DELETE',
      url: `/v1/orgs/${t.orgId}/members/${reader.id}`,
    });
    assert.ok([204, 205].includes(removed.statusCode), `removed: ${removed.statusCode}`);
    assert.match(expectError(await get(reader.token), 404), /organization/);
  });

  test('an override written by another connection is read at the next request', async () => {
    const before = await get(t.token);
    await warm(t.token);
    const other = openDatabase(loadConfig({ DATABASE_URL: t.databaseUrl }).database);
    try {
      await other
        .updateTable('site_spaces')
        .set({
          override: JSON.stringify({ title: 'Changed elsewhere' }),
          override_version: 41,
        })
        .where('id', '=', f.siteSpaceIds[1] ?? '')
        .execute();
    } finally {
      await other.destroy();
    }
    const after = await get(t.token);
    assert.equal(expectStatus(after, 200).title, 'Changed elsewhere');
    assert.notEqual(after.headers.etag, before.headers.etag);
  });

  test('the kept answer is the one the normal path gives: headers, 304, errors', async () => {
    await warm(t.token);
    const res = await get(t.token);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.ok(res.headers.etag && res.headers['last-modified'], 'validators');
    assert.ok(res.headers['x-request-id'], 'request id');
    assert.ok(res.headers['x-ratelimit-remaining'], 'rate-limit headers');
    assert.ok(res.headers.deprecation && res.headers.link, 'deprecation headers');
    const notModified = await t.app.inject({
      method: 'GET',
      url: variant,
      headers: { authorization: `Bearer ${t.token}`, 'if-none-match': String(res.headers.etag) },
    });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.body, '');
    const unknown = `${f.base}/site-spaces/nope/customization`;
    assert.match(expectError(await get(t.token, unknown), 404), /site-space/);
    assert.match(expectError(await get(t.token, unknown), 404), /site-space/);
  });
});
