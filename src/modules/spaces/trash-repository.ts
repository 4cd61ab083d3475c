import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import type { SpaceRow } from '../../db/schema.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';
import { copySpaceContent } from './copy.js';

/** What stood in the way of a deletion: nothing to delete, or the sites showing the space. */
export type DeleteOutcome = 'missing' | 'deleted' | { id: string; title: string }[];

/** What a restore found: no such space (or purged), a live one, one past its 7 days, or done. */
export type RestoreOutcome =
  | { outcome: 'missing' | 'live' | 'expired' }
  | { outcome: 'restored'; row: SpaceRow };

/**
 * The life of a space beyond its content (docs/content.md, "Spaces: delete, restore, duplicate,
 * move"): deletion into the trash, restore, purge, duplication. The one module that reads spaces
 * in the trash; every other reader of `spaces` leaves them out.
 */
export class SpaceTrashRepository {
  constructor(private readonly db: Db) {}

  /**
   * The organization of a space, live or in the trash (restoreSpace's access check, which must
   * find a deleted space's organization). Undefined once purged.
   */
  async organizationOfAny(id: string): Promise<string | undefined> {
    // Includes deleted spaces: restoreSpace's gate.
    const row = await this.db
      .selectFrom('spaces')
      .select('organization_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.organization_id;
  }

  /**
   * Puts a live space in the trash at `at`, unless a site shows it (then those sites). The row is
   * locked first, as adding a space to a site locks it (site-spaces-repository.ts), so a space
   * is never both in the trash and shown.
   */
  async delete(id: string, at: string, actor: Actor): Promise<DeleteOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const space = await lockRows(
        trx,
        trx
          .selectFrom('spaces')
          .select(['id', 'organization_id', 'title'])
          .where('id', '=', id)
          .where('deleted_at', 'is', null),
        'spaces',
      ).executeTakeFirst();
      if (space === undefined) return 'missing' as const;
      const sites = await trx
        .selectFrom('site_spaces as ss')
        .innerJoin('sites as s', 's.id', 'ss.site_id')
        .select(['s.id', 's.title'])
        .where('ss.space_id', '=', id)
        .orderBy('s.created_at')
        .execute();
      if (sites.length > 0) return sites;
      await trx.updateTable('spaces').set({ deleted_at: at }).where('id', '=', id).execute();
      await recordAudit(trx, {
        organizationId: space.organization_id,
        actor,
        action: 'space.deleted',
        target: { kind: 'space', id },
        details: { title: space.title },
        at,
      });
      return 'deleted' as const;
    });
  }

  /** Takes a space out of the trash if it went in at or after `cutoff` (7 days before now). */
  async restore(id: string, cutoff: string, actor: Actor, at: string): Promise<RestoreOutcome> {
    return this.db.transaction().execute(async (trx) => {
      // Includes deleted spaces: this is the restore.
      const space = await lockRows(
        trx,
        trx.selectFrom('spaces').selectAll().where('id', '=', id),
        'spaces',
      ).executeTakeFirst();
      if (space === undefined) return { outcome: 'missing' as const };
      if (space.deleted_at == null) return { outcome: 'live' as const };
      if (space.deleted_at < cutoff) return { outcome: 'expired' as const };
      const row = await trx
        .updateTable('spaces')
        .set({ deleted_at: null })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: space.organization_id,
        actor,
        action: 'space.restored',
        target: { kind: 'space', id },
        details: { title: space.title, deletedAt: space.deleted_at },
        at,
      });
      return { outcome: 'restored' as const, row };
    });
  }

  /**
   * Makes `copy` a copy of the live space `sourceId` (duplicateSpace), locked meanwhile so that
   * it cannot go to the trash halfway; undefined when there is no such live space.
   */
  async duplicate(
    sourceId: string,
    makeCopy: (source: SpaceRow) => SpaceRow,
    actor: Actor,
  ): Promise<SpaceRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const source = await lockRows(
        trx,
        trx
          .selectFrom('spaces')
          .selectAll()
          .where('id', '=', sourceId)
          .where('deleted_at', 'is', null),
        'spaces',
      ).executeTakeFirst();
      if (source === undefined) return undefined;
      const copy = makeCopy(source);
      await copySpaceContent(trx, source, copy);
      await recordAudit(trx, {
        organizationId: copy.organization_id,
        actor,
        action: 'space.duplicated',
        target: { kind: 'space', id: copy.id },
        details: { title: copy.title, source: source.id },
        at: copy.created_at,
      });
      return copy;
    });
  }

  /** Up to `limit` spaces that went to the trash before `cutoff`, oldest first. */
  async expired(cutoff: string, limit: number): Promise<string[]> {
    // Includes deleted spaces: only those.
    const rows = await this.db
      .selectFrom('spaces')
      .select('id')
      .where('deleted_at', '<', cutoff)
      .orderBy('deleted_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Deletes a space for good, with everything of it (ON DELETE CASCADE: revisions, pages, change
   * requests, file sets, Git Sync rows, insights), if it is still in the trash since before
   * `cutoff` (a restore in between keeps it). File bytes are keyed by their hash alone and may be
   * another space's too: they stay. True when this call purged it: of several processes sweeping
   * at once, exactly one deletes the row (the others find it gone, or wait for its lock and then
   * find it gone).
   */
  async purge(id: string, cutoff: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('spaces')
      .where('id', '=', id)
      .where('deleted_at', '<', cutoff)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }
}
