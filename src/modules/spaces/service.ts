import type { GitSyncRow, RevisionRow, SpaceRow } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import { refuseUnsupported } from '../../unsupported-inputs.js';
import type { Urls } from '../../urls.js';
import { spacePermissions } from '../access/record-permissions.js';
import { gitSyncStateOf } from '../git-sync/state.js';
import type { IdentityService } from '../identity/service.js';
import { spacePosition } from './order.js';
import type { ChangeRequestCounts, SpacesRepository } from './repository.js';
import type { CreateSpace, Space, SpaceUpdate } from './schemas.js';
import { CREATE_SPACE_UNSUPPORTED, UPDATE_SPACE_UNSUPPORTED } from './unsupported.js';

/** The title of a space created without one (createSpace, addSpaceToSite with no space). */
export const UNTITLED_SPACE = 'Untitled';

/** A new private space's row; `makeId` lets bulk inserts (scripts/seed.ts) draw ids faster. */
export function newSpaceRow(
  organizationId: string,
  input: Pick<CreateSpace, 'title' | 'emoji' | 'language'>,
  at: string,
  makeId: () => string = newId,
): SpaceRow {
  const id = makeId();
  return {
    id,
    organization_id: organizationId,
    title: input.title ?? UNTITLED_SPACE,
    emoji: input.emoji ?? '',
    visibility: 'private',
    // Livery never locks a space (src/modules/spaces/unsupported.ts).
    edit_mode: 'live',
    // Every space starts with an empty revision (initialRevisionRow).
    revision_id: makeId(),
    created_at: at,
    updated_at: at,
    icon: null,
    language: input.language ?? null,
    // Last in its organization (spaces/order.ts).
    position: spacePosition(at, id),
  };
}

/** The empty revision a new space starts with. */
export function initialRevisionRow(space: SpaceRow): RevisionRow {
  return {
    id: space.revision_id,
    space_id: space.id,
    type: 'edits',
    parents: '[]',
    merged_from: null,
    page_nodes: '[]',
    touched: '[]',
    created_by: null,
    git: null,
    files: null,
    reusable_contents: null,
    redirects: null,
    created_at: space.created_at,
  };
}

const NO_CHANGE_REQUESTS: ChangeRequestCounts = { total: 0, open: 0, draft: 0 };

export class SpacesService {
  constructor(
    private readonly repo: SpacesRepository,
    private readonly identity: IdentityService,
    private readonly urls: Urls,
    /** GIT_OPERATION_TIMEOUT_MS, shown in Space.gitSync as getSpaceGitInfo shows it. */
    private readonly gitOperationTimeoutMs?: number,
  ) {}

  async create(organizationId: string, role: string, input: CreateSpace): Promise<Space> {
    refuseUnsupported(input, CREATE_SPACE_UNSUPPORTED);
    const row = newSpaceRow(organizationId, input, now());
    await this.repo.insert(row, initialRevisionRow(row));
    return this.present(row, role);
  }

  /** A space the user may see: one of an organization they are a member of (else 404). */
  async get(userId: string, spaceId: string): Promise<Space> {
    const { row, role } = await this.requireVisible(userId, spaceId);
    return this.presentOne(row, role);
  }

  /**
   * The space as a reader of a published site sees it (a site token: its gate already checked
   * that the site shows the space).
   */
  async getPublished(spaceId: string): Promise<Space> {
    const row = await this.repo.find(spaceId);
    if (row === undefined) throw notFound('space', spaceId);
    return this.presentOne(row, 'read');
  }

  /** The id of the space's current revision (404 when there is no such space). */
  async currentRevisionId(spaceId: string): Promise<string> {
    const revision = await this.repo.revisionOf(spaceId);
    if (revision === undefined) throw notFound('space', spaceId);
    return revision;
  }

  /**
   * The spaces `userId` can access, in the organizations the caller shares with them, each with
   * the user's role as its permission; a user who shares no organization with the caller is a 404.
   */
  async listForUser(callerId: string, userId: string, page: PageRequest) {
    await this.identity.requireSharedUser(callerId, userId);
    const { rows, count } = await this.repo.listForUser(callerId, userId, page);
    const present = await this.presenter(rows);
    return toPage(
      rows,
      page.limit,
      count,
      (row) => ({ permission: row.role, space: present(row, row.role) }),
      (row) => row.position,
    );
  }

  /** The space's row and the user's role in its organization; 404 when they may not see it. */
  async requireVisible(userId: string, spaceId: string): Promise<{ row: SpaceRow; role: string }> {
    const row = await this.repo.find(spaceId);
    if (row === undefined) throw notFound('space', spaceId);
    const role = await this.identity.requireMember(userId, row.organization_id).catch(() => {
      throw notFound('space', spaceId);
    });
    return { row, role };
  }

  /**
   * What updateSpaceById refuses, checked before anything changes (the deprecated site fields of
   * the same request included): the unsupported inputs, and an emoji together with an icon.
   */
  checkUpdate(input: SpaceUpdate): void {
    refuseUnsupported(input, UPDATE_SPACE_UNSUPPORTED);
    if (typeof input.emoji === 'string' && typeof input.icon === 'string') {
      throw badRequest('body.icon: a space has an emoji or an icon, not both; send one of them');
    }
  }

