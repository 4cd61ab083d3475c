import type { FastifyBaseLogger } from 'fastify';
import type { ContentLimits } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { ContentRepository, Revision } from '../../content/repository.js';
import { type Tree, walk } from '../../content/tree.js';
import type { FilesRepository } from '../../files/repository.js';
import type { FilesService } from '../../files/service.js';
import type { SpacesService } from '../../spaces/service.js';
import { planExport } from '../export/plan.js';
import { GITBOOK_YAML, parseGitbookYaml, spaceRootOf } from '../format/gitbook-yaml.js';
import { isInside, join, relativeTo } from '../format/paths.js';
import { fetchRef, GitError, listTree, readBlobs } from '../git-command.js';
import {
  hasCommit,
  isAncestor,
  mergeTrees,
  pushCommit,
  type TreeChange,
  writeCommit,
} from '../git-write.js';
import type { Warning } from '../import/build-tree.js';
import { importCommit, SpaceMoved } from '../import/run.js';
import type { GitSource, Workspace } from '../import/source.js';

/**
 * One sync of a space with a branch (docs/git-sync.md, "Export" and "Two-way sync"), the same
 * steps for `exportToGitRepository` and for a linked space:
 *
 * 1. Fetch the branch (absent: it is created). The base is the commit both sides last agreed on
 *    (a linked space), or the branch's head (an export).
 * 2. Livery's side: the space's files as GitBook writes them, compared with the base, as one
 *    commit on it (none when nothing changed).
 * 3. The branch did not move: push that commit (never forced). It moved and Livery has nothing
 *    new: import the branch's head. Both moved: git merges the two commits (three-way, from their
 *    common ancestor); a file both changed takes the `priority` side's version and the other
 *    side's is kept (a change request, or a branch pushed to the remote); the merge is pushed,
 *    then imported, so both sides hold the same content.
 * 4. A push refused because the branch moved meanwhile starts again from 1 (at most 3 times).
 */
export type SyncMode = 'export' | 'sync';

export interface SyncPoint {
  commit: string;
  revisionId: string;
  owned: string[];
}

export interface SyncConflict {
  at: string;
  /** The side whose versions were kept in the space and the branch. */
  winner: 'git' | 'livery';
  files: string[];
  /** Where the other side's versions are. */
  kept: { kind: 'change-request'; id: string } | { kind: 'branch'; name: string };
}

export type SyncOutcome =
  | { kind: 'unchanged'; commit: string | undefined; point?: SyncPoint }
  | { kind: 'exported'; commit: string; point: SyncPoint }
  | { kind: 'imported'; commit: string; revision: string; warnings: Warning[] }
  | {
      kind: 'merged';
      commit: string;
      revision: string;
      warnings: Warning[];
      conflict?: SyncConflict;
    };

export interface SyncInput {
  spaceId: string;
  mode: SyncMode;
  workspace: Workspace;
  /** The branch's name (`main`), without `refs/heads/`. */
  branch: string;
  projectDirectory: string;
  priority: 'git' | 'livery';
  /** The last point both sides agreed on, for this repository and branch. */
  last: SyncPoint | undefined;
  message: (revision: Revision, since: string | undefined) => Promise<string>;
  author: { name: string; email: string };
  actor: string | null;
  signal: AbortSignal;
  deps: {
    spaces: SpacesService;
    content: ContentRepository;
    files: FilesRepository;
    filesService: FilesService;
    source: GitSource;
    limits: ContentLimits;
    log: FastifyBaseLogger;
    timeoutMs: number;
  };
  /** Records a point both sides agree on, before the operation ends (a pushed commit). */
  checkpoint: (point: SyncPoint) => Promise<void>;
  /** Ends the operation in an import's transaction (see importCommit), with a merge's conflict. */
  end: (
    trx: Db,
    warnings: Warning[],
    commit: string,
    synced: { revisionId: string; owned: string[] },
    conflict: SyncConflict | undefined,
  ) => Promise<boolean>;
  /** Keeps Livery's side of a conflict lost to the branch: a change request from that commit. */
  keepAsChangeRequest: (commit: string, files: string[]) => Promise<string>;
}

const REMOTE_REF = 'refs/livery/remote';
const EXPORT_REF = 'refs/livery/export';
const TRIES = 3;

export async function syncSpace(input: SyncInput): Promise<SyncOutcome> {
  let last = input.last;
  for (let attempt = 1; ; attempt++) {
    try {
      return await syncOnce(input, last, (point) => {
        last = point;
      });
    } catch (error) {
      const retry =
        (error instanceof GitError && error.reason === 'push-rejected') ||
        error instanceof SpaceMoved;
      if (!retry || attempt >= TRIES) throw error;
      input.deps.log.info(
        { attempt, reason: String(error) },
        'git sync: the other side moved, again',
      );
    }
  }
}

