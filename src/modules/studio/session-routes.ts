import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { invalidToken, notFound } from '../../errors.js';
import { NoContent, OrgParams, responses } from '../../http/schemas.js';
import { STUDIO_COOKIE } from '../access/auth.js';
import type { IdentityService } from '../identity/service.js';
import { abilitiesOf } from './abilities.js';
import { csrfUserInfo, csrfUserInfoOf } from './csrf.js';
import type { StudioSessions } from './sessions.js';

const SignedOut = Type.Object({
  signedIn: Type.Literal(false),
  csrfToken: Type.String({ description: 'Send as x-csrf-token with POST /studio/session' }),
});
const SignedIn = Type.Object({
  signedIn: Type.Literal(true),
  csrfToken: Type.String({
    description: 'Send as x-csrf-token with every POST, PUT, PATCH and DELETE of this session',
  }),
  user: Type.Object({
    id: Type.String(),
    displayName: Type.String(),
    email: Type.Optional(Type.String()),
  }),
  token: Type.Object({
    id: Type.String(),
    scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
  }),
  expiresAt: Type.String({ format: 'date-time' }),
});

/**
 * Livery Studio's sign-in (docs/studio.md): an API token, pasted once, is exchanged for an
 * HttpOnly, SameSite=Strict session cookie (Secure over https); /v1 accepts the cookie in place
 * of the token, and every unsafe request made with it needs the CSRF token given here.
 */
export const studioSessionRoutes: FastifyPluginAsyncTypebox<{
  sessions: StudioSessions;
  identity: IdentityService;
  hours: number;
  secureCookies: boolean;
}> = async (app, { sessions, identity, hours, secureCookies }) => {
  const cookie = { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookies } as const;
  const tags = ['livery'];

  /**
   * The signed-in session of the request's cookie, with its token's principal (and role in
   * `organizationId`, when named), or undefined.
   */
  async function current(request: FastifyRequest, organizationId?: string) {
    const secret = request.cookies[STUDIO_COOKIE];
    if (secret === undefined || secret === '') return undefined;
    const session = await sessions.find(secret);
    if (session === undefined) return undefined;
    const found = await identity.authenticateHash(session.tokenHash, organizationId);
    return found === undefined ? undefined : { ...found, secret, expiresAt: session.expiresAt };
  }

  /** The signed-in answer; its CSRF token is bound to the session secret `sessionSecret`. */
  const signedIn = async (
    reply: FastifyReply,
    sessionSecret: string,
    principal: { userId: string; tokenId: string; scopes: readonly string[] | null },
    expiresAt: string,
  ) => {
    const user = await identity.currentUser(principal.userId);
    return {
      signedIn: true as const,
      csrfToken: reply.generateCsrf({ userInfo: csrfUserInfo(sessionSecret) }),
      user: {
        id: user.id,
        displayName: user.displayName,
        ...(user.email === undefined ? {} : { email: user.email }),
      },
      token: {
        id: principal.tokenId,
        scopes: principal.scopes === null ? null : [...principal.scopes],
      },
      expiresAt,
    };
  };

  app.get(
    '/studio/session',
    {
      schema: {
        operationId: 'getStudioSession',
        summary: 'The Livery Studio session of this browser, and a CSRF token',
        tags,
        response: { 200: Type.Union([SignedIn, SignedOut]) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const found = await current(request);
      if (found === undefined) {
        // Bound to whatever session cookie the browser still sends, as the sign-in checks it.
        const csrfToken = reply.generateCsrf({ userInfo: csrfUserInfoOf(request) });
        return { signedIn: false as const, csrfToken };
      }
      return signedIn(reply, found.secret, found.principal, found.expiresAt);
    },
  );

  app.post(
    '/studio/session',
    {
      onRequest: app.csrfProtection,
      schema: {
        operationId: 'createStudioSession',
        summary: 'Sign in to Livery Studio with an API token (sets the session cookie)',
        tags,
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 512, description: 'An API token' }) },
          { additionalProperties: false },
        ),
        response: responses({ 200: SignedIn }, [400, 403, 415]),
      },
    },
    async (request, reply) => {
      const { secret, principal, expiresAt } = await sessions.signIn(request.body.token.trim());
      // Signing in again replaces this browser's previous session.
      const previous = request.cookies[STUDIO_COOKIE];
      if (previous !== undefined && previous !== '') await sessions.signOut(previous);
      reply
        .header('cache-control', 'no-store')
        .setCookie(STUDIO_COOKIE, secret, { ...cookie, maxAge: hours * 3600 });
      return signedIn(reply, secret, principal, expiresAt);
    },
  );

  app.delete(
    '/studio/session',
    {
      onRequest: app.csrfProtection,
      schema: {
        operationId: 'deleteStudioSession',
        summary: 'Sign out of Livery Studio: the session is deleted and its cookie cleared',
        tags,
        response: responses({ 204: NoContent('Signed out') }, [403]),
      },
    },
    async (request, reply) => {
      const secret = request.cookies[STUDIO_COOKIE];
      if (secret !== undefined && secret !== '') await sessions.signOut(secret);
      return reply.clearCookie(STUDIO_COOKIE, cookie).code(204).send();
    },
  );

  app.get(
    '/studio/orgs/:organizationId/abilities',
    {
      schema: {
        operationId: 'getStudioAbilities',
        summary: "What the session's token may do in an organization, and why not",
        description:
          "For each operation the studio offers: true, or the reason the permission table refuses it (the text of the API's 403).",
        tags,
        params: OrgParams,
        response: responses(
          {
            200: Type.Object({
              role: Type.String(),
              can: Type.Record(Type.String(), Type.Union([Type.Literal(true), Type.String()])),
            }),
          },
          [404],
        ),
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const found = await current(request, organizationId);
      if (found === undefined) throw invalidToken('Not signed in to Livery Studio');
      if (found.role === undefined) throw notFound('organization', organizationId);
      return { role: found.role, can: abilitiesOf(found.role, found.principal.scopes) };
    },
  );
};
