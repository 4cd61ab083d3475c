import type { Db } from '../../db/database.js';
import type { GitSyncRow } from '../../db/schema.js';
import {
  endAbandoned,
  type OperationSlot,
  renewedLease,
  startFields,
  takeOver,
  updateOwned,
} from './operation-row.js';

export { LEASE_MS } from './operation-row.js';

const SLOT: OperationSlot = { table: 'git_sync', key: 'space_id' };

/**
 * A space's Git Sync row (migration 0016): its repository and latest operation. The row is also
 * the lock that keeps one operation at a time per space, in every process of a deployment: an
 * operation starts by a conditional write that only succeeds when none is running (or the one
 * running lost its owner: its lease ran out), and its owner renews the lease while it works.
 */
export class GitSyncRepository {
  constructor(private readonly db: Db) {}

  get(spaceId: string): Promise<GitSyncRow | undefined> {
    return this.db
      .selectFrom('git_sync')
      .selectAll()
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
  }

  /**
   * Starts an operation: true when this caller now owns it; false when another is running (its
   * lease still good). Writes the repository's fields with it.
   */
  async start(
    row: Omit<
      GitSyncRow,
      | 'lease_until'
      | 'ended_at'
      | 'error'
      | 'warnings'
      | 'commit_oid'
      | 'revision_id'
      | 'owned_paths'
      | 'conflict'
    >,
  ): Promise<boolean> {
    const inserted = await this.db
      .insertInto('git_sync')
      .values({
        space_id: row.space_id,
        commit_oid: null,
        revision_id: null,
        owned_paths: null,
        conflict: null,
        ...startFields(row),
      })
      .onConflict((oc) => oc.column('space_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return true;
    return takeOver(this.db, SLOT, row.space_id, row);
  }

  /** Renews the owner's lease; false when the operation is no longer its own. */
  async renew(spaceId: string, owner: string, at: string): Promise<boolean> {
    return updateOwned(this.db, SLOT, spaceId, owner, renewedLease(at));
  }

  /**
   * Ends the owner's operation (in `trx` when given: the revision is written in the same
   * transaction). False when it was not its own any more.
   */
  async end(
    spaceId: string,
    owner: string,
    end: Pick<GitSyncRow, 'state' | 'error' | 'warnings' | 'ended_at'> &
      Partial<Pick<GitSyncRow, 'revision_id' | 'owned_paths' | 'conflict' | 'direction'>> & {
        commit_oid?: string;
      },
    trx: Db = this.db,
  ): Promise<boolean> {
    return updateOwned(trx, SLOT, spaceId, owner, {
      ...end,
      lease_until: null,
      updated_at: end.ended_at ?? new Date().toISOString(),
    });
  }

  /** Records where both sides agree while the owner's operation still runs (a pushed commit). */
  async checkpoint(
    spaceId: string,
    owner: string,
    point: Pick<GitSyncRow, 'revision_id' | 'owned_paths'> & { commit_oid: string },
  ): Promise<boolean> {
    return updateOwned(this.db, SLOT, spaceId, owner, point);
  }

  /**
   * A running operation whose owner went silent (a process that stopped or crashed) ends as a
   * failure that says so; reads call this, so no operation is ever seen `running` forever.
   */
  async endAbandoned(spaceId: string | undefined, now: string): Promise<void> {
    await endAbandoned(this.db, SLOT, spaceId, now);
  }
}
