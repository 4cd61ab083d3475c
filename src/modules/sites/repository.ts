import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { containsIgnoringCase } from '../../db/like.js';
import { prepareCached } from '../../db/prepared.js';
import type {
  DatabaseSchema,
  SiteEventRow,
  SiteRow,
  SiteSpaceRow,
  SpaceRow,
} from '../../db/schema.js';
import { afterCursor, type PageRequest } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';
import { deleteSiteHistory } from '../customization/history-cleanup.js';
import { initialRevisionRow } from '../spaces/service.js';
import type { SiteFilters } from './schemas.js';
import { siteChangeEntries, siteEntry } from './site-audit.js';

export type SiteWithCount = SiteRow & { site_space_count: number };
export type Executor = Kysely<DatabaseSchema>;

/** Sites with their number of site-spaces (the `siteSpaces` field). */
const sitesOf = (q: Executor) =>
  q
    .selectFrom('sites as s')
    .selectAll('s')
    .select((eb) =>
      eb
        .selectFrom('site_spaces as c')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('c.site_id', '=', 's.id')
        .as('site_space_count'),
    );

export class SitesRepository {
  /**
   * An organization's number of sites, the `count` of an unfiltered listing: counting reads the
   * whole index range (13 ms for 100,000 sites, docs/BENCHMARKS.md), the page itself 0.3 ms, so
   * it is kept while the database is unchanged (db/prepared.ts).
   */
  private readonly siteCount;

  private readonly site;

  constructor(private readonly db: Db) {
    this.site = prepareCached(
      db,
      (organizationId: string, siteId: string) =>
        sitesOf(db).where('s.id', '=', siteId).where('s.organization_id', '=', organizationId),
      ([row]): SiteWithCount | undefined =>
        row && { ...row, site_space_count: Number(row.site_space_count) },
    );
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
    return sitesOf(this.db);
  }

  /** The site (cached while the database is unchanged: every site operation starts here). */
  findSite(organizationId: string, siteId: string): Promise<SiteWithCount | undefined> {
    return this.site(organizationId, siteId);
  }

  async listSites(organizationId: string, filters: SiteFilters, { cursor, limit }: PageRequest) {
    let query = this.sites().where('s.organization_id', '=', organizationId);
    if (filters.title !== undefined) {
      query = query.where(containsIgnoringCase('s.title', filters.title));
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

  /** Inserts a site and its first site-spaces in one transaction, with its audit entry. */
  async insertSite(site: SiteRow, newSpaces: SpaceRow[], siteSpaces: SiteSpaceRow[], actor: Actor) {
    await this.db.transaction().execute(async (trx) => {
      for (const space of newSpaces) {
        await trx.insertInto('spaces').values(space).execute();
        // A new space starts with its empty revision, as createSpace's do.
        await trx.insertInto('revisions').values(initialRevisionRow(space)).execute();
      }
      await trx.insertInto('sites').values(site).execute();
      for (const row of siteSpaces) await trx.insertInto('site_spaces').values(row).execute();
      await recordAudit(trx, { ...siteEntry(site, 'site.created', actor), at: site.created_at });
    });
  }

  /**
   * Read-modify-write of a site in one transaction: the site row is locked, `decide` says what
   * changes (it may throw: nothing is written), and every change of `published` or `visibility`
   * is recorded in `site_events` with who and when, and in the audit log with a change of
   * `basename`. Answers false when there is no such site.
   */
  async modifySite(
    organizationId: string,
    siteId: string,
    actor: Actor,
    decide: (site: SiteWithCount, trx: Executor) => Promise<SiteChange> | SiteChange,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const found = await lockRows(
        trx,
        sitesOf(trx).where('s.id', '=', siteId).where('s.organization_id', '=', organizationId),
        's',
      ).executeTakeFirst();
      if (found === undefined) return false;
      const site = { ...found, site_space_count: Number(found.site_space_count) };
      const { fields = {}, defaultSiteSpaceId } = await decide(site, trx);
      const at = now();
      if (Object.keys(fields).length > 0) {
        await trx
          .updateTable('sites')
          .set({ ...fields, updated_at: at })
          .where('id', '=', siteId)
          .execute();
      }
      if (defaultSiteSpaceId !== undefined) await makeDefault(trx, siteId, defaultSiteSpaceId);
      const events = recordedChanges(site, fields).map((change) => ({
        id: newId('sev_'),
        site_id: siteId,
        actor_user_id: actor.userId,
        at,
        ...change,
      }));
      if (events.length > 0) await trx.insertInto('site_events').values(events).execute();
      await recordAudit(trx, ...siteChangeEntries(site, fields, actor, at));
      return true;
    });
  }

