import type { FastifyRequest } from 'fastify';
import { AppError, forbidden } from '../../errors.js';
import type { Principal } from '../identity/service.js';
import { type Permission, roleAtLeast } from './permissions.js';

/**
 * The checks of the permission table (modules/access/permissions.ts) on an authenticated
 * request, and the one wording of their refusals: the API's 403s, and the read-only reasons
 * Livery Studio shows (modules/studio/abilities.ts).
 */

/** 403 unless the caller's token scopes and role allow `permission` (the table's rules). */
export function demand(request: FastifyRequest, permission: Permission): void {
  demandScope(request, permission);
  if (permission.role === null) return;
  const role = memberRoleOf(request);
  // The operation is looked up only for a refusal: each `request.routeOptions` builds an object.
  if (roleAtLeast(role, permission.role)) return;
  throw forbidden(roleRefusal(operationOf(request), permission, role) ?? 'Forbidden');
}

const operationOf = (request: FastifyRequest) =>
  (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;

/** 403 unless the caller's token is unrestricted or holds the scope `permission` needs. */
export function demandScope(request: FastifyRequest, permission: Permission): void {
  const { scopes } = principalOf(request);
  if (scopes === null) return; // a token without scopes: its user's rights (the usual case)
  const refusal = scopeRefusal(operationOf(request), permission, scopes);
  if (refusal !== undefined) throw forbidden(refusal);
}

/**
 * Why a token with `scopes` may not call `operation`, or undefined. With roleRefusal, the one
 * wording of the permission table's refusals: the API's 403s and the studio's read-only reasons.
 */
export function scopeRefusal(
  operation: string | undefined,
  permission: Permission,
  scopes: readonly string[] | null,
): string | undefined {
  if (scopes === null) return undefined;
  if (permission.unscopedOnly) {
    return `${operation} needs an API token without scopes: a token restricted to scopes cannot manage tokens`;
  }
  if (permission.scope !== null && !scopes.includes(permission.scope)) {
    return `This API token lacks the scope ${permission.scope}, which ${operation} needs (the token has: ${scopes.join(', ') || 'none'})`;
  }
  return undefined;
}

/** Why a member with `role` may not call `operation`, or undefined. */
export function roleRefusal(
  operation: string | undefined,
  permission: Permission,
  role: string,
): string | undefined {
  if (permission.role === null || roleAtLeast(role, permission.role)) return undefined;
  return `${operation} needs the ${permission.role} role in this organization; your role is ${role}`;
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new AppError(500, 'Route is missing authentication');
  return request.principal;
}

export function memberRoleOf(request: FastifyRequest): string {
  if (request.memberRole === null) throw new AppError(500, 'Route is missing an organization');
  return request.memberRole;
}
