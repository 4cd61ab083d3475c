import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { newTimeOrderedId, now } from '../../ids.js';
import type { AuditAction, AuditTargetKind } from './actions.js';
import type { Actor } from './actor.js';

export interface AuditEntry {
  organizationId: string;
  actor: Actor;
  action: AuditAction;
  target: { kind: AuditTargetKind; id: string };
  /** What changed; never a secret (a key, a token, a share link's key). */
  details?: Record<string, unknown>;
  /** Defaults to now; pass the change's own time where it has one. */
  at?: string;
}

/**
 * Records audit entries. Call it with the transaction that makes the change, so that an entry
 * exists exactly when its change is committed (a refused or rolled-back write leaves none).
 */
export async function recordAudit(
  executor: Kysely<DatabaseSchema>,
  ...entries: AuditEntry[]
): Promise<void> {
  if (entries.length === 0) return;
  await executor
    .insertInto('audit_log')
    .values(
      entries.map((entry) => ({
        id: newTimeOrderedId('audit_'),
        organization_id: entry.organizationId,
        at: entry.at ?? now(),
        actor_user_id: entry.actor.userId,
        actor_token_id: entry.actor.tokenId,
        action: entry.action,
        target_kind: entry.target.kind,
        target_id: entry.target.id,
        details: JSON.stringify(entry.details ?? {}),
      })),
    )
    .execute();
}
