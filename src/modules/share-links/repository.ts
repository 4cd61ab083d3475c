import type { Db } from '../../db/database.js';
import { prepareCached } from '../../db/prepared.js';
import type { ShareLinkRow } from '../../db/schema.js';
import { keysetPage, type PageRequest } from '../../http/pagination.js';

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

  async insert(row: ShareLinkRow): Promise<void> {
    await this.db.insertInto('site_share_links').values(row).execute();
  }

  /** Applies the change; answers the updated row, or undefined when there is no such link. */
  async update(
    siteId: string,
    id: string,
    change: Partial<Pick<ShareLinkRow, 'name' | 'active' | 'updated_at'>>,
  ): Promise<ShareLinkRow | undefined> {
    return this.db
      .updateTable('site_share_links')
      .set(change)
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(siteId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('site_share_links')
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The active link of a site whose key has this hash, if any. */
  findActiveByHash(siteId: string, keyHash: string): Promise<ShareLinkRow | undefined> {
    return this.activeByHash(siteId, keyHash);
  }
}
