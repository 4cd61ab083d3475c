import type { RepositoryLocation } from '../repository-url.js';
import type { Snapshot } from './snapshot.js';

/** A repository as a sync works with it: its location and the space's cache repository. */
export interface Workspace {
  dir: string;
  location: RepositoryLocation;
  /** The addresses the URL policy checked (an https fetch or push is pinned to them). */
  addresses?: string[];
  /** The URL as shown: credentials `***`. */
  redacted: string;
}

/** Where repositories come from: the URL policy and the `git` command (fetch.ts). */
export interface GitSource {
  /**
   * The URL as fetched and as shown (credentials `***`); 400 naming `url` when not allowed. The
   * space's id keeps its fetches apart from other spaces' (a cache repository per space).
   */
  check(url: string, spaceId: string): Promise<{ fetchUrl: string; redacted: string }>;
  /** Forgets a checked URL whose operation did not start (it holds the URL's credentials). */
  discard(fetchUrl: string): void;
  /** `repoProjectDirectory` as a path inside the repository; 400 naming the field otherwise. */
  projectDirectory(value: string | undefined): string;
  /** The commit at `ref`, fetched shallowly; ImportFailed with the reason when it cannot be. */
  snapshot(fetchUrl: string, ref: string, signal: AbortSignal): Promise<Snapshot>;
  /** A repository a sync works with (the URL policy checked, 400 naming `url` otherwise). */
  open(url: string, spaceId: string): Promise<Workspace>;
  /** A commit the cache repository holds, as the importer reads it. */
  snapshotAt(dir: string, oid: string, signal: AbortSignal): Promise<Snapshot>;
}
