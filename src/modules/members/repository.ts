import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { containsIgnoringCase } from '../../db/like.js';
import type { DatabaseSchema, UserRow } from '../../db/schema.js';
import type { PageRequest } from '../../http/pagination.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';
import type { MemberFilters } from './schemas.js';

export interface MemberRow {
  user: UserRow;
  role: string;
  joinedAt: string;
  lastSeenAt: string | null;
  /** How many of the organization's teams the member is in. */
  teams: number;
}

/** What stands in the way of a role change or a removal. */
export type MembershipChange = 'missing' | 'last-admin' | 'done';

const LAST_SEEN = 'ts.last_seen';

/** The members of organizations: memberships with their users. */
export class MembersRepository {
  constructor(private readonly db: Db) {}

  private members(q: Kysely<DatabaseSchema>, organizationId: string) {
    return q
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('api_tokens')
            .select((e) => ['user_id', e.fn.max('last_used_at').as('last_seen')])
            .groupBy('user_id')
            .as('ts'),
        (join) => join.onRef('ts.user_id', '=', 'm.user_id'),
      )
      .where('m.organization_id', '=', organizationId);
  }

  /** Members with what a member object shows: the user, role, join date, last use, teams. */
  private rows(organizationId: string) {
    return this.members(this.db, organizationId)
      .selectAll('u')
      .select(['m.role', 'm.joined_at', `${LAST_SEEN} as last_seen`])
      .select((eb) => teamCount(eb, organizationId));
  }

  /** One page of members; sorted by join date (or last use), then user id, as asked. */
  async list(organizationId: string, filters: MemberFilters, { cursor, limit }: PageRequest) {
    let query = this.rows(organizationId);
    if (filters.role !== undefined) query = query.where('m.role', '=', filters.role);
    if (filters.search !== undefined) {
      const search = filters.search;
      query = query.where((eb) =>
        eb.or([
          containsIgnoringCase('u.display_name', search),
          containsIgnoringCase('u.email', search),
        ]),
      );
    }
    const byLastSeen = filters.sort === 'lastSeenAt';
    if (byLastSeen) query = query.where(LAST_SEEN, 'is not', null);
    const { count } = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const key = byLastSeen ? LAST_SEEN : 'm.joined_at';
    const descending = filters.order !== 'asc';
    if (cursor !== undefined) {
      const op = sql.raw(descending ? '<' : '>');
      query = query.where(
        sql<boolean>`(${sql.ref(key)}, ${sql.ref('m.user_id')}) ${op} (${cursor.key}, ${cursor.id})`,
      );
    }
    const direction = descending ? 'desc' : 'asc';
    const rows = await query
      .orderBy(key, direction)
      .orderBy('m.user_id', direction)
      .limit(limit + 1)
      .execute();
    return { rows: rows.map(toMember), count: Number(count), key: byLastSeen };
  }

  async find(organizationId: string, userId: string): Promise<MemberRow | undefined> {
    const row = await this.rows(organizationId).where('m.user_id', '=', userId).executeTakeFirst();
    return row && toMember(row);
  }

  /** Several members at once, by user id (those who are members). */
  async findMany(organizationId: string, userIds: string[]): Promise<Map<string, MemberRow>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.rows(organizationId).where('m.user_id', 'in', userIds).execute();
    return new Map(rows.map((row) => [row.id, toMember(row)]));
  }

  /**
   * Changes a member's role, or removes them (`role` undefined), in one transaction that keeps
   * at least one admin: the organization's admins are locked first, so two admins demoting each
   * other at once cannot both succeed. The audit entry is written in the same transaction; a
   * role set to what it was records none.
   */
  async change(
    organizationId: string,
    userId: string,
    role: string | undefined,
    actor: Actor,
  ): Promise<MembershipChange> {
    return this.db.transaction().execute(async (trx) => {
      const admins = await lockRows(
        trx,
        trx
          .selectFrom('memberships')
          .select('user_id')
          .where('organization_id', '=', organizationId)
          .where('role', '=', 'admin'),
        'memberships',
      ).execute();
      // Locked too: a team join of this user (teams/repository.ts) waits for the change.
      const member = await lockRows(
        trx,
        trx
          .selectFrom('memberships')
          .select('role')
          .where('organization_id', '=', organizationId)
          .where('user_id', '=', userId),
        'memberships',
      ).executeTakeFirst();
      if (member === undefined) return 'missing';
      const losesAdmin = member.role === 'admin' && role !== 'admin';
      if (losesAdmin && admins.length <= 1) return 'last-admin';
      const audit = { organizationId, actor, target: { kind: 'user', id: userId } } as const;
      if (role === undefined) {
        // Leaving the organization is leaving its teams too.
        await trx
          .deleteFrom('team_members')
          .where('user_id', '=', userId)
          .where('team_id', 'in', (eb) =>
            eb.selectFrom('teams').select('id').where('organization_id', '=', organizationId),
          )
          .execute();
        await trx
          .deleteFrom('memberships')
          .where('organization_id', '=', organizationId)
          .where('user_id', '=', userId)
          .execute();
        await recordAudit(trx, {
          ...audit,
          action: 'member.removed',
          details: { role: shownRole(member.role) },
        });
      } else if (role !== member.role) {
        await trx
          .updateTable('memberships')
          .set({ role })
          .where('organization_id', '=', organizationId)
          .where('user_id', '=', userId)
          .execute();
        await recordAudit(trx, {
          ...audit,
          action: 'member.role.changed',
          details: { from: shownRole(member.role), to: shownRole(role) },
        });
      }
      return 'done';
    });
  }

  async countSpaces(organizationId: string): Promise<number> {
    const { count } = await this.db
      .selectFrom('spaces')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** The organization's sites: what `sites` counts for a member with a role. */
  async countSites(organizationId: string): Promise<number> {
    const { count } = await this.db
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(count);
  }
}

/** A role as the API shows it: a guest has none (null). */
const shownRole = (role: string) => (role === 'guest' ? null : role);

/** The number of the organization's teams the member (`m`) is in. */
function teamCount(eb: ExpressionBuilder<MembersQueryTables, 'm'>, organizationId: string) {
  return eb
    .selectFrom('team_members as tm')
    .innerJoin('teams as tt', 'tt.id', 'tm.team_id')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('tm.user_id', '=', 'm.user_id')
    .where('tt.organization_id', '=', organizationId)
    .as('team_count');
}

type MembersQueryTables = DatabaseSchema & { m: DatabaseSchema['memberships'] };

/** A member row as the members query answers it. */
export function toMember(
  row: UserRow & { role: string; joined_at: string; last_seen: string | null; team_count: unknown },
): MemberRow {
  return {
    user: {
      id: row.id,
      display_name: row.display_name,
      email: row.email,
      created_at: row.created_at,
    },
    role: row.role,
    joinedAt: row.joined_at,
    lastSeenAt: row.last_seen,
    teams: Number(row.team_count),
  };
}
