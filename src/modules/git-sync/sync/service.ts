import type { FastifyBaseLogger } from 'fastify';
import type { ContentLimits, GitSyncConfig } from '../../../config.js';
import type { GitSyncRow } from '../../../db/schema.js';
import { badRequest, conflict } from '../../../errors.js';
import type { ContentRepository, Revision } from '../../content/repository.js';
import type { FilesRepository } from '../../files/repository.js';
import type { FilesService } from '../../files/service.js';
import type { SpacesService } from '../../spaces/service.js';
import { fetchRef } from '../git-command.js';
import type { GitSource, Workspace } from '../import/source.js';
import type { GitSyncService } from '../service.js';
import { importAsChangeRequest } from './change-request.js';
import { type SyncConflict, type SyncMode, type SyncPoint, syncSpace } from './run.js';

/** `exportToGitRepository`'s body (GitBook 0.202 ExportToGitRepository). */
export interface ExportRequest {
  url: string;
  ref: string;
  commitMessage: string;
  repoProjectDirectory?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
}

/** What a sync of a linked space needs of its link (links.ts), credentials decrypted. */
export interface SyncTarget {
  url: string;
  branch: string;
  projectDirectory: string;
  priority: 'git' | 'livery';
  commitTemplate: string;
  author: { name: string; email: string };
  /** Who the imports and change requests are by (the link's creator). */
  actor: string | null;
}

export interface SyncDeps {
  spaces: SpacesService;
  content: ContentRepository;
  files: FilesRepository;
  filesService: FilesService;
  source: GitSource;
  config: GitSyncConfig;
  limits: ContentLimits;
}

/**
 * Export and two-way sync (docs/git-sync.md): both take the space's Git Sync operation slot, as an
 * import does, and run sync/run.ts in the background; getSpaceGitInfo tells how they ended.
 */
export class GitExportService {
  private readonly moved: ((spaceId: string) => void)[] = [];

  constructor(
    private readonly gitSync: GitSyncService,
    private readonly deps: SyncDeps,
  ) {}

  /** Called after a sync changed the space (an import or a merge came in). */
  onImported(listener: (spaceId: string) => void): void {
    this.moved.push(listener);
  }

  /** `exportToGitRepository`: 400 for a URL or ref Livery may not push to, 409 while busy. */
  async startExport(spaceId: string, input: ExportRequest, actor: string | null): Promise<void> {
    const branch = branchOf(input.ref, 'body.ref');
    const projectDirectory = this.deps.source.projectDirectory(input.repoProjectDirectory);
    const time = input.timestamp === undefined ? undefined : Date.parse(input.timestamp);
    if (time !== undefined && Number.isNaN(time)) {
      throw badRequest('body.timestamp must be a date-time Livery can read (RFC 3339)');
    }
    await this.deps.spaces.currentRevisionId(spaceId);
    const workspace = await this.deps.source.open(input.url, spaceId);
    const last = await this.gitSync.row(spaceId);
    if (
      time !== undefined &&
      input.force !== true &&
      last?.timestamp != null &&
      time < Date.parse(last.timestamp)
    ) {
      return; // an event older than one already handled (GitBook keeps their order so)
    }
    const started = await this.begin(spaceId, workspace, input.ref, projectDirectory, 'export', {
      tree_url: input.repoTreeURL ?? null,
      commit_url: input.repoCommitURL ?? null,
      timestamp: time === undefined ? (last?.timestamp ?? null) : new Date(time).toISOString(),
    });
    if (!started) throw busy();
    const standalone = input.standalone === true;
    this.gitSync.launch(spaceId, 'export', (log, signal) =>
      this.run(spaceId, 'export', workspace, {
        target: {
          url: input.url,
          branch,
          projectDirectory,
          priority: 'git',
          commitTemplate: input.commitMessage,
          author: this.deps.config.author,
          actor,
        },
        last: standalone
          ? undefined
          : pointOf(last, workspace.redacted, input.ref, projectDirectory),
        message: async () => input.commitMessage,
        standalone,
        log,
        signal,
      }),
    );
  }