async function syncOnce(
  input: SyncInput,
  last: SyncPoint | undefined,
  agreed: (point: SyncPoint) => void,
): Promise<SyncOutcome> {
  const { workspace: ws, signal } = input;
  const { dir } = ws;
  const branchRef = `refs/heads/${input.branch}`;
  const known = last !== undefined && (await hasCommit(dir, last.commit));
  const head = await fetchHead(input, branchRef, known ? 0 : last === undefined ? 1 : 0);
  const base =
    input.mode === 'sync' && last !== undefined && (await hasCommit(dir, last.commit))
      ? last.commit
      : head;
  const revisionId = await input.deps.spaces.currentRevisionId(input.spaceId);
  const revision = await input.deps.content.revision(revisionId);
  if (revision === undefined) throw new Error(`revision ${revisionId} is missing`);
  // A link's first sync, with a branch that has content: the `priority` side is the start (as
  // GitBook's first sync asks which way to go); the repository's, by GitBook's default.
  if (
    input.mode === 'sync' &&
    last === undefined &&
    head !== undefined &&
    input.priority === 'git'
  ) {
    return imported(input, head, revisionId, 'imported');
  }
  const liveryChanged =
    input.mode === 'export' || last?.revisionId !== revisionId || base !== last?.commit;

  // Livery's side, as a commit on the base.
  const baseEntries = base === undefined ? [] : await listTree(dir, base);
  const baseFiles = new Map(
    baseEntries.filter((e) => e.type === 'file').map((e) => [e.path, e.oid]),
  );
  const text = async (path: string) => {
    const oid = baseFiles.get(path);
    if (oid === undefined) return undefined;
    return (await readBlobs(dir, [oid], { signal })).get(oid)?.toString('utf8');
  };
  const configPath = join(input.projectDirectory, GITBOOK_YAML);
  const config = parseGitbookYaml(await text(configPath), configPath);
  let root = spaceRootOf(input.projectDirectory, config);
  // A branch without .gitbook.yaml, for a space that came from a folder of its repository (a
  // `root: ./docs/` it had): that folder again, and the .gitbook.yaml that says so, or the
  // SUMMARY would sit above the pages and the next import would not find the space's files.
  // A branch that already has the space's SUMMARY where it is read keeps its layout.
  let configFile: { path: string; text: string } | undefined;
  if (!baseFiles.has(configPath) && !baseFiles.has(join(root, config.summary))) {
    const folder = pagesFolder(revision.pages);
    if (folder !== '' && folder !== root && isInside(folder, root)) {
      root = folder;
      configFile = {
        path: configPath,
        text: `root: ./${relativeTo(folder, input.projectDirectory)}/\n`,
      };
    }
  }
  let ours = base;
  let owned = last?.owned ?? [];
  if (liveryChanged) {
    const plan = await planExport({
      pages: revision.pages,
      files: await input.deps.filesService.files(revision),
      includes: await input.deps.filesService.reusableContents(revision),
      root,
      readme: config.readme,
      summary: config.summary,
      base: baseFiles,
      owned: new Set(owned),
      text,
      ...(configFile === undefined ? {} : { config: configFile }),
      bytes: (hash) => input.deps.filesService.blob(hash),
    });
    owned = plan.owned;
    if (plan.changes.length > 0 || base === undefined) {
      ours = await writeCommit(
        dir,
        {
          ref: EXPORT_REF,
          parents: base === undefined ? [] : [base],
          changes: plan.changes,
          message: await input.message(revision, last?.revisionId),
          author: input.author,
          time: Math.floor(Date.now() / 1000),
        },
        signal,
      );
    }
  }
  if (ours === undefined) return { kind: 'unchanged', commit: undefined };
  const ourPoint = { commit: ours, revisionId, owned };

  // The branch did not move (or is new): Livery's commit goes on it.
  if (head === undefined || (await isAncestor(dir, head, ours))) {
    if (head === ours) {
      return { kind: 'unchanged', commit: ours, point: ourPoint };
    }
    await push(input, ours, branchRef);
    agreed(ourPoint);
    return { kind: 'exported', commit: ours, point: ourPoint };
  }
  // The branch moved, Livery did not: the branch's head comes in.
  if (ours === base) {
    return imported(input, head, revisionId, 'imported');
  }
  // Both moved: merged by git, the priority side's version where both changed one file.
  const merged = await mergeTrees(dir, ours, head);
  const resolution: TreeChange[] = merged.conflicts.map((c) => {
    const oid = input.priority === 'livery' ? c.ours : c.theirs;
    return oid === undefined ? { path: c.path, delete: true } : { path: c.path, oid };
  });
  const mergeCommit = await writeCommit(
    dir,
    {
      ref: EXPORT_REF,
      parents: [ours, head],
      tree: merged.tree,
      changes: resolution,
      message: `Merge ${input.branch} into Livery's changes${merged.conflicts.length === 0 ? '' : ` (${merged.conflicts.length} file(s) changed on both sides: ${input.priority === 'livery' ? "Livery's" : "the branch's"} versions kept)`}`,
      author: input.author,
      time: Math.floor(Date.now() / 1000),
    },
    signal,
  );
  await push(input, mergeCommit, branchRef);
  // Pushed: Livery's commit is on the branch, whatever happens next.
  await input.checkpoint(ourPoint);
  agreed(ourPoint);
  let conflict: SyncConflict | undefined;
  const files = merged.conflicts.map((c) => c.path);
  if (files.length > 0) {
    const at = new Date().toISOString();
    if (input.priority === 'livery') {
      // The branch's versions, as they were, on a branch of their own.
      const name = `livery/conflict-${at.replace(/[-:]/g, '').slice(0, 15)}`;
      await push(input, head, `refs/heads/${name}`);
      conflict = { at, winner: 'livery', files, kept: { kind: 'branch', name } };
    } else {
      const id = await input.keepAsChangeRequest(ours, files);
      conflict = { at, winner: 'git', files, kept: { kind: 'change-request', id } };
    }
    input.deps.log.warn({ conflict }, 'git sync: both sides changed the same files');
  }
  const done = await imported(input, mergeCommit, revisionId, 'merged', conflict);
  return done.kind === 'merged' && conflict !== undefined ? { ...done, conflict } : done;
}

