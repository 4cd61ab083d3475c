import type { FastifyBaseLogger } from 'fastify';
import type { GitLinkRow } from '../../../db/schema.js';
import type { ContentRepository } from '../../content/repository.js';
import { isAncestor } from '../git-write.js';
import type { GitSource } from '../import/source.js';
import type { GitSyncService } from '../service.js';
import type { GitExportService, SyncTarget } from '../sync/service.js';
import { BoundedSet } from './bounded-set.js';
import type { GitLinksRepository } from './repository.js';
import type { PreviewLinks } from './service.js';

/**
 * Branch previews of a linked space (docs/git-sync.md, "Branch previews"): a push to another
 * branch is recorded as pending; the next look at the space imports it as a change request (the
 * same one for the branch's next pushes) and opens its preview link; a branch deleted, or merged
 * into the linked one, ends its preview and archives its change request.
 */
export class BranchPreviews {
  private links: PreviewLinks | undefined;
  /** Preview and linked commits already compared (a commit's ancestry never changes). */
  private readonly checked = new BoundedSet(10_000);

  constructor(
    private readonly repo: GitLinksRepository,
    private readonly deps: {
      gitSync: GitSyncService;
      gitExport: GitExportService;
      content: ContentRepository;
      source: GitSource;
    },
    private readonly log: () => FastifyBaseLogger,
  ) {}

  useLinks(links: PreviewLinks): void {
    this.links = links;
  }

  linkOf(changeRequestId: string): Promise<{ url: string } | undefined> {
    return this.links?.forChangeRequest(changeRequestId) ?? Promise.resolve(undefined);
  }

  /** A verified push to a branch other than the linked one; what is done about it. */
  async pushed(row: GitLinkRow, push: { branch: string; deleted: boolean }): Promise<string> {
    const spaceId = row.space_id;
    if (row.preview_branches !== 1) return 'another branch, and previews are off: ignored';
    const previews = await this.repo.previews(spaceId);
    const existing = previews.find((p) => p.branch === push.branch);
    if (push.deleted) {
      if (existing !== undefined) {
        await this.end(
          spaceId,
          existing.branch,
          existing.change_request_id,
          'the branch was deleted',
        );
      }
      return 'the branch was deleted: its preview ended';
    }
    await this.repo.putPreview({
      space_id: spaceId,
      branch: push.branch,
      change_request_id: existing?.change_request_id ?? '',
      commit_oid: '',
      updated_at: new Date().toISOString(),
    });
    return 'another branch: its preview is being made';
  }

  async next(row: GitLinkRow, target: SyncTarget): Promise<void> {
    const previews = await this.repo.previews(row.space_id);
    const state = await this.deps.gitSync.row(row.space_id);
    // Previews merged into the linked branch end (checked once per synced commit and preview).
    let dir: string | undefined;
    for (const p of previews) {
      if (p.commit_oid === '' || state?.commit_oid == null) continue;
      const key = `${p.commit_oid}\0${state.commit_oid}`;
      if (this.checked.has(key)) continue;
      this.checked.add(key);
      dir ??= (await this.deps.source.open(target.url, row.space_id)).dir;
      if (await isAncestor(dir, p.commit_oid, state.commit_oid).catch(() => false)) {
        await this.end(row.space_id, p.branch, p.change_request_id, 'the branch was merged');
      }
    }
    const pending = previews.find((p) => p.commit_oid === '');
    if (pending === undefined || row.preview_branches !== 1) return;
    const existing =
      pending.change_request_id === ''
        ? undefined
        : await this.deps.content.findChangeRequest(row.space_id, pending.change_request_id);
    await this.deps.gitExport.startPreview(
      row.space_id,
      target,
      pending.branch,
      existing === undefined ? undefined : { id: existing.id, revisionId: existing.revision_id },
      async (changeRequestId, commit) => {
        await this.repo.putPreview({
          space_id: row.space_id,
          branch: pending.branch,
          change_request_id: changeRequestId,
          commit_oid: commit,
          updated_at: new Date().toISOString(),
        });
        const link = await this.links?.open({
          spaceId: row.space_id,
          changeRequestId,
          label: pending.branch,
          actor: row.created_by,
        });
        this.log().info(
          { spaceId: row.space_id, branch: pending.branch, url: link?.url },
          'branch preview ready',
        );
      },
    );
  }

  async end(spaceId: string, branch: string, changeRequestId: string, why: string): Promise<void> {
    await this.repo.deletePreview(spaceId, branch);
    if (changeRequestId === '') return;
    await this.links?.close(changeRequestId, why);
    await this.deps.content.updateChangeRequest(
      changeRequestId,
      { status: 'archived' },
      new Date().toISOString(),
    );
    this.log().info({ spaceId, branch, changeRequestId, why }, 'branch preview ended');
  }
}
