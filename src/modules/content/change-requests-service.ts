import type { ContentLimits } from '../../config.js';
import type { ChangeRequestRow } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import { KeyedQueue } from '../../keyed-queue.js';
import type { Urls } from '../../urls.js';
import { TaskFailed, TaskTimedOut, type Workers } from '../../workers/index.js';
import type { User } from '../identity/schemas.js';
import type { IdentityService } from '../identity/service.js';
import type { SpacesService } from '../spaces/service.js';
import { applyChanges, type PageChange } from './changes.js';
import { baseOf, newRevision, RevisionHistory } from './history.js';
import {
  checkBlocks,
  checkMarkdownSizes,
  checkPageCount,
  markdownsOf,
  tooManyBlocks,
} from './limits.js';
import type { ContentRepository } from './repository.js';
import type { ChangeRequest } from './schemas.js';

/** Compare-and-swap attempts before a write that keeps losing races answers 409. */
const ATTEMPTS = 8;
/** Counting a page's blocks (a parse, on a worker thread) past this means it has too many. */
const COUNT_MS = 30_000;
const EDITABLE = new Set(['open', 'draft']);

/**
 * Change requests (docs/content.md): a branch of a space's content. Edits make new revisions of
 * the change request; merging makes a new revision of the space. Every write is a
 * compare-and-swap on the revision it started from, retried when another write got there first,
 * so concurrent edits and merges never lose one another.
 */
export class ChangeRequestsService {
  /** Writes to one space's content, in this process, one at a time (see KeyedQueue). */
  private readonly writes = new KeyedQueue();
  private readonly history: RevisionHistory;

  constructor(
    private readonly repo: ContentRepository,
    private readonly spaces: SpacesService,
    private readonly identity: IdentityService,
    private readonly urls: Urls,
    private readonly options: { workers: Workers; limits: ContentLimits },
  ) {
    this.history = new RevisionHistory(repo);
  }

  async create(spaceId: string, userId: string, subject: string | undefined) {
    const at = now();
    const base = await this.spaces.currentRevisionId(spaceId);
    const row = await this.repo.insertChangeRequest({
      id: newId(),
      space_id: spaceId,
      status: 'open',
      subject: subject ?? '',
      created_by: userId,
      created_at: at,
      updated_at: at,
      revision_id: base,
      revision_initial: base,
      revision_merged_ancestor: null,
      revision_merged: null,
    });
    const request = await this.present(row, base);
    return { ...request, changeRequest: request.id };
  }

  async get(spaceId: string, ref: string): Promise<ChangeRequest> {
    const row = await this.require(spaceId, ref);
    return this.present(row, await this.spaces.currentRevisionId(spaceId));
  }

  async list(
    spaceId: string,
    status: ChangeRequestRow['status'],
    page: PageRequest,
  ): Promise<Page<ChangeRequest>> {
    const { rows, count } = await this.repo.listChangeRequests(spaceId, status, page);
    const current = await this.spaces.currentRevisionId(spaceId);
    const users = new Map<string, User>();
    for (const row of rows) {
      if (!users.has(row.created_by)) users.set(row.created_by, await this.user(row.created_by));
    }
    return toPage(rows, page.limit, count, (row) => this.presentWith(row, current, users));
  }

  /** PATCH: subject and status (draft, open, archived); a merged change request is a 409. */
  async update(
    spaceId: string,
    ref: string,
    change: { subject?: string; status?: 'draft' | 'open' | 'archived' },
  ) {
    const row = await this.require(spaceId, ref);
    if (row.status === 'merged')
      throw conflict(`Change request ${row.number} is merged; it can no longer change`);
    const updated = await this.repo.updateChangeRequest(row.id, change, now());
    if (updated === undefined) throw conflict(`Change request ${row.number} was merged meanwhile`);
    return this.present(updated, await this.spaces.currentRevisionId(spaceId));
  }

  /**
   * Applies a change list (all or nothing) as a new revision of the change request, once its
   * pages are within the content limits (limits.ts): their size here, their blocks counted on a
   * worker thread, before the space's writes queue is entered.
   */
  async updateContent(
    spaceId: string,
    ref: string,
    changes: readonly PageChange[],
    userId: string,
  ) {
    const { limits, workers } = this.options;
    checkMarkdownSizes(changes, limits);
    const pages = markdownsOf(changes);
    if (pages.length > 0) {
      const blocks = await workers.render
        .run(
          'pageBlocks',
          pages.map((page) => page.markdown),
          COUNT_MS,
        )
        .catch((error: unknown) => {
          if (error instanceof TaskTimedOut || error instanceof TaskFailed) {
            throw tooManyBlocks(pages[0]?.index ?? 0, 'too many', limits);
          }
          throw error;
        });
      checkBlocks(pages, blocks, limits);
    }
    return this.writes.run(spaceId, () => this.applyContent(spaceId, ref, changes, userId));
  }

