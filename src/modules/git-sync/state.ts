import type { GitSyncRow } from '../../db/schema.js';

/** The error of an operation whose server stopped (or lost the database) before it ended. */
export const ABANDONED =
  'The server running this operation stopped before it ended; run it again (the next run starts from the last point both sides agreed on, so nothing is lost).';

/** GitBook's GitSyncState, as `getSpaceGitInfo` answers and `Space.gitSync` carries it. */
export interface GitSyncState {
  installationId: string;
  installationProvider: 'github' | 'gitlab' | 'github-legacy';
  installationStatus: 'active';
  repoName: string;
  url: string;
  operation: {
    state: 'running' | 'success' | 'failure' | 'timeout';
    direction: 'import' | 'export';
    startedAt: string;
    endedAt?: string;
    error?: string;
  };
  operationTimeout?: number;
  updatedAt: string;
  /** Livery: the last sync where both sides changed the same files. */
  conflict?: {
    at: string;
    winner: 'git' | 'livery';
    files: string[];
    kept: { kind: 'change-request'; id: string } | { kind: 'branch'; name: string };
  };
  /** Livery: the commit both sides last agreed on. */
  commit?: string;
  /** Livery: what the latest operation left out, each with its file and line. */
  warnings: { file: string; line?: number; message: string }[];
}

/**
 * A space's Git Sync row as GitBook's GitSyncState. Livery has no Git provider installations:
 * the "installation" is the space's own repository, always active, and its provider is GitLab
 * when the URL says so, else GitHub (GitBook's schema knows no other).
 */
export function gitSyncStateOf(
  stored: GitSyncRow,
  operationTimeout?: number,
  now = new Date().toISOString(),
): GitSyncState {
  // A running operation whose owner went silent is shown as what it is, a failure, by every
  // reader (Space.gitSync too), even before a read of getSpaceGitInfo writes that down.
  const row: GitSyncRow =
    stored.state === 'running' && stored.lease_until !== null && stored.lease_until < now
      ? { ...stored, state: 'failure', error: ABANDONED, ended_at: stored.lease_until }
      : stored;
  return {
    installationId: `livery-${row.space_id}`,
    installationProvider: /gitlab/i.test(row.url) ? 'gitlab' : 'github',
    installationStatus: 'active',
    repoName: repoNameOf(row.url),
    url: row.tree_url ?? row.url,
    operation: {
      state: row.state,
      direction: row.direction,
      startedAt: row.started_at,
      ...(row.ended_at === null ? {} : { endedAt: row.ended_at }),
      ...(row.error === null ? {} : { error: row.error }),
    },
    ...(operationTimeout === undefined ? {} : { operationTimeout }),
    updatedAt: row.updated_at,
    ...(row.conflict === null || row.conflict === undefined
      ? {}
      : { conflict: JSON.parse(row.conflict) as NonNullable<GitSyncState['conflict']> }),
    ...(row.commit_oid === null ? {} : { commit: row.commit_oid }),
    warnings: JSON.parse(row.warnings) as GitSyncState['warnings'],
  };
}

/** `owner/name` of a repository URL (`https://host/owner/name.git`, `git@host:owner/name`). */
export function repoNameOf(url: string): string {
  const path = url
    .replace(/^[a-z+]+:\/\/[^/]*\//i, '')
    .replace(/^[^@/]+@[^:]+:/, '')
    .replace(/\.git\/?$/, '');
  const parts = path.split('/').filter((p) => p !== '');
  return parts.slice(-2).join('/') || url;
}
