import { type Db, generationOf } from '../../db/database.js';
import { prepareCached } from '../../db/prepared.js';
import type { SiteRow } from '../../db/schema.js';
import type { Localized } from '../../settings/settings-parts.js';
import { parseLocalized, readStructure } from './structure.js';

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
  /** Not live (GitBook's `draft`): not served, not listed. */
  draft: boolean;
  /** The switcher's label in other languages (GitBook's `localizedTitle`). */
  localizedTitle?: Localized;
  /**
   * The section it belongs to, in a site with sections (issue 29): its pages are under the
   * section's path, and `isDefault` says the section's default variant.
   */
  section?: { id: string; path: string; isDefault: boolean; draft: boolean };
}

/**
 * The two reads behind every page of a published site, cached while the database is unchanged
 * (db/prepared.ts): a visitor's request costs no query when nothing changed.
 */
export class PublishedRepository {
  readonly siteByAddress;
  readonly variantsOf;
  /** The site's sections, groups and links (structure.ts); empty for a site without sections. */
  readonly structureOf;
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
    this.variantsOf = prepareCached(
      db,
      (siteId: string) =>
        db
          .selectFrom('site_spaces as v')
          .innerJoin('spaces as s', 's.id', 'v.space_id')
          .leftJoin('site_sections as x', 'x.id', 'v.section_id')
          .select([
            'v.id',
            'v.space_id',
            'v.path',
            'v.is_default',
            'v.hidden',
            'v.draft',
            'v.title as variant_title',
            'v.localized_title',
            's.title',
            'x.id as section_id',
            'x.path as section_path',
            'x.is_default as section_is_default',
            'x.draft as section_draft',
          ])
          .where('v.site_id', '=', siteId)
          .orderBy('v.position')
          .orderBy('v.id'),
      (rows): PublishedVariant[] =>
        rows.map((row) => {
          const variant: PublishedVariant = {
            id: row.id,
            spaceId: row.space_id,
            path: row.path,
            isDefault: Number(row.is_default) === 1,
            spaceTitle: row.title,
            title: row.variant_title ?? row.title,
            hidden: Number(row.hidden) === 1,
            draft: Number(row.draft) === 1,
          };
          const localizedTitle = parseLocalized(row.localized_title);
          if (localizedTitle !== undefined) variant.localizedTitle = localizedTitle;
          if (row.section_id !== null && row.section_path !== null) {
            variant.section = {
              id: row.section_id,
              path: row.section_path,
              isDefault: Number(row.section_is_default) === 1,
              draft: Number(row.section_draft) === 1,
            };
          }
          return variant;
        }),
    );
    this.structureOf = readStructure(db);
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
