import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { prepareCached } from '../../db/prepared.js';
import type { SiteSpaceRow, SpaceRow } from '../../db/schema.js';
import type { PageRequest } from '../../http/pagination.js';
import { deleteVariantHistory } from '../customization/history-cleanup.js';
import { initialRevisionRow } from '../spaces/service.js';
import { makeDefault } from './repository.js';

export type SiteSpaceWithSpace = SiteSpaceRow & { space: SpaceRow };

/** What a new variant must not collide with: the taken paths and positions. */
export interface SiteSpaceSlots {
  paths: Set<string>;
  hasDefault: boolean;
  nextPosition: number;
}

export type SiteSpaceUpdate = Partial<
  Pick<SiteSpaceRow, 'path' | 'condition' | 'space_id' | 'hidden' | 'draft'>
>;

/** A site's variants (site-spaces): their paths, order, default and content. */
export class SiteSpacesRepository {
  private readonly variantRows;
  private readonly variantSpaces;
  /** allOf's joined list, per cached rows object, while the spaces object is the same too. */
  private readonly joined = new WeakMap<
    SiteSpaceRow[],
    { spaces: SpaceRow[]; all: SiteSpaceWithSpace[] }
  >();

  constructor(private readonly db: Db) {
    this.variantRows = prepareCached(
      db,
      (siteId: string) =>
        db
          .selectFrom('site_spaces')
          .selectAll()
          .where('site_id', '=', siteId)
          .orderBy('position')
          .orderBy('id'),
      (rows) => rows,
      1_000,
    );
    this.variantSpaces = prepareCached(
      db,
      (siteId: string) =>
        db
          .selectFrom('spaces')
          .selectAll()
          .where('deleted_at', 'is', null)
          .where('id', 'in', (eb) =>
            eb.selectFrom('site_spaces').select('space_id').where('site_id', '=', siteId),
          ),
      (rows) => rows,
      1_000,
    );
  }

