import { type Kysely, sql } from 'kysely';
import { batchMemoOf } from '../../db/batch-memo.js';
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import { groupCommitOf, type Tx } from '../../db/group-commit.js';
import { type MISS, prepareCached } from '../../db/prepared.js';
import type { CustomizationRevisionRow, DatabaseSchema } from '../../db/schema.js';
import {
  type DocumentUpdate,
  pruneRevisions,
  type RecordedChange,
  runChange,
} from './change-sql.js';

/** The stored customization of a site, with what its ETag and Last-Modified derive from. */
export interface SiteCustomizationRecord {
  siteId: string;
  customization: string | null;
  customizationVersion: number;
  customizationUpdatedAt: string | null;
  siteCreatedAt: string;
}

/** A variant's stored override together with its site's customization. */
export interface VariantCustomizationRecord extends SiteCustomizationRecord {
  siteSpaceId: string;
  override: string | null;
  overrideVersion: number;
  overrideUpdatedAt: string | null;
  siteSpaceCreatedAt: string;
}

type Executor = Kysely<DatabaseSchema>;

const selectSite = (q: Executor, organizationId: string, siteId: string) =>
  q
    .selectFrom('sites')
    .select([
      'id',
      'customization',
      'customization_version',
      'customization_updated_at',
      'created_at',
    ])
    .where('id', '=', siteId)
    .where('organization_id', '=', organizationId);

const selectVariant = (q: Executor, organizationId: string, siteId: string, siteSpaceId: string) =>
  q
    .selectFrom('site_spaces as ss')
    .innerJoin('sites as s', 's.id', 'ss.site_id')
    .select([
      's.id',
      's.customization',
      's.customization_version',
      's.customization_updated_at',
      's.created_at',
      'ss.id as site_space_id',
      'ss.override',
      'ss.override_version',
      'ss.override_updated_at',
      'ss.created_at as site_space_created_at',
    ])
    .where('ss.id', '=', siteSpaceId)
    .where('s.id', '=', siteId)
    .where('s.organization_id', '=', organizationId);

type SiteRow = Awaited<ReturnType<ReturnType<typeof selectSite>['executeTakeFirstOrThrow']>>;
type VariantRow = Awaited<ReturnType<ReturnType<typeof selectVariant>['executeTakeFirstOrThrow']>>;

const toSite = (row: SiteRow): SiteCustomizationRecord => ({
  siteId: row.id,
  customization: row.customization,
  customizationVersion: row.customization_version,
  customizationUpdatedAt: row.customization_updated_at,
  siteCreatedAt: row.created_at,
});

const toVariant = (row: VariantRow): VariantCustomizationRecord => ({
  ...toSite(row),
  siteSpaceId: row.site_space_id,
  override: row.override,
  overrideVersion: row.override_version,
  overrideUpdatedAt: row.override_updated_at,
  siteSpaceCreatedAt: row.site_space_created_at,
});

/**
 * Reads of the customization documents (prepared, and cached while the database is unchanged:
 * they run on every customization request) and read-modify-write units, which run serialized in
 * the database's group commit (db/group-commit.ts) so that no concurrent writer is ever lost.
 */
export class CustomizationRepository {
  private readonly siteQuery;
  private readonly variantQuery;

  constructor(
    private readonly db: Db,
    /** Revisions kept per site and per variant (CUSTOMIZATION_HISTORY_KEEP); 0: all. */
    private readonly keep = 0,
  ) {
    this.siteQuery = prepareCached(
      db,
      (organizationId: string, siteId: string) => selectSite(db, organizationId, siteId),
      ([row]) => row && toSite(row),
    );
    this.variantQuery = prepareCached(
      db,
      (organizationId: string, siteId: string, siteSpaceId: string) =>
        selectVariant(db, organizationId, siteId, siteSpaceId),
      ([row]) => row && toVariant(row),
    );
  }

  /** The same record object while the database is unchanged: do not modify it. */
  readSite(organizationId: string, siteId: string): Promise<SiteCustomizationRecord | undefined> {
    return this.siteQuery(organizationId, siteId);
  }

  /** The same record object while the database is unchanged: do not modify it. */
  readVariant(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
  ): Promise<VariantCustomizationRecord | undefined> {
    return this.variantQuery(organizationId, siteId, siteSpaceId);
  }

  /** readVariant's record if it is kept and current (no waiting), else MISS. */
  peekVariant(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
  ): VariantCustomizationRecord | undefined | typeof MISS {
    return this.variantQuery.peek(organizationId, siteId, siteSpaceId);
  }

  /** Runs a read-modify-write unit; its result is returned once it is durably committed. */
  update<T>(work: (unit: CustomizationUnit) => Promise<T>): Promise<T> {
    return groupCommitOf(this.db).run((tx) => work(new CustomizationUnit(tx, this.keep)));
  }

