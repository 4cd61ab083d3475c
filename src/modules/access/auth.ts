import { fastifyCookie } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MISS } from '../../db/prepared.js';
import { AppError, invalidToken, missingCredentials, notFound } from '../../errors.js';
import type { Authenticated, IdentityService, Principal } from '../identity/service.js';
import type { StudioSessions } from '../studio/sessions.js';
import { demand, demandScope } from './permission-checks.js';
import { PERMISSIONS, type Permission, seesSpaces } from './permissions.js';
import {
  authenticateSiteToken,
  looksLikeSiteToken,
  type SiteTokenAuth,
} from './site-token-auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer hook on every `/v1` request. */
    principal: Principal | null;
    /** The caller's role in the organization the request names (by path or through a space). */
    memberRole: string | null;
    /** Authenticated by a Livery Studio session cookie (then unsafe methods need a CSRF token). */
    viaSession: boolean;
  }
  interface FastifyContextConfig {
    /** The operation's row of the permission table (modules/access/permissions.ts). */
    permission?: Permission;
    /**
     * GitBook's "did not exist": a resource that does not exist, or one of an organization the
     * caller is not a member of, answers 204 instead of 404 (deleteSpaceById), the same for both.
     */
    absentIsNoContent?: true;
    /**
     * The space the path names may be in the trash (restoreSpace): its organization is looked
     * up among deleted spaces too, which every other operation treats as absent.
     */
    spaceInTrash?: true;
  }
}

/**
 * The session cookie of Livery Studio: HttpOnly, SameSite=Strict, Path=/ (docs/studio.md). Named
 * here, where requests are authenticated by it, so that access imports nothing of the studio.
 */
export const STUDIO_COOKIE = 'livery_studio';

// RFC 6750: the scheme is case-insensitive; the token is token68, and ends the header (HTTP
// strips whitespace around a header's value before it gets here: whatever follows the token is
// not part of a well-formed header).
export const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * Gives every route of the scope its row of the permission table, by operationId; a route
 * without one is a programming error and fails at start-up, so no operation goes unchecked.
 */
export function installPermissions(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
    const permission = operationId === undefined ? undefined : PERMISSIONS[operationId];
    if (permission === undefined) {
      throw new Error(`${route.method} ${route.url}: no permission for ${operationId}`);
    }
    route.config = { ...route.config, permission };
  });
}

/**
 * The `/v1` scope's access control. `onRequest`: authenticates the token (401 at once); when the
 * path names an organization, or a space (whose organization `spaceOrganization` answers), finds
 * the caller's role; then checks the operation's permission (role and token scope).
 * A refusal (404 for a non-member, 403) is answered in `preValidation`: after the body is parsed
 * (so answers that depend on the body, the deprecation headers of updateSpaceById, can still
 * read it) but before it is validated, so a stranger or an under-privileged member learns
 * nothing from validation errors and nothing runs.
 */
export function installAccessControl(
  app: FastifyInstance,
  identity: IdentityService,
  spaceOrganization: (spaceId: string, inTrash: boolean) => Promise<string | undefined>,
  siteTokens: SiteTokenAuth,
  studio: {
    sessions: Pick<StudioSessions, 'find'>;
    /** @fastify/csrf-protection's check (registered with the studio's routes). */
    csrfProtection: FastifyInstance['csrfProtection'];
  },
): void {
  const { sessions, csrfProtection } = studio;
  const refusals = new WeakMap<FastifyRequest, AppError>();
  const check = bearerAuth(identity, spaceOrganization, siteTokens, sessions);
  /** A 401 ends the request at once; other refusals wait for preValidation. */
  const refuse = (request: FastifyRequest, error: unknown): unknown => {
    if (!(error instanceof AppError) || error.statusCode === 401) return error;
    refusals.set(request, error);
    return undefined;
  };
  // Callback-style hooks: a request whose token is kept in memory is checked without a promise
  // (every /v1 request runs these; see bearerAuth).
  /**
   * After the check: the 401, or on. A cookie is sent by the browser whoever made the page, so a
   * state-changing request made with the studio's session must also carry the CSRF token that
   * only the studio's own page can read.
   */
  const proceed = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
    error?: unknown,
  ) => {
    const refusal = refuse(request, error) as Error | undefined;
    if (refusal !== undefined || !request.viaSession || SAFE_METHODS.has(request.method)) {
      done(refusal);
    } else {
      csrfProtection(request, reply, done);
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    let pending: undefined | Promise<void>;
    try {
      pending = check(request);
    } catch (error) {
      proceed(request, reply, done, error);
      return;
    }
    // The hot path: a token kept in memory (a session is always looked up, so never here).
    if (pending === undefined) done();
    else
      pending.then(
        () => proceed(request, reply, done),
        (error) => proceed(request, reply, done, error),
      );
  });
  app.addHook('preValidation', (request, reply, done) => {
    try {
      answerRefusal(request, reply, refusals.get(request));
    } catch (error) {
      done(error as Error);
      return;
    }
    done(); // after a 204 was sent, Fastify goes no further
  });
}

