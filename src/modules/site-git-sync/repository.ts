import type { Db } from '../../db/database.js';
import type { SiteGitSyncRow } from '../../db/schema.js';
import {
  endAbandoned,
  type OperationSlot,
  renewedLease,
  startFields,
  takeOver,
  updateOwned,
} from '../git-sync/operation-row.js';

const SLOT: OperationSlot = { table: 'site_git_sync', key: 'site_id' };

/**
 * A site's Git Sync row (migration 0022): its repository and latest site operation, and the lock
 * that keeps one site operation at a time in every process, as git-sync/repository.ts does for
 * a space (same lease, same abandoned-operation rule).
 */
export class SiteGitSyncRepository {
  constructor(private readonly db: Db) {}

  get(siteId: string): Promise<SiteGitSyncRow | undefined> {
    return this.db
      .selectFrom('site_git_sync')
      .selectAll()
      .where('site_id', '=', siteId)
      .executeTakeFirst();
  }

  /** The rows of these sites (Site.gitSync of a listing). */
  async rows(siteIds: readonly string[]): Promise<SiteGitSyncRow[]> {
    if (siteIds.length === 0) return [];
    return this.db
      .selectFrom('site_git_sync')
      .selectAll()
      .where('site_id', 'in', siteIds)
      .execute();
  }

  /** Starts an operation: true when this caller now owns it. */
  async start(
    row: Omit<SiteGitSyncRow, 'lease_until' | 'ended_at' | 'error' | 'warnings' | 'commit_oid'>,
  ): Promise<boolean> {
    const inserted = await this.db
      .insertInto('site_git_sync')
      .values({ site_id: row.site_id, commit_oid: null, ...startFields(row) })
      .onConflict((oc) => oc.column('site_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return true;
    return takeOver(this.db, SLOT, row.site_id, row);
  }

  async renew(siteId: string, owner: string, at: string): Promise<boolean> {
    return updateOwned(this.db, SLOT, siteId, owner, renewedLease(at));
  }

  async end(
    siteId: string,
    owner: string,
    end: Pick<SiteGitSyncRow, 'state' | 'error' | 'warnings' | 'ended_at'> & {
      commit_oid?: string;
    },
  ): Promise<boolean> {
    return updateOwned(this.db, SLOT, siteId, owner, {
      ...end,
      lease_until: null,
      updated_at: end.ended_at ?? new Date().toISOString(),
    });
  }

  async endAbandoned(siteId: string, now: string): Promise<void> {
    await endAbandoned(this.db, SLOT, siteId, now);
  }
}
