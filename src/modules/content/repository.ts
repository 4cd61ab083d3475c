import { BoundedCache } from '../../bounded-cache.js';
import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import type { ChangeRequestRow, RevisionRow } from '../../db/schema.js';
import { keysetPage, type PageRequest } from '../../http/pagination.js';
import type { Tree } from './tree.js';

/** A revision, parsed. Revisions never change, so parsed ones are kept (see `revisions`). */
export interface Revision {
  id: string;
  spaceId: string;
  type: RevisionRow['type'];
  parents: string[];
  mergedFrom: string | null;
  pages: Tree;
  touched: ReadonlySet<string>;
  createdAt: string;
}

export interface NewRevision {
  id: string;
  spaceId: string;
  type: RevisionRow['type'];
  parents: string[];
  mergedFrom?: string;
  pages: Tree;
  touched: Iterable<string>;
  createdBy: string | null;
  createdAt: string;
}

/** Parsed revisions kept, by the size of their JSON: whole trees can be large. */
const CACHE_BYTES = 64 * 1024 * 1024;

/** Thrown inside a transaction to roll it back when a compare-and-swap finds the row moved on. */
class LostRace extends Error {}

export class ContentRepository {
  /** Parsed revisions by id. */
  private readonly revisions = new BoundedCache<Revision>(CACHE_BYTES);

  constructor(private readonly db: Db) {}

  async revision(id: string): Promise<Revision | undefined> {
    const cached = this.revisions.get(id);
    if (cached !== undefined) return cached;
    const row = await this.db
      .selectFrom('revisions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const revision: Revision = {
      id: row.id,
      spaceId: row.space_id,
      type: row.type,
      parents: JSON.parse(row.parents) as string[],
      mergedFrom: row.merged_from,
      pages: JSON.parse(row.pages) as Tree,
      touched: new Set(JSON.parse(row.touched) as string[]),
      createdAt: row.created_at,
    };
    this.revisions.set(id, revision, row.pages.length + row.touched.length);
    return revision;
  }

  private revisionRow(revision: NewRevision): RevisionRow {
    return {
      id: revision.id,
      space_id: revision.spaceId,
      type: revision.type,
      parents: JSON.stringify(revision.parents),
      merged_from: revision.mergedFrom ?? null,
      pages: JSON.stringify(revision.pages),
      touched: JSON.stringify([...revision.touched]),
      created_by: revision.createdBy,
      created_at: revision.createdAt,
    };
  }

  /** A change request by id, or by its number in the space when `ref` is all digits. */
  async findChangeRequest(spaceId: string, ref: string): Promise<ChangeRequestRow | undefined> {
    const query = this.db.selectFrom('change_requests').selectAll().where('space_id', '=', spaceId);
    return /^[0-9]{1,15}$/.test(ref)
      ? query.where('number', '=', Number(ref)).executeTakeFirst()
      : query.where('id', '=', ref).executeTakeFirst();
  }

  /**
   * A new change request numbered after the space's last one. Simultaneous ones are serialized by
   * locking the space's row before reading the last number: at READ COMMITTED (PostgreSQL) the
   * `max` read after the lock sees every number committed by the transaction that held it, so
   * numbers stay 1, 2, 3… with no gap and no duplicate however many requests race. (A retry on a
   * unique violation alone gave up under 20 concurrent requests: each retry races again.)
   */
  async insertChangeRequest(row: Omit<ChangeRequestRow, 'number'>): Promise<ChangeRequestRow> {
    return this.db.transaction().execute(async (trx) => {
      await lockRows(
        trx,
        trx.selectFrom('spaces').select('id').where('id', '=', row.space_id),
        'spaces',
      ).executeTakeFirst();
      const { last } = await trx
        .selectFrom('change_requests')
        .select((eb) => eb.fn.max('number').as('last'))
        .where('space_id', '=', row.space_id)
        .executeTakeFirstOrThrow();
      const full = { ...row, number: Number(last ?? 0) + 1 };
      await trx.insertInto('change_requests').values(full).execute();
      return full;
    });
  }

  async listChangeRequests(spaceId: string, status: ChangeRequestRow['status'], page: PageRequest) {
    const query = this.db
      .selectFrom('change_requests as c')
      .where('c.space_id', '=', spaceId)
      .where('c.status', '=', status);
    return keysetPage(query, 'c', page, (q) => q.selectAll('c'));
  }

  /** Sets subject/status unless the change request was merged meanwhile (then undefined). */
  async updateChangeRequest(
    id: string,
    change: Partial<Pick<ChangeRequestRow, 'subject' | 'status'>>,
    at: string,
  ): Promise<ChangeRequestRow | undefined> {
    return this.db
      .updateTable('change_requests')
      .set({ ...change, updated_at: at })
      .where('id', '=', id)
      .where('status', '!=', 'merged')
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Makes `revision` the change request's content if its content is still `expected` and it is
   * still open or draft; false when another write got there first (the caller retries).
   */
  async advanceChangeRequest(
    id: string,
    expected: string,
    revision: NewRevision,
    change: Partial<Pick<ChangeRequestRow, 'revision_merged_ancestor'>> = {},
  ): Promise<boolean> {
    return this.swap(async (trx) => {
      await trx.insertInto('revisions').values(this.revisionRow(revision)).execute();
      const result = await trx
        .updateTable('change_requests')
        .set({ ...change, revision_id: revision.id, updated_at: revision.createdAt })
        .where('id', '=', id)
        .where('revision_id', '=', expected)
        .where('status', 'in', ['open', 'draft'])
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    });
  }

  /**
   * Merges: `revision` becomes the space's current revision if that is still `spaceRevision`,
   * and the change request (still at `crRevision`, not merged) becomes merged. All or nothing.
   */
  async merge(
    changeRequestId: string,
    crRevision: string,
    spaceRevision: string,
    revision: NewRevision,
  ): Promise<boolean> {
    return this.swap(async (trx) => {
      await trx.insertInto('revisions').values(this.revisionRow(revision)).execute();
      const space = await trx
        .updateTable('spaces')
        .set({ revision_id: revision.id, updated_at: revision.createdAt })
        .where('id', '=', revision.spaceId)
        .where('revision_id', '=', spaceRevision)
        .executeTakeFirst();
      if (space.numUpdatedRows !== 1n) return false;
      const request = await trx
        .updateTable('change_requests')
        .set({ status: 'merged', revision_merged: revision.id, updated_at: revision.createdAt })
        .where('id', '=', changeRequestId)
        .where('revision_id', '=', crRevision)
        .where('status', 'in', ['open', 'draft'])
        .executeTakeFirst();
      return request.numUpdatedRows === 1n;
    });
  }

  /** Runs `write` in a transaction, rolled back when it answers false. */
  private async swap(write: (trx: Db) => Promise<boolean>): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        if (!(await write(trx))) throw new LostRace();
      });
      return true;
    } catch (error) {
      if (error instanceof LostRace) return false;
      throw error;
    }
  }
}
