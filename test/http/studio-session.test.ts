import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ConfigError, loadConfig } from '../../src/config.js';
import { hashToken } from '../../src/modules/identity/tokens.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';
import { cookiesOf, type StudioBrowser, studioSignIn } from '../helpers/studio.js';

// Livery Studio's sign-in (issue 18, item 2): an API token exchanged for an HttpOnly,
// SameSite=Strict session cookie; unsafe requests made with it need the CSRF token.

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

/** A request as a browser sends it: cookies only, no Authorization header. */
const browse = (options: InjectOptions) => t.app.inject(options);

/** The Set-Cookie line of `name`. */
function setCookie(response: LightMyRequestResponse, name: string): string {
  const lines = [response.headers['set-cookie'] ?? []].flat();
  const line = lines.find((l) => l.startsWith(`${name}=`));
  assert.ok(line !== undefined, `no Set-Cookie for ${name}: ${lines.join(' | ')}`);
  return line;
}

/** The attributes of a Set-Cookie line, lowercased names (order does not matter). */
function attributes(line: string): Map<string, string> {
  const parts = line.split(';').slice(1);
  return new Map(
    parts.map((part) => {
      const [key = '', ...value] = part.trim().split('=');
      return [key.toLowerCase(), value.join('=')];
    }),
  );
}

const sessionCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('studio_sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A signed-out browser: its CSRF secret cookie and token. */
async function freshBrowser(): Promise<StudioBrowser> {
  const response = await browse({ method: 'GET', url: '/studio/session' });
  const body = expectStatus(response, 200);
  return { cookie: cookiesOf(response), csrfToken: body.csrfToken as string };
}

describe('studio sign-in', () => {
  test('signed out: a CSRF token, its secret in an HttpOnly, SameSite=Strict cookie', async () => {
    const response = await browse({ method: 'GET', url: '/studio/session' });
    const body = expectStatus(response, 200);
    assert.equal(body.signedIn, false);
    assert.equal(typeof body.csrfToken, 'string');
    assert.deepEqual(Object.keys(body).sort(), ['csrfToken', 'signedIn']);
    assert.equal(response.headers['cache-control'], 'no-store');
    const csrf = attributes(setCookie(response, 'livery_csrf'));
    assert.ok(csrf.has('httponly'));
    assert.equal(csrf.get('samesite'), 'Strict');
    assert.equal(csrf.has('secure'), false, 'no Secure over http');
  });

  test('without x-csrf-token: 403 naming it, no session stored', async () => {
    const before = await sessionCount();
    const { cookie } = await freshBrowser();
    const noHeader = await browse({
      method: 'POST',
      url: '/studio/session',
      headers: { cookie },
      payload: { token: t.token },
    });
    assert.match(expectError(noHeader, 403), /x-csrf-token/);
    const noSecret = await browse({
      method: 'POST',
      url: '/studio/session',
      headers: { 'x-csrf-token': (await freshBrowser()).csrfToken },
      payload: { token: t.token },
    });
    assert.match(expectError(noSecret, 403), /x-csrf-token/, 'a token without its secret cookie');
    assert.equal(noHeader.cookies.length + noSecret.cookies.length, 0);
    assert.equal(await sessionCount(), before);
  });

  test('an unknown or revoked API token: 401, nothing stored', async () => {
    const member = await memberWithRole(t, 'admin');
    const revoked = await t.services.identity.createToken(member.id, { label: 'gone' });
    await t.services.identity.revokeToken(revoked.id);
    const before = await sessionCount();
    for (const token of [`${t.token}x`, 'gb_not-a-token', revoked.token]) {
      const browser = await freshBrowser();
      const response = await browse({
        method: 'POST',
        url: '/studio/session',
        headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
        payload: { token },
      });
      expectError(response, 401);
      assert.equal(
        response.cookies.some((c) => c.name === 'livery_studio'),
        false,
      );
    }
    const browser = await freshBrowser();
    const badBody = await browse({
      method: 'POST',
      url: '/studio/session',
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
      payload: { secret: t.token },
    });
    expectError(badBody, 400);
    assert.equal(await sessionCount(), before);
  });

  test('signed in: the session cookie; the database holds only its SHA-256', async () => {
    const browser = await freshBrowser();
    const started = Date.now();
    const response = await browse({
      method: 'POST',
      url: '/studio/session',
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
      payload: { token: ` ${t.token} ` },
    });
    const body = expectStatus(response, 200);
    assert.equal(body.signedIn, true);
    assert.equal((body.user as { id: string }).id, t.userId);
    assert.equal((body.token as { scopes: unknown }).scopes, null);
    assert.equal(typeof body.csrfToken, 'string');
    const hours = t.config.studioSessionHours;
    const expiresAt = Date.parse(body.expiresAt as string);
    assert.ok(Math.abs(expiresAt - (started + hours * 3_600_000)) < 60_000);

    const line = setCookie(response, 'livery_studio');
    const cookie = attributes(line);
    assert.ok(cookie.has('httponly'));
    assert.equal(cookie.get('samesite'), 'Strict');
    assert.equal(cookie.get('path'), '/');
    assert.equal(cookie.get('max-age'), String(hours * 3600));
    assert.equal(cookie.has('secure'), false, 'no Secure over http');

    const secret = (response.cookies.find((c) => c.name === 'livery_studio') as { value: string })
      .value;
    const rows = await t.db.selectFrom('studio_sessions').selectAll().execute();
    const row = rows.find((r) => r.id_hash === hashToken(secret));
    assert.ok(row !== undefined, 'stored by the SHA-256 of the cookie value');
    assert.equal(row.token_id, (body.token as { id: string }).id);
    const stored = JSON.stringify(rows);
    assert.equal(stored.includes(secret), false, 'never the cookie value');
    assert.equal(stored.includes(t.token), false, 'never the API token');

    const now = await browse({
      method: 'GET',
      url: '/studio/session',
      headers: { cookie: cookiesOf(response, browser.cookie) },
    });
    const session = expectStatus(now, 200);
    assert.equal(session.signedIn, true);
    assert.equal(session.expiresAt, body.expiresAt);
  });

  test('over https (BASE_URL): both cookies are Secure; STUDIO_SESSION_HOURS sets Max-Age', async () => {
    const https = await createTestApp({
      BASE_URL: 'https://livery.test',
      STUDIO_SESSION_HOURS: '2',
    });
    try {
      const first = await https.app.inject({ method: 'GET', url: '/studio/session' });
      assert.ok(attributes(setCookie(first, 'livery_csrf')).has('secure'));
      const signIn = await https.app.inject({
        method: 'POST',
        url: '/studio/session',
        headers: {
          cookie: cookiesOf(first),
          'x-csrf-token': expectStatus(first, 200).csrfToken as string,
        },
        payload: { token: https.token },
      });
      expectStatus(signIn, 200);
      const cookie = attributes(setCookie(signIn, 'livery_studio'));
      assert.ok(cookie.has('secure'));
      assert.equal(cookie.get('max-age'), '7200');
    } finally {
      await https.close();
    }
  });

  test('STUDIO_SESSION_HOURS=0 is refused', () => {
    assert.throws(
      () => loadConfig({ STUDIO_SESSION_HOURS: '0' }),
      (e: unknown) => e instanceof ConfigError && /STUDIO_SESSION_HOURS/.test(e.message),
    );
  });
});

describe('requests made with the session', () => {
  test('reads work; an unsafe method without the right x-csrf-token: 403, nothing changed', async () => {
    const site = await createSite(t, 1);
    const variant = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    expectStatus(
      await t.request({ method: 'PATCH', url: variant, payload: { title: 'Kept' } }),
      200,
    );
    const browser = await studioSignIn(t, t.token);
    const other = await freshBrowser();
    const read = async () => {
      const site_ = await browse({
        method: 'GET',
        url: `${site.base}/customization`,
        headers: { cookie: browser.cookie },
      });
      const override = await t.request({ method: 'GET', url: `${variant}/override` });
      return [expectStatus(site_, 200).title, expectStatus(override, 200).override];
    };
    const initial = await read();
    assert.deepEqual(initial[1], { title: 'Kept' });
    const attempts: InjectOptions[] = [
      { method: 'PUT', url: `${site.base}/customization`, payload: { title: 'Changed' } },
      { method: 'PATCH', url: variant, payload: { title: 'Changed' } },
      { method: 'DELETE', url: variant },
      { method: 'PATCH', url: site.base, payload: { title: 'Renamed' } },
      { method: 'POST', url: `${site.base}/publish` },
    ];
    for (const attempt of attempts) {
      const label = `${attempt.method} ${attempt.url}`;
      for (const csrf of [undefined, 'not-a-token', other.csrfToken]) {
        const response = await browse({
          ...attempt,
          headers: {
            cookie: browser.cookie,
            ...(csrf === undefined ? {} : { 'x-csrf-token': csrf }),
          },
        });
        assert.match(expectError(response, 403), /x-csrf-token/, `${label} with ${csrf}`);
      }
    }
    assert.deepEqual(await read(), initial);
    const siteNow = expectStatus(await t.request({ method: 'GET', url: site.base }), 200);
    assert.equal(siteNow.title, 'Docs');
    assert.notEqual(siteNow.published, true);

    const put = await browse({
      method: 'PUT',
      url: `${site.base}/customization`,
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
      payload: { title: 'Changed' },
    });
    expectStatus(put, 200);
    const removed = await browse({
      method: 'DELETE',
      url: variant,
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
    });
    assert.equal(removed.statusCode, 205, removed.body);
    assert.deepEqual(await read(), ['Changed', {}]);
  });

  test('cross-site: the session cookie with the CSRF token of another browser: 403', async () => {
    const site = await createSite(t, 1);
    const victim = await studioSignIn(t, t.token);
    const attacker = await studioSignIn(t, t.token);
    const response = await browse({
      method: 'PUT',
      url: `${site.base}/customization`,
      headers: { cookie: victim.cookie, 'x-csrf-token': attacker.csrfToken },
      payload: { title: 'Pwned' },
    });
    expectError(response, 403);
    const now = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.notEqual(expectStatus(now, 200).title, 'Pwned');
  });

  test("cookie tossing: the attacker's own CSRF secret cookie and token with the victim's session: 403", async () => {
    // A sibling host can plant a livery_csrf cookie in the victim's browser; SameSite does not
    // stop it (same site). The token is bound to the session, so the attacker's is refused.
    const site = await createSite(t, 1);
    const victim = await studioSignIn(t, t.token);
    const attacker = await studioSignIn(t, t.token);
    const session = (cookie: string) =>
      cookie.split('; ').find((c) => c.startsWith('livery_studio='));
    const secret = (cookie: string) => cookie.split('; ').find((c) => c.startsWith('livery_csrf='));
    const response = await browse({
      method: 'PUT',
      url: `${site.base}/customization`,
      headers: {
        cookie: `${session(victim.cookie)}; ${secret(attacker.cookie)}`,
        'x-csrf-token': attacker.csrfToken,
      },
      payload: { title: 'Pwned' },
    });
    expectError(response, 403);
    const now = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.notEqual(expectStatus(now, 200).title, 'Pwned');
  });

  test('the Authorization header wins over the cookie', async () => {
    const site = await createSite(t, 1);
    const reader = await memberWithRole(t, 'read');
    const readerSession = await studioSignIn(t, reader.token);
    const owner = await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      headers: { cookie: readerSession.cookie },
      payload: { title: 'By the owner' },
    });
    expectStatus(owner, 200); // the owner's token, no CSRF token needed without the session
    const ownerSession = await studioSignIn(t, t.token);
    const asReader = await requestAs(t, reader, {
      method: 'PUT',
      url: `${site.base}/customization`,
      headers: { cookie: ownerSession.cookie, 'x-csrf-token': ownerSession.csrfToken },
      payload: { title: 'By the reader' },
    });
    expectError(asReader, 403);
    const bad = await t.request({
      method: 'GET',
      url: `${site.base}/customization`,
      headers: { cookie: ownerSession.cookie, authorization: 'Bearer gb_wrong' },
    });
    expectError(bad, 401);
  });
});

