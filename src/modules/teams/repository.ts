import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { containsIgnoringCase } from '../../db/like.js';
import type { TeamMemberRow, TeamRow } from '../../db/schema.js';
import { afterCursor, type PageRequest } from '../../http/pagination.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';
import { auditOf, lockTeam, memberChanges, rolesIn } from './writes.js';

export type TeamWithCount = TeamRow & { member_count: number };

/** Teams of organizations and their members. */
export class TeamsRepository {
  constructor(private readonly db: Db) {}

  private teams() {
    return this.db
      .selectFrom('teams as t')
      .selectAll('t')
      .select((eb) =>
        eb
          .selectFrom('team_members as c')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('c.team_id', '=', 't.id')
          .as('member_count'),
      );
  }

  async list(
    organizationId: string,
    filters: { owner?: string | undefined; title?: string | undefined; member?: string },
    { cursor, limit }: PageRequest,
  ) {
    let query = this.teams().where('t.organization_id', '=', organizationId);
    if (filters.title !== undefined)
      query = query.where(containsIgnoringCase('t.title', filters.title));
    for (const [userId, role] of [
      [filters.owner, 'owner'],
      [filters.member, undefined],
    ] as const) {
      if (userId === undefined) continue;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('team_members as f')
            .select('f.user_id')
            .whereRef('f.team_id', '=', 't.id')
            .where('f.user_id', '=', userId)
            .$if(role !== undefined, (q) => q.where('f.role', '=', role as string)),
        ),
      );
    }
    const { count } = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (cursor) query = query.where(afterCursor('t', cursor));
    const rows = await query
      .orderBy('t.created_at')
      .orderBy('t.id')
      .limit(limit + 1)
      .execute();
    return { rows: rows.map(withCount), count: Number(count) };
  }

  async find(organizationId: string, teamId: string): Promise<TeamWithCount | undefined> {
    const row = await this.teams()
      .where('t.id', '=', teamId)
      .where('t.organization_id', '=', organizationId)
      .executeTakeFirst();
    return row && withCount(row);
  }

  /** The team and its first members, each recorded as added (after the team's creation). */
  async insert(team: TeamRow, members: TeamMemberRow[], actor: Actor): Promise<void> {
    const audit = auditOf(team.organization_id, team.id, actor);
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('teams').values(team).execute();
      if (members.length > 0) await trx.insertInto('team_members').values(members).execute();
      await recordAudit(
        trx,
        audit('team.created', { title: team.title }),
        ...members.map((m) => audit('team.member.added', { user: m.user_id, role: m.role })),
      );
    });
  }

  /** False when there is no such team; the same title again records nothing. */
  async rename(organizationId: string, teamId: string, title: string, actor: Actor) {
    return this.db.transaction().execute(async (trx) => {
      const team = await lockTeam(trx, organizationId, teamId, 'title');
      if (team === undefined) return false;
      if (team.title === title) return true;
      await trx
        .updateTable('teams')
        .set({ title, title_key: title.toLowerCase() })
        .where('id', '=', teamId)
        .execute();
      const audit = auditOf(organizationId, teamId, actor);
      await recordAudit(trx, audit('team.updated', { from: team.title, to: title }));
      return true;
    });
  }

  async delete(organizationId: string, teamId: string, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const team = await lockTeam(trx, organizationId, teamId, 'title');
      if (team === undefined) return false;
      await trx.deleteFrom('teams').where('id', '=', teamId).execute();
      const audit = auditOf(organizationId, teamId, actor);
      await recordAudit(trx, audit('team.deleted', { title: team.title }));
      return true;
    });
  }

  async roleIn(teamId: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('team_members')
      .select('role')
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  }

  /** One page of a team's memberships, in the order they were added. */
  async listMembers(teamId: string, { cursor, limit }: PageRequest) {
    let query = this.db.selectFrom('team_members as tm').where('tm.team_id', '=', teamId);
    const { count } = await query
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (cursor) {
      query = query.where((eb) =>
        eb.or([
          eb('tm.added_at', '>', String(cursor.key)),
          eb.and([eb('tm.added_at', '=', String(cursor.key)), eb('tm.user_id', '>', cursor.id)]),
        ]),
      );
    }
    const rows = await query
      .selectAll('tm')
      .orderBy('tm.added_at')
      .orderBy('tm.user_id')
      .limit(limit + 1)
      .execute();
    return { rows, count: Number(count) };
  }

  /**
   * Adds or re-roles (`upsert`) and removes members, in one transaction that first locks the
   * team and the memberships of the users it adds (so neither can go away meanwhile: a team
   * deleted or a user leaving the organization at the same moment waits, then is seen).
   */
  async applyMembers(
    organizationId: string,
    teamId: string,
    upsert: { userId: string; role: string | undefined }[],
    remove: string[],
    at: string,
    actor: Actor,
  ): Promise<'done' | 'missing-team' | { notMember: string }> {
    return this.db.transaction().execute(async (trx) => {
      const team = await lockTeam(trx, organizationId, teamId, 'id');
      if (team === undefined) return 'missing-team' as const;
      const userIds = upsert.map((u) => u.userId);
      if (userIds.length > 0) {
        const members = await lockRows(
          trx,
          trx
            .selectFrom('memberships')
            .select('user_id')
            .where('organization_id', '=', organizationId)
            .where('user_id', 'in', userIds),
          'memberships',
        ).execute();
        const present = new Set(members.map((m) => m.user_id));
        const missing = userIds.find((id) => !present.has(id));
        if (missing !== undefined) return { notMember: missing };
      }
      const before = await rolesIn(trx, teamId, [...userIds, ...remove]);
      const audit = auditOf(organizationId, teamId, actor);
      const entries = memberChanges(audit, before, upsert, remove);
      for (const { userId, role } of upsert) {
        await trx
          .insertInto('team_members')
          .values({ team_id: teamId, user_id: userId, role: role ?? 'member', added_at: at })
          .onConflict((oc) =>
            role === undefined
              ? oc.columns(['team_id', 'user_id']).doNothing()
              : oc.columns(['team_id', 'user_id']).doUpdateSet({ role }),
          )
          .execute();
      }
      if (remove.length > 0) {
        await trx
          .deleteFrom('team_members')
          .where('team_id', '=', teamId)
          .where('user_id', 'in', remove)
          .execute();
      }
      await recordAudit(trx, ...entries);
      return 'done' as const;
    });
  }

  /** The teams of the organization the user owns. */
  async ownedBy(organizationId: string, userId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select('t.id')
      .where('t.organization_id', '=', organizationId)
      .where('tm.user_id', '=', userId)
      .where('tm.role', '=', 'owner')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** False when the user was not in the team (or there is no such team): nothing recorded. */
  async removeMember(
    organizationId: string,
    teamId: string,
    userId: string,
    actor: Actor,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if ((await lockTeam(trx, organizationId, teamId, 'id')) === undefined) return false;
      const result = await trx
        .deleteFrom('team_members')
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      const audit = auditOf(organizationId, teamId, actor);
      await recordAudit(trx, audit('team.member.removed', { user: userId }));
      return true;
    });
  }

  /**
   * Members of the organization among `refs` (user ids, or emails compared ignoring case):
   * each ref as given → user id.
   */
  async resolveMembers(organizationId: string, refs: string[]): Promise<Map<string, string>> {
    if (refs.length === 0) return new Map();
    const lowered = refs.map((ref) => ref.toLowerCase());
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email'])
      .where('m.organization_id', '=', organizationId)
      .where((eb) =>
        eb.or([eb('u.id', 'in', refs), eb(eb.fn('lower', ['u.email']), 'in', lowered)]),
      )
      .execute();
    const byKey = new Map<string, string>();
    for (const row of rows) {
      byKey.set(row.id, row.id);
      if (row.email !== null) byKey.set(`@${row.email.toLowerCase()}`, row.id);
    }
    const found = new Map<string, string>();
    for (const ref of refs) {
      const id = byKey.get(ref) ?? byKey.get(`@${ref.toLowerCase()}`);
      if (id !== undefined) found.set(ref, id);
    }
    return found;
  }
}

function withCount<T extends { member_count: unknown }>(row: T): T & { member_count: number } {
  return { ...row, member_count: Number(row.member_count) };
}