  /**
   * Inserts a variant that `build` makes from the site's current slots (taken paths, whether it
   * has a default, the next position); with `newSpace`, the space it shows too (and its empty
   * revision). The site's row is locked first, as in every change of which variant is the default
   * (see `delete`, SitesRepository.modifySite), so the slots read are still true at commit: two
   * first variants added at once do not both become the default, and one added while the default
   * is deleted is not left a non-default in a site without one. Undefined when the site is gone.
   */
  async insertSiteSpace(
    siteId: string,
    sectionId: string | null,
    build: (slots: SiteSpaceSlots) => SiteSpaceRow,
    newSpace?: SpaceRow,
  ): Promise<SiteSpaceRow | undefined | 'space-missing' | 'section-missing' | 'sectioned'> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockSite(trx, siteId))) return undefined;
      // A site with sections has its variants in them (docs/sites.md, "Sections").
      const sections = await trx
        .selectFrom('site_sections')
        .select('id')
        .where('site_id', '=', siteId)
        .execute();
      if (sectionId === null && sections.length > 0) return 'sectioned';
      if (sectionId !== null && !sections.some((s) => s.id === sectionId)) {
        return 'section-missing';
      }
      const rows = await trx
        .selectFrom('site_spaces')
        .select(['path', 'is_default', 'position'])
        .where('site_id', '=', siteId)
        .where((eb) =>
          sectionId === null ? eb('section_id', 'is', null) : eb('section_id', '=', sectionId),
        )
        .execute();
      const row = build({
        paths: new Set(rows.map((r) => r.path)),
        hasDefault: rows.some((r) => r.is_default === 1),
        nextPosition: Math.max(0, ...rows.map((r) => r.position)) + 1,
      });
      if (newSpace !== undefined) {
        await trx.insertInto('spaces').values(newSpace).execute();
        await trx.insertInto('revisions').values(initialRevisionRow(newSpace)).execute();
      } else if (!(await lockSpace(trx, row.space_id))) {
        // Deleted since the service checked it: locked here, a delete either waits for this
        // transaction and then refuses (a site shows the space) or went first, and the space
        // is reported missing rather than failing the insert on its foreign key.
        return 'space-missing';
      }
      await trx.insertInto('site_spaces').values(row).execute();
      return row;
    });
  }

  /**
   * Every variant of a site in order, each with its space. Kept while the database is unchanged
   * (db/prepared.ts): listings and, later, every page of a published site start here.
   */
  async allOf(siteId: string): Promise<SiteSpaceWithSpace[]> {
    const rows = await this.variantRows(siteId);
    const spaces = await this.variantSpaces(siteId);
    const known = this.joined.get(rows);
    if (known?.spaces === spaces) return known.all;
    const byId = new Map(spaces.map((space) => [space.id, space]));
    const all = rows.flatMap((row) => {
      const space = byId.get(row.space_id);
      return space === undefined ? [] : [{ ...row, space }];
    });
    this.joined.set(rows, { spaces, all });
    return all;
  }

  /** One page of a site's variants, in their order (a site has tens of them, not thousands). */
  async listSiteSpaces(siteId: string, isDefault: boolean | undefined, page: PageRequest) {
    const all = await this.allOf(siteId);
    const matching =
      isDefault === undefined ? all : all.filter((row) => (row.is_default === 1) === isDefault);
    const { cursor } = page;
    const after =
      cursor === undefined
        ? matching
        : matching.filter(
            (row) =>
              row.position > Number(cursor.key) ||
              (row.position === Number(cursor.key) && row.id > cursor.id),
          );
    return { rows: after.slice(0, page.limit + 1), count: matching.length };
  }

  /** One variant of a site, with its space. */
  async find(siteId: string, siteSpaceId: string): Promise<SiteSpaceWithSpace | undefined> {
    const row = await this.db
      .selectFrom('site_spaces')
      .selectAll()
      .where('id', '=', siteSpaceId)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const space = await this.db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', row.space_id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return space && { ...row, space };
  }

  /**
   * Changes a variant in one transaction. Answers what stood in the way: `missing` (no such
   * variant), or `path-taken` with the variant that holds the path; else `updated`.
   */
  async update(
    siteId: string,
    siteSpaceId: string,
    change: SiteSpaceUpdate,
  ): Promise<
    | { outcome: 'missing' | 'space-missing' | 'default-draft' | 'updated' }
    | { outcome: 'path-taken'; holder: string }
  > {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockSite(trx, siteId))) return { outcome: 'missing' as const };
      const row = await lockRows(
        trx,
        trx
          .selectFrom('site_spaces')
          .select(['id', 'section_id', 'is_default'])
          .where('id', '=', siteSpaceId)
          .where('site_id', '=', siteId),
        'site_spaces',
      ).executeTakeFirst();
      if (row === undefined) return { outcome: 'missing' as const };
      if (change.draft === 1 && row.is_default === 1) return { outcome: 'default-draft' as const };
      // As in insertSiteSpace: the new space may have been deleted since the service's check.
      if (change.space_id !== undefined && !(await lockSpace(trx, change.space_id))) {
        return { outcome: 'space-missing' as const };
      }
      if (change.path !== undefined) {
        const holder = await trx
          .selectFrom('site_spaces')
          .select('id')
          .where('site_id', '=', siteId)
          .where('path', '=', change.path)
          .where('id', '!=', siteSpaceId)
          .where((eb) =>
            row.section_id === null
              ? eb('section_id', 'is', null)
              : eb('section_id', '=', row.section_id),
          )
          .executeTakeFirst();
        if (holder !== undefined) return { outcome: 'path-taken' as const, holder: holder.id };
      }
      if (Object.keys(change).length > 0) {
        await trx.updateTable('site_spaces').set(change).where('id', '=', siteSpaceId).execute();
      }
      return { outcome: 'updated' as const };
    });
  }

  /**
   * Deletes a variant; when it was the default, the first remaining one becomes the default. The
   * site's row is locked first: without it, deleting the default and the next variant at once
   * (PostgreSQL, READ COMMITTED) made a variant being deleted the new default, leaving none.
   */
  async delete(siteId: string, siteSpaceId: string): Promise<boolean | 'last-of-section'> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockSite(trx, siteId))) return false;
      const row = await lockRows(
        trx,
        trx
          .selectFrom('site_spaces')
          .select(['id', 'is_default', 'section_id'])
          .where('id', '=', siteSpaceId)
          .where('site_id', '=', siteId),
        'site_spaces',
      ).executeTakeFirst();
      if (row === undefined) return false;
      const { section_id: sectionId } = row;
      const others = await trx
        .selectFrom('site_spaces')
        .select('id')
        .where('site_id', '=', siteId)
        .where('id', '!=', siteSpaceId)
        .where((eb) =>
          sectionId === null ? eb('section_id', 'is', null) : eb('section_id', '=', sectionId),
        )
        .orderBy('position')
        .orderBy('id')
        .execute();
      // A section holds at least one variant: the last goes with its section.
      if (sectionId !== null && others.length === 0) return 'last-of-section';
      await deleteVariantHistory(trx, siteSpaceId);
      await trx.deleteFrom('site_spaces').where('id', '=', siteSpaceId).execute();
      if (row.is_default === 1) {
        const next = others[0];
        if (next !== undefined) await makeDefault(trx, siteId, next.id);
      }
      return true;
    });
  }
}

/**
 * Locks the site's row until commit (PostgreSQL; SQLite's IMMEDIATE transactions already exclude
 * other writers): the one lock that orders every change of a site's default variant. False when
 * there is no such site.
 */
async function lockSpace(trx: Db, spaceId: string): Promise<boolean> {
  const space = await lockRows(
    trx,
    trx.selectFrom('spaces').select('id').where('id', '=', spaceId).where('deleted_at', 'is', null),
    'spaces',
  ).executeTakeFirst();
  return space !== undefined;
}

async function lockSite(trx: Db, siteId: string): Promise<boolean> {
  const site = await lockRows(
    trx,
    trx.selectFrom('sites').select('id').where('id', '=', siteId),
    'sites',
  ).executeTakeFirst();
  return site !== undefined;
}
