import type { SiteRow, SiteStructureNodeRow, SpaceRow } from '../../../db/schema.js';
import { badRequest, notFound } from '../../../errors.js';
import { now } from '../../../ids.js';
import { slugify, uniqueSlug } from '../../../slug.js';
import { refuseUnsupported } from '../../../unsupported-inputs.js';
import type { Urls } from '../../../urls.js';
import type { Actor } from '../../audit/actor.js';
import { newSpaceRow, type SpacesService } from '../../spaces/service.js';
import type { Caller, SitesService } from '../service.js';
import { newSiteSpaceRow } from '../site-rows.js';
import type { SiteSpacesService } from '../site-spaces-service.js';
import { presentStructure } from './presenter.js';
import { SITE_GONE, type SiteStructureRepository, type StructureTx } from './repository.js';
import { newGroupRow, newLinkRow, newSectionRow, structureEntry } from './rows.js';
import type {
  AddExternalLinkToSite,
  AddSectionGroupToSite,
  AddSectionToSite,
  SiteExternalLink,
  SiteSection,
  SiteSectionGroup,
  SiteStructure,
  SiteStructureNode,
} from './schemas.js';
import {
  findNode,
  missingSpace,
  nextPosition,
  requireGroup,
  requireLinkUrl,
  requireSections,
} from './service-rules.js';
import { groupPlacementProblem, type StructureRows } from './tree.js';
import { ADD_SECTION_UNSUPPORTED, CONDITION_UNSUPPORTED } from './unsupported.js';

export interface StructureDeps {
  sites: SitesService;
  siteSpaces: SiteSpacesService;
  spaces: SpacesService;
  urls: Urls;
}

/**
 * A site's structure (docs/sites.md, "Sections"): its sections, section groups and external
 * links, and the variants of each section. Every change runs in one transaction holding the
 * site's lock; a refused one changes nothing.
 */
export class SiteStructureService {
  constructor(
    private readonly repo: SiteStructureRepository,
    private readonly deps: StructureDeps,
  ) {}

