import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import {
  signVisitorToken,
  VisitorTokenError,
  type VisitorTokenFailure,
} from '../../src/modules/visitor-auth/jwt.js';
import type { PublishingAuthSchema } from '../../src/modules/visitor-auth/schemas.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';

/**
 * Visitor authentication of a site (`/v1/orgs/{org}/sites/{site}/publishing/auth`): created on
 * first read, updated (backend required, fallbackURL absent = kept, null = removed), regenerated;
 * the key really signs the visitor JWTs `publishingAuth.verify` accepts, and a regenerated key
 * stops the old tokens at once. Every refused request leaves the settings as they were.
 */
let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type PublishingAuth = Static<typeof PublishingAuthSchema>;

const url = (f: SiteFixture) => `${f.base}/publishing/auth`;
const get = async (f: SiteFixture) =>
  expectStatus(await t.request({ method: 'GET', url: url(f) }), 200) as PublishingAuth;
const patch = (f: SiteFixture, payload: unknown) =>
  t.request({ method: 'PATCH', url: url(f), payload: payload as object });
const regenerate = (f: SiteFixture) => t.request({ method: 'POST', url: `${url(f)}/regenerate` });
const storedRow = (siteId: string) =>
  t.db
    .selectFrom('site_publishing_auth')
    .selectAll()
    .where('site_id', '=', siteId)
    .executeTakeFirst();

/** A request that must fail with `status` and leave the settings unchanged (read back). */
async function refused(
  f: SiteFixture,
  send: () => Promise<LightMyRequestResponse>,
  status: number,
): Promise<string> {
  const before = await get(f);
  const message = expectError(await send(), status);
  assert.deepEqual(await get(f), before, 'a refused request changes nothing');
  return message;
}

/** Why publishingAuth.verify refuses the token, or 'valid'. */
async function verdict(
  siteId: string,
  token: string,
  nowMs?: number,
): Promise<VisitorTokenFailure | 'valid'> {
  try {
    await t.services.publishingAuth.verify(siteId, token, nowMs);
  } catch (error) {
    if (error instanceof VisitorTokenError) return error.reason;
    throw error;
  }
  return 'valid';
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('getSitePublishingAuthById', () => {
  test('the first read creates the settings: backend custom and a fresh key; later reads answer the same', async () => {
    const f = await createSite(t, 1);
    assert.equal(await storedRow(f.siteId), undefined, 'nothing before the first read');
    const first = await get(f);
    assert.deepEqual(Object.keys(first).sort(), ['backend', 'object', 'privateKey']);
    assert.equal(first.object, 'publishing-auth');
    assert.equal(first.backend, 'custom');
    assert.equal(typeof first.privateKey, 'string');
    assert.ok(first.privateKey.length >= 32, `a long key: ${first.privateKey}`);
    assert.deepEqual(await get(f), first, 'the second read answers the same key');
    const row = await storedRow(f.siteId);
    assert.equal(row?.private_key, first.privateKey);
    assert.equal(row?.backend, 'custom');
    assert.equal(row?.fallback_url, null);
  });

  test('every site gets its own key', async () => {
    const a = await createSite(t, 1);
    const b = await createSite(t, 1);
    assert.notEqual((await get(a)).privateKey, (await get(b)).privateKey);
  });

  test('reads at the same time settle on one key', async () => {
    const f = await createSite(t, 1);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => t.request({ method: 'GET', url: url(f) })),
    );
    const keys = new Set(
      answers.map((res) => (expectStatus(res, 200) as PublishingAuth).privateKey),
    );
    assert.equal(keys.size, 1);
    assert.equal((await get(f)).privateKey, [...keys][0]);
  });
});