/** The deepest folder holding every page that came from a file ('' when none did, or the top). */
function pagesFolder(pages: Tree): string {
  let common: string[] | undefined;
  for (const { page } of walk(pages)) {
    if (page.git === undefined) continue;
    const folder = page.git.path.split('/').slice(0, -1);
    if (common === undefined) common = folder;
    else {
      let n = 0;
      while (n < common.length && n < folder.length && common[n] === folder[n]) n++;
      common = common.slice(0, n);
    }
  }
  return (common ?? []).join('/');
}

async function imported<K extends 'imported' | 'merged'>(
  input: SyncInput,
  commit: string,
  expectedRevision: string,
  kind: K,
  conflict?: SyncConflict,
): Promise<Extract<SyncOutcome, { kind: K }>> {
  const outcome = await importCommit({
    spaceId: input.spaceId,
    fetchUrl: '',
    request: { url: input.workspace.redacted, ref: input.branch, force: true },
    projectDirectory: input.projectDirectory,
    actor: input.actor,
    lastCommit: null,
    signal: input.signal,
    spaces: input.deps.spaces,
    content: input.deps.content,
    files: input.deps.files,
    source: {
      ...input.deps.source,
      snapshot: (_key, _ref, signal) =>
        input.deps.source.snapshotAt(input.workspace.dir, commit, signal),
    },
    limits: input.deps.limits,
    log: input.deps.log,
    end: (trx, warnings, commit, synced) => input.end(trx, warnings, commit, synced, conflict),
    expectedRevision,
  });
  if (outcome.kind !== 'imported') throw new Error('a forced import is never unchanged');
  return {
    kind,
    commit,
    revision: outcome.revision,
    warnings: outcome.warnings,
  } as Extract<SyncOutcome, { kind: K }>;
}

/** The branch's head, fetched into the cache repository; undefined when the branch is absent. */
async function fetchHead(
  input: SyncInput,
  branchRef: string,
  depth: number,
): Promise<string | undefined> {
  try {
    return await fetchRef(input.workspace.dir, input.workspace.location, branchRef, {
      depth,
      into: REMOTE_REF,
      timeoutMs: input.deps.timeoutMs,
      signal: input.signal,
      ...(input.workspace.addresses === undefined ? {} : { addresses: input.workspace.addresses }),
    });
  } catch (error) {
    if (error instanceof GitError && error.reason === 'unknown-ref') return undefined;
    throw error;
  }
}

function push(input: SyncInput, oid: string, ref: string): Promise<void> {
  return pushCommit(input.workspace.dir, input.workspace.location, oid, ref, {
    timeoutMs: input.deps.timeoutMs,
    signal: input.signal,
    ...(input.workspace.addresses === undefined ? {} : { addresses: input.workspace.addresses }),
  });
}