  /** A sync of a linked space; false when another operation of the space is running. */
  async startSync(
    spaceId: string,
    target: SyncTarget,
    direction: 'import' | 'export',
  ): Promise<boolean> {
    const workspace = await this.deps.source.open(target.url, spaceId);
    const ref = `refs/heads/${target.branch}`;
    const last = await this.gitSync.row(spaceId);
    const started = await this.begin(spaceId, workspace, ref, target.projectDirectory, direction, {
      tree_url: last?.tree_url ?? null,
      commit_url: last?.commit_url ?? null,
      timestamp: last?.timestamp ?? null,
    });
    if (!started) return false;
    this.gitSync.launch(spaceId, direction, (log, signal) =>
      this.run(spaceId, 'sync', workspace, {
        target,
        last: pointOf(last, workspace.redacted, ref, target.projectDirectory),
        message: (revision, since) =>
          this.messageOf(spaceId, revision, since, target.commitTemplate),
        standalone: false,
        log,
        signal,
      }),
    );
    return true;
  }

  /**
   * A branch other than the linked one imported as a change request (a preview), under the
   * space's operation slot (its cache repository is the sync's); false when the slot is taken.
   * `done` gets the change request once it is written.
   */
  async startPreview(
    spaceId: string,
    target: SyncTarget,
    branch: string,
    existing: { id: string; revisionId: string } | undefined,
    done: (changeRequestId: string, commit: string) => Promise<void>,
  ): Promise<boolean> {
    const workspace = await this.deps.source.open(target.url, spaceId);
    const last = await this.gitSync.row(spaceId);
    // The row keeps the linked branch: a preview is not where the sync stands.
    const started = await this.begin(
      spaceId,
      workspace,
      `refs/heads/${target.branch}`,
      target.projectDirectory,
      'import',
      {
        tree_url: last?.tree_url ?? null,
        commit_url: last?.commit_url ?? null,
        timestamp: last?.timestamp ?? null,
      },
    );
    if (!started) return false;
    this.gitSync.launch(spaceId, 'import', async (log, signal) => {
      const commit = await fetchRef(workspace.dir, workspace.location, `refs/heads/${branch}`, {
        depth: 1,
        into: 'refs/livery/preview',
        timeoutMs: this.deps.config.operationTimeoutMs,
        signal,
        ...(workspace.addresses === undefined ? {} : { addresses: workspace.addresses }),
      });
      const cr = await importAsChangeRequest({
        spaceId,
        workspace,
        commit,
        projectDirectory: target.projectDirectory,
        subject: `Preview of ${branch}`,
        actor: target.actor,
        ...(existing === undefined ? {} : { existing }),
        deps: { ...this.deps, log },
        signal,
      });
      await done(cr.changeRequestId, commit);
      await this.gitSync.endOperation(spaceId, {
        state: 'success',
        error: null,
        warnings: '[]',
        ended_at: new Date().toISOString(),
      });
      log.info(
        { branch, commit, changeRequest: cr.changeRequestId },
        'git branch preview imported',
      );
    });
    return true;
  }

  private begin(
    spaceId: string,
    workspace: Workspace,
    ref: string,
    projectDirectory: string,
    direction: 'import' | 'export',
    more: Pick<GitSyncRow, 'tree_url' | 'commit_url' | 'timestamp'>,
  ): Promise<boolean> {
    return this.gitSync.tryStart({
      space_id: spaceId,
      url: workspace.redacted,
      ref,
      project_directory: projectDirectory === '' ? null : projectDirectory,
      direction,
      started_at: new Date().toISOString(),
      ...more,
    });
  }

