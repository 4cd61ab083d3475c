import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

let counter = 0;
/** A fresh key for every use, so that tests never see each other's keys. */
const newKey = () => `key-${process.pid}-${Date.now()}-${++counter}`;

function post(
  url: string,
  payload: unknown,
  key?: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
      ...headers,
    },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

const spacesUrl = () => `/v1/orgs/${t.orgId}/spaces`;
const sitesUrl = () => `/v1/orgs/${t.orgId}/sites`;

async function siteCount(): Promise<number> {
  return expectStatus(await t.request({ method: 'GET', url: sitesUrl() }), 200).count as number;
}

async function spaceCount(): Promise<number> {
  const row = await t.db
    .selectFrom('spaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Asserts that `replay` is `first` again, byte for byte, marked as replayed. */
function assertReplay(first: LightMyRequestResponse, replay: LightMyRequestResponse) {
  assert.equal(first.headers['idempotent-replayed'], undefined, 'the first is not a replay');
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.statusCode, first.statusCode);
  assert.equal(replay.body, first.body);
  assert.equal(replay.headers['content-type'], first.headers['content-type']);
  assert.equal(replay.headers.location, first.headers.location);
  assert.notEqual(replay.headers['x-request-id'], first.headers['x-request-id']);
}

describe('Idempotency-Key: replays', () => {
  test('createSite: a retry answers the same 201, body and Location, and creates nothing', async () => {
    const before = await siteCount();
    const key = newKey();
    const first = await post(sitesUrl(), { title: 'Handbook', visibility: 'public' }, key);
    const site = expectStatus(first, 201);
    assert.equal(first.headers.location, `http://livery.test/v1/orgs/${t.orgId}/sites/${site.id}`);
    const second = await post(sitesUrl(), { title: 'Handbook', visibility: 'public' }, key);
    const third = await post(sitesUrl(), { title: 'Handbook', visibility: 'public' }, key);
    assertReplay(first, second);
    assertReplay(first, third);
    assert.equal(await siteCount(), before + 1);
  });

  test('createSpace: key order and spacing of the body do not matter; nor a trailing slash', async () => {
    const before = await spaceCount();
    const key = newKey();
    const first = await post(spacesUrl(), '{"title":"Guide","emoji":"📘","editMode":"live"}', key);
    expectStatus(first, 201);
    const reordered = await post(
      spacesUrl(),
      '{ "editMode": "live",\n  "emoji": "📘", "title": "Guide" }',
      key,
    );
    assertReplay(first, reordered);
    assertReplay(
      first,
      await post(`${spacesUrl()}/`, { emoji: '📘', editMode: 'live', title: 'Guide' }, key),
    );
    assert.equal(await spaceCount(), before + 1);
  });

  test('createSite without a body replays too', async () => {
    const key = newKey();
    const first = await t.request({
      method: 'POST',
      url: sitesUrl(),
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    assert.equal(expectStatus(first, 201).title, 'Untitled site');
    const second = await t.request({
      method: 'POST',
      url: sitesUrl(),
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    assertReplay(first, second);
  });

  test('addSpaceToSite: a retry answers the same site-space and adds nothing', async () => {
    const site = expectStatus(await post(sitesUrl(), { title: 'Versions' }), 201);
    const space = expectStatus(await post(spacesUrl(), { title: 'v2' }), 201);
    const url = `${sitesUrl()}/${site.id}/site-spaces`;
    const key = newKey();
    const first = await post(url, { spaceId: space.id }, key);
    assert.equal(expectStatus(first, 201).object, 'site-space');
    assertReplay(first, await post(url, { spaceId: space.id }, key));
    const list = expectStatus(await t.request({ method: 'GET', url }), 200);
    assert.equal(list.count, 1);
  });

  test('a 4xx response is stored and replayed; the key then refuses a corrected body', async () => {
    const before = await spaceCount();
    const key = newKey();
    const first = await post(spacesUrl(), { title: 'x'.repeat(51) }, key);
    assert.match(expectError(first, 400), /^body\.title must be at most 50/);
    assertReplay(first, await post(spacesUrl(), { title: 'x'.repeat(51) }, key));
    const corrected = await post(spacesUrl(), { title: 'x' }, key);
    assert.match(expectError(corrected, 422), /already used with a different request body/);
    assert.equal(await spaceCount(), before);
  });

  test('without the header every request runs', async () => {
    const before = await siteCount();
    const first = await post(sitesUrl(), { title: 'Twice' });
    const second = await post(sitesUrl(), { title: 'Twice' });
    assert.notEqual(expectStatus(first, 201).id, expectStatus(second, 201).id);
    assert.equal(second.headers['idempotent-replayed'], undefined);
    assert.equal(await siteCount(), before + 2);
  });
});

describe('Idempotency-Key: misuse and scope', () => {
  test('the same key with a different body → 422 envelope, nothing created', async () => {
    const key = newKey();
    expectStatus(await post(sitesUrl(), { title: 'One' }, key), 201);
    const before = await siteCount();
    const other = await post(sitesUrl(), { title: 'Two' }, key);
    assert.match(
      expectError(other, 422),
      /Idempotency-Key was already used with a different request/,
    );
    assert.equal(other.headers['idempotent-replayed'], undefined);
    assert.equal(await siteCount(), before);
  });

  test('the same key on another path → 422 naming the first request (keys are per user)', async () => {
    const key = newKey();
    expectStatus(await post(spacesUrl(), {}, key), 201);
    const before = await siteCount();
    const other = await post(sitesUrl(), {}, key);
    const message = expectError(other, 422);
    assert.match(message, /already used with a different request/);
    assert.ok(message.includes(`POST /v1/orgs/${t.orgId}/spaces`), message);
    assert.equal(await siteCount(), before);
  });

  test('another user with the same key is independent; another token of the same user is not', async () => {
    const key = newKey();
    const body = { title: 'Shared key' };
    const mine = await post(sitesUrl(), body, key);
    expectStatus(mine, 201);

    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'Other owner',
    });
    await t.db
      .insertInto('memberships')
      .values({
        organization_id: t.orgId,
        user_id: other.user.id,
        role: 'admin',
        joined_at: new Date().toISOString(),
      })
      .execute();
    const before = await siteCount();
    const theirs = await post(sitesUrl(), body, key, { authorization: `Bearer ${other.token}` });
    assert.notEqual(expectStatus(theirs, 201).id, expectStatus(mine, 201).id);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
    assert.equal(await siteCount(), before + 1);

    const second = await t.services.identity.createToken(t.userId, { label: 'second' });
    const again = await post(sitesUrl(), body, key, { authorization: `Bearer ${second.token}` });
    assertReplay(mine, again);
    assert.equal(await siteCount(), before + 1);
  });

  test('invalid keys → 400 naming the header, and nothing runs', async () => {
    const before = await spaceCount();
    for (const key of ['', 'has space', 'café', 'x'.repeat(256), 'tab\tinside']) {
      const res = await post(spacesUrl(), { title: 'Bad key' }, key);
      assert.match(expectError(res, 400), /Idempotency-Key header must be 1 to 255 visible ASCII/);
    }
    assert.equal(await spaceCount(), before);
    // The limits themselves are fine: 255 characters, any of `!` to `~`.
    let visible = '';
    for (let c = 0x21; c <= 0x7e; c++) visible += String.fromCharCode(c);
    for (const key of [`${visible}${'k'.repeat(255 - visible.length)}`, 'a']) {
      const first = await post(spacesUrl(), { title: 'Edge key' }, key);
      expectStatus(first, 201);
      assertReplay(first, await post(spacesUrl(), { title: 'Edge key' }, key));
    }
  });

  test('concurrent requests with one key: exactly one runs, the others replay or get 409', async () => {
    const before = await siteCount();
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => post(sitesUrl(), { title: 'Race' }, key)),
    );
    const originals = responses.filter(
      (r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined,
    );
    assert.equal(originals.length, 1, responses.map((r) => r.statusCode).join(','));
    const [original] = originals;
    assert.ok(original);
    for (const res of responses) {
      if (res === original) continue;
      if (res.statusCode === 409) {
        assert.match(expectError(res, 409), /still in progress/);
        assert.equal(res.headers['retry-after'], '1');
      } else {
        assertReplay(original, res);
      }
    }
    assert.equal(await siteCount(), before + 1);
    // Once the first is done, a retry replays.
    assertReplay(original, await post(sitesUrl(), { title: 'Race' }, key));
  });
});

describe('Idempotency-Key: in progress, abandoned, expired', () => {
  const row = (key: string) =>
    t.db
      .updateTable('idempotency_keys')
      .where('user_id', '=', t.userId)
      .where('idempotency_key', '=', key);

  test('while the first request is in progress → 409 with Retry-After; abandoned after a minute → runs again', async () => {
    const key = newKey();
    const first = await post(sitesUrl(), { title: 'Slow' }, key);
    expectStatus(first, 201);
    // As if the first request were still running.
    await row(key).set({ status: null, headers: null, body: null }).execute();
    const before = await siteCount();
    const busy = await post(sitesUrl(), { title: 'Slow' }, key);
    assert.match(expectError(busy, 409), /Idempotency-Key is still in progress/);
    assert.equal(busy.headers['retry-after'], '1');
    // A different body is still a misuse, in progress or not.
    expectError(await post(sitesUrl(), { title: 'Other' }, key), 422);
    assert.equal(await siteCount(), before);

    // As if its process had died two minutes ago: the key is free again.
    await row(key)
      .set({ created_at: new Date(Date.now() - 120_000).toISOString() })
      .execute();
    const rerun = await post(sitesUrl(), { title: 'Slow' }, key);
    assert.notEqual(expectStatus(rerun, 201).id, expectStatus(first, 201).id);
    assert.equal(rerun.headers['idempotent-replayed'], undefined);
    assert.equal(await siteCount(), before + 1);
    assertReplay(rerun, await post(sitesUrl(), { title: 'Slow' }, key));
  });

  test('after 24 hours a key is forgotten: the same key is a new request', async () => {
    const key = newKey();
    const first = await post(sitesUrl(), { title: 'Daily' }, key);
    expectStatus(first, 201);
    const stored = await t.db
      .selectFrom('idempotency_keys')
      .select(['created_at', 'expires_at'])
      .where('user_id', '=', t.userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirstOrThrow();
    assert.equal(Date.parse(stored.expires_at) - Date.parse(stored.created_at), 24 * 3600 * 1000);

    // A day later (the stored expiry moved into the past instead of the clock forward).
    await row(key)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const before = await siteCount();
    const later = await post(sitesUrl(), { title: 'Daily' }, key);
    assert.notEqual(expectStatus(later, 201).id, expectStatus(first, 201).id);
    assert.equal(later.headers['idempotent-replayed'], undefined);
    assert.equal(await siteCount(), before + 1);
    // An expired key is free for any request, even a different one.
    await row(key)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expectStatus(await post(spacesUrl(), { title: 'Reused' }, key), 201);
  });
});

describe('Idempotency-Key: purge and server errors (own database)', () => {
  let u: TestContext;
  before(async () => {
    u = await createTestApp();
  });
  after(async () => u.close());

  const keysOf = async (userId: string) =>
    (
      await u.db
        .selectFrom('idempotency_keys')
        .select('idempotency_key')
        .where('user_id', '=', userId)
        .orderBy('idempotency_key')
        .execute()
    ).map((r) => r.idempotency_key);

  test('expired keys are purged when a new key is recorded', async () => {
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    const rows = [
      ['old-1', -1000],
      ['old-2', -3600_000],
      ['live', 3600_000],
    ] as const;
    for (const [key, expiresIn] of rows) {
      await u.db
        .insertInto('idempotency_keys')
        .values({
          id: `idem_${key}`,
          user_id: u.userId,
          idempotency_key: key,
          method: 'POST',
          path: `/v1/orgs/${u.orgId}/spaces`,
          request_hash: 'x',
          status: 201,
          headers: JSON.stringify({ 'content-type': 'application/json; charset=utf-8' }),
          body: '{}',
          created_at: at(expiresIn - 24 * 3600_000),
          expires_at: at(expiresIn),
        })
        .execute();
    }
    const res = await u.request({
      method: 'POST',
      url: `/v1/orgs/${u.orgId}/spaces`,
      headers: { 'idempotency-key': 'new' },
      payload: { title: 'Purge' },
    });
    expectStatus(res, 201);
    assert.deepEqual(await keysOf(u.userId), ['live', 'new']);
  });

  test('a 5xx is not stored: the key is released and a retry runs again', async () => {
    const send = () =>
      u.request({
        method: 'POST',
        url: `/v1/orgs/${u.orgId}/spaces`,
        headers: { 'idempotency-key': 'fails-first' },
        payload: { title: 'Flaky' },
      });
    // The database loses the table for a moment: the handler fails with a 5xx (a 503 since the
    // missing table counts as a fault of the environment, issue 16 D9; the rule is any 5xx).
    await sql`alter table spaces rename to spaces_away`.execute(u.db);
    let failed: LightMyRequestResponse;
    try {
      failed = await send();
    } finally {
      await sql`alter table spaces_away rename to spaces`.execute(u.db);
    }
    assert.ok(failed.statusCode >= 500, `a 5xx, got ${failed.statusCode}`);
    expectError(failed, failed.statusCode);
    assert.ok(!(await keysOf(u.userId)).includes('fails-first'), 'released');
    const retry = await send();
    expectStatus(retry, 201);
    assert.equal(retry.headers['idempotent-replayed'], undefined);
    assertReplay(retry, await send());
  });
});
