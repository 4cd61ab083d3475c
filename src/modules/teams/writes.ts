import type { Kysely } from 'kysely';
import { lockRows } from '../../db/dialect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import type { AuditAction } from '../audit/actions.js';
import type { Actor } from '../audit/actor.js';
import type { AuditEntry } from '../audit/record.js';

// What the team writes (repository.ts) share: the team's lock, and their audit entries.

/**
 * The team's row, locked until the transaction ends (PostgreSQL; SQLite's write transaction
 * already excludes others): a write to the team or its members reads what it changes after
 * taking it, so the audit entry records what the write did, not what a concurrent one did.
 */
export function lockTeam<C extends 'id' | 'title'>(
  trx: Kysely<DatabaseSchema>,
  organizationId: string,
  teamId: string,
  column: C,
) {
  return lockRows(
    trx,
    trx
      .selectFrom('teams')
      .select(column)
      .where('id', '=', teamId)
      .where('organization_id', '=', organizationId),
    'teams',
  ).executeTakeFirst();
}

/** The team roles of those of `userIds` in the team. */
export async function rolesIn(trx: Kysely<DatabaseSchema>, teamId: string, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, string>();
  const rows = await trx
    .selectFrom('team_members')
    .select(['user_id', 'role'])
    .where('team_id', '=', teamId)
    .where('user_id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.role]));
}

/** Audit entries about one team. */
export const auditOf =
  (organizationId: string, teamId: string, actor: Actor) =>
  (action: AuditAction, details: Record<string, unknown>): AuditEntry => ({
    organizationId,
    actor,
    action,
    target: { kind: 'team', id: teamId },
    details,
  });

/**
 * One entry per member a member update changes, from their team roles `before` it: added (with
 * the role they get), re-roled, removed. Members whose role stays, or removed ones who were not
 * in the team, get none.
 */
export function memberChanges(
  audit: ReturnType<typeof auditOf>,
  before: Map<string, string>,
  upsert: { userId: string; role: string | undefined }[],
  remove: string[],
): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const { userId, role } of upsert) {
    const was = before.get(userId);
    if (was === undefined) {
      entries.push(audit('team.member.added', { user: userId, role: role ?? 'member' }));
    } else if (role !== undefined && role !== was) {
      entries.push(audit('team.member.changed', { user: userId, from: was, to: role }));
    }
  }
  for (const userId of remove) {
    if (before.has(userId)) entries.push(audit('team.member.removed', { user: userId }));
  }
  return entries;
}
