import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ApiTokenRow, DatabaseSchema, InviteRow, UserRow } from '../../db/schema.js';
import { keysetPage, type PageRequest } from '../../http/pagination.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';

export type JoinOutcome = 'joined' | 'already-member' | 'used';

/** Invites to organizations, and joining through them. */
export class InvitesRepository {
  constructor(private readonly db: Db) {}

  async insertMany(rows: InviteRow[], actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) await trx.insertInto('invites').values(row).execute();
      await recordAudit(
        trx,
        ...rows.map((row) => ({
          ...auditOf(row, actor),
          action: 'invite.created' as const,
          details: {
            kind: row.kind,
            role: shownRole(row.role),
            ...(row.email === null ? {} : { email: row.email }),
          },
          at: row.created_at,
        })),
      );
    });
  }

  async find(organizationId: string, id: string): Promise<InviteRow | undefined> {
    return this.db
      .selectFrom('invites')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
  }

  async listLinks(organizationId: string, page: PageRequest) {
    const query = this.db
      .selectFrom('invites as i')
      .where('i.organization_id', '=', organizationId)
      .where('i.kind', '=', 'link');
    return keysetPage(query, 'i', page, (q) => q.selectAll('i'));
  }

  /** Sets what differs, and records it (nothing when nothing differs), in one transaction. */
  async updateLink(
    organizationId: string,
    id: string,
    change: Partial<Pick<InviteRow, 'role' | 'enabled'>>,
    actor: Actor,
  ): Promise<InviteRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const before = await lockRows(
        trx,
        trx
          .selectFrom('invites')
          .selectAll()
          .where('id', '=', id)
          .where('organization_id', '=', organizationId)
          .where('kind', '=', 'link'),
        'invites',
      ).executeTakeFirst();
      if (before === undefined) return undefined;
      const set: typeof change = {};
      const changed: Record<string, unknown> = {};
      if (change.role !== undefined && change.role !== before.role) {
        set.role = change.role;
        changed.role = shownRole(change.role);
      }
      if (change.enabled !== undefined && change.enabled !== before.enabled) {
        set.enabled = change.enabled;
        changed.enabled = change.enabled === 1;
      }
      if (Object.keys(set).length === 0) return before;
      await trx.updateTable('invites').set(set).where('id', '=', id).execute();
      await recordAudit(trx, {
        ...auditOf(before, actor),
        action: 'invite.updated',
        details: { changed },
      });
      return { ...before, ...set };
    });
  }

  /** Deletes the link and records it in one transaction; an unknown link records nothing. */
  async deleteLink(organizationId: string, id: string, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('invites')
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .where('kind', '=', 'link')
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await recordAudit(trx, {
        organizationId,
        actor,
        action: 'invite.deleted',
        target: { kind: 'invite', id },
        details: { kind: 'link' },
      });
      return true;
    });
  }

  /** Emails (lower-cased) of the organization's members among `emails`. */
  async memberEmails(organizationId: string, emails: string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.email')
      .where('m.organization_id', '=', organizationId)
      .where('u.email', 'is not', null)
      .execute();
    const wanted = new Set(emails);
    return new Set(
      rows.map((r) => (r.email ?? '').toLowerCase()).filter((email) => wanted.has(email)),
    );
  }

  /**
   * The user joins the invite's organization with its role, in one transaction: an email
   * invite is used once (a concurrent second use finds it used), and an existing member is
   * left as they are. `newUser` (and its token) are created in the same transaction. The actor
   * of the audit entry is the joining user.
   */
  async join(
    invite: InviteRow,
    userId: string,
    at: string,
    actor: Actor,
    newUser?: { user: UserRow; token: ApiTokenRow },
  ): Promise<JoinOutcome> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        if (newUser !== undefined) {
          await trx.insertInto('users').values(newUser.user).execute();
          await trx.insertInto('api_tokens').values(newUser.token).execute();
        }
        if (await isMember(trx, invite.organization_id, userId)) return 'already-member';
        if (invite.kind === 'email') {
          const used = await trx
            .updateTable('invites')
            .set({ used_at: at, used_by: userId })
            .where('id', '=', invite.id)
            .where('used_at', 'is', null)
            .executeTakeFirst();
          if (used.numUpdatedRows === 0n) throw new InviteUsedError();
        }
        await trx
          .insertInto('memberships')
          .values({
            organization_id: invite.organization_id,
            user_id: userId,
            role: invite.role,
            joined_at: at,
          })
          .execute();
        await recordAudit(trx, {
          ...auditOf(invite, actor),
          action: 'invite.accepted',
          details: { user: userId, role: shownRole(invite.role) },
          at,
        });
        return 'joined';
      })
      .catch((error: unknown) => {
        if (error instanceof InviteUsedError) return 'used' as const;
        // The same user joining twice at once: the second insert meets the first's membership.
        if (isUniqueViolation(error) && newUser === undefined) return 'already-member' as const;
        throw error;
      });
  }

  /**
   * A new user, member of the organization with `role`, with their first token, and the audit
   * entry of `actor` (the admin) adding them, in one transaction. The first token is part of the
   * account, not recorded on its own.
   */
  async createMember(
    user: UserRow,
    token: ApiTokenRow,
    organizationId: string,
    role: string,
    actor: Actor,
  ) {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      await trx.insertInto('api_tokens').values(token).execute();
      await trx
        .insertInto('memberships')
        .values({
          organization_id: organizationId,
          user_id: user.id,
          role,
          joined_at: user.created_at,
        })
        .execute();
      await recordAudit(trx, {
        organizationId,
        actor,
        action: 'member.added',
        target: { kind: 'user', id: user.id },
        details: { role: shownRole(role) },
        at: user.created_at,
      });
    });
  }
}

/** A role as the API shows it: a guest has none (null). */
const shownRole = (role: string) => (role === 'guest' ? null : role);

const auditOf = (invite: InviteRow, actor: Actor) => ({
  organizationId: invite.organization_id,
  actor,
  target: { kind: 'invite' as const, id: invite.id },
});

/** Rolls the join back (a new user included) when the invite was used meanwhile. */
class InviteUsedError extends Error {}

async function isMember(trx: Kysely<DatabaseSchema>, organizationId: string, userId: string) {
  const row = await trx
    .selectFrom('memberships')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