  /**
   * updateSpaceById: the space's own fields. A space shows an emoji or an icon: setting one
   * removes the other; `null` removes either. `language` becomes the space's own.
   */
  async update(userId: string, spaceId: string, input: SpaceUpdate): Promise<Space> {
    this.checkUpdate(input);
    const { role } = await this.requireVisible(userId, spaceId);
    const change: Partial<SpaceRow> = {};
    if (input.title !== undefined) change.title = input.title;
    if (input.emoji !== undefined) change.emoji = input.emoji ?? '';
    if (input.icon !== undefined) change.icon = input.icon;
    if (typeof input.emoji === 'string') change.icon = null;
    if (typeof input.icon === 'string') change.emoji = '';
    if (input.language !== undefined) change.language = input.language;
    // Only "live" gets here: it unlocks a space an earlier Livery stored as locked.
    if (input.editMode !== undefined) change.edit_mode = input.editMode;
    const row = await this.repo.update(spaceId, { ...change, updated_at: now() });
    if (row === undefined) throw notFound('space', spaceId);
    return this.presentOne(row, role);
  }

  /** The organization of a space, or undefined when there is no such space. */
  organizationOf(spaceId: string): Promise<string | undefined> {
    return this.repo.organizationOf(spaceId);
  }

  /** One page of an organization's spaces, presented for a member with `role`. */
  async listInOrganization(
    organizationId: string,
    role: string,
    page: PageRequest,
  ): Promise<Page<Space>> {
    const { rows, count } = await this.repo.listInOrganization(organizationId, page);
    const present = await this.presenter(rows);
    return toPage(
      rows,
      page.limit,
      count,
      (row) => present(row, role),
      (row) => row.position,
    );
  }

  /**
   * Every space of an organization, in its order, as the organization's search covers them
   * (searchOrganizationContent, docs/search.md): read a page of the list at a time.
   */
  async allInOrganization(organizationId: string): Promise<{ id: string; title: string }[]> {
    const all: { id: string; title: string }[] = [];
    let cursor: PageRequest['cursor'];
    for (;;) {
      const { rows } = await this.repo.listInOrganization(organizationId, { cursor, limit: 1000 });
      for (const row of rows.slice(0, 1000)) all.push({ id: row.id, title: row.title });
      const last = rows[999];
      if (rows.length <= 1000 || last === undefined) return all;
      cursor = { key: last.position, id: last.id };
    }
  }

  /**
   * Presents spaces read together: their change-request counters and languages are loaded in
   * two queries for all of them, then each is presented for the role given.
   */
  async presenter(rows: readonly SpaceRow[]): Promise<(row: SpaceRow, role: string) => Space> {
    const ids = rows.map((row) => row.id);
    const [counts, languages, gitSync] = await Promise.all([
      this.repo.changeRequestCounts(ids),
      this.repo.languages(ids),
      this.repo.gitSyncRows(ids),
    ]);
    return (row, role) =>
      this.present(row, role, counts.get(row.id), languages.get(row.id), gitSync.get(row.id));
  }

  findInOrganization(spaceId: string, organizationId: string) {
    return this.repo.findInOrganization(spaceId, organizationId);
  }

  /** GitBook's Space of one space, with its counters, language and Git Sync state. */
  async presentOne(row: SpaceRow, role: string): Promise<Space> {
    const [counts, language, gitSync] = await Promise.all([
      this.repo.changeRequestCountsOf(row.id),
      this.repo.languageOf(row.id),
      this.repo.gitSyncRows([row.id]),
    ]);
    return this.present(row, role, counts, language, gitSync.get(row.id));
  }

  /** GitBook's Space for a member with `role` (docs/api.md, "Records: GitBook 0.202's fields"). */
  present(
    row: SpaceRow,
    role: string,
    counts = NO_CHANGE_REQUESTS,
    derivedLanguage: string | undefined = undefined,
    gitSync: GitSyncRow | undefined = undefined,
  ): Space {
    const location = this.urls.space(row.id);
    // The language set for the space wins over the one its variants agree on.
    const language = row.language ?? derivedLanguage;
    return {
      object: 'space',
      id: row.id,
      title: row.title,
      emoji: row.emoji,
      ...(row.icon === null ? {} : { icon: row.icon }),
      visibility: row.visibility,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      editMode: row.edit_mode,
      urls: { location, app: location },
      organization: row.organization_id,
      revision: row.revision_id,
      defaultLevel: 'inherit',
      // Livery has no merge rules of a space's own: the organization's (none) apply.
      mergeRules: { type: 'inherit' },
      ...(language === undefined ? {} : { language }),
      ...(gitSync === undefined
        ? {}
        : { gitSync: gitSyncStateOf(gitSync, this.gitOperationTimeoutMs) }),
      comments: 0,
      changeRequests: counts.total,
      changeRequestsOpen: counts.open,
      changeRequestsDraft: counts.draft,
      permissions: spacePermissions(role),
    };
  }
}
