import type { FastifyRequest } from 'fastify';
import { AppError, invalidToken, missingCredentials, notFound } from '../errors.js';
import type { IdentityService, Principal } from '../modules/identity/service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer hook on every `/v1` request. */
    principal: Principal | null;
    /** The caller's role in the organization named by the path, for routes that name one. */
    memberRole: string | null;
  }
}

// RFC 6750: the scheme is case-insensitive; the token is token68.
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/**
 * `onRequest` hook of the `/v1` scope: authenticates the token, then, when the path names an
 * organization, requires membership. It runs before the body is read, so a stranger learns
 * nothing from validation errors either.
 */
export function bearerAuth(identity: IdentityService) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      throw missingCredentials(
        'Missing Authorization header; send "Authorization: Bearer <API token>"',
      );
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) {
      throw missingCredentials('Malformed Authorization header; expected "Bearer <API token>"');
    }
    const { organizationId } = request.params as { organizationId?: string };
    const found = await identity.authenticate(token, organizationId);
    if (found === undefined) throw invalidToken();
    request.principal = found.principal;
    if (organizationId !== undefined) {
      // Not a member: the same 404 as for an organization that does not exist.
      if (found.role === undefined) throw notFound('organization', organizationId);
      request.memberRole = found.role;
    }
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new AppError(500, 'Route is missing authentication');
  return request.principal;
}

export function memberRoleOf(request: FastifyRequest): string {
  if (request.memberRole === null) throw new AppError(500, 'Route is missing an organization');
  return request.memberRole;
}
