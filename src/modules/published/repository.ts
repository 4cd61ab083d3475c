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
  /**
   * Other paths that lead to it by a redirect: in a section other than the default, the default
   * variant is at the section's path, and its own path under the section redirects there.
   */
  aliases: string[];
  /** The section it belongs to (a site with sections), else null. */
  sectionId: string | null;
  /** The switcher's label in other languages (GitBook's `localizedTitle`). */
  localizedTitle?: Localized;
}

/**
 * Where a variant is served (docs/sites.md, "Sections"): the default variant of the default
 * section (of the site, without sections) at the site's root, the others under their path; a
 * section other than the default adds its own path first, its default variant being at the
 * section's path. `order`: the default section's variants first, then by section position.
 */
function addressOf(row: {
  path: string;
  is_default: number;
  section_id: string | null;
  section_path: string | null;
  section_default: number | null;
  section_position: number | null;
}): { path: string; isDefault: boolean; aliases: string[]; order: number } {
  const variantDefault = Number(row.is_default) === 1;
  if (row.section_id === null || row.section_path === null || Number(row.section_default) === 1) {
    return {
      path: row.path,
      isDefault: variantDefault,
      aliases: [],
      order: row.section_id === null ? 0 : -1,
    };
  }
  const order = Number(row.section_position ?? 0);
  return variantDefault
    ? {
        path: row.section_path,
        isDefault: false,
        aliases: [`${row.section_path}/${row.path}`],
        order,
      }
    : { path: `${row.section_path}/${row.path}`, isDefault: false, aliases: [], order };
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
          .leftJoin('site_sections as sec', 'sec.id', 'v.section_id')
          .where('s.deleted_at', 'is', null)
          .select([
            'v.id',
            'v.space_id',
            'v.path',
            'v.is_default',
            'v.hidden',
            'v.draft',
            'v.section_id',
            'v.title as variant_title',
            'v.localized_title',
            's.title',
            'sec.path as section_path',
            'sec.is_default as section_default',
            'sec.draft as section_draft',
            'sec.position as section_position',
          ])
          .where('v.site_id', '=', siteId)
          .orderBy('v.position')
          .orderBy('v.id'),
      (rows): PublishedVariant[] =>
        rows
          // Drafts are not published: draft variants, and every variant of a draft section.
          .filter((row) => Number(row.draft) === 0 && Number(row.section_draft ?? 0) === 0)
          .map((row) => ({ row, ...addressOf(row) }))
          .sort((a, b) => a.order - b.order)
          .map(({ row, path, isDefault, aliases }) => ({
            id: row.id,
            spaceId: row.space_id,
            path,
            isDefault,
            aliases,
            sectionId: row.section_id,
            spaceTitle: row.title,
            title: row.variant_title ?? row.title,
            hidden: Number(row.hidden) === 1,
            ...localizedTitleOf(row.localized_title),
          })),
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

const localizedTitleOf = (json: string | null): { localizedTitle?: Localized } => {
  const localizedTitle = parseLocalized(json);
  return localizedTitle === undefined ? {} : { localizedTitle };
};