describe("the session acts with its token's rights", () => {
  const abilities = (browser: StudioBrowser, org = t.orgId) =>
    browse({
      method: 'GET',
      url: `/studio/orgs/${org}/abilities`,
      headers: { cookie: browser.cookie },
    });

  /** The 403 of a PUT of the site's settings, by bearer token and by session: the same text. */
  async function sameRefusal(token: string, siteBase: string): Promise<string> {
    const payload = { title: 'Nope' };
    const url = `${siteBase}/customization`;
    const byToken = await t.request({
      method: 'PUT',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
    const browser = await studioSignIn(t, token);
    const bySession = await browse({
      method: 'PUT',
      url,
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
      payload,
    });
    const message = expectError(byToken, 403);
    assert.equal(expectError(bySession, 403), message);
    const read = await browse({ method: 'GET', url, headers: { cookie: browser.cookie } });
    expectStatus(read, 200);
    return message;
  }

  test('a read member: the same 403 as their token; abilities say read, with that reason', async () => {
    const site = await createSite(t, 1);
    const reader = await memberWithRole(t, 'read');
    const message = await sameRefusal(reader.token, site.base);
    const body = expectStatus(await abilities(await studioSignIn(t, reader.token)), 200);
    assert.equal(body.role, 'read');
    const can = body.can as Record<string, unknown>;
    assert.equal(can.updateSiteCustomizationById, message);
    assert.equal(can.listSiteCustomizationRevisions, true);
    const owner = expectStatus(await abilities(await studioSignIn(t, t.token)), 200);
    assert.equal(owner.role, 'admin');
    assert.ok(Object.values(owner.can as object).every((v) => v === true));
  });

  test('a token with scopes but not site:write: the same 403; abilities give its reason', async () => {
    const site = await createSite(t, 1);
    const { token } = await t.services.identity.createToken(t.userId, {
      label: 'read only',
      scopes: ['site:read'],
    });
    const message = await sameRefusal(token, site.base);
    assert.match(message, /site:write/);
    const browser = await studioSignIn(t, token);
    const session = expectStatus(
      await browse({ method: 'GET', url: '/studio/session', headers: { cookie: browser.cookie } }),
      200,
    );
    assert.deepEqual((session.token as { scopes: unknown }).scopes, ['site:read']);
    const body = expectStatus(await abilities(browser), 200);
    assert.equal(body.role, 'admin');
    const can = body.can as Record<string, unknown>;
    assert.equal(can.updateSiteCustomizationById, message);
    assert.equal(can.listSiteCustomizationRevisions, true);
  });

  test('an organization the user is not a member of: 404; no session: 401', async () => {
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'Stranger',
    });
    const browser = await studioSignIn(t, t.token);
    expectError(await abilities(browser, other.organization.id), 404);
    expectError(await abilities(browser, 'no-such-org'), 404);
    const sites = await browse({
      method: 'GET',
      url: `/v1/orgs/${other.organization.id}/sites`,
      headers: { cookie: browser.cookie },
    });
    expectError(sites, 404);
    expectError(await abilities(await freshBrowser()), 401);
  });
});