  /**
   * Deletes a site; its site-spaces, share links, auth settings and history go with it (not its
   * audit entries, which outlive it).
   */
  async deleteSite(organizationId: string, siteId: string, actor: Actor): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await deleteSiteHistory(trx, organizationId, siteId);
      const deleted = await trx
        .deleteFrom('sites')
        .where('id', '=', siteId)
        .where('organization_id', '=', organizationId)
        .returning(['id', 'organization_id', 'title'])
        .executeTakeFirst();
      if (deleted === undefined) return false;
      await recordAudit(trx, siteEntry(deleted, 'site.deleted', actor));
      return true;
    });
  }

  /** The sites (of any organization) that show a space, for the space-keyed deprecated forms. */
  async sitesShowingSpace(spaceId: string): Promise<{ id: string; organization_id: string }[]> {
    return this.db
      .selectFrom('sites as s')
      .select(['s.id', 's.organization_id'])
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('site_spaces as f')
            .select('f.id')
            .whereRef('f.site_id', '=', 's.id')
            .where('f.space_id', '=', spaceId),
        ),
      )
      .orderBy('s.created_at')
      .orderBy('s.id')
      .execute();
  }

  /** A site's history of publishing and visibility changes, oldest first. */
  async siteEvents(siteId: string) {
    return this.db
      .selectFrom('site_events')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('at')
      .orderBy('id')
      .execute();
  }
}

export interface SiteChange {
  fields?: Partial<
    Pick<SiteRow, 'title' | 'visibility' | 'basename' | 'agents_context' | 'proxy' | 'published'>
  >;
  /** A site-space of this site (checked by the caller) that becomes the default. */
  defaultSiteSpaceId?: string;
}

/** The variant becomes the default; the previous default stops being one (one per site). */
/**
 * Makes a variant the default of its section (of its site, in a site without sections): the
 * other defaults of the same section stop being one.
 */
export async function makeDefault(trx: Executor, siteId: string, siteSpaceId: string) {
  const target = await trx
    .selectFrom('site_spaces')
    .select('section_id')
    .where('id', '=', siteSpaceId)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (target === undefined) return;
  const { section_id: sectionId } = target;
  await trx
    .updateTable('site_spaces')
    .set({ is_default: 0 })
    .where('site_id', '=', siteId)
    .where('is_default', '=', 1)
    .where('id', '!=', siteSpaceId)
    .where((eb) =>
      sectionId === null ? eb('section_id', 'is', null) : eb('section_id', '=', sectionId),
    )
    .execute();
  await trx
    .updateTable('site_spaces')
    .set({ is_default: 1 })
    .where('id', '=', siteSpaceId)
    .where('site_id', '=', siteId)
    .execute();
}

function recordedChanges(site: SiteRow, fields: SiteChange['fields'] & object) {
  const changes: Pick<SiteEventRow, 'field' | 'old_value' | 'new_value'>[] = [];
  if (fields.published !== undefined && fields.published !== site.published) {
    changes.push({
      field: 'published',
      old_value: String(site.published === 1),
      new_value: String(fields.published === 1),
    });
  }
  if (fields.visibility !== undefined && fields.visibility !== site.visibility) {
    changes.push({ field: 'visibility', old_value: site.visibility, new_value: fields.visibility });
  }
  return changes;
}
