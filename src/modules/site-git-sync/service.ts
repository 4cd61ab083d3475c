import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { GitSyncConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { SiteGitSyncRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { now } from '../../ids.js';
import type { Actor } from '../audit/actor.js';
import type { CustomizationService } from '../customization/service.js';
import { importFailureOf } from '../git-sync/import/fetch.js';
import { ImportFailed } from '../git-sync/import/run.js';
import type { Snapshot } from '../git-sync/import/snapshot.js';
import type { GitSource } from '../git-sync/import/source.js';
import { LEASE_MS, runningOperation } from '../git-sync/operation-row.js';
import type { GitSyncService, ImportRequest } from '../git-sync/service.js';
import { describeViolation, type Violation } from '../git-sync/site/yaml-file.js';
import { type GitSyncState, gitSyncStateOf } from '../git-sync/state.js';
import { branchOf, type ExportRequest, type SyncDeps } from '../git-sync/sync/service.js';
import type { SitesService } from '../sites/service.js';
import { SITE_GONE, type SiteStructureRepository } from '../sites/structure/repository.js';
import { applyStructure } from './apply-structure.js';
import { exportFailureOf, exportSite } from './export-run.js';
import { type LoadedSite, loadSiteFiles } from './load.js';
import { SiteGitSyncRepository } from './repository.js';

/**
 * A whole site from Git (docs/git-sync.md, "Whole sites (docs.yaml)"): the site's import reads
 * docs.yaml (and the customization file) at one commit, checks all of it before changing
 * anything, then makes the site's structure what the file says (one transaction), imports each
 * space node's directory with the space import (same commit), and applies the customization.
 */
export class SiteGitSyncService {
  private readonly owner = randomUUID();
  private readonly repo: SiteGitSyncRepository;
  private readonly runs = new Set<Promise<void>>();
  private readonly running = new Map<string, AbortController>();
  private log: FastifyBaseLogger = pino({ level: 'silent' });

  constructor(
    private readonly db: Db,
    private readonly deps: {
      sites: SitesService;
      structure: SiteStructureRepository;
      customization: CustomizationService;
      gitSync: GitSyncService;
      source: GitSource;
      config: GitSyncConfig;
      /** What the site export reads each space with (the space export's own). */
      sync: SyncDeps;
    },
  ) {
    this.repo = new SiteGitSyncRepository(db);
  }

  useLog(log: FastifyBaseLogger): void {
    this.log = log;
  }

  /** Queues a site import (204); 400 for a URL Livery may not fetch, 409 while one runs. */
  async startImport(
    organizationId: string,
    siteId: string,
    input: ImportRequest,
    actor: Actor,
  ): Promise<void> {
    await this.deps.sites.requireSite(organizationId, siteId);
    const at = now();
    const projectDirectory = this.deps.source.projectDirectory(input.repoProjectDirectory);
    const checked = await this.deps.source.check(input.url, siteId);
    let started = false;
    try {
      await this.repo.endAbandoned(siteId, at);
      started = await this.repo.start({
        site_id: siteId,
        ...runningOperation(input, {
          url: checked.redacted,
          projectDirectory,
          direction: 'import',
          at,
          timestamp: input.timestamp ?? null,
          owner: this.owner,
        }),
      });
    } finally {
      if (!started) this.deps.source.discard(checked.fetchUrl);
    }
    if (!started) {
      throw conflict(
        'A Git Sync operation of this site is running; wait for it to end (getSiteGitInfo) and try again',
      );
    }
    const controller = new AbortController();
    this.running.set(siteId, controller);
    const run = this.operate(siteId, controller, 'import', async (log) => {
      const snapshot = await this.deps.source.snapshot(
        checked.fetchUrl,
        input.ref,
        controller.signal,
      );
      const loaded = await loadSiteFiles(snapshot, projectDirectory);
      if (!loaded.ok) throw new SiteImportFailed(loaded.violations);
      await this.apply(organizationId, siteId, loaded, snapshot, {
        ...input,
        redactedUrl: checked.redacted,
        actor,
        signal: controller.signal,
        log,
      });
    }).finally(() => {
      this.running.delete(siteId);
      this.runs.delete(run);
    });
    this.runs.add(run);
  }

  /**
   * The site export (exportSiteToGitRepository): 400 for a URL or ref Livery may not push to,
   * 409 while another operation of the site runs; getSiteGitInfo tells how it ended.
   */
  async startExport(organizationId: string, siteId: string, input: ExportRequest): Promise<void> {
    await this.deps.sites.requireSite(organizationId, siteId);
    const branch = branchOf(input.ref, 'body.ref');
    const projectDirectory = this.deps.source.projectDirectory(input.repoProjectDirectory);
    const time = input.timestamp === undefined ? undefined : Date.parse(input.timestamp);
    if (time !== undefined && Number.isNaN(time)) {
      throw badRequest('body.timestamp must be a date-time Livery can read (RFC 3339)');
    }
    const workspace = await this.deps.source.open(input.url, siteId);
    const at = now();
    await this.repo.endAbandoned(siteId, at);
    const previous = await this.repo.get(siteId);
    if (
      time !== undefined &&
      input.force !== true &&
      previous?.timestamp != null &&
      time < Date.parse(previous.timestamp)
    ) {
      return; // an event older than one already handled, as exportToGitRepository ignores it
    }
    const started = await this.repo.start({
      site_id: siteId,
      ...runningOperation(input, {
        url: workspace.redacted,
        projectDirectory,
        direction: 'export',
        at,
        timestamp:
          time === undefined ? (previous?.timestamp ?? null) : new Date(time).toISOString(),
        owner: this.owner,
      }),
    });
    if (!started) {
      throw conflict(
        'A Git Sync operation of this site is running; wait for it to end (getSiteGitInfo) and try again',
      );
    }
    const controller = new AbortController();
    this.running.set(siteId, controller);
    const run = this.operate(siteId, controller, 'export', async (log) => {
      const started = performance.now();
      const outcome = await exportSite({
        db: this.db,
        organizationId,
        siteId,
        workspace,
        branch,
        projectDirectory,
        message: input.commitMessage,
        layoutFrom: [workspace.redacted, ...(previous === undefined ? [] : [previous.url])],
        signal: controller.signal,
        deps: {
          ...this.deps.sync,
          structure: this.deps.structure,
          customization: this.deps.customization,
        },
      });
      await this.repo.end(siteId, this.owner, {
        state: 'success',
        error: null,
        warnings: '[]',
        ended_at: now(),
        commit_oid: outcome.commit,
      });
      log.info(
        {
          siteId,
          outcome: outcome.kind,
          commit: outcome.commit,
          ms: Math.round(performance.now() - started),
        },
        'site git export ended',
      );
    }).finally(() => {
      this.running.delete(siteId);
      this.runs.delete(run);
    });
    this.runs.add(run);
  }

  private async apply(
    organizationId: string,
    siteId: string,
    loaded: Extract<LoadedSite, { ok: true }>,
    snapshot: Snapshot,
    input: ImportRequest & {
      redactedUrl: string;
      actor: Actor;
      signal: AbortSignal;
      log: FastifyBaseLogger;
    },
  ): Promise<void> {
    const { config, customization } = loaded;
    const at = now();
    const applied = await this.deps.structure.change(siteId, async (tx) => {
      await tx.trx
        .updateTable('sites')
        .set({ title: config.title })
        .where('id', '=', siteId)
        .execute();
      return applyStructure(tx, organizationId, config, at);
    });
    if (applied === SITE_GONE) throw new ImportFailed('The site was deleted during the import');
    const warnings: Violation[] = [...loaded.warnings, ...applied.warnings];

    // Each directory through the space import, at the same commit.
    const failed: string[] = [];
    for (const [key, variant] of applied.variants) {
      const directory = variant.node.repositoryDirectory;
      if (directory === null) continue;
      const outcome = await this.deps.gitSync.importSnapshot(
        variant.spaceId,
        snapshot,
        {
          url: input.url,
          redactedUrl: input.redactedUrl,
          ref: input.ref,
          repoProjectDirectory: directory === '' ? '/' : directory,
          ...(input.repoTreeURL === undefined ? {} : { repoTreeURL: input.repoTreeURL }),
          ...(input.repoCommitURL === undefined ? {} : { repoCommitURL: input.repoCommitURL }),
          ...(input.force === undefined ? {} : { force: input.force }),
        },
        input.actor.userId,
        input.signal,
      );
      if (!outcome.ok)
        failed.push(`space node ${JSON.stringify(key)} (${variant.spaceId}): ${outcome.error}`);
    }

    // Customization as code: the file's parts, each a revision naming the commit.
    if (customization !== undefined) {
      const subject = snapshot.message.split('\n')[0] ?? '';
      const message = `Imported from Git: commit ${snapshot.oid.slice(0, 12)} (${subject}), ${customization.file}`;
      if (customization.site !== undefined) {
        await this.deps.customization.importSite(
          organizationId,
          siteId,
          customization.site,
          message,
          input.actor,
        );
      }
      if (customization.variants !== undefined) {
        for (const [key, variant] of applied.variants) {
          const override = customization.variants.get(key) ?? {};
          await this.deps.customization.importVariant(
            organizationId,
            siteId,
            variant.siteSpaceId,
            override,
            message,
            input.actor,
          );
        }
      }
    }
    const end = {
      ended_at: now(),
      warnings: JSON.stringify(warnings.map(asWarning)),
      commit_oid: snapshot.oid,
    };
    if (failed.length > 0) {
      await this.repo.end(siteId, this.owner, {
        ...end,
        state: 'failure',
        error: `The site's structure was imported, but not every space's content: ${failed.join('; ')}`,
      });
    } else {
      await this.repo.end(siteId, this.owner, { ...end, state: 'success', error: null });
    }
    input.log.info(
      { siteId, commit: snapshot.oid, failed: failed.length },
      'site git import ended',
    );
  }

  private async operate(
    siteId: string,
    controller: AbortController,
    direction: 'import' | 'export',
    work: (log: FastifyBaseLogger) => Promise<void>,
  ): Promise<void> {
    const log = this.log.child({ siteId, gitSync: `site-${direction}` });
    const heartbeat = setInterval(() => {
      void this.repo.renew(siteId, this.owner, now()).catch(() => undefined);
    }, LEASE_MS / 3);
    const timeout = setTimeout(
      () => controller.abort(new Error('timeout')),
      this.deps.config.operationTimeoutMs,
    );
    try {
      await work(log);
    } catch (error) {
      const failure =
        error instanceof SiteImportFailed
          ? error
          : direction === 'export'
            ? exportFailureOf(error)
            : importFailureOf(error);
      const timedOut = controller.signal.aborted;
      const message =
        failure instanceof SiteImportFailed || failure instanceof ImportFailed
          ? failure.message
          : timedOut
            ? `The ${direction} took longer than GIT_OPERATION_TIMEOUT_MS (${this.deps.config.operationTimeoutMs} ms) or the server stopped`
            : `The ${direction} failed on an error of the server (the server log has the details)`;
      if (!(failure instanceof SiteImportFailed || failure instanceof ImportFailed)) {
        log.error({ err: error }, `site git ${direction} failed`);
      }
      const warnings = failure instanceof ImportFailed ? failure.warnings : [];
      await this.repo
        .end(siteId, this.owner, {
          state: timedOut ? 'timeout' : 'failure',
          error: message,
          warnings: JSON.stringify(warnings),
          ended_at: now(),
        })
        .catch((e: unknown) => log.error({ err: e }, 'could not record the end of a site import'));
    } finally {
      clearInterval(heartbeat);
      clearTimeout(timeout);
    }
  }

  /**
   * For the command line (`git import-site`, `git export-site`): the site's organization and who
   * the operation is recorded as (its organization's first admin: the CLI runs as the operator,
   * who has no user of their own). 404 for an unknown site.
   */
  async cliContext(siteId: string): Promise<{ organizationId: string; actor: Actor }> {
    const site = await this.db
      .selectFrom('sites')
      .select('organization_id')
      .where('id', '=', siteId)
      .executeTakeFirst();
    if (site === undefined) throw notFound('site', siteId);
    const admin = await this.db
      .selectFrom('memberships')
      .select('user_id')
      .where('organization_id', '=', site.organization_id)
      .where('role', '=', 'admin')
      .orderBy('joined_at')
      .orderBy('user_id')
      .executeTakeFirst();
    if (admin === undefined) throw conflict(`The organization of site ${siteId} has no admin`);
    return {
      organizationId: site.organization_id,
      actor: { userId: admin.user_id, tokenId: null },
    };
  }

  /** getSiteGitInfo: 404 before the site's first operation. */
  async info(organizationId: string, siteId: string): Promise<GitSyncState> {
    await this.deps.sites.requireSite(organizationId, siteId);
    const state = await this.stateOf(siteId);
    if (state === undefined) throw notFound('Git Sync of site', siteId);
    return state;
  }

  /** The site's GitSyncState, or undefined when it never synced. */
  async stateOf(siteId: string): Promise<GitSyncState | undefined> {
    await this.repo.endAbandoned(siteId, now());
    const row = await this.repo.get(siteId);
    return row === undefined ? undefined : this.present(row);
  }

  /** Site.gitSync of these sites (an abandoned operation shown as a failure, nothing written). */
  async statesOf(siteIds: readonly string[]): Promise<Map<string, GitSyncState>> {
    const rows = await this.repo.rows(siteIds);
    return new Map(rows.map((row) => [row.site_id, this.present(row)]));
  }

  private present(row: SiteGitSyncRow): GitSyncState {
    const state = gitSyncStateOf(
      { ...row, space_id: row.site_id, revision_id: null, owned_paths: null, conflict: null },
      this.deps.config.operationTimeoutMs,
    );
    return { ...state, installationId: `livery-${row.site_id}` };
  }

  async close(): Promise<void> {
    for (const controller of this.running.values()) controller.abort(new Error('stopped'));
    await Promise.allSettled([...this.runs]);
  }
}

/** A docs.yaml or customization file that breaks a rule: every violation, one per line. */
export class SiteImportFailed extends Error {
  constructor(readonly violations: Violation[]) {
    super(
      `The repository's site files break ${violations.length === 1 ? 'a rule' : `${violations.length} rules`}; nothing was changed:\n${violations.map(describeViolation).join('\n')}`,
    );
  }
}

function asWarning(v: Violation): { file: string; line?: number; message: string } {
  const text = describeViolation({ ...v, file: '' }).replace(/^:?\d*:\s*/, '');
  return v.line === undefined
    ? { file: v.file, message: text }
    : { file: v.file, line: v.line, message: text };
}
