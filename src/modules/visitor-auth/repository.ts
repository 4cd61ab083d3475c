import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { prepareCached } from '../../db/prepared.js';
import type { PublishingAuthRow } from '../../db/schema.js';
import { type AuditEntry, recordAudit } from '../audit/record.js';

export class PublishingAuthRepository {
  /** Cached while the database is unchanged: visitor-token checks read it on every request. */
  private readonly bySite;

  constructor(private readonly db: Db) {
    this.bySite = prepareCached(
      db,
      (siteId: string) =>
        db.selectFrom('site_publishing_auth').selectAll().where('site_id', '=', siteId),
      ([row]): PublishingAuthRow | undefined => row,
    );
  }

  /** The site's settings, created with `initial` if it has none yet (races settle on one row). */
  async ensure(initial: PublishingAuthRow): Promise<PublishingAuthRow> {
    // Read first: only the very first read of a site's settings writes.
    const existing = await this.find(initial.site_id);
    if (existing !== undefined) return existing;
    await this.db
      .insertInto('site_publishing_auth')
      .values(initial)
      .onConflict((oc) => oc.column('site_id').doNothing())
      .execute();
    const row = await this.find(initial.site_id);
    if (row === undefined) throw new Error('publishing auth row vanished after insert');
    return row;
  }

  find(siteId: string): Promise<PublishingAuthRow | undefined> {
    return this.bySite(siteId);
  }

  /**
   * Applies the change and records what `audit` makes of the settings as they were, in one
   * transaction; undefined when the site has no settings.
   */
  async update(
    siteId: string,
    change: Partial<Omit<PublishingAuthRow, 'site_id' | 'created_at'>>,
    audit: (before: PublishingAuthRow) => AuditEntry[],
  ): Promise<PublishingAuthRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const before = await lockRows(
        trx,
        trx.selectFrom('site_publishing_auth').selectAll().where('site_id', '=', siteId),
        'site_publishing_auth',
      ).executeTakeFirst();
      if (before === undefined) return undefined;
      const after = await trx
        .updateTable('site_publishing_auth')
        .set(change)
        .where('site_id', '=', siteId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, ...audit(before));
      return after;
    });
  }
}
