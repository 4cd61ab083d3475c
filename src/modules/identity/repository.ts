import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import { lockBootstrap, lockRows } from '../../db/dialect.js';
import { type MISS, prepareCached } from '../../db/prepared.js';
import type {
  ApiTokenRow,
  DatabaseSchema,
  MembershipRow,
  OrganizationRow,
  UserRow,
} from '../../db/schema.js';
import { afterCursor, keysetPage, type PageRequest } from '../../http/pagination.js';
import type { AuditAction } from '../audit/actions.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';

/**
 * A token belongs to a user, not to an organization: its entry goes to the audit log of every
 * organization the user is a member of when it changes (src/modules/audit/actions.ts).
 */
async function recordTokenAudit(
  trx: Kysely<DatabaseSchema>,
  token: Pick<ApiTokenRow, 'id' | 'user_id'>,
  action: AuditAction,
  actor: Actor,
  details: Record<string, unknown>,
): Promise<void> {
  const memberships = await trx
    .selectFrom('memberships')
    .select('organization_id')
    .where('user_id', '=', token.user_id)
    .execute();
  await recordAudit(
    trx,
    ...memberships.map(({ organization_id }) => ({
      organizationId: organization_id,
      actor,
      action,
      target: { kind: 'api-token' as const, id: token.id },
      details,
    })),
  );
}

export interface ActiveToken {
  id: string;
  userId: string;
  hash: string;
  /** The user's role in the organization asked about, if they are a member. */
  role: string | undefined;
  /** The token's scopes; null: all of its user's rights. */
  scopes: readonly string[] | null;
  /** Epoch milliseconds after which the token is refused, or null. */
  expiresAt: number | null;
  lastUsedAt: string | null;
}

const toActiveToken = (row: {
  id: string;
  user_id: string;
  token_hash: string;
  role: string | null;
  scopes: string | null;
  expires_at: string | null;
  last_used_at: string | null;
}): ActiveToken => ({
  id: row.id,
  userId: row.user_id,
  hash: row.token_hash,
  role: row.role ?? undefined,
  scopes: row.scopes === null ? null : Object.freeze(JSON.parse(row.scopes) as string[]),
  expiresAt: row.expires_at === null ? null : Date.parse(row.expires_at),
  lastUsedAt: row.last_used_at,
});

const TOKEN_COLUMNS = ['scopes', 'expires_at', 'last_used_at'] as const;

/** Users, organizations, memberships and API tokens. */
export class IdentityRepository {
  // Run on every request: prepared once, cached while the database is unchanged (db/prepared.ts).
  private readonly activeToken;
  private readonly activeTokenWithRole;
  private readonly role;

  constructor(private readonly db: Db) {
    this.role = prepareCached(
      db,
      (userId: string, organizationId: string) =>
        db
          .selectFrom('memberships')
          .select('role')
          .where('organization_id', '=', organizationId)
          .where('user_id', '=', userId),
      ([row]) => row?.role,
    );
    this.activeToken = prepareCached(
      db,
      (hash: string) =>
        db
          .selectFrom('api_tokens')
          .select(['id', 'user_id', 'token_hash', ...TOKEN_COLUMNS])
          .where('token_hash', '=', hash)
          .where('revoked_at', 'is', null),
      ([row]) => row && toActiveToken({ ...row, role: null }),
    );
    this.activeTokenWithRole = prepareCached(
      db,
      (hash: string, organizationId: string) =>
        db
          .selectFrom('api_tokens as t')
          .leftJoin('memberships as m', (join) =>
            join.onRef('m.user_id', '=', 't.user_id').on('m.organization_id', '=', organizationId),
          )
          .select([
            't.id',
            't.user_id',
            't.token_hash',
            'm.role',
            't.scopes',
            't.expires_at',
            't.last_used_at',
          ])
          .where('t.token_hash', '=', hash)
          .where('t.revoked_at', 'is', null),
      ([row]) => row && toActiveToken(row),
    );
  }

  /**
   * The active token with that hash and, when an organization is named, the user's role in it.
   * The same object while the database is unchanged: do not modify it.
   */
  findActiveToken(hash: string, organizationId?: string): Promise<ActiveToken | undefined> {
    return organizationId === undefined
      ? this.activeToken(hash)
      : this.activeTokenWithRole(hash, organizationId);
  }

  /** findActiveToken's answer if it is kept and current (no waiting), else MISS. */
  peekActiveToken(hash: string, organizationId?: string): ActiveToken | undefined | typeof MISS {
    return organizationId === undefined
      ? this.activeToken.peek(hash)
      : this.activeTokenWithRole.peek(hash, organizationId);
  }

