import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GitError, runGit } from './git-process.js';
import type { RepositoryLocation } from './repository-url.js';

export { type Blob, readBlobs, streamBlobs } from './cat-file.js';
export { GitError, type GitFailure } from './git-process.js';

/**
 * The Git operations of an import, over the `git` command: fetch one commit into a bare cache
 * repository, then read its tree and blobs from the object database. Nothing is checked out, so a
 * symbolic link or a submodule is only an entry of the tree, and no byte outside the repository
 * is ever read.
 */

/** Where the fetched commit is kept in the cache repository. */
export const IMPORT_REF = 'refs/livery/import';

export interface FetchOptions {
  /** 1 by default: only the commit's tree is needed. */
  depth?: number;
  timeoutMs?: number;
  /** The addresses `assertPublicHost` returned, to pin an https fetch to them. */
  addresses?: readonly string[];
  /** Stops the fetch when aborted. */
  signal?: AbortSignal;
  /** The cache repository's ref the commit is kept at (IMPORT_REF by default). */
  into?: string;
}

/**
 * Fetches `ref` (`refs/heads/main`, `main`, a tag, or a commit id) from the repository into the
 * bare repository `cacheDir` (created when missing) and gives the commit's id.
 */
export async function fetchRef(
  cacheDir: string,
  source: RepositoryLocation,
  ref: string,
  options: FetchOptions = {},
): Promise<string> {
  if (ref === '' || ref.startsWith('-') || /[\s:^~?*[\\]|\.\.|@\{/.test(ref)) {
    throw new GitError('unknown-ref', `ref ${JSON.stringify(ref)} is not a valid Git ref`);
  }
  if (!existsSync(join(cacheDir, 'HEAD'))) {
    await mkdir(cacheDir, { recursive: true });
    await runGit(['init', '--bare', '--quiet', cacheDir]);
  }
  const { url, config } = remoteOf(source, options.addresses);
  const depth = options.depth ?? 1;
  await runGit(
    [
      '--git-dir',
      cacheDir,
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      ...(depth > 0 ? [`--depth=${depth}`] : []),
      '--',
      url,
      `+${ref}:${options.into ?? IMPORT_REF}`,
    ],
    {
      config,
      timeoutMs: options.timeoutMs ?? 300_000,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  const oid = await runGit([
    '--git-dir',
    cacheDir,
    'rev-parse',
    '--verify',
    '--quiet',
    `${options.into ?? IMPORT_REF}^{commit}`,
  ]);
  return oid.toString('utf8').trim();
}

/**
 * The URL git is given for a location and the settings that go with it: a local repository as a
 * file:// URL (git's local-path shortcut would ignore --depth), an https one pinned to the
 * addresses the URL policy checked (curl connects to them only, whatever DNS answers now).
 */
export function remoteOf(
  source: RepositoryLocation,
  addresses: readonly string[] = [],
): { url: string; config: string[] } {
  if (source.kind === 'local') {
    return { url: pathToFileURL(source.path).href, config: ['protocol.file.allow=always'] };
  }
  const config: string[] = [];
  if (source.transport === 'https' && addresses.length > 0) {
    const list = addresses.map((a) => (a.includes(':') ? `[${a}]` : a)).join(',');
    config.push(`http.curloptResolve=${source.host}:${source.port}:${list}`);
  }
  return { url: source.url, config };
}

export interface CommitInfo {
  oid: string;
  message: string;
  authorName: string;
  authorEmail: string;
  /** The author date, ISO 8601 with its offset. */
  date: string;
}

export async function commitInfo(dir: string, oid: string): Promise<CommitInfo> {
  const out = await runGit([
    '--git-dir',
    dir,
    'show',
    '--no-patch',
    '--format=%H%x00%an%x00%ae%x00%aI%x00%B',
    `${checkOid(oid)}^{commit}`,
    '--',
  ]);
  const [full = '', authorName = '', authorEmail = '', date = '', ...message] = out
    .toString('utf8')
    .split('\0');
  return {
    oid: full,
    message: message.join('\0').replace(/\n+$/, ''),
    authorName,
    authorEmail,
    date,
  };
}

export interface TreeEntry {
  /** The path from the repository's top, `/`-separated, as stored. */
  path: string;
  /** Git's mode: 100644, 100755, 120000 (symbolic link), 160000 (submodule). */
  mode: string;
  oid: string;
  /** Bytes; undefined for a submodule (its object is a commit of another repository). */
  size?: number;
  type: 'file' | 'symlink' | 'submodule';
}

/** Every file of a commit's tree (`git ls-tree -r -l -z`), symbolic links and submodules named. */
export async function listTree(
  dir: string,
  oid: string,
  maxBytes = 256 << 20,
): Promise<TreeEntry[]> {
  const out = await runGit(
    ['--git-dir', dir, 'ls-tree', '-r', '-l', '-z', '--full-tree', checkOid(oid)],
    {
      maxStdout: maxBytes,
    },
  );
  const entries: TreeEntry[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode = '', , object = '', size = '-'] = record.slice(0, tab).split(/ +/);
    const path = record.slice(tab + 1);
    const type = mode === '120000' ? 'symlink' : mode === '160000' ? 'submodule' : 'file';
    entries.push(
      size === '-'
        ? { path, mode, oid: object, type }
        : { path, mode, oid: object, size: Number(size), type },
    );
  }
  return entries;
}

/** Whether a blob is a Git LFS pointer (the file itself lives on an LFS server, not in Git). */
export function isLfsPointer(data: Buffer): boolean {
  return (
    data.length < 1024 && data.subarray(0, LFS_HEADER.length).toString('latin1') === LFS_HEADER
  );
}

/**
 * Whether a blob is binary by git's own rule (a NUL byte in its first 8000 bytes): a `.md` file
 * that is binary is not a page.
 */
export function isBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}

const LFS_HEADER = 'version https://git-lfs.github.com/spec/v1\n';

/** A commit or object id, or a GitError: ids are given to git as arguments. */
export function checkOid(oid: string): string {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid)) {
    throw new GitError('unknown-ref', `${JSON.stringify(oid)} is not an object id`);
  }
  return oid;
}
