import type { Db } from '../../db/database.js';
import { jsonTextAt, lockRows } from '../../db/dialect.js';
import { prepareCached } from '../../db/prepared.js';
import type { GitSyncRow, RevisionRow, SpaceRow } from '../../db/schema.js';
import { keysetPage, type PageRequest } from '../../http/pagination.js';
import type { Actor } from '../audit/actor.js';
import { recordAudit } from '../audit/record.js';
import { type ShownIn, spaceLanguage } from './language.js';
import { moveKeys } from './order.js';

/**
 * The live spaces. A space in the trash (`deleted_at` set, docs/content.md) is absent from every
 * query here, as from every other reader of `spaces` (test/unit/deleted-spaces-filter.test.ts);
 * only trash-repository.ts sees it.
 */
export class SpacesRepository {
  /** A space's organization, on every space-keyed request (cached while nothing changes). */
  private readonly organization;
  /** A space's current revision, on every content read (cached while nothing changes). */
  private readonly revision;
  /** One space's change requests by status, on every getSpaceById (cached likewise). */
  private readonly statusCounts;
  /** A space's row (cached likewise; callers must not change it). */
  private readonly row;
  /** One space's language, from the site-spaces showing it (cached likewise). */
  private readonly language;

  constructor(private readonly db: Db) {
    this.organization = prepareCached(
      db,
      (id: string) =>
        db
          .selectFrom('spaces')
          .select('organization_id')
          .where('id', '=', id)
          .where('deleted_at', 'is', null),
      ([row]) => row?.organization_id,
    );
    this.revision = prepareCached(
      db,
      (id: string) =>
        db
          .selectFrom('spaces')
          .select('revision_id')
          .where('id', '=', id)
          .where('deleted_at', 'is', null),
      ([row]) => row?.revision_id,
    );
    this.row = prepareCached(
      db,
      (id: string) =>
        db.selectFrom('spaces').selectAll().where('id', '=', id).where('deleted_at', 'is', null),
      ([row]) => row,
    );
    this.language = prepareCached(
      db,
      (id: string) => this.shownIn().where('ss.space_id', '=', id),
      (rows) => spaceLanguage(rows.map(shownInOf)),
    );
    this.statusCounts = prepareCached(
      db,
      (id: string) =>
        db
          .selectFrom('change_requests')
          .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
          .where('space_id', '=', id)
          .groupBy('status'),
      (rows) => countsOf(rows),
    );
  }

  /** GitBook's Space.language of one space (modules/spaces/language.ts), or undefined. */
  languageOf(id: string): Promise<string | undefined> {
    return this.language(id);
  }

