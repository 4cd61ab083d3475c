import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { STUDIO_COOKIE } from '../access/auth.js';
import { hashToken } from '../identity/tokens.js';

/** The cookie holding the CSRF secret (@fastify/csrf-protection's double-submit secret). */
export const CSRF_COOKIE = 'livery_csrf';

/**
 * What a CSRF token is bound to: the session cookie the browser sends (its hash; '' without
 * one). A token made for one session is refused with any other, so a CSRF secret cookie planted
 * by a sibling host (cookie tossing) together with the planter's own token opens nothing.
 */
export const csrfUserInfo = (sessionSecret: string | undefined): string =>
  hashToken(sessionSecret ?? '');

export const csrfUserInfoOf = (request: FastifyRequest): string =>
  csrfUserInfo(request.cookies[STUDIO_COOKIE]);

/** The HMAC key of CSRF tokens, shared by every server of the database (migration 0014). */
export async function csrfKeyOf(db: Db): Promise<string> {
  const row = await db
    .selectFrom('server_secrets')
    .select('secret')
    .where('name', '=', 'studio-csrf')
    .executeTakeFirst();
  if (row === undefined) throw new Error('server_secrets has no studio-csrf key: run migrations');
  return row.secret;
}

/**
 * Registers @fastify/csrf-protection: tokens in the `x-csrf-token` header, checked against the
 * secret cookie and the session, with the HMAC key all servers of the database share.
 */
export async function installCsrf(
  app: FastifyInstance,
  hmacKey: string,
  secure: boolean,
): Promise<void> {
  await app.register(fastifyCsrfProtection, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, secure },
    getToken: (request) => {
      const token = request.headers['x-csrf-token'];
      return typeof token === 'string' ? token : undefined;
    },
    getUserInfo: csrfUserInfoOf,
    csrfOpts: { userInfo: true, hmacKey },
  });
}