describe('the end of a session', () => {
  const whoAmI = (browser: StudioBrowser) =>
    browse({ method: 'GET', url: '/v1/user', headers: { cookie: browser.cookie } });
  const signedIn = async (browser: StudioBrowser) =>
    expectStatus(
      await browse({ method: 'GET', url: '/studio/session', headers: { cookie: browser.cookie } }),
      200,
    ).signedIn;

  test('sign-out: 204, the cookie cleared; the old cookie gets 401 and signedIn:false', async () => {
    const browser = await studioSignIn(t, t.token);
    expectStatus(await whoAmI(browser), 200);
    const noCsrf = await browse({
      method: 'DELETE',
      url: '/studio/session',
      headers: { cookie: browser.cookie },
    });
    expectError(noCsrf, 403);
    assert.equal(await signedIn(browser), true, 'a sign-out without the CSRF token does nothing');
    const before = await sessionCount();
    const out = await browse({
      method: 'DELETE',
      url: '/studio/session',
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
    });
    assert.equal(out.statusCode, 204, out.body);
    const cleared = attributes(setCookie(out, 'livery_studio'));
    assert.ok(cleared.get('max-age') === '0' || cleared.has('expires'), 'cleared');
    assert.equal(cleared.get('path'), '/');
    assert.equal(cookiesOf(out, browser.cookie).includes('livery_studio='), false);
    assert.equal(await sessionCount(), before - 1);
    expectError(await whoAmI(browser), 401);
    assert.equal(await signedIn(browser), false);
    // The API token itself still works.
    expectStatus(await t.request({ method: 'GET', url: '/v1/user' }), 200);
  });

  test("revoking the session's API token ends the session", async () => {
    const member = await memberWithRole(t, 'admin');
    const { id, token } = await t.services.identity.createToken(member.id, { label: 'studio' });
    const browser = await studioSignIn(t, token);
    const second = await studioSignIn(t, token);
    expectStatus(await whoAmI(browser), 200);
    // By the API, from the session itself.
    const revoke = await browse({
      method: 'DELETE',
      url: `/v1/user/tokens/${id}`,
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
    });
    assert.equal(revoke.statusCode, 205, revoke.body);
    expectError(await whoAmI(browser), 401);
    expectError(await whoAmI(second), 401);
    assert.equal(await signedIn(second), false);
    // By the service (the command line).
    const other = await t.services.identity.createToken(member.id, { label: 'cli' });
    const third = await studioSignIn(t, other.token);
    expectStatus(await whoAmI(third), 200);
    await t.services.identity.revokeToken(other.id);
    expectError(await whoAmI(third), 401);
  });

  test('an expired session: 401', async () => {
    const browser = await studioSignIn(t, t.token);
    const secret = /livery_studio=([^;]+)/.exec(browser.cookie)?.[1] ?? '';
    await t.db
      .updateTable('studio_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id_hash', '=', hashToken(secret))
      .execute();
    expectError(await whoAmI(browser), 401);
    assert.equal(await signedIn(browser), false);
  });
});
