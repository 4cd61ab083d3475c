import { isUniqueViolation } from '../../db/errors.js';
import type { SiteRow, SiteSectionRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { now } from '../../ids.js';
import { slugify, uniqueSlug } from '../../slug.js';
import { refuseUnsupported } from '../../unsupported-inputs.js';
import type { Urls } from '../../urls.js';
import { newSpaceRow, type SpacesService } from '../spaces/service.js';
import type { AddSpaceToSite, SiteSpace, UpdateSiteSpace } from './schemas.js';
import type { SitesService } from './service.js';
import { newSiteSpaceRow } from './site-rows.js';
import type {
  SiteSpacesRepository,
  SiteSpaceUpdate,
  SiteSpaceWithSpace,
} from './site-spaces-repository.js';
import type { SiteStructureRepository } from './structure/repository.js';
import { ADD_SPACE_TO_SITE_UNSUPPORTED, UPDATE_SITE_SPACE_UNSUPPORTED } from './unsupported.js';

/**
 * Adding a site-space takes the site's lock, but a variant's path changed at the same moment
 * (update does not take it) can still collide; a few fresh attempts settle it.
 */
const PATH_ATTEMPTS = 20;

/** The variants of a site: add, list, change, delete. Exactly one of them is the default. */
export class SiteSpacesService {
  constructor(
    private readonly repo: SiteSpacesRepository,
    private readonly sites: SitesService,
    private readonly spaces: SpacesService,
    private readonly urls: Urls,
    private readonly structure: SiteStructureRepository,
  ) {}

  /**
   * Adds a variant (addSpaceToSite); the first variant of a site becomes its default. `spaceId:
   * null` creates a new space of the site's organization for it, in the same transaction. A
   * `title` is the variant's own; its path is derived from its title.
   */
  async add(organizationId: string, role: string, siteId: string, input: AddSpaceToSite) {
    refuseUnsupported(input, ADD_SPACE_TO_SITE_UNSUPPORTED);
    const site = await this.sites.requireSite(organizationId, siteId);
    const title = input.title ?? null;
    const { spaceId } = input;
    // A space title has at most 50 characters; the variant keeps its whole title.
    const space =
      spaceId === null
        ? newSpaceRow(organizationId, title === null ? {} : { title: title.slice(0, 50) }, now())
        : await this.requireSpace(organizationId, spaceId);
    const newSpace = spaceId === null ? space : undefined;
    const sectionId = input.sectionId ?? null;
    const draft = input.draft === true;
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await this.repo.insertSiteSpace(
          siteId,
          sectionId,
          ({ paths, hasDefault, nextPosition }) => {
            // The first variant of a site or section is its default, which is never a draft.
            if (draft && !hasDefault) throw draftDefault();
            return {
              ...newSiteSpaceRow(
                siteId,
                space.id,
                uniqueSlug(slugify(title ?? space.title, 'space'), paths),
                nextPosition,
                now(),
                title,
                sectionId,
              ),
              is_default: hasDefault ? 0 : 1,
              draft: draft ? 1 : 0,
            };
          },
          newSpace,
        );
        if (row === undefined) throw notFound('site', siteId);
        if (row === 'space-missing') throw missingSpace(spaceId ?? space.id);
        if (row === 'sectioned') {
          throw badRequest(
            'body.sectionId: the site has sections, and its site-spaces belong to them: give the section to add the space to',
          );
        }
        if (row === 'section-missing') {
          throw badRequest(`body.sectionId: no section ${JSON.stringify(sectionId)} in this site`);
        }
        const added = { ...row, space };
        return (await this.presenter(site, [added]))(added, role);
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
    const present = await this.presenter(site, rows);
    return toPage(
      rows,
      page.limit,
      count,
      (row) => present(row, role),
      (row) => row.position,
    );
  }

  /** Every site-space of the site, in order (the published view's structure). */
  async all(organizationId: string, role: string, siteId: string): Promise<SiteSpace[]> {
    const site = await this.sites.requireSite(organizationId, siteId);
    const { rows } = await this.repo.listSiteSpaces(siteId, undefined, {
      cursor: undefined,
      limit: Number.MAX_SAFE_INTEGER - 1,
    });
    const present = await this.presenter(site, rows);
    return rows.map((row) => present(row, role));
  }

  /**
   * Every variant of a site presented, in order (each section's in its order): what a site's
   * structure shows. `sections`: the site's, when the caller has them already.
   */
  async presentAll(
    site: SiteRow,
    role: string,
    sections?: readonly SiteSectionRow[],
  ): Promise<SiteSpace[]> {
    const rows = await this.repo.allOf(site.id);
    const present = await this.presenter(site, rows, sections);
    return rows.map((row) => present(row, role));
  }

  /**
   * updateSiteSpaceById: all or nothing; an unsupported input is a 400 and a path held by another
   * variant a 409, and nothing changes.
   */
  async update(
    organizationId: string,
    role: string,
    siteId: string,
    siteSpaceId: string,
    input: UpdateSiteSpace,
  ): Promise<SiteSpace> {
    refuseUnsupported(input, UPDATE_SITE_SPACE_UNSUPPORTED);
    const site = await this.sites.requireSite(organizationId, siteId);
    const change: SiteSpaceUpdate = {};
    if (input.path !== undefined) change.path = input.path;
    // Only null gets here: it removes a condition an earlier Livery stored.
    if (input.condition !== undefined) change.condition = input.condition;
    if (input.hidden !== undefined) change.hidden = input.hidden ? 1 : 0;
    if (input.draft !== undefined) change.draft = input.draft ? 1 : 0;
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
    if (result.outcome === 'default-draft') throw draftDefault();
    if (result.outcome === 'space-missing') throw missingSpace(input.spaceId ?? '');
    if (result.outcome === 'path-taken') throw pathTaken(input.path, result.holder);
    const row = await this.repo.find(siteId, siteSpaceId);
    if (row === undefined) throw notFound('site-space', siteSpaceId);
    return (await this.presenter(site, [row]))(row, role);
  }

  /** The space a variant shows (404 for an unknown site or variant). */
  async spaceOf(organizationId: string, siteId: string, siteSpaceId: string): Promise<string> {
    await this.sites.requireSite(organizationId, siteId);
    const row = await this.repo.find(siteId, siteSpaceId);
    if (row === undefined) throw notFound('site-space', siteSpaceId);
    return row.space_id;
  }

  /**
   * deleteSiteSpaceById: true when it existed (205), false when it did not (204). The last
   * variant of a section is not deleted alone (400): deleteSiteSectionById deletes both.
   */
  async delete(organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean> {
    await this.sites.requireSite(organizationId, siteId);
    const outcome = await this.repo.delete(siteId, siteSpaceId);
    if (outcome === 'last-of-section') {
      throw badRequest(
        `siteSpaceId: site-space ${siteSpaceId} is the only one of its section, which cannot be left empty: delete the section instead (deleteSiteSectionById)`,
      );
    }
    return outcome;
  }

  /** One variant of a site, presented. */
  async get(
    organizationId: string,
    role: string,
    siteId: string,
    siteSpaceId: string,
  ): Promise<SiteSpace> {
    const site = await this.sites.requireSite(organizationId, siteId);
    const row = await this.repo.find(siteId, siteSpaceId);
    if (row === undefined) throw notFound('site-space', siteSpaceId);
    return (await this.presenter(site, [row]))(row, role);
  }

  private async requireSpace(organizationId: string, spaceId: string, field = 'body.spaceId') {
    const space = await this.spaces.findInOrganization(spaceId, organizationId);
    if (space === undefined) throw missingSpace(spaceId, field);
    return space;
  }

  /**
   * Presents variants of `site` read together: their spaces' counters and languages are loaded
   * once for all. The default variant is served at its section's root (the site's root in a site
   * without sections), the others under their path; a section other than the default adds its
   * own path segment first. `sections`: the site's, when the caller has them already.
   */
  async presenter(
    site: SiteRow,
    rows: readonly SiteSpaceWithSpace[],
    sections?: readonly SiteSectionRow[],
  ) {
    const presentSpace = await this.spaces.presenter(rows.map((row) => row.space));
    const siteUrl = this.sites.publishedUrl(site);
    const sectioned = rows.some((row) => row.section_id !== null);
    const sectionsById = new Map(
      (sectioned ? (sections ?? (await this.structure.sectionsOf(site.id))) : []).map((s) => [
        s.id,
        s,
      ]),
    );
    return (row: SiteSpaceWithSpace, role: string): SiteSpace => {
      const section = row.section_id === null ? undefined : sectionsById.get(row.section_id);
      const segments = [
        ...(section === undefined || section.is_default === 1 ? [] : [section.path]),
        ...(row.is_default === 1 ? [] : [row.path]),
      ];
      const published =
        siteUrl === undefined
          ? undefined
          : segments.length === 0
            ? siteUrl
            : `${siteUrl}/${segments.join('/')}`;
      return {
        object: 'site-space',
        id: row.id,
        path: row.path,
        ...(row.section_id === null ? {} : { section: row.section_id }),
        space: presentSpace(row.space, role),
        title: row.title ?? row.space.title,
        ...(row.localized_title === null
          ? {}
          : { localizedTitle: JSON.parse(row.localized_title) as Record<string, string> }),
        default: row.is_default === 1,
        draft: row.draft === 1,
        ...(row.condition === null ? {} : { condition: row.condition }),
        hidden: row.hidden === 1,
        urls: {
          location: this.urls.siteSpace(site.organization_id, row.site_id, row.id),
          ...(published === undefined ? {} : { published }),
        },
      };
    };
  }
}

function pathTaken(path: string | undefined, holder?: string) {
  return conflict(
    `body.path: ${JSON.stringify(path)} is already the path of ${holder === undefined ? 'another site-space' : `site-space ${holder}`} of this site`,
  );
}

const draftDefault = () =>
  badRequest(
    "body.draft: a site's or section's default site-space is never a draft (the first site-space of a site or section becomes its default): make another one the default first",
  );

const missingSpace = (spaceId: string, field = 'body.spaceId') =>
  badRequest(`${field}: no space ${JSON.stringify(spaceId)} in this organization`);
