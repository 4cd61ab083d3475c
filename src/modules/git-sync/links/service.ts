import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { GitSyncConfig } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import type { GitLinkRow } from '../../../db/schema.js';
import { badRequest, conflict, notFound } from '../../../errors.js';
import type { ServerKey } from '../../../server-key.js';
import type { ContentRepository } from '../../content/repository.js';
import type { GitSource } from '../import/source.js';
import type { GitSyncService } from '../service.js';
import { branchOf, type GitExportService, type SyncTarget } from '../sync/service.js';
import { BranchPreviews } from './branch-previews.js';
import { GitLinksRepository } from './repository.js';

/** The body of `linkSpaceGitRepository` (schemas.ts). */
export interface LinkInput {
  url: string;
  ref: string;
  repoProjectDirectory?: string;
  priority?: 'git' | 'livery';
  commitMessageTemplate?: string;
  author?: { name: string; email: string };
  previewExternalBranches?: boolean;
  pollIntervalSeconds?: number;
  webhookSecret?: string;
}

/** A link as the API shows it; the webhook's secret only in the answer that set it. */
export interface GitLink {
  url: string;
  ref: string;
  repoProjectDirectory: string;
  priority: 'git' | 'livery';
  commitMessageTemplate: string;
  author: { name: string; email: string };
  previewExternalBranches: boolean;
  pollIntervalSeconds: number;
  webhook: { url: string; secret?: string };
  previews: { branch: string; changeRequest: string; commit: string; url?: string }[];
  createdAt: string;
  updatedAt: string;
}

/** What previews need of the change-request preview links (modules/previews). */
export interface PreviewLinks {
  open(input: {
    spaceId: string;
    changeRequestId: string;
    label?: string;
    actor?: string | null;
  }): Promise<{ url: string }>;
  close(changeRequestId: string, reason?: string): Promise<void>;
  forChangeRequest(changeRequestId: string): Promise<{ url: string } | undefined>;
}

export const DEFAULT_TEMPLATE = 'GITBOOK-{number}: {subject}';
const URL_PURPOSE = 'git-link-url';
const SECRET_PURPOSE = 'git-link-webhook-secret';
/** A failed sync is not tried again for this long (a remote down is not hammered). */
const BACKOFF_MS = 30_000;

/**
 * Two-way Git Sync (docs/git-sync.md, "Linking a repository"): a space linked to a branch. Livery's
 * merges become commits (after GIT_SYNC_DEBOUNCE_MS, batched), pushes come in by webhook or by
 * polling, and every process looks at the links every GIT_SYNC_TICK_MS for work missed (another
 * process's merge, a failure to retry, a poll due). The space's operation slot keeps one sync at a
 * time per space across processes.
 */
