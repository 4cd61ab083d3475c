import { isUniqueViolation } from '../../db/errors.js';
import type { SiteRow, SpaceRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { now } from '../../ids.js';
import { slugify, uniqueSlug } from '../../slug.js';
import { refuseUnsupported } from '../../unsupported-inputs.js';
import type { Urls } from '../../urls.js';
import { sitePermissions } from '../access/record-permissions.js';
import type { Actor } from '../audit/actor.js';
import type { GitSyncState } from '../git-sync/state.js';
import { newSpaceRow, type SpacesService } from '../spaces/service.js';
import { hostnameProblem, normalizeHostname } from './hostname.js';
import type { Executor, SiteChange, SitesRepository, SiteWithCount } from './repository.js';
import type { CreateSite, Site, SiteFilters, UpdateSite } from './schemas.js';
import { newSiteRow, newSiteSpaceRow } from './site-rows.js';
import { UPDATE_SITE_UNSUPPORTED } from './unsupported.js';

/** Who acts on a site (recorded in its history and the audit log) and their organization role. */
export interface Caller extends Actor {
  role: string;
}

/** The sites' Git Sync states (site-git-sync), by site: Site.gitSync. */
export type SiteGitSyncStates = (siteIds: readonly string[]) => Promise<Map<string, GitSyncState>>;

export class SitesService {
  private gitSyncStates: SiteGitSyncStates = async () => new Map();

  constructor(
    private readonly repo: SitesRepository,
    private readonly spaces: SpacesService,
    private readonly urls: Urls,
    private readonly hostnames: {
      /** Hosts of BASE_URL and PUBLIC_URL: no site may take them. */
      own: readonly string[];
      /** Called after a site's hostname changed or a site with one went (the request router's map). */
      changed: () => Promise<void>;
    } = { own: [], changed: async () => {} },
  ) {}

  /** Where Site.gitSync comes from (set once the site Git Sync service exists). */
  useGitSyncStates(states: SiteGitSyncStates): void {
    this.gitSyncStates = states;
  }

  /** A new site, presented for its creator. */
  async create(organizationId: string, input: CreateSite, caller: Caller): Promise<Site> {
    const at = now();
    const site = newSiteRow(organizationId, input.title ?? 'Untitled site', input, at);
    const spaces = await this.initialSpaces(organizationId, site.title, input.spaces, at);
    const taken = new Set<string>();
    const siteSpaces = spaces.map((space, index) => {
      const path = uniqueSlug(slugify(space.row.title, 'space'), taken);
      taken.add(path);
      return newSiteSpaceRow(site.id, space.row.id, path, index + 1, at);
    });
    await this.repo.insertSite(
      site,
      spaces.filter((s) => s.isNew).map((s) => s.row),
      siteSpaces,
      caller,
    );
    return this.get(organizationId, site.id, caller.role);
  }

  /** The site as a member with `role` sees it (its `permissions` follow the role). */
  async get(organizationId: string, siteId: string, role: string): Promise<Site> {
    const row = await this.requireSite(organizationId, siteId);
    const states = await this.gitSyncStates([row.id]);
    return this.present(row, role, states.get(row.id));
  }

  async requireSite(organizationId: string, siteId: string): Promise<SiteWithCount> {
    const site = await this.repo.findSite(organizationId, siteId);
    if (site === undefined) throw notFound('site', siteId);
    return site;
  }

  async list(
    organizationId: string,
    role: string,
    filters: SiteFilters,
    page: PageRequest,
  ): Promise<Page<Site>> {
    const { rows, count } = await this.repo.listSites(organizationId, filters, page);
    const states = await this.gitSyncStates(rows.map((row) => row.id));
    return toPage(rows, page.limit, count, (row) => this.present(row, role, states.get(row.id)));
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

  /**
   * Changes a site (updateSiteById). All or nothing: an unsupported input, an unknown
   * `defaultSiteSpace` or a taken `basename` changes nothing. A change of `published` or
   * `visibility` is recorded.
   */
  async update(
    organizationId: string,
    siteId: string,
    input: UpdateSite & { published?: boolean },
    caller: Caller,
  ): Promise<Site> {
    refuseUnsupported(input, UPDATE_SITE_UNSUPPORTED);
    const fields: SiteChange['fields'] & object = {};
    if (input.published !== undefined) fields.published = input.published ? 1 : 0;
    if (input.title !== undefined) fields.title = input.title;
    if (input.visibility !== undefined) fields.visibility = input.visibility;
    if (input.basename !== undefined) fields.basename = input.basename;
    if (input.agentsContext !== undefined) fields.agents_context = input.agentsContext;
    if (input.proxy !== undefined) fields.proxy = input.proxy;
    if (input.hostname !== undefined) fields.hostname = this.acceptedHostname(input.hostname);
    const { defaultSiteSpace, defaultSiteSection } = input;
    let hostnameChanged = false;
    await this.modify(organizationId, siteId, caller, async (site, trx) => {
      if (fields.published === 1) requirePublishable(site);
      if (fields.hostname !== undefined && fields.hostname !== site.hostname) {
        hostnameChanged = true;
        if (
          fields.hostname !== null &&
          (await this.repo.hostnameHeld(trx, fields.hostname, siteId))
        ) {
          throw hostnameTaken();
        }
      }
      if (defaultSiteSpace !== undefined) {
        const found = await trx
          .selectFrom('site_spaces')
          .select(['id', 'draft'])
          .where('id', '=', defaultSiteSpace)
          .where('site_id', '=', siteId)
          .executeTakeFirst();
        if (found === undefined) {
          throw badRequest(
            `body.defaultSiteSpace: no site-space ${JSON.stringify(defaultSiteSpace)} in this site`,
          );
        }
        if (found.draft === 1) {
          throw badRequest(
            `body.defaultSiteSpace: site-space ${defaultSiteSpace} is a draft, and a default is never one`,
          );
        }
      }
      if (defaultSiteSection !== undefined) {
        await makeDefaultSection(trx, siteId, defaultSiteSection);
      }
      return {
        fields,
        ...(defaultSiteSpace === undefined ? {} : { defaultSiteSpaceId: defaultSiteSpace }),
      };
    });
    // Before answering: the next request for the hostname is served by the site.
    if (hostnameChanged) await this.hostnames.changed();
    return this.get(organizationId, siteId, caller.role);
  }

  /** The stored form of an updateSiteById `hostname`, or the 400 that names the field. */
  private acceptedHostname(hostname: string | null): string | null {
    if (hostname === null) return null;
    const normalized = normalizeHostname(hostname);
    const problem = hostnameProblem(normalized, this.hostnames.own);
    if (problem !== undefined) throw badRequest(`body.hostname: ${problem}`);
    return normalized;
  }

  /** The site that holds a hostname (any organization), for the custom-hostname operations. */
  siteWithHostname(hostname: string) {
    return this.repo.siteWithHostname(normalizeHostname(hostname));
  }

  /** publishSite / unpublishSite: idempotent; a site needs a site-space to be published. */
  async setPublished(
    organizationId: string,
    siteId: string,
    published: boolean,
    caller: Caller,
  ): Promise<Site> {
    return this.update(organizationId, siteId, { published }, caller);
  }

  /** deleteSiteById: true when the site existed (205), false when it did not (204). */
  async delete(organizationId: string, siteId: string, actor: Actor): Promise<boolean> {
    const deleted = await this.repo.deleteSite(organizationId, siteId, actor);
    // Its hostname, if it had one, names no site any more.
    if (deleted) await this.hostnames.changed();
    return deleted;
  }

  /** The sites that show a space (deprecated space-keyed operations act on exactly one). */
  sitesShowingSpace(spaceId: string) {
    return this.repo.sitesShowingSpace(spaceId);
  }

  /** Who published, unpublished or changed the visibility of a site, and when. */
  history(siteId: string) {
    return this.repo.siteEvents(siteId);
  }

  private async modify(
    organizationId: string,
    siteId: string,
    actor: Actor,
    decide: Parameters<SitesRepository['modifySite']>[3],
  ): Promise<void> {
    let found: boolean;
    try {
      found = await this.repo.modifySite(organizationId, siteId, actor, decide);
    } catch (error) {
      if (isUniqueViolation(error)) {
        // Two writers raced past the check above: the index says which field.
        throw /hostname/.test(String((error as Error).message))
          ? hostnameTaken()
          : conflict('body.basename: another site already uses this basename');
      }
      throw error;
    }
    if (!found) throw notFound('site', siteId);
  }

  /** A site's published address, or undefined while it is not published. */
  publishedUrl(site: SiteRow): string | undefined {
    return site.published === 1 ? this.urls.publishedSite(site) : undefined;
  }

  /** GitBook's Site for a member with `role` (docs/api.md, "Records: GitBook 0.202's fields"). */
  present(row: SiteWithCount, role: string, gitSync?: GitSyncState): Site {
    const location = this.urls.site(row.organization_id, row.id);
    const published = this.publishedUrl(row);
    return {
      object: 'site',
      id: row.id,
      type: row.type,
      // Livery never freezes or downgrades a site: the type chosen is the type in effect.
      appliedType: row.type,
      title: row.title,
      ...(row.basename === null ? {} : { basename: row.basename }),
      ...(row.hostname === null ? {} : { hostname: row.hostname }),
      ...(row.proxy === null
        ? {}
        : { proxy: { origin: row.proxy, target: this.urls.publishedSite(row) } }),
      visibility: row.visibility,
      // Members reach a site through their organization role; Livery has no per-site roles.
      defaultLevel: 'inherit',
      permissions: sitePermissions(role),
      published: row.published === 1,
      siteSpaces: row.site_space_count,
      ...(gitSync === undefined ? {} : { gitSync }),
      createdAt: row.created_at,
      agentsContext: row.agents_context,
      features: [],
      urls: {
        location,
        app: location,
        ...(published === undefined ? {} : { published }),
        // A member's API token opens the site there, published or not (docs/published-site.md).
        preview: this.urls.publishedSite(row),
      },
    };
  }
}

/** Says that the hostname is taken, never by which site or organization. */
const hostnameTaken = () =>
  conflict('body.hostname: this hostname is already used by another site');

/**
 * updateSiteById's defaultSiteSection: a section of the site, not a draft, becomes the default
 * (served at the site's root) and the former default an ordinary section.
 */
async function makeDefaultSection(trx: Executor, siteId: string, sectionId: string) {
  const section = await trx
    .selectFrom('site_sections')
    .select(['id', 'draft'])
    .where('id', '=', sectionId)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  if (section === undefined) {
    throw badRequest(
      `body.defaultSiteSection: no section ${JSON.stringify(sectionId)} in this site`,
    );
  }
  if (section.draft === 1) {
    throw badRequest(
      `body.defaultSiteSection: section ${sectionId} is a draft, and the default section is never one`,
    );
  }
  await trx
    .updateTable('site_sections')
    .set({ is_default: 0 })
    .where('site_id', '=', siteId)
    .where('id', '!=', sectionId)
    .where('is_default', '=', 1)
    .execute();
  await trx
    .updateTable('site_sections')
    .set({ is_default: 1 })
    .where('id', '=', sectionId)
    .execute();
}

/** A site is published with at least one site-space: otherwise there is nothing to serve. */
function requirePublishable(site: SiteWithCount): void {
  if (site.site_space_count === 0) {
    throw badRequest(
      `Site ${site.id} has no site-space to publish: add a space first (POST /v1/orgs/${site.organization_id}/sites/${site.id}/site-spaces)`,
    );
  }
}
