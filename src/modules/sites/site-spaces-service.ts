import { isUniqueViolation } from '../../db/errors.js';
import type { SiteRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { now } from '../../ids.js';
import { slugify, uniqueSlug } from '../../slug.js';
import type { Urls } from '../../urls.js';
import type { SpacesService } from '../spaces/service.js';
import type { SiteSpace, UpdateSiteSpace } from './schemas.js';
import { newSiteSpaceRow, type SitesService } from './service.js';
import type {
  SiteSpacesRepository,
  SiteSpaceUpdate,
  SiteSpaceWithSpace,
} from './site-spaces-repository.js';

/** Adding a site-space can race another on the same path; a few fresh attempts settle it. */
const PATH_ATTEMPTS = 20;

/** The variants of a site: add, list, change, delete. Exactly one of them is the default. */
export class SiteSpacesService {
  constructor(
    private readonly repo: SiteSpacesRepository,
    private readonly sites: SitesService,
    private readonly spaces: SpacesService,
    private readonly urls: Urls,
  ) {}

  /** Adds a variant; the first variant of a site becomes its default. */
  async add(organizationId: string, role: string, siteId: string, spaceId: string) {
    const site = await this.sites.requireSite(organizationId, siteId);
    const space = await this.requireSpace(organizationId, spaceId);
    for (let attempt = 1; ; attempt++) {
      const { paths, hasDefault, nextPosition } = await this.repo.siteSpaceSlots(siteId);
      const path = uniqueSlug(slugify(space.title, 'space'), paths);
      const row = {
        ...newSiteSpaceRow(siteId, space.id, path, nextPosition, now()),
        is_default: hasDefault ? 0 : 1,
      };
      try {
        await this.repo.insertSiteSpace(row);
        return this.present(site, { ...row, space }, role);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (attempt === PATH_ATTEMPTS) {
          throw conflict('The site changed while the space was being added; retry the request');
        }
      }
    }
  }

  async list(
    organizationId: string,
    role: string,
    siteId: string,
    isDefault: boolean | undefined,
    page: PageRequest,
  ): Promise<Page<SiteSpace>> {
    const site = await this.sites.requireSite(organizationId, siteId);
    const { rows, count } = await this.repo.listSiteSpaces(siteId, isDefault, page);
    return toPage(
      rows,
      page.limit,
      count,
      (row) => this.present(site, row, role),
      (row) => row.position,
    );
  }

  /** updateSiteSpaceById: all or nothing; a path held by another variant is a 409. */
  async update(
    organizationId: string,
    role: string,
    siteId: string,
    siteSpaceId: string,
    input: UpdateSiteSpace,
  ): Promise<SiteSpace> {
    const site = await this.sites.requireSite(organizationId, siteId);
    const change: SiteSpaceUpdate = {};
    if (input.path !== undefined) change.path = input.path;
    if (input.condition !== undefined) change.condition = input.condition;
    if (input.spaceId !== undefined) {
      change.space_id = (await this.requireSpace(organizationId, input.spaceId, 'body.spaceId')).id;
    }
    let result: Awaited<ReturnType<SiteSpacesRepository['update']>>;
    try {
      result = await this.repo.update(siteId, siteSpaceId, change);
    } catch (error) {
      if (isUniqueViolation(error)) throw pathTaken(input.path);
      throw error;
    }
    if (result.outcome === 'missing') throw notFound('site-space', siteSpaceId);
    if (result.outcome === 'path-taken') throw pathTaken(input.path, result.holder);
    const row = await this.repo.find(siteId, siteSpaceId);
    if (row === undefined) throw notFound('site-space', siteSpaceId);
    return this.present(site, row, role);
  }

  /** deleteSiteSpaceById: true when it existed (205), false when it did not (204). */
  /** The space a variant shows (404 for an unknown site or variant). */
  async spaceOf(organizationId: string, siteId: string, siteSpaceId: string): Promise<string> {
    await this.sites.requireSite(organizationId, siteId);
    const row = await this.repo.find(siteId, siteSpaceId);
    if (row === undefined) throw notFound('site-space', siteSpaceId);
    return row.space_id;
  }

  async delete(organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean> {
    await this.sites.requireSite(organizationId, siteId);
    return this.repo.delete(siteId, siteSpaceId);
  }

  private async requireSpace(organizationId: string, spaceId: string, field = 'body.spaceId') {
    const space = await this.spaces.findInOrganization(spaceId, organizationId);
    if (space === undefined) {
      throw badRequest(`${field}: no space ${JSON.stringify(spaceId)} in this organization`);
    }
    return space;
  }

  /** The default variant is served at the site's root, the others under their path. */
  private present(site: SiteRow, row: SiteSpaceWithSpace, role: string): SiteSpace {
    const siteUrl = this.sites.publishedUrl(site);
    const published =
      siteUrl === undefined ? undefined : row.is_default === 1 ? siteUrl : `${siteUrl}/${row.path}`;
    return {
      object: 'site-space',
      id: row.id,
      path: row.path,
      space: this.spaces.present(row.space, role),
      title: row.space.title,
      default: row.is_default === 1,
      ...(row.condition === null ? {} : { condition: row.condition }),
      urls: {
        location: this.urls.siteSpace(site.organization_id, row.site_id, row.id),
        ...(published === undefined ? {} : { published }),
      },
    };
  }
}

function pathTaken(path: string | undefined, holder?: string) {
  return conflict(
    `body.path: ${JSON.stringify(path)} is already the path of ${holder === undefined ? 'another site-space' : `site-space ${holder}`} of this site`,
  );
}
