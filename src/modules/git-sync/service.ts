import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { ContentLimits, GitSyncConfig } from '../../config.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { ContentRepository } from '../content/repository.js';
import type { FilesRepository } from '../files/repository.js';
import type { SpacesService } from '../spaces/service.js';
import { ImportFailed, importCommit } from './import/run.js';
import type { GitSource } from './import/source.js';
import { GitSyncRepository, LEASE_MS } from './repository.js';
import { type GitSyncState, gitSyncStateOf } from './state.js';

/** `importGitRepository`'s body (GitBook 0.202 ImportGitRepository). */
export interface ImportRequest {
  url: string;
  ref: string;
  repoProjectDirectory?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
}

/**
 * Git Sync (docs/git-sync.md): imports a space's content from a repository in GitBook's format.
 * `startImport` checks the request, takes the space's operation slot and answers; the import
 * itself runs in the background (GitBook's 204 "queued") and ends as the operation's state.
 */
export class GitSyncService {
  private readonly owner = randomUUID();
  private readonly running = new Map<string, AbortController>();
  /** The runs of this process, to wait for on shutdown (their git processes killed). */
  private readonly runs = new Set<Promise<void>>();

  constructor(
    private readonly repo: GitSyncRepository,
    private readonly deps: {
      spaces: SpacesService;
      content: ContentRepository;
      files: FilesRepository;
      source: GitSource;
      config: GitSyncConfig;
      limits: ContentLimits;
    },
  ) {}

  private imported: ((spaceId: string) => void) | undefined;
  /** Called after an import changed a space's current revision (renderer revalidation). */
  onImported(listener: (spaceId: string) => void): void {
    this.imported = listener;
  }

  /** Where operations are logged (the server's logger; silent until given one). */
  private log: FastifyBaseLogger = pino({ level: 'silent' });
  useLog(log: FastifyBaseLogger): void {
    this.log = log;
  }

  static create(
    db: ConstructorParameters<typeof GitSyncRepository>[0],
    deps: GitSyncService['deps'],
  ) {
    return new GitSyncService(new GitSyncRepository(db), deps);
  }

  /**
   * Queues an import: 400 for a URL Livery may not fetch, 409 while another operation of the
   * space runs; an operation older than the last one asked for (`timestamp`) is ignored.
   */
  async startImport(spaceId: string, input: ImportRequest, actor: string | null): Promise<void> {
    const now = new Date().toISOString();
    const projectDirectory = this.deps.source.projectDirectory(input.repoProjectDirectory);
    // Compared as times, not as text: `…T01:00:00+05:00` is before `…T23:00:00Z` of the day before.
    const time = input.timestamp === undefined ? undefined : Date.parse(input.timestamp);
    if (time !== undefined && Number.isNaN(time)) {
      throw badRequest('body.timestamp must be a date-time Livery can read (RFC 3339)');
    }
    const timestamp = time === undefined ? undefined : new Date(time).toISOString();
    const checked = await this.deps.source.check(input.url, spaceId);
    let started = false;
    let last: Awaited<ReturnType<GitSyncRepository['get']>>;
    try {
      await this.repo.endAbandoned(spaceId, now);
      last = await this.repo.get(spaceId);
      if (
        timestamp !== undefined &&
        last?.timestamp != null &&
        Date.parse(timestamp) < Date.parse(last.timestamp)
      ) {
        return; // an event older than one already handled: GitBook keeps their order so
      }
      started = await this.repo.start({
        space_id: spaceId,
        url: checked.redacted,
        ref: input.ref,
        project_directory: projectDirectory === '' ? null : projectDirectory,
        tree_url: input.repoTreeURL ?? null,
        commit_url: input.repoCommitURL ?? null,
        state: 'running',
        direction: 'import',
        started_at: now,
        timestamp: timestamp ?? last?.timestamp ?? null,
        owner: this.owner,
        updated_at: now,
      });
    } finally {
      // Not started (ignored, refused, failed): the checked URL and its credentials are dropped.
      if (!started) this.deps.source.discard(checked.fetchUrl);
    }
    if (!started) {
      throw conflict(
        'A Git Sync operation of this space is running; wait for it to end (getSpaceGitInfo) and try again',
      );
    }
    const controller = new AbortController();
    this.running.set(spaceId, controller);
    const run = this.run(
      spaceId,
      checked.fetchUrl,
      input,
      projectDirectory,
      actor,
      // "Unchanged" only for the same commit read the same way: another repository or project
      // directory at that commit is other content.
      last !== undefined &&
        last.url === checked.redacted &&
        (last.project_directory ?? '') === projectDirectory
        ? last.commit_oid
        : null,
      controller,
    ).finally(() => {
      this.running.delete(spaceId);
      this.runs.delete(run);
    });
    this.runs.add(run);
  }

