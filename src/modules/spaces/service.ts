import type { RevisionRow, SpaceRow } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import type { Urls } from '../../urls.js';
import { roleAtLeast as atLeast } from '../identity/permissions.js';
import type { IdentityService } from '../identity/service.js';
import type { ChangeRequestCounts, SpacesRepository } from './repository.js';
import type { CreateSpace, Space, SpaceUpdate } from './schemas.js';

/** A new private space's row; `makeId` lets bulk inserts (scripts/seed.ts) draw ids faster. */
export function newSpaceRow(
  organizationId: string,
  input: CreateSpace,
  at: string,
  makeId: () => string = newId,
): SpaceRow {
  return {
    id: makeId(),
    organization_id: organizationId,
    title: input.title ?? 'Untitled',
    emoji: input.emoji ?? '',
    visibility: 'private',
    edit_mode: input.editMode ?? 'live',
    // Every space starts with an empty revision (initialRevisionRow).
    revision_id: makeId(),
    created_at: at,
    updated_at: at,
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
    pages: '[]',
    touched: '[]',
    created_by: null,
    created_at: space.created_at,
  };
}

const NO_CHANGE_REQUESTS: ChangeRequestCounts = { total: 0, open: 0, draft: 0 };

export class SpacesService {
  constructor(
    private readonly repo: SpacesRepository,
    private readonly identity: IdentityService,
    private readonly urls: Urls,
  ) {}

  async create(organizationId: string, role: string, input: CreateSpace): Promise<Space> {
    const row = newSpaceRow(organizationId, input, now());
    await this.repo.insert(row, initialRevisionRow(row));
    return this.present(row, role);
  }

  /** A space the user may see: one of an organization they are a member of (else 404). */
  async get(userId: string, spaceId: string): Promise<Space> {
    const { row, role } = await this.requireVisible(userId, spaceId);
    return this.present(row, role, await this.countsOf(row.id));
  }

  /** The id of the space's current revision (404 when there is no such space). */
  async currentRevisionId(spaceId: string): Promise<string> {
    const revision = await this.repo.revisionOf(spaceId);
    if (revision === undefined) throw notFound('space', spaceId);
    return revision;
  }

  /**
   * deleteSpaceById: true when deleted (205). A space a site shows cannot go: 409 naming the
   * sites, so that no published variant loses its content unnoticed.
   */
  async delete(spaceId: string): Promise<boolean> {
    const outcome = await this.repo.delete(spaceId);
    if (outcome === 'missing') return false;
    if (outcome !== 'deleted') {
      const sites = outcome.map((site) => `${JSON.stringify(site.title)} (${site.id})`).join(', ');
      throw conflict(
        `Space ${spaceId} is shown by site ${sites}; remove it from the site (deleteSiteSpaceById) first`,
      );
    }
    return true;
  }

  /**
   * The spaces `userId` can access, in the organizations the caller shares with them, each with
   * the user's role as its permission; a user who shares no organization with the caller is a 404.
   */
  async listForUser(callerId: string, userId: string, page: PageRequest) {
    await this.identity.requireSharedUser(callerId, userId);
    const { rows, count } = await this.repo.listForUser(callerId, userId, page);
    const counts = await this.repo.changeRequestCounts(rows.map((row) => row.id));
    return toPage(rows, page.limit, count, (row) => ({
      permission: row.role,
      space: this.present(row, row.role, counts.get(row.id)),
    }));
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

  /** updateSpaceById: the space's own fields; `emoji: null` removes the emoji. */
  async update(userId: string, spaceId: string, input: SpaceUpdate): Promise<Space> {
    const { role } = await this.requireVisible(userId, spaceId);
    const change: Partial<SpaceRow> = {};
    if (input.title !== undefined) change.title = input.title;
    if (input.emoji !== undefined) change.emoji = input.emoji ?? '';
    if (input.editMode !== undefined) change.edit_mode = input.editMode;
    const row = await this.repo.update(spaceId, { ...change, updated_at: now() });
    if (row === undefined) throw notFound('space', spaceId);
    return this.present(row, role, await this.countsOf(spaceId));
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
    const counts = await this.repo.changeRequestCounts(rows.map((row) => row.id));
    return toPage(rows, page.limit, count, (row) => this.present(row, role, counts.get(row.id)));
  }

  findInOrganization(spaceId: string, organizationId: string) {
    return this.repo.findInOrganization(spaceId, organizationId);
  }

  private countsOf(spaceId: string): Promise<ChangeRequestCounts> {
    return this.repo.changeRequestCountsOf(spaceId);
  }

  present(row: SpaceRow, role: string, counts = NO_CHANGE_REQUESTS): Space {
    const location = this.urls.space(row.id);
    return {
      object: 'space',
      id: row.id,
      title: row.title,
      emoji: row.emoji,
      visibility: row.visibility,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      editMode: row.edit_mode,
      urls: { location, app: location },
      organization: row.organization_id,
      revision: row.revision_id,
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: counts.total,
      changeRequestsOpen: counts.open,
      changeRequestsDraft: counts.draft,
      permissions: {
        view: true,
        access: true,
        admin: atLeast(role, 'admin'),
        viewInviteLinks: atLeast(role, 'admin'),
        edit: atLeast(role, 'edit'),
        triggerGitSync: atLeast(role, 'edit'),
        comment: atLeast(role, 'comment'),
        merge: atLeast(role, 'review'),
        review: atLeast(role, 'review'),
      },
    };
  }
}