export class GitLinksService {
  private readonly repo: GitLinksRepository;
  private timer: NodeJS.Timeout | undefined;
  private readonly soon = new Map<string, NodeJS.Timeout>();
  private log: FastifyBaseLogger = pino({ level: 'silent' });
  private readonly previews: BranchPreviews;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      gitSync: GitSyncService;
      gitExport: GitExportService;
      content: ContentRepository;
      source: GitSource;
      key: ServerKey;
      config: GitSyncConfig;
      /** The API's base URL (for the webhook's address). */
      baseUrl: string;
    },
  ) {
    this.repo = new GitLinksRepository(db);
    this.previews = new BranchPreviews(this.repo, deps, () => this.log);
    deps.gitSync.guardWith((spaceId, url, ref, dir) => this.sameTarget(spaceId, url, ref, dir));
  }

  /**
   * A linked space's imports and exports go to its own branch only: its Git Sync state is that
   * branch's (the last point both sides agreed on), and another repository's would replace it.
   */
  private async sameTarget(spaceId: string, url: string, ref: string, dir: string): Promise<void> {
    const row = await this.repo.get(spaceId);
    if (row === undefined) return;
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
    if (row.url !== url || row.ref !== branch || (row.project_directory ?? '') !== dir) {
      throw conflict(
        `The space is linked to ${row.url} (${row.ref}${row.project_directory === null ? '' : `, ${row.project_directory}`}): it syncs with that branch only. Unlink it first (DELETE /v1/spaces/${spaceId}/git/link), or sync it (POST /v1/spaces/${spaceId}/git/sync)`,
      );
    }
  }

  useLog(log: FastifyBaseLogger): void {
    this.log = log.child({ module: 'git-links' });
  }

  usePreviews(previews: PreviewLinks): void {
    this.previews.useLinks(previews);
  }

  /** Starts looking at the links (the server's onReady). */
  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.deps.config.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    for (const timer of this.soon.values()) clearTimeout(timer);
    this.soon.clear();
  }

  /** A space's revision changed: a linked space is synced once merges stop coming for a moment. */
  spaceMoved(spaceId: string, how: 'merge' | 'import'): void {
    if (how !== 'merge') return;
    const pending = this.soon.get(spaceId);
    if (pending !== undefined) clearTimeout(pending);
    const timer = setTimeout(() => {
      this.soon.delete(spaceId);
      void this.look(spaceId, true);
    }, this.deps.config.debounceMs);
    timer.unref();
    this.soon.set(spaceId, timer);
  }

  async link(spaceId: string, input: LinkInput, actor: string | null): Promise<GitLink> {
    const branch = branchOf(input.ref, 'body.ref');
    const projectDirectory = this.deps.source.projectDirectory(input.repoProjectDirectory);
    const checked = await this.deps.source.open(input.url, spaceId);
    const template = input.commitMessageTemplate ?? DEFAULT_TEMPLATE;
    if (template.trim() === '') throw badRequest('body.commitMessageTemplate must not be empty');
    const secret = input.webhookSecret ?? randomBytes(24).toString('base64url');
    const now = new Date().toISOString();
    const before = await this.repo.get(spaceId);
    const hasCredentials = checked.redacted !== input.url;
    await this.repo.put({
      space_id: spaceId,
      url: checked.redacted,
      url_secret: hasCredentials ? this.deps.key.encrypt(input.url, URL_PURPOSE) : null,
      ref: branch,
      project_directory: projectDirectory === '' ? null : projectDirectory,
      priority: input.priority ?? 'git',
      commit_template: template,
      author_name: input.author?.name ?? null,
      author_email: input.author?.email ?? null,
      preview_branches: input.previewExternalBranches === true ? 1 : 0,
      poll_seconds: input.pollIntervalSeconds ?? 0,
      webhook_secret: this.deps.key.encrypt(secret, SECRET_PURPOSE),
      created_by: before?.created_by ?? actor,
      created_at: before?.created_at ?? now,
      updated_at: now,
      polled_at: null,
    });
    this.log.info({ spaceId, url: checked.redacted, branch }, 'space linked to a repository');
    // The first sync is running (getSpaceGitInfo shows it) when the answer goes.
    await this.look(spaceId, true);
    return { ...(await this.get(spaceId)), webhook: { url: this.webhookUrl(spaceId), secret } };
  }

  async get(spaceId: string): Promise<GitLink> {
    const row = await this.repo.get(spaceId);
    if (row === undefined) throw notFound('Git link of space', spaceId);
    const previews = await this.repo.previews(spaceId);
    return {
      url: row.url,
      ref: `refs/heads/${row.ref}`,
      repoProjectDirectory: row.project_directory ?? '',
      priority: row.priority,
      commitMessageTemplate: row.commit_template,
      author: this.authorOf(row),
      previewExternalBranches: row.preview_branches === 1,
      pollIntervalSeconds: row.poll_seconds,
      webhook: { url: this.webhookUrl(spaceId) },
      previews: await Promise.all(
        previews
          .filter((p) => p.commit_oid !== '')
          .map(async (p) => {
            const link = await this.previews.linkOf(p.change_request_id);
            return {
              branch: p.branch,
              changeRequest: p.change_request_id,
              commit: p.commit_oid,
              ...(link === undefined ? {} : { url: link.url }),
            };
          }),
      ),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async unlink(spaceId: string): Promise<void> {
    if (!(await this.repo.delete(spaceId))) throw notFound('Git link of space', spaceId);
    this.log.info({ spaceId }, 'space unlinked from its repository');
  }

  /** `syncSpaceGitRepository`: a sync now; 409 while another operation of the space runs. */
  async syncNow(spaceId: string): Promise<void> {
    const row = await this.repo.get(spaceId);
    if (row === undefined) throw notFound('Git link of space', spaceId);
    if (!(await this.deps.gitExport.startSync(spaceId, this.targetOf(row), 'import'))) {
      throw conflict(
        'A Git Sync operation of this space is running; wait for it to end (getSpaceGitInfo) and try again',
      );
    }
    await this.repo.polled(spaceId, new Date().toISOString());
  }

  /** The link's row and its webhook secret, for the webhook receiver. */
  async webhookSecretOf(spaceId: string): Promise<{ row: GitLinkRow; secret: string } | undefined> {
    const row = await this.repo.get(spaceId);
    if (row === undefined) return undefined;
    const secret = this.deps.key.decrypt(row.webhook_secret, SECRET_PURPOSE);
    if (secret === undefined) {
      this.log.error(
        { spaceId },
        'the webhook secret cannot be decrypted: SECRET_KEY changed? Link the space again',
      );
      return undefined;
    }
    return { row, secret };
  }

  /** A verified push: the linked branch syncs; another branch's preview is made or ended. */
  async pushed(
    row: GitLinkRow,
    push: { branch?: string; deleted: boolean; after: string },
  ): Promise<string> {
    const spaceId = row.space_id;
    if (push.branch === undefined) return 'not a branch: ignored';
    if (push.branch === row.ref) {
      await this.repo.polled(spaceId, null);
      void this.look(spaceId, true);
      return 'the linked branch: syncing';
    }
    const result = await this.previews.pushed(row, { branch: push.branch, deleted: push.deleted });
    if (!push.deleted) void this.look(spaceId, true);
    return result;
  }

  /** Every link, every tick. */
  private async tick(): Promise<void> {
    try {
      for (const row of await this.repo.all()) await this.look(row.space_id, false);
    } catch (error) {
      this.log.warn({ err: error }, 'git links: a look at the links failed');
    }
  }

  /**
   * What a linked space needs now: a sync when Livery has a revision the branch does not (its
   * last merge older than the debounce), when the remote is due a fetch, or previews to make.
   */
  private async look(spaceId: string, now: boolean): Promise<void> {
    try {
      const row = await this.repo.get(spaceId);
      if (row === undefined) return;
      const state = await this.deps.gitSync.row(spaceId);
      if (state?.state === 'running') return;
      const at = Date.now();
      if (
        !now &&
        state?.state !== 'success' &&
        state?.ended_at != null &&
        at - Date.parse(state.ended_at) < BACKOFF_MS
      ) {
        return;
      }
      const space = await this.db
        .selectFrom('spaces')
        .select(['revision_id', 'updated_at'])
        .where('id', '=', spaceId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (space === undefined) return;
      const livery = state?.revision_id !== space.revision_id;
      const settled = at - Date.parse(space.updated_at) >= this.deps.config.debounceMs || now;
      const due =
        row.polled_at === null ||
        (row.poll_seconds > 0 && at - Date.parse(row.polled_at) >= row.poll_seconds * 1000);
      const target = this.targetOf(row);
      if ((livery && settled) || due) {
        if (await this.deps.gitExport.startSync(spaceId, target, livery ? 'export' : 'import')) {
          await this.repo.polled(spaceId, new Date(at).toISOString());
        }
        return;
      }
      await this.previews.next(row, target);
    } catch (error) {
      this.log.warn({ err: error, spaceId }, 'git links: a linked space could not be looked at');
    }
  }

  private targetOf(row: GitLinkRow): SyncTarget {
    const url =
      row.url_secret === null ? row.url : this.deps.key.decrypt(row.url_secret, URL_PURPOSE);
    if (url === undefined) {
      throw badRequest(
        "The link's credentials cannot be decrypted with this server's SECRET_KEY: link the space again",
      );
    }
    return {
      url,
      branch: row.ref,
      projectDirectory: row.project_directory ?? '',
      priority: row.priority,
      commitTemplate: row.commit_template,
      author: this.authorOf(row),
      actor: row.created_by,
    };
  }

  private authorOf(row: GitLinkRow): { name: string; email: string } {
    return row.author_name !== null && row.author_email !== null
      ? { name: row.author_name, email: row.author_email }
      : this.deps.config.author;
  }

  private webhookUrl(spaceId: string): string {
    return `${this.deps.baseUrl.replace(/\/$/, '')}/v1/git/webhooks/${spaceId}`;
  }
}