  private async applyContent(
    spaceId: string,
    ref: string,
    changes: readonly PageChange[],
    userId: string,
  ) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const row = await this.requireEditable(spaceId, ref);
      const current = await this.history.revision(row.revision_id);
      const at = now();
      const { tree, touched } = applyChanges(current.pages, changes, at);
      checkPageCount(tree, this.options.limits, 'changes');
      const revision = newRevision(spaceId, 'edits', [row.revision_id], tree, touched, userId, at);
      if (await this.repo.advanceChangeRequest(row.id, row.revision_id, revision)) {
        return this.get(spaceId, row.id);
      }
    }
    throw busy();
  }

  /** Merges into the space: a new space revision; 409 naming the pages when both sides changed them. */
  merge(spaceId: string, ref: string, userId: string) {
    return this.writes.run(spaceId, () => this.applyMerge(spaceId, ref, userId));
  }

  private async applyMerge(spaceId: string, ref: string, userId: string) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const row = await this.requireEditable(spaceId, ref);
      const spaceRevision = await this.spaces.currentRevisionId(spaceId);
      const { tree, touched } = await this.history.combine(row, spaceRevision, 'merge');
      checkPageCount(tree, this.options.limits, `Merging change request ${row.number}`);
      const at = now();
      const revision = {
        ...newRevision(
          spaceId,
          'merge',
          [spaceRevision, row.revision_id],
          tree,
          touched,
          userId,
          at,
        ),
        mergedFrom: row.id,
      };
      if (await this.repo.merge(row.id, row.revision_id, spaceRevision, revision)) {
        return { revision: revision.id, result: 'merge' as const };
      }
    }
    throw busy();
  }

  /** Brings the space's changes into the change request (GitBook's "update"); 409 on conflicts. */
  rebase(spaceId: string, ref: string, userId: string) {
    return this.writes.run(spaceId, () => this.applyRebase(spaceId, ref, userId));
  }

  private async applyRebase(spaceId: string, ref: string, userId: string) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const row = await this.requireEditable(spaceId, ref);
      const spaceRevision = await this.spaces.currentRevisionId(spaceId);
      if (spaceRevision === baseOf(row))
        return { revision: row.revision_id, result: 'update' as const };
      const { tree } = await this.history.combine(row, spaceRevision, 'update');
      checkPageCount(tree, this.options.limits, `Updating change request ${row.number}`);
      const revision = newRevision(
        spaceId,
        'update',
        [row.revision_id, spaceRevision],
        tree,
        [],
        userId,
        now(),
      );
      const moved = await this.repo.advanceChangeRequest(row.id, row.revision_id, revision, {
        revision_merged_ancestor: spaceRevision,
      });
      if (moved) return { revision: revision.id, result: 'update' as const };
    }
    throw busy();
  }

  async require(spaceId: string, ref: string): Promise<ChangeRequestRow> {
    const row = await this.repo.findChangeRequest(spaceId, ref);
    if (row === undefined) throw notFound('change request', ref);
    return row;
  }

  private async requireEditable(spaceId: string, ref: string): Promise<ChangeRequestRow> {
    const row = await this.require(spaceId, ref);
    if (!EDITABLE.has(row.status)) {
      throw conflict(
        `Change request ${row.number} is ${row.status}; only open or draft change requests can change`,
      );
    }
    return row;
  }

  private async user(userId: string): Promise<User> {
    return this.identity.currentUser(userId).catch(() => ({
      object: 'user' as const,
      id: userId,
      displayName: 'Deleted user',
      urls: { location: this.urls.user(userId) },
    }));
  }

  async present(row: ChangeRequestRow, spaceRevision: string): Promise<ChangeRequest> {
    return this.presentWith(
      row,
      spaceRevision,
      new Map([[row.created_by, await this.user(row.created_by)]]),
    );
  }

  private presentWith(
    row: ChangeRequestRow,
    spaceRevision: string,
    users: Map<string, User>,
  ): ChangeRequest {
    const location = `${this.urls.space(row.space_id)}/change-requests/${row.id}`;
    return {
      object: 'change-request',
      id: row.id,
      number: row.number,
      status: row.status,
      subject: row.subject,
      createdBy: users.get(row.created_by) as User,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      space: row.space_id,
      revision: row.revision_id,
      revisionInitial: row.revision_initial,
      ...(row.revision_merged_ancestor === null
        ? {}
        : { revisionMergedAncestor: row.revision_merged_ancestor }),
      ...(row.revision_merged === null ? {} : { revisionMerged: row.revision_merged }),
      comments: 0,
      outdated: EDITABLE.has(row.status) && baseOf(row) !== spaceRevision,
      urls: { app: location, location },
    };
  }
}

const busy = () =>
  conflict('The content kept changing while this request was applied; read it again and retry');
