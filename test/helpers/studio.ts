import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { buildStudio, type StudioBuild } from '../../scripts/build-studio.js';
import type { TestContext } from './app.js';

/** The `name=value` pairs a response sets, as one Cookie header value. */
export function cookiesOf(response: LightMyRequestResponse, previous = ''): string {
  const jar = new Map<string, string>(
    previous
      .split('; ')
      .filter((pair) => pair !== '')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  for (const cookie of response.cookies) {
    if (cookie.value === '' || cookie.maxAge === 0) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

export interface StudioBrowser {
  /** The Cookie header this "browser" sends. */
  cookie: string;
  csrfToken: string;
}

/** Signs in to the studio with `token` through the session endpoints, as the studio does. */
export async function studioSignIn(t: TestContext, token: string): Promise<StudioBrowser> {
  const first = await t.app.inject({ method: 'GET', url: '/studio/session' });
  assert.equal(first.statusCode, 200, first.body);
  const csrf = (first.json() as { csrfToken: string }).csrfToken;
  let cookie = cookiesOf(first);
  const signIn = await t.app.inject({
    method: 'POST',
    url: '/studio/session',
    headers: { cookie, 'x-csrf-token': csrf },
    payload: { token },
  });
  assert.equal(signIn.statusCode, 200, signIn.body);
  cookie = cookiesOf(signIn, cookie);
  return { cookie, csrfToken: (signIn.json() as { csrfToken: string }).csrfToken };
}

/**
 * The built studio (dist/studio/), built here only when missing: `npm test` builds it before
 * any test runs, and a rebuild while another test file loads its assets would pull them away.
 */
export async function ensureStudioBuilt(): Promise<StudioBuild> {
  const report = new URL('../../dist/studio/build.json', import.meta.url);
  if (!existsSync(report)) return buildStudio({ quiet: true });
  return JSON.parse(readFileSync(report, 'utf8')) as StudioBuild;
}
