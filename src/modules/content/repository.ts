import type { Db } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import type { ChangeRequestRow } from '../../db/schema.js';
import { keysetPage, type PageRequest } from '../../http/pagination.js';
import { type NewRevision, type Revision, RevisionStore } from './storage/revisions.js';

export type { NewRevision, Revision } from './storage/revisions.js';

/** Thrown inside a transaction to roll it back when a compare-and-swap finds the row moved on. */
class LostRace extends Error {}

export class ContentRepository {
  private readonly revisions: RevisionStore;

  constructor(private readonly db: Db) {
    this.revisions = new RevisionStore(db);
  }

  private readonly movedListeners: ((spaceId: string, how: 'merge' | 'import') => void)[] = [];
  /**
   * Called after a space's current revision changed (a merge, an import), once committed:
   * two-way Git Sync exports what Livery merged.
   */
  onSpaceMoved(listener: (spaceId: string, how: 'merge' | 'import') => void): void {
    this.movedListeners.push(listener);
  }

  private moved(spaceId: string, how: 'merge' | 'import'): void {
    for (const listener of this.movedListeners) listener(spaceId, how);
  }

  /** Points a change request at another revision (a branch preview re-imported), if still `expected`. */
  async pointChangeRequest(id: string, expected: string, revisionId: string, at: string) {
    const result = await this.db
      .updateTable('change_requests')
      .set({ revision_id: revisionId, updated_at: at })
      .where('id', '=', id)
      .where('revision_id', '=', expected)
      .where('status', 'in', ['open', 'draft'])
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  revision(id: string): Promise<Revision | undefined> {
    return this.revisions.read(id);
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
        trx
          .selectFrom('spaces')
          .select('id')
          .where('id', '=', row.space_id)
          .where('deleted_at', 'is', null),
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
    return this.writeRevision(revision, async (trx) => {
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
    const done = await this.writeRevision(revision, async (trx) => {
      if (!(await moveSpace(trx, revision, spaceRevision))) return false;
      const request = await trx
        .updateTable('change_requests')
        .set({ status: 'merged', revision_merged: revision.id, updated_at: revision.createdAt })
        .where('id', '=', changeRequestId)
        .where('revision_id', '=', crRevision)
        .where('status', 'in', ['open', 'draft'])
        .executeTakeFirst();
      return request.numUpdatedRows === 1n;
    });
    if (done) this.moved(revision.spaceId, 'merge');
    return done;
  }

  /**
   * Writes an imported revision (docs/git-sync.md, "Semantics"): with `also` (its file sets and
   * the end of the operation) in one transaction, and, unless `spaceRevision` is undefined (a
   * standalone import), as the space's current revision if that is still `spaceRevision`. False
   * when the space moved on meanwhile or `also` says no: nothing is written.
   */
  async commitImport(
    revision: NewRevision,
    spaceRevision: string | undefined,
    also: (trx: Db) => Promise<boolean>,
  ): Promise<boolean> {
    const done = await this.writeRevision(revision, async (trx) => {
      if (spaceRevision !== undefined && !(await moveSpace(trx, revision, spaceRevision))) {
        return false;
      }
      return also(trx);
    });
    if (done && spaceRevision !== undefined) this.moved(revision.spaceId, 'import');
    return done;
  }

  /**
   * Inserts `revision` and runs `write` in one transaction, rolled back when `write` answers
   * false; the revision is cached only once committed.
   */
  private async writeRevision(
    revision: NewRevision,
    write: (trx: Db) => Promise<boolean>,
  ): Promise<boolean> {
    const prepared = await this.revisions.prepare(revision);
    const done = await this.swap(async (trx) => {
      await this.revisions.insert(trx, prepared);
      return write(trx);
    });
    if (done) this.revisions.committed(prepared);
    return done;
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

/** Makes `revision` the space's current one if that is still `expected` (a compare-and-swap). */
async function moveSpace(trx: Db, revision: NewRevision, expected: string): Promise<boolean> {
  const space = await trx
    .updateTable('spaces')
    .set({ revision_id: revision.id, updated_at: revision.createdAt })
    .where('id', '=', revision.spaceId)
    .where('revision_id', '=', expected)
    .executeTakeFirst();
  return space.numUpdatedRows === 1n;
}
