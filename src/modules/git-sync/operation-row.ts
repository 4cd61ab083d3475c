import type { Db } from '../../db/database.js';
import type { GitSyncRow } from '../../db/schema.js';
import { ABANDONED } from './state.js';

/** How long a running operation's owner may go silent before the operation counts as dead. */
export const LEASE_MS = 30_000;

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * Where an operation row lives: a space's (git_sync, migration 0016) or a site's (site_git_sync,
 * migration 0022). Both rows are the lock of one operation at a time, by the same rules, so the
 * queries that take, renew and end that lock are written once here.
 */
export type OperationSlot =
  | { table: 'git_sync'; key: 'space_id' }
  | { table: 'site_git_sync'; key: 'site_id' };

/** The fields an operation starts with (what both tables share, but the row's key). */
export type OperationStart = Pick<
  GitSyncRow,
  | 'url'
  | 'ref'
  | 'project_directory'
  | 'tree_url'
  | 'commit_url'
  | 'state'
  | 'direction'
  | 'started_at'
  | 'timestamp'
  | 'owner'
  | 'updated_at'
>;

/** What a start request (an import's or an export's body) says of the repository. */
export interface RepositoryRequest {
  ref: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
}

/**
 * A running operation of `owner` starting `at`: the row fields a service's start writes, from
 * the request (`projectDirectory` '' for the repository's root) and the redacted URL.
 */
export function runningOperation(
  input: RepositoryRequest,
  op: {
    url: string;
    projectDirectory: string;
    direction: OperationStart['direction'];
    at: string;
    timestamp: string | null;
    owner: string;
  },
): OperationStart {
  return {
    url: op.url,
    ref: input.ref,
    project_directory: op.projectDirectory === '' ? null : op.projectDirectory,
    tree_url: input.repoTreeURL ?? null,
    commit_url: input.repoCommitURL ?? null,
    state: 'running',
    direction: op.direction,
    started_at: op.at,
    timestamp: op.timestamp,
    owner: op.owner,
    updated_at: op.at,
  };
}

/** The fields a start writes: the repository's, a fresh outcome and the owner's first lease. */
export function startFields(row: OperationStart) {
  return {
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
}

/**
 * Takes an existing row for a new operation: true when none was running (or the one running lost
 * its owner: its lease ran out). The caller inserts the row first when there is none.
 */
export async function takeOver(
  db: Db,
  slot: OperationSlot,
  id: string,
  row: OperationStart,
): Promise<boolean> {
  const updated = await db
    .updateTable(slot.table)
    .set(startFields(row))
    .where(slot.key, '=', id)
    .where((eb) => eb.or([eb('state', '!=', 'running'), eb('lease_until', '<', row.started_at)]))
    .executeTakeFirst();
  return updated.numUpdatedRows === 1n;
}

/** Writes `fields` to the owner's running operation; false when it is no longer its own. */
export async function updateOwned(
  db: Db,
  slot: OperationSlot,
  id: string,
  owner: string,
  fields: Partial<Omit<GitSyncRow, 'space_id'>>,
): Promise<boolean> {
  const result = await db
    .updateTable(slot.table)
    .set(fields)
    .where(slot.key, '=', id)
    .where('owner', '=', owner)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** The owner's renewed lease, from `at`. */
export const renewedLease = (at: string) => ({ lease_until: plus(at, LEASE_MS) });

/**
 * A running operation whose owner went silent (a process that stopped or crashed) ends as a
 * failure that says so; reads call this, so no operation is ever seen `running` forever.
 * Every row of the table when `id` is undefined.
 */
export async function endAbandoned(
  db: Db,
  slot: OperationSlot,
  id: string | undefined,
  now: string,
): Promise<void> {
  let query = db
    .updateTable(slot.table)
    .set({
      state: 'failure',
      error: ABANDONED,
      ended_at: now,
      lease_until: null,
      updated_at: now,
    })
    .where('state', '=', 'running')
    .where('lease_until', '<', now);
  if (id !== undefined) query = query.where(slot.key, '=', id);
  await query.execute();
}
