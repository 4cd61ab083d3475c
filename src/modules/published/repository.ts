import { type Db, generationOf } from '../../db/database.js';
import { prepareCached } from '../../db/prepared.js';
import type { SiteRow } from '../../db/schema.js';

export interface PublishedVariant {
  id: string;
  spaceId: string;
  path: string;
  isDefault: boolean;
  /** The title of the space it shows: the content title. */
  spaceTitle: string;
  /** The variant switcher's label: the site-space's own title, else its space's. */
  title: string;
  /** Left out of the variant switcher (updateSiteSpaceById `hidden`); still served. */
  hidden: boolean;
}

/**
 * The two reads behind every page of a published site, cached while the database is unchanged
 * (db/prepared.ts): a visitor's request costs no query when nothing changed.
 */
export class PublishedRepository {
  readonly siteByAddress;
  /** The site whose custom hostname this is (lower case; the unique `sites_hostname` index). */
  readonly siteByHostname;
  readonly variantsOf;
  /** The database's generation (db/database.ts): what kept page views are current under. */
  readonly generation: () => string | undefined;

  constructor(private readonly db: Db) {
    this.generation = generationOf(db);
    // A basename names one site (unique index) and an id its site; no basename looks like an id.
    this.siteByAddress = prepareCached(
      db,
      (address: string) =>
        db
          .selectFrom('sites')
          .selectAll()
          .where((eb) => eb.or([eb('basename', '=', address), eb('id', '=', address)]))
          .limit(1),
      (rows): SiteRow | undefined => rows[0],
    );
    this.siteByHostname = prepareCached(
      db,
      (hostname: string) => db.selectFrom('sites').selectAll().where('hostname', '=', hostname),
      (rows): SiteRow | undefined => rows[0],
    );
    this.variantsOf = prepareCached(
      db,
      (siteId: string) =>
        db
          .selectFrom('site_spaces as v')
          .innerJoin('spaces as s', 's.id', 'v.space_id')
          .select([
            'v.id',
            'v.space_id',
            'v.path',
            'v.is_default',
            'v.hidden',
            'v.title as variant_title',
            's.title',
          ])
          .where('v.site_id', '=', siteId)
          .orderBy('v.position'),
      (rows): PublishedVariant[] =>
        rows.map((row) => ({
          id: row.id,
          spaceId: row.space_id,
          path: row.path,
          isDefault: Number(row.is_default) === 1,
          spaceTitle: row.title,
          title: row.variant_title ?? row.title,
          hidden: Number(row.hidden) === 1,
        })),
    );
  }

  /**
   * The site whose look a change request preview of the space takes (modules/previews): a site
   * that shows the space, published ones first, then the oldest; with the site-space showing it.
   */
  async siteShowing(spaceId: string): Promise<{ site: SiteRow; siteSpaceId: string } | undefined> {
    const row = await this.db
      .selectFrom('site_spaces as v')
      .innerJoin('sites as s', 's.id', 'v.site_id')
      .selectAll('s')
      .select('v.id as site_space_id')
      .where('v.space_id', '=', spaceId)
      .orderBy('s.published', 'desc')
      .orderBy('s.created_at')
      .orderBy('s.id')
      .orderBy('v.position')
      .limit(1)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { site_space_id: siteSpaceId, ...site } = row;
    return { site, siteSpaceId };
  }
}