  private async run(
    spaceId: string,
    fetchUrl: string,
    input: ImportRequest,
    projectDirectory: string,
    actor: string | null,
    lastCommit: string | null,
    controller: AbortController,
  ): Promise<void> {
    const log = this.log.child({ spaceId, gitSync: 'import' });
    const heartbeat = setInterval(() => {
      void this.repo.renew(spaceId, this.owner, new Date().toISOString()).catch(() => undefined);
    }, LEASE_MS / 3);
    const timeout = setTimeout(
      () => controller.abort(new TimedOut()),
      this.deps.config.operationTimeoutMs,
    );
    try {
      const outcome = await importCommit({
        spaceId,
        fetchUrl,
        request: input,
        projectDirectory,
        actor,
        lastCommit,
        signal: controller.signal,
        ...this.deps,
        log,
        end: (trx, warnings, commit) =>
          this.repo.end(
            spaceId,
            this.owner,
            {
              state: 'success',
              error: null,
              warnings: JSON.stringify(warnings),
              ended_at: new Date().toISOString(),
              commit_oid: commit,
            },
            trx,
          ),
      });
      if (outcome.kind === 'unchanged') {
        await this.repo.end(spaceId, this.owner, {
          state: 'success',
          error: null,
          warnings: JSON.stringify(outcome.warnings),
          ended_at: new Date().toISOString(),
          commit_oid: outcome.commit,
        });
      }
      if (outcome.kind === 'imported' && input.standalone !== true) this.imported?.(spaceId);
      log.info(
        {
          outcome: outcome.kind,
          commit: outcome.commit,
          warnings: outcome.warnings.length,
          ms: outcome.timings,
        },
        'git import ended',
      );
    } catch (error) {
      const timedOut = controller.signal.reason instanceof TimedOut;
      const stopped = controller.signal.reason instanceof Stopped;
      const known = error instanceof ImportFailed;
      const message = timedOut
        ? `The import took longer than GIT_OPERATION_TIMEOUT_MS (${this.deps.config.operationTimeoutMs} ms); nothing was imported`
        : stopped
          ? STOPPED
          : known
            ? error.message
            : 'The import failed on an error of the server; nothing was imported (the server log has the details)';
      if (!known && !timedOut && !stopped) log.error({ err: error }, 'git import failed');
      else log.warn({ reason: message }, 'git import failed');
      await this.repo
        .end(spaceId, this.owner, {
          state: timedOut ? 'timeout' : 'failure',
          error: message,
          warnings: JSON.stringify(known ? error.warnings : []),
          ended_at: new Date().toISOString(),
        })
        .catch((e: unknown) => log.error({ err: e }, 'could not record the end of a git import'));
    } finally {
      clearInterval(heartbeat);
      clearTimeout(timeout);
    }
  }

  /** `getSpaceGitInfo`: 404 before the space's first operation. */
  async info(spaceId: string): Promise<GitSyncState> {
    const state = await this.stateOf(spaceId);
    if (state === undefined) throw notFound('Git Sync of space', spaceId);
    return state;
  }

  /** The space's GitSyncState, or undefined when it never synced (`Space.gitSync`). */
  async stateOf(spaceId: string): Promise<GitSyncState | undefined> {
    await this.repo.endAbandoned(spaceId, new Date().toISOString());
    const row = await this.repo.get(spaceId);
    return row === undefined ? undefined : gitSyncStateOf(row, this.deps.config.operationTimeoutMs);
  }

  /**
   * On shutdown: this process's operations end now, as failures that say why, and their git
   * processes are stopped (left running, they would hold the cache repository's locks and fetch
   * on after the server is gone); answers once every run has ended.
   */
  async close(): Promise<void> {
    for (const controller of this.running.values()) controller.abort(new Stopped());
    const now = new Date().toISOString();
    for (const spaceId of this.running.keys()) {
      await this.repo
        .end(spaceId, this.owner, {
          state: 'failure',
          error: STOPPED,
          warnings: '[]',
          ended_at: now,
        })
        .catch(() => undefined);
    }
    await Promise.allSettled([...this.runs]);
  }
}

const STOPPED = 'The server stopped during the import; nothing was imported. Run the import again.';

class TimedOut extends Error {}
class Stopped extends Error {}