  /** One page of a scope's revisions, newest first, without their documents. */
  async listRevisions(scope: string, before: number | undefined, limit: number) {
    const query = this.db.selectFrom('customization_revisions').where('scope', '=', scope);
    const counted = await query.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
    const rows = await (before === undefined ? query : query.where('number', '<', before))
      .select(SUMMARY_COLUMNS)
      .orderBy('number', 'desc')
      .limit(limit + 1)
      .execute();
    return { rows, count: Number(counted.count) };
  }

  /** The document of the site's revision that produced `etag`, if it is kept. */
  async siteDocumentByEtag(siteId: string, etag: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('customization_revisions')
      .select('document')
      .where('scope', '=', siteId)
      .where('etag', '=', etag)
      .executeTakeFirst();
    return row?.document ?? undefined;
  }

  /** A revision with its documents, or undefined (never recorded, or pruned). */
  getRevision(scope: string, number: number): Promise<CustomizationRevisionRow | undefined> {
    return this.db
      .selectFrom('customization_revisions')
      .selectAll()
      .where('scope', '=', scope)
      .where('number', '=', number)
      .executeTakeFirst();
  }
}

const SUMMARY_COLUMNS = [
  'number',
  'created_at',
  'actor_user_id',
  'actor_token_id',
  'operation',
  'etag',
  'changes',
  'restored_from',
  'message',
] as const;

/** A variant's record as a unit of the batch read or wrote it (see readVariant). */
interface KeptVariant {
  organizationId: string;
  siteId: string;
  record: VariantCustomizationRecord;
}

const keptKey = (siteSpaceId: string) => `customization:variant:${siteSpaceId}`;

/** Reads and writes inside one serialized unit of work; its reads lock what they read. */
export class CustomizationUnit {
  private readonly memo;

  constructor(
    private readonly tx: Tx,
    private readonly keep: number,
  ) {
    this.memo = batchMemoOf(tx);
  }

  /** A revision's stored document, read inside the unit (a restore). */
  async readRevision(scope: string, number: number) {
    return this.tx
      .selectFrom('customization_revisions')
      .select(['document'])
      .where('scope', '=', scope)
      .where('number', '=', number)
      .executeTakeFirst();
  }

  async readSite(organizationId: string, siteId: string) {
    const query = lockRows(this.tx, selectSite(this.tx, organizationId, siteId), 'sites');
    const row = await query.executeTakeFirst();
    return row && toSite(row);
  }

  /**
   * A variant read or written by an earlier unit of the same transaction is not read again: its
   * row stays locked until the COMMIT, so what that unit saw or wrote is what is stored (the
   * site's part is not locked, as in a read: any moment of the transaction is as good). Saves
   * a round trip per PATCH when concurrent PATCHes of one variant share a batch.
   */
  async readVariant(organizationId: string, siteId: string, siteSpaceId: string) {
    const kept = this.memo?.get(keptKey(siteSpaceId)) as KeptVariant | undefined;
    if (kept?.organizationId === organizationId && kept.siteId === siteId) return kept.record;
    const query = selectVariant(this.tx, organizationId, siteId, siteSpaceId);
    const row = await lockRows(this.tx, query, 'ss').executeTakeFirst();
    const record = row && toVariant(row);
    if (record !== undefined) {
      this.memo?.set(keptKey(siteSpaceId), { organizationId, siteId, record });
    }
    return record;
  }

  /** Stores a site's settings with its revision and audit entry; answers the revision's number. */
  async writeSite(
    record: SiteCustomizationRecord,
    json: string,
    change: RecordedChange,
  ): Promise<number> {
    const { siteId: id, customizationVersion: version } = record;
    const number = await this.run({ table: 'sites', id, json, version }, change);
    this.memo?.clear(); // kept variants carry their site's settings
    return number;
  }

  /**
   * Stores a variant's override (`json === null` removes it) with its revision and audit entry;
   * answers the revision's number.
   */
  async writeOverride(
    record: VariantCustomizationRecord,
    json: string | null,
    change: RecordedChange,
  ): Promise<number> {
    const { siteSpaceId: id, overrideVersion: version } = record;
    const number = await this.run({ table: 'site_spaces', id, json, version }, change);
    const kept = this.memo?.get(keptKey(record.siteSpaceId)) as KeptVariant | undefined;
    if (kept !== undefined) {
      const written = { override: json, overrideVersion: record.overrideVersion + 1 };
      const next = { ...record, ...written, overrideUpdatedAt: change.at };
      this.memo?.set(keptKey(record.siteSpaceId), { ...kept, record: next });
    }
    return number;
  }

  private async run(update: DocumentUpdate, change: RecordedChange): Promise<number> {
    const number = await runChange(this.tx, update, change);
    if (number === undefined) throw new Error(BROKEN_INVARIANT);
    await pruneRevisions(this.tx, change.scope, number, this.keep);
    return number;
  }
}

/**
 * Units are serialized and read inside their transaction, so the version they read is the
 * stored one. The version condition in the UPDATE turns a broken invariant into an error
 * instead of a silently lost write.
 */
const BROKEN_INVARIANT = 'customization changed under a serialized unit of work';