  /** getSiteStructure: sections (with their variants) when the site has any, else variants. */
  async structure(organizationId: string, role: string, siteId: string): Promise<SiteStructure> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    return this.structureOf(site, role);
  }

  /** The structure of a site already read; `keep` leaves nodes out (the published view). */
  async structureOf(
    site: SiteRow,
    role: string,
    keep?: (row: SiteStructureNodeRow) => boolean,
  ): Promise<SiteStructure> {
    const rows = await this.repo.rowsOf(site.id);
    const variants = await this.deps.siteSpaces.presentAll(site, role, rows.sections);
    const location = (id: string) =>
      this.deps.urls.siteStructureNode(site.organization_id, site.id, 'sections', id);
    return presentStructure(rows, variants, this.deps.sites.publishedUrl(site), location, keep);
  }

  /**
   * addSectionToSite: a section with one variant, the space given (or a new one). The first
   * section added to a site that has variants first gathers them into a default section (titled
   * like its default variant): a site with sections has no variants outside them.
   */
  async addSection(
    organizationId: string,
    siteId: string,
    input: AddSectionToSite,
    caller: Caller,
  ): Promise<SiteSection> {
    refuseUnsupported(input, ADD_SECTION_UNSUPPORTED);
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    const space =
      input.spaceId === null
        ? newSpaceRow(
            organizationId,
            input.title == null ? {} : { title: input.title.slice(0, 50) },
            now(),
          )
        : await this.requireSpace(organizationId, input.spaceId);
    const newSpace = input.spaceId === null ? space : undefined;
    const title = input.title ?? space.title;
    const parent = input.siteSectionGroupId ?? null;
    const id = await this.change(site, async (tx) => {
      const rows = await tx.rows();
      if (parent !== null) requireGroup(rows, parent, 'body.siteSectionGroupId');
      if (newSpace === undefined && !(await tx.lockSpace(space.id))) {
        throw missingSpace(space.id);
      }
      const at = now();
      const paths = new Set(rows.sections.map((s) => s.path));
      let hasDefault = rows.sections.some((s) => s.is_default === 1);
      if (rows.sections.length === 0) {
        const gathered = await this.gatherVariants(tx, site, rows, paths, at, caller);
        if (gathered) hasDefault = true;
      }
      const section = newSectionRow(siteId, {
        title,
        path: uniqueSlug(slugify(title, 'section'), paths),
        isDefault: !hasDefault,
        position: nextPosition(await tx.rows(), parent),
        parent,
        icon: input.icon ?? null,
        draft: input.draft === true,
        at,
      });
      await tx.insertSection(section);
      const variant = newSiteSpaceRow(
        siteId,
        space.id,
        slugify(space.title, 'space'),
        1,
        at,
        null,
        section.id,
      );
      await tx.insertVariant(variant, newSpace);
      await tx.audit(structureEntry(site, caller, 'add', 'site-section', section.id, title));
      return section.id;
    });
    return this.node(site, caller.role, id, 'site-section') as Promise<SiteSection>;
  }

  /**
   * The first section of a site that has variants: they go into a new default section, titled
   * like the default variant. False when the site has no variants (nothing to gather).
   */
  private async gatherVariants(
    tx: StructureTx,
    site: SiteRow,
    rows: StructureRows,
    paths: Set<string>,
    at: string,
    actor: Actor,
  ): Promise<boolean> {
    const variants = await tx.variants();
    const first = variants.find((v) => v.is_default === 1) ?? variants[0];
    if (first === undefined) return false;
    const space = await tx.trx
      .selectFrom('spaces')
      .select('title')
      .where('id', '=', first.space_id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const title = padTitle(first.title ?? space?.title ?? site.title);
    const section = newSectionRow(site.id, {
      title,
      path: uniqueSlug(slugify(title, 'section'), paths),
      isDefault: true,
      position: nextPosition(rows, null),
      parent: null,
      icon: null,
      draft: false,
      at,
    });
    paths.add(section.path);
    await tx.insertSection(section);
    await tx.moveTopLevelVariantsInto(section.id);
    await tx.audit(structureEntry(site, actor, 'add', 'site-section', section.id, title));
    return true;
  }

  /** addSectionGroupToSite: a group (at the root or in a root group), with sections moved in. */
  async addGroup(
    organizationId: string,
    siteId: string,
    input: AddSectionGroupToSite,
    caller: Caller,
  ): Promise<SiteSectionGroup> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    const parent = input.parent ?? null;
    const sections = input.sections ?? [];
    const id = await this.change(site, async (tx) => {
      const rows = await tx.rows();
      requireSections(rows, 'body.title', 'a section group holds sections');
      if (parent !== null) {
        requireGroup(rows, parent, 'body.parent');
        const problem = groupPlacementProblem(rows.groups, undefined, parent);
        if (problem !== undefined) throw badRequest(`body.parent: ${problem}`);
      }
      const seen = new Set<string>();
      for (const [index, sectionId] of sections.entries()) {
        if (!rows.sections.some((s) => s.id === sectionId)) {
          throw badRequest(
            `body.sections[${index}]: no section ${JSON.stringify(sectionId)} in this site`,
          );
        }
        if (seen.has(sectionId)) {
          throw badRequest(`body.sections[${index}]: section ${sectionId} is listed twice`);
        }
        seen.add(sectionId);
      }
      const group = newGroupRow(siteId, {
        title: input.title,
        position: nextPosition(rows, parent),
        parent,
        icon: input.icon ?? null,
        draft: input.draft === true,
        at: now(),
      });
      await tx.insertGroup(group);
      for (const [index, sectionId] of sections.entries()) {
        await tx.updateNode('site-section', sectionId, {
          parent_group_id: group.id,
          position: index + 1,
          updated_at: group.created_at,
        });
      }
      await tx.audit(
        structureEntry(site, caller, 'add', 'site-section-group', group.id, input.title),
      );
      return group.id;
    });
    return this.node(site, caller.role, id, 'site-section-group') as Promise<SiteSectionGroup>;
  }

  /** addExternalLinkToSite: a link at the root or in a group of a site with sections. */
  async addLink(
    organizationId: string,
    siteId: string,
    input: AddExternalLinkToSite,
    caller: Caller,
  ): Promise<SiteExternalLink> {
    refuseUnsupported(input, CONDITION_UNSUPPORTED);
    const url = requireLinkUrl(input.url, 'body.url');
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    const parent = input.parent ?? null;
    const id = await this.change(site, async (tx) => {
      const rows = await tx.rows();
      requireSections(rows, 'body.url', 'external links sit beside sections');
      if (parent !== null) requireGroup(rows, parent, 'body.parent');
      const link = newLinkRow(siteId, {
        title: input.title,
        url,
        localizedTitle: input.localizedTitle,
        description: input.description ?? null,
        localizedDescription: input.localizedDescription ?? undefined,
        position: nextPosition(rows, parent),
        parent,
        icon: input.icon ?? null,
        draft: input.draft === true,
        at: now(),
      });
      await tx.insertLink(link);
      await tx.audit(
        structureEntry(site, caller, 'add', 'site-external-link', link.id, input.title),
      );
      return link.id;
    });
    return this.node(site, caller.role, id, 'site-external-link') as Promise<SiteExternalLink>;
  }

  /** The API URL of a node of a site's structure (the Location of its creation). */
  location(organizationId: string, siteId: string, collection: string, id: string): string {
    return this.deps.urls.siteStructureNode(organizationId, siteId, collection, id);
  }

  /** One node of the site's structure, presented as getSiteStructure shows it. */
  async node(
    site: SiteRow,
    role: string,
    id: string,
    kind: SiteStructureNode['object'],
  ): Promise<SiteStructureNode> {
    const { structure } = await this.structureOf(site, role);
    const found = findNode(structure as SiteStructureNode[], id);
    if (found === undefined || found.object !== kind) throw notFound(kind, id);
    return found;
  }

  /** Runs a change in the site's transaction; 404 when the site was deleted meanwhile. */
  private async change<T>(site: SiteRow, change: (tx: StructureTx) => Promise<T>): Promise<T> {
    const result = await this.repo.change(site.id, change);
    if (result === SITE_GONE) throw notFound('site', site.id);
    return result;
  }

  private async requireSpace(organizationId: string, spaceId: string): Promise<SpaceRow> {
    const space = await this.deps.spaces.findInOrganization(spaceId, organizationId);
    if (space === undefined) throw missingSpace(spaceId);
    return space;
  }
}

/** A section title has at least 2 characters: a shorter variant title is padded. */
function padTitle(title: string): string {
  const trimmed = title.slice(0, 128);
  return trimmed.length >= 2 ? trimmed : `${trimmed || 'Section'} section`.slice(0, 128);
}