  async findUser(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  memberRole(userId: string, organizationId: string): Promise<string | undefined> {
    return this.role(userId, organizationId);
  }

  async findOrganization(id: string): Promise<OrganizationRow | undefined> {
    return this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Is the user the owner of one of the organization's teams (GitBook's `ownTeam`)? */
  async ownsTeam(userId: string, organizationId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select('tm.team_id')
      .where('t.organization_id', '=', organizationId)
      .where('tm.user_id', '=', userId)
      .where('tm.role', '=', 'owner')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** One page of the user's organizations, with their role and team ownership, in creation order. */
  async listOrganizations(userId: string, { cursor, limit }: PageRequest) {
    let query = this.db
      .selectFrom('organizations as o')
      .innerJoin('memberships as m', 'm.organization_id', 'o.id')
      .selectAll('o')
      .select('m.role')
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('team_members as tm')
              .innerJoin('teams as t', 't.id', 'tm.team_id')
              .select('tm.team_id')
              .whereRef('t.organization_id', '=', 'o.id')
              .where('tm.user_id', '=', userId)
              .where('tm.role', '=', 'owner'),
          )
          .as('owns_team'),
      )
      .where('m.user_id', '=', userId);
    if (cursor) query = query.where(afterCursor('o', cursor));
    const rows = await query
      .orderBy('o.created_at')
      .orderBy('o.id')
      .limit(limit + 1)
      .execute();
    const { count } = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { rows, count: Number(count) };
  }

  async countOrganizations(): Promise<number> {
    const { count } = await this.db
      .selectFrom('organizations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /**
   * Creates an organization, its owner (an admin) and the owner's first token, atomically; with
   * `onlyIfEmpty`, only when no organization exists (false otherwise).
   */
  async createOrganizationWithOwner(
    input: { organization: OrganizationRow; owner: UserRow; token: ApiTokenRow },
    { onlyIfEmpty }: { onlyIfEmpty: boolean },
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (onlyIfEmpty) {
        await lockBootstrap(trx);
        const any = await trx.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
        if (any !== undefined) return false;
      }
      await trx.insertInto('organizations').values(input.organization).execute();
      await trx.insertInto('users').values(input.owner).execute();
      await trx
        .insertInto('memberships')
        .values({
          organization_id: input.organization.id,
          user_id: input.owner.id,
          role: 'admin',
          joined_at: input.organization.created_at,
        })
        .execute();
      await trx.insertInto('api_tokens').values(input.token).execute();
      return true;
    });
  }

  async insertUser(user: UserRow): Promise<void> {
    await this.db.insertInto('users').values(user).execute();
  }

  async setMembership(row: MembershipRow): Promise<void> {
    await this.db
      .insertInto('memberships')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['organization_id', 'user_id']).doUpdateSet({ role: row.role }),
      )
      .execute();
  }

  async insertToken(token: ApiTokenRow, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('api_tokens').values(token).execute();
      await recordTokenAudit(trx, token, 'api-token.created', actor, {
        label: token.label,
        scopes: token.scopes === null ? null : (JSON.parse(token.scopes) as string[]),
        expiresAt: token.expires_at,
      });
    });
  }

  /**
   * Returns false when no active token has that id (and, if given, belongs to that user).
   * `actor` undefined: the token's own user, without a token (the command line).
   */
  async revokeToken(id: string, at: string, userId?: string, actor?: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('api_tokens')
        .select(['id', 'user_id', 'label'])
        .where('id', '=', id)
        .where('revoked_at', 'is', null);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      const token = await lockRows(trx, query, 'api_tokens').executeTakeFirst();
      if (token === undefined) return false;
      await trx.updateTable('api_tokens').set({ revoked_at: at }).where('id', '=', id).execute();
      const by = actor ?? { userId: token.user_id, tokenId: null };
      await recordTokenAudit(trx, token, 'api-token.revoked', by, { label: token.label });
      return true;
    });
  }

  async listTokens(userId: string | undefined) {
    let query = this.db
      .selectFrom('api_tokens')
      .select(['id', 'user_id', 'label', 'created_at', 'revoked_at'])
      .orderBy('created_at');
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    return query.execute();
  }

  /** A user's tokens that still work (neither revoked nor expired at `at`), one page. */
  async listActiveTokens(userId: string, at: string, page: PageRequest) {
    const query = this.db
      .selectFrom('api_tokens as t')
      .where('t.user_id', '=', userId)
      .where('t.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', at)]));
    return keysetPage(query, 't', page, (q) => q.selectAll('t'));
  }

  async findActiveTokenOf(userId: string, tokenId: string, at: string) {
    return this.db
      .selectFrom('api_tokens as t')
      .selectAll('t')
      .where('t.id', '=', tokenId)
      .where('t.user_id', '=', userId)
      .where('t.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', at)]))
      .executeTakeFirst();
  }

  async recordTokenUse(id: string, at: string): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .execute();
  }

  async listOrganizationsWithOwners() {
    return this.db
      .selectFrom('organizations as o')
      .leftJoin('memberships as m', (join) =>
        join.onRef('m.organization_id', '=', 'o.id').on('m.role', '=', 'admin'),
      )
      .select(['o.id', 'o.title', 'o.created_at', 'm.user_id'])
      .orderBy('o.created_at')
      .execute();
  }

  /** Whether the two users are members of at least one organization in common. */
  async sharesOrganization(callerId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('memberships as a')
      .innerJoin('memberships as b', 'b.organization_id', 'a.organization_id')
      .select('a.user_id')
      .where('a.user_id', '=', callerId)
      .where('b.user_id', '=', userId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
