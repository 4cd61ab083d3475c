import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { containsIgnoringCase } from '../../db/like.js';
import { prepare } from '../../db/prepared.js';
import type { SiteRedirectRow } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';
import { type AuditEntry, recordAudit } from '../audit/record.js';

export type OrderBy = 'createdAt' | 'updatedAt' | 'source';

export interface RedirectFilters {
  draft: boolean;
  search: string | undefined;
  orderBy: OrderBy;
}

/** What a change of a site's rules writes, in one transaction with its audit entries. */
export interface RedirectWrites {
  insert: SiteRedirectRow[];
  update: SiteRedirectRow[];
  remove: string[];
  audit: AuditEntry[];
}

/** The sort key of each order, as a column expression (the list's cursor holds its value). */
const ORDER_KEY = {
  createdAt: sql<string>`created_at`,
  updatedAt: sql<string>`coalesce(updated_at, created_at)`,
  source: sql<string>`source`,
} as const;

/** Newest first for the dates (GitBook's description), alphabetical for the source. */
const DESCENDING: Record<OrderBy, boolean> = { createdAt: true, updatedAt: true, source: false };

/** A site's redirect rules (docs/sites.md, "Redirects"). */
export class RedirectsRepository {
  /** Every live rule of a site: what the per-site index is built from. */
  readonly liveRules: (siteId: string) => Promise<SiteRedirectRow[]>;

  constructor(private readonly db: Db) {
    this.liveRules = prepare(db, (siteId: string) =>
      db
        .selectFrom('site_redirects')
        .selectAll()
        .where('site_id', '=', siteId)
        .where('draft', '=', 0),
    );
  }

  find(siteId: string, id: string): Promise<SiteRedirectRow | undefined> {
    return this.db
      .selectFrom('site_redirects')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** One page of a site's rules in `filters.orderBy` order, and how many match in all. */
  async list(
    siteId: string,
    filters: RedirectFilters,
    cursor: Cursor | undefined,
    limit: number,
  ): Promise<{ rows: SiteRedirectRow[]; count: number }> {
    let query = this.db
      .selectFrom('site_redirects')
      .where('site_id', '=', siteId)
      .where('draft', '=', filters.draft ? 1 : 0);
    if (filters.search !== undefined && filters.search !== '') {
      query = query.where(containsIgnoringCase('source', filters.search));
    }
    const counted = await query.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
    const key = ORDER_KEY[filters.orderBy];
    const descending = DESCENDING[filters.orderBy];
    const listed =
      cursor === undefined
        ? query
        : query.where(
            descending
              ? sql<boolean>`(${key}, id) < (${cursor.key}, ${cursor.id})`
              : sql<boolean>`(${key}, id) > (${cursor.key}, ${cursor.id})`,
          );
    const direction = descending ? 'desc' : 'asc';
    const rows = await listed
      .selectAll()
      .orderBy(key, direction)
      .orderBy('id', direction)
      .limit(limit + 1)
      .execute();
    return { rows, count: Number(counted.count) };
  }

  /**
   * A change of a site's rules: the site's row is locked (two changes of one site are made one
   * after the other, so the uniqueness and chain checks `decide` makes hold at commit), `decide`
   * sees every rule of the site and says what to write; it throws to refuse, and then nothing is
   * written. Undefined when the site is gone.
   */
  async change<T>(
    siteId: string,
    decide: (rows: SiteRedirectRow[]) => { writes: RedirectWrites; result: T },
  ): Promise<{ result: T } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const site = await lockRows(
        trx,
        trx.selectFrom('sites').select('id').where('id', '=', siteId),
        'sites',
      ).executeTakeFirst();
      if (site === undefined) return undefined;
      const rows = await trx
        .selectFrom('site_redirects')
        .selectAll()
        .where('site_id', '=', siteId)
        .execute();
      const { writes, result } = decide(rows);
      if (writes.remove.length > 0) {
        for (let i = 0; i < writes.remove.length; i += 500) {
          await trx
            .deleteFrom('site_redirects')
            .where('site_id', '=', siteId)
            .where('id', 'in', writes.remove.slice(i, i + 500))
            .execute();
        }
      }
      for (const row of writes.update) {
        const { id, site_id: _site, created_at: _created, ...fields } = row;
        await trx.updateTable('site_redirects').set(fields).where('id', '=', id).execute();
      }
      if (writes.insert.length > 0) {
        await trx.insertInto('site_redirects').values(writes.insert).execute();
      }
      await recordAudit(trx, ...writes.audit);
      return { result };
    });
  }
}
