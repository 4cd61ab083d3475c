import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { checkOid, remoteOf } from './git-command.js';
import { GitError, killGroup, runGit, spawnGit } from './git-process.js';
import type { RepositoryLocation } from './repository-url.js';

/**
 * The Git operations of an export (docs/git-sync.md, "Export"): a commit made with one
 * `git fast-import` from its parent and the files that changed, a three-way merge of two commits
 * by `git merge-tree` (no work tree, no index), and a push that never forces.
 */

/** Git's id of a blob of these bytes (SHA-1 of `blob <size>\0<bytes>`). */
export function blobOid(data: Buffer): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

/** A change of a commit's tree: a file's new bytes, an existing blob at a path, or a deletion. */
export type TreeChange =
  | { path: string; data: Buffer }
  | { path: string; oid: string }
  | { path: string; delete: true };

export interface NewCommit {
  /** The ref of the cache repository the commit is written to. */
  ref: string;
  parents: readonly string[];
  /** The tree to start from instead of the first parent's (a merge's tree). */
  tree?: string;
  changes: readonly TreeChange[];
  message: string;
  author: { name: string; email: string };
  /** Seconds since the epoch. */
  time: number;
}

/** Writes a commit into the bare repository `dir` and gives its id. */
export async function writeCommit(
  dir: string,
  commit: NewCommit,
  signal?: AbortSignal,
): Promise<string> {
  for (const parent of commit.parents) checkOid(parent);
  const child = spawnGit(['--git-dir', dir, 'fast-import', '--quiet', '--force', '--done'], []);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  const stop = () => killGroup(child.pid);
  signal?.addEventListener('abort', stop, { once: true });
  const closed = once(child, 'close');
  child.stdin.on('error', () => {});
  try {
    const write = async (chunk: string | Buffer) => {
      if (!child.stdin.write(chunk)) await once(child.stdin, 'drain');
    };
    const person = `${clean(commit.author.name)} <${clean(commit.author.email)}> ${commit.time} +0000`;
    const message = Buffer.from(commit.message, 'utf8');
    await write(`commit ${commit.ref}\nauthor ${person}\ncommitter ${person}\n`);
    await write(`data ${message.length}\n`);
    await write(message);
    await write('\n');
    const [first, ...others] = commit.parents;
    if (first !== undefined) await write(`from ${first}\n`);
    for (const other of others) await write(`merge ${other}\n`);
    if (commit.tree !== undefined) await write(`M 040000 ${checkOid(commit.tree)} ""\n`);
    for (const change of commit.changes) {
      const path = quote(change.path);
      if ('delete' in change) await write(`D ${path}\n`);
      else if ('oid' in change) await write(`M 100644 ${checkOid(change.oid)} ${path}\n`);
      else {
        await write(`M 100644 inline ${path}\ndata ${change.data.length}\n`);
        await write(change.data);
        await write('\n');
      }
    }
    await write('done\n');
    child.stdin.end();
    const [code] = await closed;
    if (signal?.aborted === true) throw new GitError('failed', 'git fast-import was stopped');
    if (code !== 0) {
      throw new GitError('failed', `git fast-import failed: ${stderr.trim().split('\n').at(-1)}`);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
  return (await runGit(['--git-dir', dir, 'rev-parse', '--verify', `${commit.ref}^{commit}`]))
    .toString('utf8')
    .trim();
}

/** A name or address in a commit's header: no `<`, `>` or line breaks. */
const clean = (text: string) => text.replace(/[<>\n\r]/g, '').trim() || 'unknown';

/** A path as fast-import reads it: C-style quoted, so spaces, quotes and line breaks are safe. */
function quote(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export interface MergeResult {
  tree: string;
  /** Paths both sides changed differently, with each side's blob (absent: deleted there). */
  conflicts: { path: string; ours?: string; theirs?: string }[];
}

/** The three-way merge of two commits (their merge base found by git), as a tree. */
export async function mergeTrees(dir: string, ours: string, theirs: string): Promise<MergeResult> {
  const out = await runGit(
    [
      '--git-dir',
      dir,
      'merge-tree',
      '--write-tree',
      '-z',
      '--allow-unrelated-histories',
      checkOid(ours),
      checkOid(theirs),
    ],
    { okExit: [1], maxStdout: 64 << 20 },
  );
  // `<tree>\0`, then `<mode> <oid> <stage>\t<path>\0` per conflicted stage, `\0`, messages.
  const [tree = '', ...rest] = out.toString('utf8').split('\0');
  const byPath = new Map<string, { path: string; ours?: string; theirs?: string }>();
  for (const record of rest) {
    if (record === '') break;
    const tab = record.indexOf('\t');
    const [, oid = '', stage = ''] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    const entry = byPath.get(path) ?? { path };
    if (stage === '2') entry.ours = oid;
    if (stage === '3') entry.theirs = oid;
    byPath.set(path, entry);
  }
  return { tree: tree.trim(), conflicts: [...byPath.values()] };
}

/** Whether `ancestor` is `commit` or one of its ancestors (in what the cache repository holds). */
export async function isAncestor(dir: string, ancestor: string, commit: string): Promise<boolean> {
  // Exit 0: yes; 1: no (a GitError either way but the first).
  return runGit([
    '--git-dir',
    dir,
    'merge-base',
    '--is-ancestor',
    checkOid(ancestor),
    checkOid(commit),
  ]).then(
    () => true,
    () => false,
  );
}

/** Whether the cache repository has this commit. */
export async function hasCommit(dir: string, oid: string): Promise<boolean> {
  return runGit(['--git-dir', dir, 'cat-file', '-e', `${checkOid(oid)}^{commit}`]).then(
    () => true,
    () => false,
  );
}

/**
 * Pushes a commit of the cache repository to a branch of the remote, never forcing: a branch
 * that moved on is a GitError `push-rejected` (the caller merges and tries again).
 */
export async function pushCommit(
  dir: string,
  location: RepositoryLocation,
  oid: string,
  branchRef: string,
  options: { addresses?: readonly string[]; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const { url, config } = remoteOf(location, options.addresses);
  await runGit(
    [
      '--git-dir',
      dir,
      'push',
      '--quiet',
      '--no-verify',
      '--',
      url,
      `${checkOid(oid)}:${branchRef}`,
    ],
    {
      config,
      timeoutMs: options.timeoutMs ?? 300_000,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
}
