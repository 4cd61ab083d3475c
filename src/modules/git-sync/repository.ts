import type { Db } from '../../db/database.js';
import type { GitSyncRow } from '../../db/schema.js';
import { ABANDONED } from './state.js';

/** How long a running operation's owner may go silent before the operation counts as dead. */
export const LEASE_MS = 30_000;

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

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
    const lease = plus(row.started_at, LEASE_MS);
    const fields = {
      url: row.url,
      ref: row.ref,
      project_directory: row.project_directory,
      tree_url: row.tree_url,
      commit_url: row.commit_url,
      state: row.state,
      direction: row.direction,
      started_at: row.started_at,
      ended_at: null,
      error: null,
      warnings: '[]',
      timestamp: row.timestamp,
      owner: row.owner,
      lease_until: lease,
      updated_at: row.updated_at,
    };
    const inserted = await this.db
      .insertInto('git_sync')
      .values({
        space_id: row.space_id,
        commit_oid: null,
        revision_id: null,
        owned_paths: null,
        conflict: null,
        ...fields,
      })
      .onConflict((oc) => oc.column('space_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return true;
    const updated = await this.db
      .updateTable('git_sync')
      .set(fields)
      .where('space_id', '=', row.space_id)
      .where((eb) => eb.or([eb('state', '!=', 'running'), eb('lease_until', '<', row.started_at)]))
      .executeTakeFirst();
    return updated.numUpdatedRows === 1n;
  }

  /** Renews the owner's lease; false when the operation is no longer its own. */
  async renew(spaceId: string, owner: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('git_sync')
      .set({ lease_until: plus(at, LEASE_MS) })
      .where('space_id', '=', spaceId)
      .where('owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
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
    const result = await trx
      .updateTable('git_sync')
      .set({ ...end, lease_until: null, updated_at: end.ended_at ?? new Date().toISOString() })
      .where('space_id', '=', spaceId)
      .where('owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Records where both sides agree while the owner's operation still runs (a pushed commit). */
  async checkpoint(
    spaceId: string,
    owner: string,
    point: Pick<GitSyncRow, 'revision_id' | 'owned_paths'> & { commit_oid: string },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('git_sync')
      .set(point)
      .where('space_id', '=', spaceId)
      .where('owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /**
   * A running operation whose owner went silent (a process that stopped or crashed) ends as a
   * failure that says so; reads call this, so no operation is ever seen `running` forever.
   */
  async endAbandoned(spaceId: string | undefined, now: string): Promise<void> {
    let query = this.db
      .updateTable('git_sync')
      .set({
        state: 'failure',
        error: ABANDONED,
        ended_at: now,
        lease_until: null,
        updated_at: now,
      })
      .where('state', '=', 'running')
      .where('lease_until', '<', now);
    if (spaceId !== undefined) query = query.where('space_id', '=', spaceId);
    await query.execute();
  }
}