  /** The Git Sync rows of these spaces (docs/git-sync.md), by space. */
  async gitSyncRows(spaceIds: readonly string[]): Promise<Map<string, GitSyncRow>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('git_sync')
      .selectAll()
      .where('space_id', 'in', spaceIds)
      .execute();
    return new Map(rows.map((row) => [row.space_id, row]));
  }

  /** Space.language of each space that has one. */
  async languages(spaceIds: readonly string[]): Promise<Map<string, string>> {
    const languages = new Map<string, string>();
    if (spaceIds.length === 0) return languages;
    const rows = await this.shownIn().where('ss.space_id', 'in', spaceIds).execute();
    const bySpace = new Map<string, ShownIn[]>();
    for (const row of rows) {
      const shownIn = bySpace.get(row.space_id) ?? [];
      shownIn.push(shownInOf(row));
      bySpace.set(row.space_id, shownIn);
    }
    for (const [spaceId, shownIn] of bySpace) {
      const language = spaceLanguage(shownIn);
      if (language !== undefined) languages.set(spaceId, language);
    }
    return languages;
  }

  /** The site-spaces showing spaces, with the stored locales their language resolves from. */
  private shownIn() {
    const locale = ['internationalization', 'locale'] as const;
    return this.db
      .selectFrom('site_spaces as ss')
      .innerJoin('sites as s', 's.id', 'ss.site_id')
      .select([
        'ss.space_id',
        jsonTextAt(this.db, 'ss.override', locale).as('override_locale'),
        jsonTextAt(this.db, 's.customization', locale).as('site_locale'),
      ]);
  }

  /** One space's change-request counters (cached while nothing changes). */
  changeRequestCountsOf(id: string): Promise<ChangeRequestCounts> {
    return this.statusCounts(id);
  }

  revisionOf(id: string): Promise<string | undefined> {
    return this.revision(id);
  }

  organizationOf(id: string): Promise<string | undefined> {
    return this.organization(id);
  }

  async insert(row: SpaceRow, revision: RevisionRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('spaces').values(row).execute();
      await trx.insertInto('revisions').values(revision).execute();
    });
  }

  /** Change requests of each space: all of them, open ones and drafts. */
  async changeRequestCounts(spaceIds: string[]) {
    const counts = new Map<string, ChangeRequestCounts>();
    if (spaceIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('change_requests')
      .select(['space_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('space_id', 'in', spaceIds)
      .groupBy(['space_id', 'status'])
      .execute();
    for (const spaceId of new Set(rows.map((row) => row.space_id))) {
      counts.set(spaceId, countsOf(rows.filter((row) => row.space_id === spaceId)));
    }
    return counts;
  }

  /**
   * One page of the spaces `userId` can access (a role above guest) in organizations `callerId`
   * is also a member of, each with the user's role. By position (spaces/order.ts), so each
   * organization's spaces come in its order; positions start as creation times, so across
   * organizations the list is by creation, the moved spaces where their organization put them.
   */
  async listForUser(callerId: string, userId: string, page: PageRequest) {
    const query = this.db
      .selectFrom('spaces as s')
      .innerJoin('memberships as m', 'm.organization_id', 's.organization_id')
      .innerJoin('memberships as c', 'c.organization_id', 's.organization_id')
      .where('m.user_id', '=', userId)
      .where('m.role', '!=', 'guest')
      .where('c.user_id', '=', callerId)
      .where('s.deleted_at', 'is', null);
    return keysetPage(query, 's', page, (q) => q.selectAll('s').select('m.role'), 'position');
  }

  find(id: string): Promise<SpaceRow | undefined> {
    return this.row(id);
  }

  async findInOrganization(id: string, organizationId: string): Promise<SpaceRow | undefined> {
    return this.db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async update(id: string, change: Partial<SpaceRow>): Promise<SpaceRow | undefined> {
    return this.db
      .updateTable('spaces')
      .set(change)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /** One page of an organization's spaces, in its order (spaces/order.ts). */
  async listInOrganization(organizationId: string, page: PageRequest) {
    const query = this.db
      .selectFrom('spaces as s')
      .where('s.organization_id', '=', organizationId)
      .where('s.deleted_at', 'is', null);
    return keysetPage(query, 's', page, (q) => q.selectAll('s'), 'position');
  }

  /**
   * moveSpace: puts `id` `side` of `targetId` (both live spaces of `organizationId`) in one
   * transaction, with its audit entry; the moved space's row, or 'unchanged' when it already was
   * there, or 'missing' when either is gone. The organization's row is locked first on
   * PostgreSQL (SQLite's IMMEDIATE transaction already excludes other writers), so concurrent
   * moves run one after the other, each dealing out the keys the previous one left
   * (spaces/order.ts): no space is lost and no key doubled.
   */
  async move(
    id: string,
    organizationId: string,
    target: { side: 'before' | 'after'; id: string },
    audit: { actor: Actor; at: string },
  ): Promise<SpaceRow | 'unchanged' | 'missing'> {
    return this.db.transaction().execute(async (trx) => {
      await lockRows(
        trx,
        trx.selectFrom('organizations').select('id').where('id', '=', organizationId),
        'organizations',
      ).execute();
      const spaces = await trx
        .selectFrom('spaces')
        .select(['id', 'position'])
        .where('organization_id', '=', organizationId)
        .where('deleted_at', 'is', null)
        .orderBy('position')
        .orderBy('id')
        .execute();
      const listed = new Set(spaces.map((space) => space.id));
      if (!listed.has(id) || !listed.has(target.id)) return 'missing' as const;
      const changed = moveKeys(spaces, id, target.id, target.side);
      if (changed.length === 0) return 'unchanged' as const;
      for (const space of changed) {
        await trx
          .updateTable('spaces')
          .set({ position: space.position })
          .where('id', '=', space.id)
          .execute();
      }
      await recordAudit(trx, {
        organizationId,
        actor: audit.actor,
        action: 'space.moved',
        target: { kind: 'space', id },
        details: { [target.side]: target.id },
        at: audit.at,
      });
      return trx
        .selectFrom('spaces')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
    });
  }
}

export interface ChangeRequestCounts {
  total: number;
  open: number;
  draft: number;
}

function countsOf(rows: { status: string; n: number | string | bigint }[]): ChangeRequestCounts {
  const counts = { total: 0, open: 0, draft: 0 };
  for (const { status, n } of rows) {
    counts.total += Number(n);
    if (status === 'open') counts.open += Number(n);
    if (status === 'draft') counts.draft += Number(n);
  }
  return counts;
}

function shownInOf(row: { override_locale: string | null; site_locale: string | null }): ShownIn {
  return { overrideLocale: row.override_locale, siteLocale: row.site_locale };
}