/** preValidation: answers the refusal kept by the onRequest hook, then checks body fields. */
function answerRefusal(request: FastifyRequest, reply: FastifyReply, refusal?: AppError): void {
  if (refusal?.statusCode === 404 && request.routeOptions.config.absentIsNoContent) {
    // The token's scopes do not depend on the resource: checked first, so that a token that
    // may not call the operation at all is refused whatever the id.
    const { permission } = request.routeOptions.config;
    if (permission !== undefined) demandScope(request, permission);
    reply.code(204).send();
    return;
  }
  if (refusal !== undefined) throw refusal;
  const { body } = request;
  if (typeof body !== 'object' || body === null) return; // a read: no route options built
  const fields = request.routeOptions.config.permission?.fields;
  if (fields !== undefined) {
    for (const [field, permission] of Object.entries(fields)) {
      if (field in body) demand(request, permission);
    }
  }
}

/**
 * Authenticates and authorizes a request; answers a promise only when it must wait (a token
 * whose row is not kept in memory, a space's organization, a site token), else nothing: the
 * token of a repeated caller costs no promise (IdentityService.authenticateCached).
 */
function bearerAuth(
  identity: IdentityService,
  spaceOrganization: (spaceId: string, inTrash: boolean) => Promise<string | undefined>,
  siteTokens: SiteTokenAuth,
  sessions: Pick<StudioSessions, 'find'>,
) {
  /** Finds the caller (by `lookup`) and admits the request, for the organization it names. */
  const authorize = (
    request: FastifyRequest,
    permission: Permission | undefined,
    lookup: (organizationId: string | undefined) => Promise<Authenticated | undefined>,
    inTrash: boolean,
  ): Promise<void> => {
    const { organizationId, spaceId } = request.params as {
      organizationId?: string;
      spaceId?: string;
    };
    if (organizationId === undefined && spaceId !== undefined) {
      return spaceOrganization(spaceId, inTrash).then(async (organization) => {
        const found = await lookup(organization);
        admit(request, permission, found, organization, { kind: 'space', id: spaceId });
      });
    }
    return lookup(organizationId).then((found) => {
      admit(request, permission, found, organizationId, namedOrganization(organizationId));
    });
  };
  return (request: FastifyRequest): undefined | Promise<void> => {
    const header = request.headers.authorization;
    const { permission, spaceInTrash } = request.routeOptions.config;
    const inTrash = spaceInTrash === true;
    if (header === undefined || header.trim() === '') {
      // No Authorization header: a Livery Studio session cookie stands for its API token. The
      // cookies are parsed here, by @fastify/cookie's parser, only when they may be needed.
      const { cookie } = request.headers;
      if (cookie !== undefined) request.cookies = fastifyCookie.parse(cookie);
      const secret = cookie === undefined ? undefined : request.cookies[STUDIO_COOKIE];
      if (secret !== undefined && secret !== '') {
        request.viaSession = true;
        return sessions.find(secret).then((session) => {
          if (session === undefined) throw sessionEnded();
          return authorize(
            request,
            permission,
            (organizationId) => identity.authenticateHash(session.tokenHash, organizationId),
            inTrash,
          );
        });
      }
      if (permission?.anonymous) return;
      throw missingCredentials(
        'Missing Authorization header; send "Authorization: Bearer <API token>"',
      );
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) {
      throw missingCredentials('Malformed Authorization header; expected "Bearer <API token>"');
    }
    if (looksLikeSiteToken(token))
      return authenticateSiteToken(request, token, permission, siteTokens);
    const { organizationId, spaceId } = request.params as {
      organizationId?: string;
      spaceId?: string;
    };
    if (organizationId !== undefined || spaceId === undefined) {
      const cached = identity.authenticateCached(token, organizationId);
      if (cached !== MISS) {
        return admit(
          request,
          permission,
          cached,
          organizationId,
          namedOrganization(organizationId),
        );
      }
    }
    return authorize(
      request,
      permission,
      (organization) => identity.authenticate(token, organization),
      inTrash,
    );
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const namedOrganization = (organizationId: string | undefined): Named =>
  organizationId === undefined ? undefined : { kind: 'organization', id: organizationId };

const sessionEnded = () =>
  invalidToken(
    'The Livery Studio session is unknown, expired or signed out, or its API token was revoked: sign in again',
  );

/** What the path names: its 404 refuses a non-member. */
type Named = { kind: 'organization' | 'space'; id: string } | undefined;

/**
 * After authentication: the principal and role of the request, or the refusal. The 404 of what
 * the path names is built only when thrown: an Error captures a stack trace, which cost ~8% of a
 * GET's CPU when it was built on every request.
 */
function admit(
  request: FastifyRequest,
  // Passed on, not read again: each `request.routeOptions` builds a new object.
  permission: Permission | undefined,
  found: Authenticated | undefined,
  organizationId: string | undefined,
  named: Named,
): undefined {
  if (found === undefined) throw invalidToken();
  request.principal = found.principal;
  if (named !== undefined) {
    // Not a member, or no such thing: the same 404, so ids of others are never confirmed.
    // Operations open to non-members (role null: joining with an invite) go on without a role.
    if (found.role !== undefined) request.memberRole = found.role;
    else if (organizationId === undefined || permission?.role !== null) {
      throw notFound(named.kind, named.id);
    }
  }
  // A space named by the path is, to a member who sees no spaces (a guest), as unknown as to a
  // stranger: a 403 would confirm that it exists (issue 16).
  if (
    named?.kind === 'space' &&
    found.role !== undefined &&
    permission?.role !== null &&
    !seesSpaces(found.role)
  ) {
    throw notFound('space', named.id);
  }
  if (permission !== undefined) demand(request, permission);
  return undefined;
}
