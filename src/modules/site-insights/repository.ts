import type { Db } from '../../db/database.js';
import { prepareCached } from '../../db/prepared.js';
import type { SiteInsightEventRow } from '../../db/schema.js';
import type { Plan } from './query.js';

export class SiteEventsRepository {
  /** The organization of a site (undefined: no such site); cached until the sites change. */
  readonly organizationOf;

  constructor(private readonly db: Db) {
    this.organizationOf = prepareCached(
      db,
      (siteId: string) => db.selectFrom('sites').select('organization_id').where('id', '=', siteId),
      (rows): string | undefined => rows[0]?.organization_id,
    );
  }

  /** One statement, outside any transaction: it must not move the cache generation (uncached-writes.ts). */
  async insert(rows: SiteInsightEventRow[]): Promise<void> {
    await this.db.insertInto('site_insight_events').values(rows).execute();
  }

  async aggregate(plan: Plan): Promise<Record<string, unknown>[]> {
    const { rows } = await plan.query.execute(this.db);
    return rows;
  }

  /** Deletes events older than `ts` (epoch ms). */
  async prune(ts: number): Promise<number> {
    const result = await this.db
      .deleteFrom('site_insight_events')
      .where('ts', '<', ts)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
