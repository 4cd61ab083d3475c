import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, invalidToken, missingCredentials, notFound } from '../errors.js';
import { PERMISSIONS, type Permission, roleAtLeast } from '../modules/identity/permissions.js';
import type { IdentityService, Principal } from '../modules/identity/service.js';
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
  }
  interface FastifyContextConfig {
    /** The operation's row of the permission table (modules/identity/permissions.ts). */
    permission?: Permission;
    /**
     * GitBook's "did not exist": a resource that does not exist, or one of an organization the
     * caller is not a member of, answers 204 instead of 404 (deleteSpaceById), the same for both.
     */
    absentIsNoContent?: true;
  }
}

// RFC 6750: the scheme is case-insensitive; the token is token68.
export const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

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
  spaceOrganization: (spaceId: string) => Promise<string | undefined>,
  siteTokens: SiteTokenAuth,
): void {
  const refusals = new WeakMap<FastifyRequest, AppError>();
  const check = bearerAuth(identity, spaceOrganization, siteTokens);
  app.addHook('onRequest', async (request) => {
    try {
      await check(request);
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode === 401) throw error;
      refusals.set(request, error);
    }
  });
  app.addHook('preValidation', async (request, reply) => {
    const refusal = refusals.get(request);
    if (refusal?.statusCode === 404 && request.routeOptions.config.absentIsNoContent) {
      // The token's scopes do not depend on the resource: checked first, so that a token that
      // may not call the operation at all is refused whatever the id.
      const { permission } = request.routeOptions.config;
      if (permission !== undefined) demandScope(request, permission);
      return reply.code(204).send();
    }
    if (refusal !== undefined) throw refusal;
    const fields = request.routeOptions.config.permission?.fields;
    if (fields !== undefined && typeof request.body === 'object' && request.body !== null) {
      for (const [field, permission] of Object.entries(fields)) {
        if (field in request.body) demand(request, permission);
      }
    }
  });
}

function bearerAuth(
  identity: IdentityService,
  spaceOrganization: (spaceId: string) => Promise<string | undefined>,
  siteTokens: SiteTokenAuth,
) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    const { permission } = request.routeOptions.config;
    if ((header === undefined || header.trim() === '') && permission?.anonymous) return;
    if (header === undefined || header.trim() === '') {
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
    const params = request.params as { organizationId?: string; spaceId?: string };
    let organizationId = params.organizationId;
    let named = organizationId === undefined ? undefined : notFound('organization', organizationId);
    if (organizationId === undefined && params.spaceId !== undefined) {
      organizationId = await spaceOrganization(params.spaceId);
      named = notFound('space', params.spaceId);
    }
    const found = await identity.authenticate(token, organizationId);
    if (found === undefined) throw invalidToken();
    request.principal = found.principal;
    if (named !== undefined) {
      // Not a member, or no such thing: the same 404, so ids of others are never confirmed.
      // Operations open to non-members (role null: joining with an invite) go on without a role.
      if (found.role !== undefined) request.memberRole = found.role;
      else if (organizationId === undefined || permission?.role !== null) throw named;
    }
    if (permission !== undefined) demand(request, permission);
  };
}

/** 403 unless the caller's token scopes and role allow `permission` (the table's rules). */
export function demand(request: FastifyRequest, permission: Permission): void {
  demandScope(request, permission);
  if (permission.role !== null) {
    const role = memberRoleOf(request);
    if (!roleAtLeast(role, permission.role)) {
      throw forbidden(
        `${operationOf(request)} needs the ${permission.role} role in this organization; your role is ${role}`,
      );
    }
  }
}

const operationOf = (request: FastifyRequest) =>
  (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;

/** 403 unless the caller's token is unrestricted or holds the scope `permission` needs. */
function demandScope(request: FastifyRequest, permission: Permission): void {
  const operation = operationOf(request);
  const { scopes } = principalOf(request);
  if (scopes !== null) {
    if (permission.unscopedOnly) {
      throw forbidden(
        `${operation} needs an API token without scopes: a token restricted to scopes cannot manage tokens`,
      );
    }
    if (permission.scope !== null && !scopes.includes(permission.scope)) {
      throw forbidden(
        `This API token lacks the scope ${permission.scope}, which ${operation} needs (the token has: ${scopes.join(', ') || 'none'})`,
      );
    }
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new AppError(500, 'Route is missing authentication');
  return request.principal;
}

export function memberRoleOf(request: FastifyRequest): string {
  if (request.memberRole === null) throw new AppError(500, 'Route is missing an organization');
  return request.memberRole;
}
