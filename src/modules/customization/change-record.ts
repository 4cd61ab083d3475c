import type { Actor } from '../audit/actor.js';

/** Why a write records a revision: the operation, and for a restore the revision restored. */
export interface Change {
  actor: Actor;
  operation: 'put' | 'patch' | 'delete' | 'restore';
  restoredFrom?: number;
  /** Why, when not a person's request (a site import: the commit it came from). */
  message?: string;
}

/** What a change records besides its document: its revision's and audit entry's common part. */
export function recorded(
  organizationId: string,
  target: { kind: 'site' | 'site-space'; id: string },
  siteId: string,
  at: string,
  change: Change,
) {
  const restored = change.operation === 'restore';
  return {
    at,
    actor: change.actor,
    operation: change.operation,
    restoredFrom: change.restoredFrom ?? null,
    message: change.message ?? null,
    audit: {
      organizationId,
      action: restored ? ('customization.restored' as const) : ('customization.updated' as const),
      target,
      // The revision's number comes first (change-sql.ts).
      details: restored
        ? { restoredFrom: change.restoredFrom, siteId }
        : { operation: change.operation, siteId },
    },
  };
}
