import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { prepareCached } from '../../db/prepared.js';
import type { ShareLinkRow } from '../../db/schema.js';
import { keysetPage, type PageRequest } from '../../http/pagination.js';
import { type AuditEntry, recordAudit } from '../audit/record.js';

export class ShareLinksRepository {
  /**
   * The active link of a key's hash: asked on every request of a share-link site's visitors, so
   * cached while the database is unchanged (a deactivation is a commit, seen at the next read).
   */
  private readonly activeByHash;

  constructor(private readonly db: Db) {
    this.activeByHash = prepareCached(
      db,
      (siteId: string, keyHash: string) =>
        db
          .selectFrom('site_share_links')
          .selectAll()
          .where('key_hash', '=', keyHash)
          .where('site_id', '=', siteId)
          .where('active', '=', 1),
      ([row]): ShareLinkRow | undefined => row,
    );
  }

  async list(siteId: string, page: PageRequest) {
    const query = this.db.selectFrom('site_share_links as l').where('l.site_id', '=', siteId);
    return keysetPage(query, 'l', page, (q) => q.selectAll('l'));
  }

  async insert(row: ShareLinkRow, audit: AuditEntry): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('site_share_links').values(row).execute();
      await recordAudit(trx, audit);
    });
  }

  /**
   * Applies the change and records what `audit` makes of the link as it was, in one transaction;
   * answers the updated row, or undefined when there is no such link.
   */
  async update(
    siteId: string,
    id: string,
    change: Partial<Pick<ShareLinkRow, 'name' | 'active' | 'updated_at'>>,
    audit: (before: ShareLinkRow) => AuditEntry[],
  ): Promise<ShareLinkRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const before = await lockRows(
        trx,
        trx
          .selectFrom('site_share_links')
          .selectAll()
          .where('id', '=', id)
          .where('site_id', '=', siteId),
        'site_share_links',
      ).executeTakeFirst();
      if (before === undefined) return undefined;
      const after = await trx
        .updateTable('site_share_links')
        .set(change)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, ...audit(before));
      return after;
    });
  }

  /** Deletes the link and records `audit` when there was one. */
  async delete(siteId: string, id: string, audit: AuditEntry): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('site_share_links')
        .where('id', '=', id)
        .where('site_id', '=', siteId)
        .executeTakeFirst();
      const existed = Number(result.numDeletedRows) > 0;
      if (existed) await recordAudit(trx, audit);
      return existed;
    });
  }

  /** The active link of a site whose key has this hash, if any. */
  findActiveByHash(siteId: string, keyHash: string): Promise<ShareLinkRow | undefined> {
    return this.activeByHash(siteId, keyHash);
  }
}
