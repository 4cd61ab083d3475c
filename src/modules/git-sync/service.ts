import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { ContentLimits, GitSyncConfig } from '../../config.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { ContentRepository } from '../content/repository.js';
import type { FilesRepository } from '../files/repository.js';
import type { SpacesService } from '../spaces/service.js';
import { importFailureOf } from './import/fetch.js';
import { ImportFailed, importCommit } from './import/run.js';
import type { Snapshot } from './import/snapshot.js';
import type { GitSource } from './import/source.js';
import { LEASE_MS, runningOperation } from './operation-row.js';
import { GitSyncRepository } from './repository.js';
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
  protected readonly owner = randomUUID();
  protected readonly running = new Map<string, AbortController>();
  private readonly directions = new Map<string, 'import' | 'export'>();
  /** The runs of this process, to wait for on shutdown (their git processes killed). */
  private readonly runs = new Set<Promise<void>>();

  constructor(
    protected readonly repo: GitSyncRepository,
    protected readonly deps: {
      spaces: SpacesService;
      content: ContentRepository;
      files: FilesRepository;
      source: GitSource;
      config: GitSyncConfig;
      limits: ContentLimits;
    },
  ) {}

  private guard:
    | ((spaceId: string, url: string, ref: string, projectDirectory: string) => Promise<void>)
    | undefined;
  /**
   * Checks an operation's repository before it starts: a linked space only syncs with its own
   * branch (links/service.ts), whose state the space's one Git Sync row holds.
   */
  guardWith(
    guard: (spaceId: string, url: string, ref: string, projectDirectory: string) => Promise<void>,
  ): void {
    this.guard = guard;
  }

  /** See guardWith. */
  checkTarget(spaceId: string, url: string, ref: string, projectDirectory: string): Promise<void> {
    return this.guard?.(spaceId, url, ref, projectDirectory) ?? Promise.resolve();
  }

  private imported: ((spaceId: string) => void) | undefined;
  /** Called after an import changed a space's current revision (renderer revalidation). */
  onImported(listener: (spaceId: string) => void): void {
    this.imported = listener;
  }

  /** Where operations are logged (the server's logger; silent until given one). */
  protected log: FastifyBaseLogger = pino({ level: 'silent' });
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
    try {
      await this.guard?.(spaceId, checked.redacted, input.ref, projectDirectory);
    } catch (error) {
      this.deps.source.discard(checked.fetchUrl);
      throw error;
    }
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
        ...runningOperation(input, {
          url: checked.redacted,
          projectDirectory,
          direction: 'import',
          at: now,
          timestamp: timestamp ?? last?.timestamp ?? null,
          owner: this.owner,
        }),
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
    const lastCommit =
      // "Unchanged" only for the same commit read the same way: another repository or project
      // directory at that commit is other content.
      last !== undefined &&
      last.url === checked.redacted &&
      (last.project_directory ?? '') === projectDirectory
        ? last.commit_oid
        : null;
    this.track(spaceId, 'import', (controller) =>
      this.run(spaceId, checked.fetchUrl, input, projectDirectory, actor, lastCommit, controller),
    );
  }

  /**
   * A site import's space (site-git-sync): the space's import of a commit the site import has
   * already fetched (so every space reads the same commit), in the space's own operation slot
   * and recorded in its own Git Sync row (Space.gitSync), awaited. Answers the space's state
   * after it; a space whose other operation runs is not imported (its state says why).
   */
  async importSnapshot(
    spaceId: string,
    snapshot: Snapshot,
    input: ImportRequest & { redactedUrl: string },
    actor: string | null,
    signal: AbortSignal,
  ): Promise<{ ok: boolean; error?: string }> {
    const now = new Date().toISOString();
    const projectDirectory = this.deps.source.projectDirectory(input.repoProjectDirectory);
    await this.repo.endAbandoned(spaceId, now);
    const last = await this.repo.get(spaceId);
    const started = await this.repo.start({
      space_id: spaceId,
      ...runningOperation(input, {
        url: input.redactedUrl,
        projectDirectory,
        direction: 'import',
        at: now,
        timestamp: last?.timestamp ?? null,
        owner: this.owner,
      }),
    });
    if (!started) return { ok: false, error: 'another Git Sync operation of the space is running' };
    const lastCommit =
      last !== undefined &&
      last.url === input.redactedUrl &&
      (last.project_directory ?? '') === projectDirectory
        ? last.commit_oid
        : null;
    const controller = new AbortController();
    const stop = () => controller.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    const source: GitSource = { ...this.deps.source, snapshot: async () => snapshot };
    this.running.set(spaceId, controller);
    this.directions.set(spaceId, 'import');
    try {
      await this.run(spaceId, '', input, projectDirectory, actor, lastCommit, controller, source);
    } finally {
      signal.removeEventListener('abort', stop);
      this.running.delete(spaceId);
      this.directions.delete(spaceId);
    }
    const row = await this.repo.get(spaceId);
    return row?.state === 'success'
      ? { ok: true }
      : { ok: false, error: row?.error ?? 'the import did not end' };
  }

  /**
   * The space's operation slot for the other operations (export, sync): true when this process
   * now runs one, with the row's repository fields written.
   */
  tryStart(
    row: Omit<Parameters<GitSyncRepository['start']>[0], 'owner' | 'state' | 'updated_at'>,
  ): Promise<boolean> {
    return this.repo.start({
      ...row,
      state: 'running',
      owner: this.owner,
      updated_at: row.started_at,
    });
  }

  /** Ends this process's operation of the space (in `trx` when given). */
  endOperation(
    spaceId: string,
    end: Parameters<GitSyncRepository['end']>[2],
    trx?: Parameters<GitSyncRepository['end']>[3],
  ): Promise<boolean> {
    return this.repo.end(spaceId, this.owner, end, trx);
  }

  /** Records the point both sides agree on while this process's operation still runs. */
  checkpoint(
    spaceId: string,
    point: { commit_oid: string; revision_id: string; owned_paths: string },
  ): Promise<boolean> {
    return this.repo.checkpoint(spaceId, this.owner, point);
  }

  /** The space's Git Sync row (repository, last operation, last agreed point). */
  row(spaceId: string) {
    return this.repo.get(spaceId);
  }

  /** Runs an operation started with tryStart, in the background (see operate). */
  launch(
    spaceId: string,
    direction: 'import' | 'export',
    work: (log: FastifyBaseLogger, signal: AbortSignal) => Promise<void>,
  ): void {
    this.track(spaceId, direction, (controller) =>
      this.operate(spaceId, direction, controller, (log) => work(log, controller.signal)),
    );
  }

  /** Runs an operation this process started in the background, stoppable on shutdown. */
  protected track(
    spaceId: string,
    direction: 'import' | 'export',
    work: (controller: AbortController) => Promise<void>,
  ): void {
    const controller = new AbortController();
    this.running.set(spaceId, controller);
    this.directions.set(spaceId, direction);
    const run = work(controller).finally(() => {
      this.running.delete(spaceId);
      this.directions.delete(spaceId);
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
    source: GitSource = this.deps.source,
  ): Promise<void> {
    await this.operate(spaceId, 'import', controller, async (log) => {
      const outcome = await importCommit({
        spaceId,
        fetchUrl,
        request: input,
        projectDirectory,
        actor,
        lastCommit,
        signal: controller.signal,
        ...this.deps,
        source,
        log,
        end: (trx, warnings, commit, synced) =>
          this.repo.end(
            spaceId,
            this.owner,
            {
              state: 'success',
              error: null,
              warnings: JSON.stringify(warnings),
              ended_at: new Date().toISOString(),
              commit_oid: commit,
              ...(input.standalone === true
                ? {}
                : { revision_id: synced.revisionId, owned_paths: JSON.stringify(synced.owned) }),
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
    });
  }

  /**
   * Runs an operation the caller started (the space's slot taken): its lease renewed while it
   * works, stopped at GIT_OPERATION_TIMEOUT_MS or on shutdown, and any failure ended as the
   * operation's state with a message that says why (`work` ends a success itself).
   */
  protected async operate(
    spaceId: string,
    direction: 'import' | 'export',
    controller: AbortController,
    work: (log: FastifyBaseLogger) => Promise<void>,
  ): Promise<void> {
    const log = this.log.child({ spaceId, gitSync: direction });
    const heartbeat = setInterval(() => {
      void this.repo.renew(spaceId, this.owner, new Date().toISOString()).catch(() => undefined);
    }, LEASE_MS / 3);
    const timeout = setTimeout(
      () => controller.abort(new TimedOut()),
      this.deps.config.operationTimeoutMs,
    );
    const nothing = direction === 'import' ? 'nothing was imported' : 'nothing was pushed';
    try {
      await work(log);
    } catch (error) {
      // A space deleted meanwhile (a 404 of its revision), or a link's key that cannot read its
      // credentials (a 400): reasons, not faults of the server.
      const failure =
        error instanceof AppError && (error.statusCode === 404 || error.statusCode === 400)
          ? new ImportFailed(
              error.statusCode === 404
                ? `The space was deleted during the ${direction}`
                : error.message,
            )
          : importFailureOf(error);
      const timedOut = controller.signal.reason instanceof TimedOut;
      const stopped = controller.signal.reason instanceof Stopped;
      const known = failure instanceof ImportFailed;
      const message = timedOut
        ? `The ${direction} took longer than GIT_OPERATION_TIMEOUT_MS (${this.deps.config.operationTimeoutMs} ms); ${nothing}`
        : stopped
          ? stoppedMessage(direction)
          : known
            ? failure.message
            : `The ${direction} failed on an error of the server; ${nothing} (the server log has the details)`;
      if (!known && !timedOut && !stopped) log.error({ err: error }, `git ${direction} failed`);
      else log.warn({ reason: message }, `git ${direction} failed`);
      await this.repo
        .end(spaceId, this.owner, {
          state: timedOut ? 'timeout' : 'failure',
          error: message,
          warnings: JSON.stringify(known ? failure.warnings : []),
          ended_at: new Date().toISOString(),
        })
        .catch((e: unknown) =>
          log.error({ err: e }, `could not record the end of a git ${direction}`),
        );
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
          error: stoppedMessage(this.directions.get(spaceId) ?? 'import'),
          warnings: '[]',
          ended_at: now,
        })
        .catch(() => undefined);
    }
    await Promise.allSettled([...this.runs]);
  }
}

const stoppedMessage = (direction: 'import' | 'export') =>
  direction === 'import'
    ? 'The server stopped during the import; nothing was imported. Run the import again.'
    : 'The server stopped during the export; nothing was pushed. Run the export again.';

export class TimedOut extends Error {}
export class Stopped extends Error {}