describe('updateSitePublishingAuthById', () => {
  test('fallbackURL: set, kept when absent, removed by null; the key never changes', async () => {
    const f = await createSite(t, 1);
    const { privateKey } = await get(f);
    const set = expectStatus(
      await patch(f, { backend: 'custom', fallbackURL: 'https://example.com/login' }),
      200,
    ) as PublishingAuth;
    assert.deepEqual(set, {
      object: 'publishing-auth',
      backend: 'custom',
      privateKey,
      fallbackURL: 'https://example.com/login',
    });
    assert.deepEqual(await get(f), set);

    const kept = expectStatus(await patch(f, { backend: 'custom' }), 200) as PublishingAuth;
    assert.deepEqual(kept, set, 'absent fallbackURL leaves it unchanged');
    assert.deepEqual(await get(f), set);

    const http = expectStatus(
      await patch(f, { backend: 'custom', fallbackURL: 'http://intranet.example/sso?next=%2F' }),
      200,
    ) as PublishingAuth;
    assert.equal(http.fallbackURL, 'http://intranet.example/sso?next=%2F');

    const removed = expectStatus(
      await patch(f, { backend: 'custom', fallbackURL: null }),
      200,
    ) as PublishingAuth;
    assert.ok(!('fallbackURL' in removed), 'null removes it: the field is absent');
    assert.deepEqual(removed, { object: 'publishing-auth', backend: 'custom', privateKey });
    assert.deepEqual(await get(f), removed);
    assert.equal((await storedRow(f.siteId))?.fallback_url, null);
  });

  test('the first request may be a PATCH: it creates the settings too', async () => {
    const f = await createSite(t, 1);
    const answer = expectStatus(
      await patch(f, { backend: 'custom', fallbackURL: 'https://example.com/a' }),
      200,
    ) as PublishingAuth;
    assert.equal(answer.backend, 'custom');
    assert.ok(answer.privateKey.length >= 32);
    assert.equal(answer.fallbackURL, 'https://example.com/a');
    assert.deepEqual(await get(f), answer);
  });

  test('refused bodies are 400s naming what is wrong, and change nothing', async () => {
    const f = await createSite(t, 1);
    expectStatus(await patch(f, { backend: 'custom', fallbackURL: 'https://example.com/k' }), 200);
    const send = (payload: unknown) => () => patch(f, payload);
    assert.match(await refused(f, send({}), 400), /backend/);
    assert.match(
      await refused(f, send({ fallbackURL: 'https://example.com/other' }), 400),
      /backend/,
    );
    assert.match(
      await refused(f, send({ backend: 'custom', fallbackURL: 'not a url' }), 400),
      /fallbackURL/,
    );
    assert.match(
      await refused(f, send({ backend: 'custom', fallbackURL: 'javascript:alert(1)' }), 400),
      /fallbackURL/,
    );
    assert.match(
      await refused(f, send({ backend: 'custom', fallbackURL: '/relative/login' }), 400),
      /fallbackURL/,
    );
    assert.match(
      await refused(
        f,
        send({ backend: 'custom', fallbackURL: `https://example.com/${'a'.repeat(2048)}` }),
        400,
      ),
      /fallbackURL/,
    );
    assert.match(
      await refused(f, send({ backend: 'integration', fallbackURL: 'https://example.com/i' }), 400),
      /body\.backend/,
    );
    assert.match(await refused(f, send({ backend: 'saml' }), 400), /backend/);
    assert.match(
      await refused(f, send({ backend: 'custom', privateKey: 'mine' }), 400),
      /privateKey/,
    );
    assert.match(await refused(f, send({ backend: 'custom', issuer: 'x' }), 400), /issuer/);
    await refused(
      f,
      () =>
        t.request({
          method: 'PATCH',
          url: url(f),
          payload: 'backend=custom',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      415,
    );
    assert.equal((await get(f)).fallbackURL, 'https://example.com/k');
  });
});

describe('regenerateSitePublishingAuthById', () => {
  test('answers a new key and keeps backend and fallbackURL', async () => {
    const f = await createSite(t, 1);
    const before = expectStatus(
      await patch(f, { backend: 'custom', fallbackURL: 'https://example.com/login' }),
      200,
    ) as PublishingAuth;
    const after = expectStatus(await regenerate(f), 200) as PublishingAuth;
    assert.notEqual(after.privateKey, before.privateKey);
    assert.ok(after.privateKey.length >= 32);
    assert.deepEqual(after, { ...before, privateKey: after.privateKey });
    assert.deepEqual(await get(f), after);
    const again = expectStatus(await regenerate(f), 200) as PublishingAuth;
    assert.notEqual(again.privateKey, after.privateKey);
    assert.deepEqual(await get(f), again);
  });

  test('on a site never read before, it creates the settings', async () => {
    const f = await createSite(t, 1);
    const answer = expectStatus(await regenerate(f), 200) as PublishingAuth;
    assert.equal(answer.object, 'publishing-auth');
    assert.equal(answer.backend, 'custom');
    assert.ok(answer.privateKey.length >= 32);
    assert.deepEqual(await get(f), answer);
  });
});

describe('visitor JWTs signed with the site key', () => {
  test('a regenerated key stops the old tokens at once; new ones verify', async () => {
    const f = await createSite(t, 1);
    const { privateKey: oldKey } = await get(f);
    const claims = { aud: f.siteId, exp: nowSeconds() + 300, sub: 'visitor-1' };
    const oldToken = signVisitorToken(claims, oldKey);
    const verified = await t.services.publishingAuth.verify(f.siteId, oldToken);
    assert.deepEqual(verified, claims);

    const { privateKey: newKey } = expectStatus(await regenerate(f), 200) as PublishingAuth;
    const newToken = signVisitorToken(claims, newKey);
    await assert.rejects(
      t.services.publishingAuth.verify(f.siteId, oldToken),
      (error: unknown) => error instanceof VisitorTokenError && error.reason === 'signature',
    );
    assert.deepEqual(await t.services.publishingAuth.verify(f.siteId, newToken), claims);
  });

  test('a token for another site, without exp, expired or signed with another site key fails', async () => {
    const f = await createSite(t, 1);
    const other = await createSite(t, 1);
    const { privateKey } = await get(f);
    const { privateKey: otherKey } = await get(other);
    const exp = nowSeconds() + 300;
    assert.equal(
      await verdict(f.siteId, signVisitorToken({ aud: f.siteId, exp }, privateKey)),
      'valid',
    );
    assert.equal(
      await verdict(f.siteId, signVisitorToken({ aud: other.siteId, exp }, privateKey)),
      'audience',
    );
    assert.equal(
      await verdict(other.siteId, signVisitorToken({ aud: f.siteId, exp }, privateKey)),
      'signature',
      "a token signed with this site's key does not open the other site",
    );
    assert.equal(
      await verdict(f.siteId, signVisitorToken({ aud: f.siteId, exp }, otherKey)),
      'signature',
    );
    assert.equal(
      await verdict(f.siteId, signVisitorToken({ aud: f.siteId }, privateKey)),
      'expiry-missing',
    );
    const token = signVisitorToken({ aud: f.siteId, exp }, privateKey);
    assert.equal(await verdict(f.siteId, token, (exp + 61) * 1000), 'expired');
    assert.equal(await verdict(f.siteId, token, (exp + 59) * 1000), 'valid', 'within the skew');
  });

  test('PATCH leaves the key, so tokens keep verifying', async () => {
    const f = await createSite(t, 1);
    const { privateKey } = await get(f);
    const token = signVisitorToken({ aud: f.siteId, exp: nowSeconds() + 300 }, privateKey);
    expectStatus(await patch(f, { backend: 'custom', fallbackURL: 'https://example.com/x' }), 200);
    expectStatus(await patch(f, { backend: 'custom', fallbackURL: null }), 200);
    assert.equal(await verdict(f.siteId, token), 'valid');
  });

  test('a site whose settings were never created verifies no token', async () => {
    const f = await createSite(t, 1);
    const token = signVisitorToken({ aud: f.siteId, exp: nowSeconds() + 300 }, 'guessed-key');
    assert.equal(await verdict(f.siteId, token), 'signature');
    assert.equal(await storedRow(f.siteId), undefined, 'verify creates nothing');
  });
});

describe('publishing auth of an unknown or foreign site', () => {
  test('an unknown site is a 404 naming it, and no settings are created for it', async () => {
    const base = `/v1/orgs/${t.orgId}/sites/site_unknown/publishing/auth`;
    for (const [method, path, payload] of [
      ['GET', base, undefined],
      ['PATCH', base, { backend: 'custom', fallbackURL: 'https://example.com/' }],
      ['PATCH', base, { backend: 'custom' }],
      ['POST', `${base}/regenerate`, undefined],
    ] as const) {
      const res = await t.request({ method, url: path, ...(payload ? { payload } : {}) });
      assert.match(expectError(res, 404), /site_unknown/, `${method} ${path}`);
    }
    assert.equal(await storedRow('site_unknown'), undefined);
  });

  test("another organization's member gets a 404 and neither reads nor changes the key", async () => {
    const f = await createSite(t, 1);
    const mine = await get(f);
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'O',
    });
    const headers = { authorization: `Bearer ${other.token}` };
    for (const [method, path, payload] of [
      ['GET', url(f), undefined],
      ['PATCH', url(f), { backend: 'custom', fallbackURL: 'https://evil.example/' }],
      ['POST', `${url(f)}/regenerate`, undefined],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: path,
        headers,
        ...(payload ? { payload } : {}),
      });
      expectError(res, 404);
      assert.ok(!res.body.includes(mine.privateKey));
    }
    assert.deepEqual(await get(f), mine);
  });
});
