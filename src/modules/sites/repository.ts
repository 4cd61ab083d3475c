import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { prepareCached } from '../../db/prepared.js';
import type { SiteRow, SiteSpaceRow, SpaceRow } from '../../db/schema.js';
import { afterCursor, type PageRequest } from '../../http/pagination.js';
import type { SiteFilters } from './schemas.js';

export type SiteWithCount = SiteRow & { site_space_count: number };
export type SiteSpaceWithSpace = SiteSpaceRow & { space: SpaceRow };

export class SitesRepository {
  /**
   * An organization's number of sites, the `count` of an unfiltered listing: counting reads the
   * whole index range (13 ms for 100,000 sites, docs/BENCHMARKS.md), the page itself 0.3 ms, so
   * it is kept while the database is unchanged (db/prepared.ts).
   */
  private readonly siteCount;

  constructor(private readonly db: Db) {
    this.siteCount = prepareCached(
      db,
      (organizationId: string) =>
        db
          .selectFrom('sites as s')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('s.organization_id', '=', organizationId),
      ([row]) => Number(row?.count ?? 0),
      1_000,
    );
  }

  private sites() {
    return this.db
      .selectFrom('sites as s')
      .selectAll('s')
      .select((eb) =>
        eb
          .selectFrom('site_spaces as c')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('c.site_id', '=', 's.id')
          .as('site_space_count'),
      );
  }

  async findSite(organizationId: string, siteId: string): Promise<SiteWithCount | undefined> {
    const row = await this.sites()
      .where('s.id', '=', siteId)
      .where('s.organization_id', '=', organizationId)
      .executeTakeFirst();
    return row && { ...row, site_space_count: Number(row.site_space_count) };
  }

  async listSites(organizationId: string, filters: SiteFilters, { cursor, limit }: PageRequest) {
    let query = this.sites().where('s.organization_id', '=', organizationId);
    if (filters.title !== undefined) {
      // lower() on both sides: LIKE is case-insensitive in SQLite but not in PostgreSQL.
      const pattern = `%${escapeLike(filters.title.toLowerCase())}%`;
      query = query.where(sql<boolean>`lower(${sql.ref('s.title')}) like ${pattern} escape '\\'`);
    }
    if (filters.published !== undefined)
      query = query.where('s.published', '=', filters.published ? 1 : 0);
    if (filters.type !== undefined && filters.type.length > 0)
      query = query.where('s.type', 'in', filters.type);
    if (filters.space !== undefined) {
      const spaceId = filters.space;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('site_spaces as f')
            .select('f.id')
            .whereRef('f.site_id', '=', 's.id')
            .where('f.space_id', '=', spaceId),
        ),
      );
    }
    const filtered = Object.values(filters).some((value) => value !== undefined);
    const count = filtered
      ? Number(
          (
            await query
              .clearSelect()
              .select((eb) => eb.fn.countAll<number>().as('count'))
              .executeTakeFirstOrThrow()
          ).count,
        )
      : await this.siteCount(organizationId);
    if (cursor) query = query.where(afterCursor('s', cursor));
    const rows = await query
      .orderBy('s.created_at')
      .orderBy('s.id')
      .limit(limit + 1)
      .execute();
    return {
      rows: rows.map((r) => ({ ...r, site_space_count: Number(r.site_space_count) })),
      count,
    };
  }

  /** Inserts a site and its first site-spaces in one transaction. */
  async insertSite(site: SiteRow, newSpaces: SpaceRow[], siteSpaces: SiteSpaceRow[]) {
    await this.db.transaction().execute(async (trx) => {
      for (const space of newSpaces) await trx.insertInto('spaces').values(space).execute();
      await trx.insertInto('sites').values(site).execute();
      for (const row of siteSpaces) await trx.insertInto('site_spaces').values(row).execute();
    });
  }

  /** What a new variant must not collide with: the taken paths and positions. */
  async siteSpaceSlots(siteId: string) {
    const rows = await this.db
      .selectFrom('site_spaces')
      .select(['path', 'is_default', 'position'])
      .where('site_id', '=', siteId)
      .execute();
    return {
      paths: new Set(rows.map((r) => r.path)),
      hasDefault: rows.some((r) => r.is_default === 1),
      nextPosition: Math.max(0, ...rows.map((r) => r.position)) + 1,
    };
  }

  async insertSiteSpace(row: SiteSpaceRow): Promise<void> {
    await this.db.insertInto('site_spaces').values(row).execute();
  }

  /** One page of a site's variants, in their order, each with its space. */
  async listSiteSpaces(siteId: string, isDefault: boolean | undefined, page: PageRequest) {
    let query = this.db.selectFrom('site_spaces as ss').where('ss.site_id', '=', siteId);
    if (isDefault !== undefined) query = query.where('ss.is_default', '=', isDefault ? 1 : 0);
    const total = await query
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (page.cursor) query = query.where(afterCursor('ss', page.cursor, 'position'));
    const rows = await query
      .selectAll('ss')
      .orderBy('ss.position')
      .orderBy('ss.id')
      .limit(page.limit + 1)
      .execute();
    const spaceIds = [...new Set(rows.map((r) => r.space_id))];
    const spaces =
      spaceIds.length === 0
        ? []
        : await this.db.selectFrom('spaces').selectAll().where('id', 'in', spaceIds).execute();
    const byId = new Map(spaces.map((space) => [space.id, space]));
    const items: SiteSpaceWithSpace[] = rows.flatMap((row) => {
      const space = byId.get(row.space_id);
      return space === undefined ? [] : [{ ...row, space }];
    });
    return { rows: items, count: Number(total.count) };
  }
}

/** `%` and `_` in a title filter are matched literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