  private async run(
    spaceId: string,
    mode: SyncMode,
    workspace: Workspace,
    options: {
      target: SyncTarget;
      last: SyncPoint | undefined;
      message: (revision: Revision, since: string | undefined) => Promise<string>;
      standalone: boolean;
      log: FastifyBaseLogger;
      signal: AbortSignal;
    },
  ): Promise<void> {
    const { target, log, signal } = options;
    const started = performance.now();
    const record = (point: SyncPoint | undefined) =>
      options.standalone || point === undefined
        ? {}
        : {
            commit_oid: point.commit,
            revision_id: point.revisionId,
            owned_paths: JSON.stringify(point.owned),
          };
    const outcome = await syncSpace({
      spaceId,
      mode,
      workspace,
      branch: target.branch,
      projectDirectory: target.projectDirectory,
      priority: target.priority,
      last: options.last,
      message: options.message,
      author: target.author,
      actor: target.actor,
      signal,
      deps: { ...this.deps, log, timeoutMs: this.deps.config.operationTimeoutMs },
      checkpoint: async (point) => {
        if (!options.standalone) await this.gitSync.checkpoint(spaceId, record(point) as never);
      },
      end: (trx, warnings, commit, synced, conflictFound) =>
        this.gitSync.endOperation(
          spaceId,
          {
            state: 'success',
            error: null,
            warnings: JSON.stringify(warnings),
            ended_at: new Date().toISOString(),
            direction: 'import',
            ...record({ commit, revisionId: synced.revisionId, owned: synced.owned }),
            ...(conflictFound === undefined ? {} : { conflict: JSON.stringify(conflictFound) }),
          },
          trx,
        ),
      keepAsChangeRequest: (commit, files) =>
        importAsChangeRequest({
          spaceId,
          workspace,
          commit,
          projectDirectory: target.projectDirectory,
          subject: `Livery's version of ${files.length} file(s) also changed in ${target.branch}`,
          actor: target.actor,
          deps: { ...this.deps, log },
          signal,
        }).then((cr) => cr.changeRequestId),
    });
    if (outcome.kind === 'unchanged' || outcome.kind === 'exported') {
      await this.gitSync.endOperation(spaceId, {
        state: 'success',
        error: null,
        warnings: '[]',
        ended_at: new Date().toISOString(),
        direction: 'export',
        ...record(outcome.point),
      });
    } else {
      for (const listener of this.moved) listener(spaceId);
    }
    log.info(
      {
        outcome: outcome.kind,
        commit: outcome.commit,
        ms: Math.round(performance.now() - started),
      },
      `git ${mode} ended`,
    );
  }

  /** A commit's message from the link's template: `{number}` and `{subject}` of what merged. */
  private async messageOf(
    spaceId: string,
    revision: Revision,
    since: string | undefined,
    template: string,
  ): Promise<string> {
    const merged: { number: number; subject: string }[] = [];
    let at: Revision | undefined = revision;
    for (let steps = 0; at !== undefined && at.id !== since && steps < 50; steps++) {
      if (at.mergedFrom !== null && at.mergedFrom !== undefined) {
        const request = await this.deps.content.findChangeRequest(spaceId, at.mergedFrom);
        if (request !== undefined)
          merged.push({ number: request.number, subject: request.subject });
      }
      const parent: string | undefined = at.parents[0];
      at = parent === undefined ? undefined : await this.deps.content.revision(parent);
    }
    const [latest, ...earlier] = merged;
    if (latest === undefined) return 'Livery: edits of the space';
    const subject = latest.subject.trim() === '' ? 'No subject' : latest.subject.trim();
    const first = template
      .replaceAll('{number}', String(latest.number))
      .replaceAll('{subject}', subject);
    const rest = earlier.map((m) =>
      template.replaceAll('{number}', String(m.number)).replaceAll('{subject}', m.subject),
    );
    return rest.length === 0 ? first : `${first}\n\nAlso:\n${rest.map((r) => `- ${r}`).join('\n')}`;
  }
}

/** A branch's name from `refs/heads/main` or `main`; 400 for tags and other refs. */
export function branchOf(ref: string, field: string): string {
  const name = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  if (
    name === '' ||
    (ref.startsWith('refs/') && !ref.startsWith('refs/heads/')) ||
    name.startsWith('-') ||
    /[\s:^~?*[\\]|\.\.|@\{|\/\/|\/$|\.lock$|^\//.test(name)
  ) {
    throw badRequest(
      `${field} must be a branch, as "refs/heads/main" or "main" (got ${JSON.stringify(ref)})`,
    );
  }
  return name;
}

/** The last agreed point, when it is with this repository, ref and directory. */
function pointOf(
  row: GitSyncRow | undefined,
  url: string,
  ref: string,
  projectDirectory: string,
): SyncPoint | undefined {
  if (
    row === undefined ||
    row.commit_oid === null ||
    row.revision_id === null ||
    row.url !== url ||
    (row.ref !== ref && row.ref !== ref.replace(/^refs\/heads\//, '')) ||
    (row.project_directory ?? '') !== projectDirectory
  ) {
    return undefined;
  }
  return {
    commit: row.commit_oid,
    revisionId: row.revision_id,
    owned: JSON.parse(row.owned_paths ?? '[]') as string[],
  };
}

const busy = () =>
  conflict(
    'A Git Sync operation of this space is running; wait for it to end (getSpaceGitInfo) and try again',
  );

export type { SyncConflict };
