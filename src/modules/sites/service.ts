import { isUniqueViolation } from '../../db/errors.js';
import type { SiteSpaceRow, SpaceRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import { slugify, uniqueSlug } from '../../slug.js';
import type { Urls } from '../../urls.js';
import { newSpaceRow, type SpacesService } from '../spaces/service.js';
import type { SiteSpaceWithSpace, SitesRepository, SiteWithCount } from './repository.js';
import type { CreateSite, Site, SiteFilters, SiteSpace } from './schemas.js';

/** Adding a site-space can race another on the same path; a few fresh attempts settle it. */
const PATH_ATTEMPTS = 20;

export class SitesService {
  constructor(
    private readonly repo: SitesRepository,
    private readonly spaces: SpacesService,
    private readonly urls: Urls,
  ) {}

  async create(organizationId: string, input: CreateSite): Promise<Site> {
    const at = now();
    const siteId = newId('site_');
    const title = input.title ?? 'Untitled site';
    const spaces = await this.initialSpaces(organizationId, title, input.spaces, at);
    const taken = new Set<string>();
    const siteSpaces = spaces.map((space, index) => {
      const path = uniqueSlug(slugify(space.row.title, 'space'), taken);
      taken.add(path);
      return this.siteSpaceRow(siteId, space.row.id, path, index + 1, at);
    });
    await this.repo.insertSite(
      {
        id: siteId,
        organization_id: organizationId,
        title,
        type: input.type ?? 'basic',
        visibility: input.visibility ?? 'public',
        published: 0,
        basename: null,
        agents_context: 'included',
        created_at: at,
        updated_at: at,
        customization: null,
        customization_version: 0,
        customization_updated_at: null,
      },
      spaces.filter((s) => s.isNew).map((s) => s.row),
      siteSpaces,
    );
    return this.get(organizationId, siteId);
  }

  async get(organizationId: string, siteId: string): Promise<Site> {
    return this.present(await this.requireSite(organizationId, siteId));
  }

  async requireSite(organizationId: string, siteId: string): Promise<SiteWithCount> {
    const site = await this.repo.findSite(organizationId, siteId);
    if (site === undefined) throw notFound('site', siteId);
    return site;
  }

  async list(organizationId: string, filters: SiteFilters, page: PageRequest): Promise<Page<Site>> {
    const { rows, count } = await this.repo.listSites(organizationId, filters, page);
    return toPage(rows, page.limit, count, (row) => this.present(row));
  }

  /** Adds a variant; the first variant of a site becomes its default. */
  async addSpace(
    organizationId: string,
    role: string,
    siteId: string,
    spaceId: string,
  ): Promise<SiteSpace> {
    await this.requireSite(organizationId, siteId);
    const space = await this.spaces.findInOrganization(spaceId, organizationId);
    if (space === undefined) {
      throw badRequest(`body.spaceId: no space ${JSON.stringify(spaceId)} in this organization`);
    }
    for (let attempt = 1; ; attempt++) {
      const { paths, hasDefault, nextPosition } = await this.repo.siteSpaceSlots(siteId);
      const path = uniqueSlug(slugify(space.title, 'space'), paths);
      const row = {
        ...this.siteSpaceRow(siteId, space.id, path, nextPosition, now()),
        is_default: hasDefault ? 0 : 1,
      };
      try {
        await this.repo.insertSiteSpace(row);
        return this.presentSiteSpace(organizationId, { ...row, space }, role);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (attempt === PATH_ATTEMPTS) {
          throw conflict('The site changed while the space was being added; retry the request');
        }
      }
    }
  }

  async listSiteSpaces(
    organizationId: string,
    role: string,
    siteId: string,
    isDefault: boolean | undefined,
    page: PageRequest,
  ): Promise<Page<SiteSpace>> {
    await this.requireSite(organizationId, siteId);
    const { rows, count } = await this.repo.listSiteSpaces(siteId, isDefault, page);
    return toPage(
      rows,
      page.limit,
      count,
      (row) => this.presentSiteSpace(organizationId, row, role),
      (row) => row.position,
    );
  }

  private async initialSpaces(
    organizationId: string,
    title: string,
    spaces: CreateSite['spaces'],
    at: string,
  ): Promise<{ row: SpaceRow; isNew: boolean }[]> {
    if (spaces === undefined) return [];
    if (spaces === 'sample') {
      throw badRequest(
        'body.spaces: "sample" (GitBook\'s sample content) is not available in Livery; use "empty" or a list of space ids',
      );
    }
    if (spaces === 'empty') {
      return [{ row: newSpaceRow(organizationId, { title: title.slice(0, 50) }, at), isNew: true }];
    }
    const found: { row: SpaceRow; isNew: boolean }[] = [];
    for (const [index, spaceId] of spaces.entries()) {
      const row = await this.spaces.findInOrganization(spaceId, organizationId);
      if (row === undefined) {
        throw badRequest(
          `body.spaces[${index}]: no space ${JSON.stringify(spaceId)} in this organization`,
        );
      }
      found.push({ row, isNew: false });
    }
    return found;
  }

  /** A new variant; the one at position 1 is the default until the site says otherwise. */
  private siteSpaceRow(
    siteId: string,
    spaceId: string,
    path: string,
    position: number,
    at: string,
  ): SiteSpaceRow {
    return {
      id: newId('sitesp_'),
      site_id: siteId,
      space_id: spaceId,
      path,
      is_default: position === 1 ? 1 : 0,
      position,
      created_at: at,
      override: null,
      override_version: 0,
      override_updated_at: null,
    };
  }

  private present(row: SiteWithCount): Site {
    const location = this.urls.site(row.organization_id, row.id);
    return {
      object: 'site',
      id: row.id,
      type: row.type,
      title: row.title,
      ...(row.basename === null ? {} : { basename: row.basename }),
      visibility: row.visibility,
      published: row.published === 1,
      siteSpaces: row.site_space_count,
      createdAt: row.created_at,
      agentsContext: row.agents_context,
      features: [],
      urls: { location, app: location },
    };
  }

  private presentSiteSpace(
    organizationId: string,
    row: SiteSpaceWithSpace,
    role: string,
  ): SiteSpace {
    return {
      object: 'site-space',
      id: row.id,
      path: row.path,
      space: this.spaces.present(row.space, role),
      title: row.space.title,
      default: row.is_default === 1,
      urls: { location: this.urls.siteSpace(organizationId, row.site_id, row.id) },
    };
  }
}
