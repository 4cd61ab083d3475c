import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitSyncConfig } from '../../../config.js';
import { projectDirectoryOf } from '../format/gitbook-yaml.js';
import { commitInfo, fetchRef, GitError, listTree, readBlobs } from '../git-command.js';
import {
  assertPublicHost,
  checkRepositoryUrl,
  type RepositoryLocation,
} from '../repository-url.js';
import { ImportFailed } from './run.js';
import type { Snapshot } from './snapshot.js';
import type { GitSource } from './source.js';

/** What each failure of `git` tells the user (the operation's `error`). */
const REASONS: Readonly<Record<string, string>> = {
  'push-rejected': 'The repository refused the push: its branch moved on',
  unreachable: 'The repository could not be reached (the host is unknown or does not answer)',
  authentication:
    'The repository refused the credentials (give them in the URL, as https://user:token@host/…)',
  'unknown-ref': 'The repository has no such ref',
  'not-a-repository': 'The URL is not a Git repository',
  timeout: 'Fetching the repository took too long',
  'output-too-large': 'The repository is too large to list',
  failed: 'git could not fetch the repository',
};

/**
 * The repositories Livery may import (repository-url.ts's policy, GIT_LOCAL_DIRS and
 * GIT_ALLOW_PRIVATE_HOSTS) and the `git` command that fetches them (git-command.ts), shallowly,
 * into a bare repository per space under GIT_CACHE_DIR: a later import fetches only what changed.
 */
export function gitSource(config: GitSyncConfig): GitSource {
  const policy = { localDirs: config.localDirs, allowPrivate: config.allowPrivateHosts };
  const locations = new Map<
    string,
    { location: RepositoryLocation; spaceId: string; addresses?: string[] }
  >();
  return {
    async check(url, spaceId) {
      const location = checkRepositoryUrl(url, policy);
      const addresses =
        location.kind === 'remote' && !policy.allowPrivate
          ? await assertPublicHost(location.host)
          : undefined;
      // The checked location waits under a random key for the operation to fetch it: the URL
      // and its credentials live in this process's memory only, never in the database.
      const key = randomUUID();
      locations.set(key, { location, spaceId, ...(addresses === undefined ? {} : { addresses }) });
      const redacted = location.kind === 'remote' ? location.redacted : location.path;
      return { fetchUrl: key, redacted };
    },
    discard(key) {
      locations.delete(key);
    },
    projectDirectory: (value) => projectDirectoryOf(value),
    async snapshot(key, ref, signal) {
      const checked = locations.get(key);
      locations.delete(key);
      if (checked === undefined) throw new ImportFailed('The repository URL was not checked');
      const where =
        checked.location.kind === 'remote' ? checked.location.redacted : checked.location.path;
      // One cache repository per space and repository: imports of one space never overlap (its
      // operation lock), while two spaces importing one repository at once would race on its
      // refs, lock files and shallow file.
      const dir = cacheDirOf(config, checked.spaceId, where);
      try {
        await removeStaleLocks(dir);
        const oid = await fetchRef(dir, checked.location, ref, {
          depth: 1,
          timeoutMs: config.operationTimeoutMs,
          signal,
          ...(checked.addresses === undefined ? {} : { addresses: checked.addresses }),
        });
        if (signal.aborted) throw signal.reason;
        return await localSnapshot(dir, oid, config.operationTimeoutMs, signal);
      } catch (error) {
        throw importFailureOf(error);
      }
    },
    async open(url, spaceId) {
      const location = checkRepositoryUrl(url, policy);
      const addresses =
        location.kind === 'remote' && !policy.allowPrivate
          ? await assertPublicHost(location.host)
          : undefined;
      const where = location.kind === 'remote' ? location.redacted : location.path;
      const dir = cacheDirOf(config, spaceId, where);
      await removeStaleLocks(dir);
      return { dir, location, ...(addresses === undefined ? {} : { addresses }), redacted: where };
    },
    snapshotAt: (dir, oid, signal) => localSnapshot(dir, oid, config.operationTimeoutMs, signal),
  };
}

/** A git failure as the reason an operation gives (its `error`); anything else unchanged. */
export function importFailureOf(error: unknown): unknown {
  if (error instanceof GitError) {
    return new ImportFailed(`${REASONS[error.reason] ?? REASONS.failed} (${error.message})`);
  }
  return error;
}

/** The cache repository of a space and repository under GIT_CACHE_DIR. */
function cacheDirOf(config: GitSyncConfig, spaceId: string, where: string): string {
  return join(
    config.cacheDir,
    `${createHash('sha256').update(`${spaceId}\0${where}`).digest('hex').slice(0, 32)}.git`,
  );
}

/** A commit the cache repository holds, as the importer reads it. */
async function localSnapshot(
  dir: string,
  oid: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Snapshot> {
  const [commit, entries] = await Promise.all([commitInfo(dir, oid), listTree(dir, oid)]);
  return {
    oid,
    message: commit.message,
    entries: entries.map((e) => ({ path: e.path, mode: e.mode, oid: e.oid, size: e.size ?? 0 })),
    read: (oids) => readBlobs(dir, oids, { timeoutMs, signal }),
  };
}

/**
 * The lock files a `git fetch` stopped by SIGKILL (a timeout, a server stopping) leaves in the
 * cache repository: git refuses to fetch again until they go ("remove the file manually"). The
 * cache repository is the space's own in this process and one operation of a space runs at a
 * time, so a lock there when an operation starts is always stale.
 */
async function removeStaleLocks(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  const top = ['shallow.lock', 'packed-refs.lock', 'config.lock', 'HEAD.lock', 'FETCH_HEAD.lock'];
  await Promise.all(top.map((name) => rm(join(dir, name), { force: true })));
  const refs = join(dir, 'refs');
  if (!existsSync(refs)) return;
  for (const entry of await readdir(refs, { recursive: true })) {
    if (entry.endsWith('.lock')) await rm(join(refs, entry), { force: true });
  }
}
