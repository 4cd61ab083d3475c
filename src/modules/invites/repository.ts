import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ApiTokenRow, DatabaseSchema, InviteRow, UserRow } from '../../db/schema.js';
import { keysetPage, type PageRequest } from '../../http/pagination.js';

export type JoinOutcome = 'joined' | 'already-member' | 'used';

/** Invites to organizations, and joining through them. */
export class InvitesRepository {
  constructor(private readonly db: Db) {}

  async insertMany(rows: InviteRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const row of rows) await trx.insertInto('invites').values(row).execute();
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

  async updateLink(
    organizationId: string,
    id: string,
    change: Partial<Pick<InviteRow, 'role' | 'enabled'>>,
  ): Promise<InviteRow | undefined> {
    if (Object.keys(change).length > 0) {
      await this.db
        .updateTable('invites')
        .set(change)
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .where('kind', '=', 'link')
        .execute();
    }
    const row = await this.find(organizationId, id);
    return row?.kind === 'link' ? row : undefined;
  }

  async deleteLink(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('invites')
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('kind', '=', 'link')
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
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
   * left as they are. `newUser` (and its token) are created in the same transaction.
   */
  async join(
    invite: InviteRow,
    userId: string,
    at: string,
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
        return 'joined';
      })
      .catch((error: unknown) => {
        if (error instanceof InviteUsedError) return 'used' as const;
        // The same user joining twice at once: the second insert meets the first's membership.
        if (isUniqueViolation(error) && newUser === undefined) return 'already-member' as const;
        throw error;
      });
  }

  /** A new user, member of the organization with `role`, with their first token (one transaction). */
  async createMember(user: UserRow, token: ApiTokenRow, organizationId: string, role: string) {
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
    });
  }
}

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
