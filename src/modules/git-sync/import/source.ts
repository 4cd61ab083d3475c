import type { Snapshot } from './snapshot.js';

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
}
