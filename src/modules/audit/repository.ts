import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { type Cursor, toPage } from '../../http/pagination.js';
import { actorView } from './actor.js';
import type { ActionMatch } from './gitbook-actions.js';
import type { AuditEntryView, AuditFilters } from './schemas.js';

/**
 * The log's filters: the Livery alias's (AuditFilters), and those GitBook's audit events add:
 * an inclusive upper bound and a set of exact actions (the Livery actions shown as one name).
 */
export type AuditListFilters = AuditFilters & {
  through?: string;
  actions?: readonly ActionMatch[];
};

/** Reads and prunes the audit log; entries are written by recordAudit (record.ts). */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Newest first; entries before `notBefore` (past retention, not yet pruned) are left out. */
  async list(
    organizationId: string,
    filters: AuditListFilters,
    notBefore: string,
    { cursor, limit }: { cursor: Cursor | undefined; limit: number },
  ) {
    let query = this.db
      .selectFrom('audit_log')
      .where('organization_id', '=', organizationId)
      .where('at', '>=', latest(notBefore, filters.since));
    if (filters.until !== undefined) query = query.where('at', '<', iso(filters.until));
    if (filters.through !== undefined) query = query.where('at', '<=', iso(filters.through));
    const { actions } = filters;
    if (actions !== undefined) {
      // No entry matches an empty set. A kind is matched in the details' JSON text, which
      // recordAudit writes compactly (`"kind":"link"`); a string value holding that text would
      // have its quotes escaped, so it never matches.
      const kindIs = (kind: string) => `%${JSON.stringify({ kind }).slice(1, -1)}%`;
      query = query.where((eb) =>
        eb.or(
          actions.map((match) =>
            eb.and([
              eb('action', '=', match.action),
              ...(match.kind === undefined ? [] : [eb('details', 'like', kindIs(match.kind))]),
              ...(match.notKind === undefined
                ? []
                : [eb('details', 'not like', kindIs(match.notKind))]),
            ]),
          ),
        ),
      );
    }
    if (filters.actor !== undefined) query = query.where('actor_user_id', '=', filters.actor);
    if (filters.target !== undefined) query = query.where('target_id', '=', filters.target);
    const { action } = filters;
    if (action?.endsWith('*')) {
      const prefix = action.slice(0, -1);
      query = query.where(sql<boolean>`substr(action, 1, ${prefix.length}) = ${prefix}`);
    } else if (action !== undefined) {
      query = query.where('action', '=', action);
    }
    const counted = await query.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
    const listed =
      cursor === undefined
        ? query
        : query.where(sql<boolean>`(at, id) < (${cursor.key}, ${cursor.id})`);
    const rows = await listed
      .selectAll()
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return toPage(rows, limit, Number(counted.count), entryView, (row) => row.at);
  }

  /** The kept entries recorded at exactly `at` (GitBook's audit event ids name a millisecond). */
  async recordedAt(organizationId: string, at: string, notBefore: string) {
    if (at < notBefore) return [];
    const rows = await this.db
      .selectFrom('audit_log')
      .where('organization_id', '=', organizationId)
      .where('at', '=', at)
      .selectAll()
      .execute();
    return rows.map(entryView);
  }

  /** Deletes the entries older than `before`; answers how many. */
  async prune(before: string): Promise<number> {
    // Organization by organization: each delete is a range of the (organization_id, at) index,
    // the table's only one (migration 0013).
    const organizations = await this.db.selectFrom('organizations').select('id').execute();
    let deleted = 0;
    for (const { id } of organizations) {
      const result = await this.db
        .deleteFrom('audit_log')
        .where('organization_id', '=', id)
        .where('at', '<', before)
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  }
}

function entryView(row: {
  id: string;
  at: string;
  actor_user_id: string;
  actor_token_id: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  details: string;
}): AuditEntryView {
  return {
    object: 'audit-entry',
    id: row.id,
    at: row.at,
    actor: actorView(row.actor_user_id, row.actor_token_id),
    action: row.action,
    target: { kind: row.target_kind, id: row.target_id },
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}

/**
 * Stored times are `toISOString()` text, which compares in time order; so must the bounds. A
 * bound is any date-time the query schema accepts: a leap second (`:60`, which Date cannot read)
 * is the instant after `:59`, and an offset that moves a bound out of years 0000-9999 (which
 * `toISOString` then writes with a sign, out of text order) makes it the first or last instant.
 */
function iso(time: string): string {
  const leap = LEAP_SECOND.exec(time);
  const ms = leap === null ? Date.parse(time) : Date.parse(`${leap[1]}59${leap[2]}`) + 1000;
  return new Date(Math.min(Math.max(ms, FIRST_MS), LAST_MS)).toISOString();
}

const LEAP_SECOND = /^(.+?[Tt ]\d\d:\d\d:)60(.*)$/;
const FIRST_MS = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

function latest(notBefore: string, since: string | undefined): string {
  if (since === undefined) return notBefore;
  const bound = iso(since);
  return bound > notBefore ? bound : notBefore;
}
