import type { Db } from '../../db/database.js';
import type { SiteGitSyncRow } from '../../db/schema.js';
import { LEASE_MS } from '../git-sync/repository.js';
import { ABANDONED } from '../git-sync/state.js';

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

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
      lease_until: plus(row.started_at, LEASE_MS),
      updated_at: row.updated_at,
    };
    const inserted = await this.db
      .insertInto('site_git_sync')
      .values({ site_id: row.site_id, commit_oid: null, ...fields })
      .onConflict((oc) => oc.column('site_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return true;
    const updated = await this.db
      .updateTable('site_git_sync')
      .set(fields)
      .where('site_id', '=', row.site_id)
      .where((eb) => eb.or([eb('state', '!=', 'running'), eb('lease_until', '<', row.started_at)]))
      .executeTakeFirst();
    return updated.numUpdatedRows === 1n;
  }

  async renew(siteId: string, owner: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('site_git_sync')
      .set({ lease_until: plus(at, LEASE_MS) })
      .where('site_id', '=', siteId)
      .where('owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async end(
    siteId: string,
    owner: string,
    end: Pick<SiteGitSyncRow, 'state' | 'error' | 'warnings' | 'ended_at'> & {
      commit_oid?: string;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('site_git_sync')
      .set({ ...end, lease_until: null, updated_at: end.ended_at ?? new Date().toISOString() })
      .where('site_id', '=', siteId)
      .where('owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async endAbandoned(siteId: string, now: string): Promise<void> {
    await this.db
      .updateTable('site_git_sync')
      .set({
        state: 'failure',
        error: ABANDONED,
        ended_at: now,
        lease_until: null,
        updated_at: now,
      })
      .where('state', '=', 'running')
      .where('lease_until', '<', now)
      .where('site_id', '=', siteId)
      .execute();
  }
}
