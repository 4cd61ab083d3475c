import type { SiteRow, SpaceRow } from '../../../db/schema.js';
import { notFound } from '../../../errors.js';
import { type Page, type PageRequest, toPage } from '../../../http/pagination.js';
import { newId, now } from '../../../ids.js';
import { uniqueSlug } from '../../../slug.js';
import { refuseUnsupported } from '../../../unsupported-inputs.js';
import type { Actor } from '../../audit/actor.js';
import { copyTitle } from '../../spaces/copy.js';
import { newSpaceRow } from '../../spaces/service.js';
import type { SiteSpace } from '../schemas.js';
import type { Caller } from '../service.js';
import { deleteGroup, deleteSection } from './deletes.js';
import { type MoveTarget, moveNode, moveTarget, moveVariant } from './moves.js';
import { SITE_GONE, type SiteStructureRepository, type StructureTx } from './repository.js';
import { structureEntry } from './rows.js';
import type {
  DuplicateSiteSpace,
  MoveSiteSection,
  MoveSiteSectionGroup,
  MoveSiteSpace,
  SiteExternalLink,
  SiteSection,
  SiteSectionGroup,
  SiteStructureNode,
  SortSiteStructure,
  UpdateSiteExternalLink,
  UpdateSiteSection,
  UpdateSiteSectionGroup,
} from './schemas.js';
import type { SiteStructureService, StructureDeps } from './service.js';
import { requireNotLastOfSection } from './service-rules.js';
import type { NodeKind, StructureRows } from './tree.js';
import { CONDITION_UNSUPPORTED } from './unsupported.js';
import { updateGroup, updateLink, updateSection } from './updates.js';

/** Where each kind of node is in the rows. */
function rowOf(rows: StructureRows, kind: NodeKind, id: string) {
  switch (kind) {
    case 'site-section':
      return rows.sections.find((r) => r.id === id);
    case 'site-section-group':
      return rows.groups.find((r) => r.id === id);
    default:
      return rows.links.find((r) => r.id === id);
  }
}

/**
 * The listings and changes of a site's structure (docs/sites.md, "Sections"): update, delete,
 * move and sort its nodes and variants, duplicate a variant. Each change is one transaction
 * holding the site's lock, all or nothing, with its audit entry.
 */
export class SiteStructureChanges {
  constructor(
    private readonly repo: SiteStructureRepository,
    private readonly deps: StructureDeps,
    private readonly reads: SiteStructureService,
  ) {}

  /** listSiteSections: every section in reading order (through groups), paginated. */
  async listSections(
    organizationId: string,
    role: string,
    siteId: string,
    page: PageRequest,
  ): Promise<Page<SiteSection>> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    const nodes = flatten((await this.reads.structureOf(site, role)).structure);
    return pageOf(
      nodes.filter((n): n is SiteSection => n.object === 'site-section'),
      page,
    );
  }

  /** listSiteSectionGroups: every group in reading order (a root group, then its groups). */
  async listGroups(
    organizationId: string,
    role: string,
    siteId: string,
    page: PageRequest,
  ): Promise<Page<SiteSectionGroup>> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    const nodes = flatten((await this.reads.structureOf(site, role)).structure);
    return pageOf(
      nodes.filter((n): n is SiteSectionGroup => n.object === 'site-section-group'),
      page,
    );
  }

  async updateSection(
    organizationId: string,
    siteId: string,
    sectionId: string,
    input: UpdateSiteSection,
    caller: Caller,
  ): Promise<SiteSection> {
    refuseUnsupported(input, CONDITION_UNSUPPORTED);
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    await this.change(site, async (tx, rows) => {
      const section = requireNode(rows, 'site-section', sectionId);
      await updateSection(tx, rows, await tx.variants(), section, input, now());
      await tx.audit(structureEntry(site, caller, 'update', 'site-section', sectionId));
    });
    return this.reads.node(site, caller.role, sectionId, 'site-section') as Promise<SiteSection>;
  }

  async updateGroup(
    organizationId: string,
    siteId: string,
    groupId: string,
    input: UpdateSiteSectionGroup,
    caller: Caller,
  ): Promise<SiteSectionGroup> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    await this.change(site, async (tx, rows) => {
      const group = requireNode(rows, 'site-section-group', groupId);
      await updateGroup(tx, rows, group, input, now());
      await tx.audit(structureEntry(site, caller, 'update', 'site-section-group', groupId));
    });
    return this.reads.node(
      site,
      caller.role,
      groupId,
      'site-section-group',
    ) as Promise<SiteSectionGroup>;
  }

  async updateLink(
    organizationId: string,
    siteId: string,
    linkId: string,
    input: UpdateSiteExternalLink,
    caller: Caller,
  ): Promise<SiteExternalLink> {
    refuseUnsupported(input, CONDITION_UNSUPPORTED);
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    await this.change(site, async (tx, rows) => {
      const link = requireNode(rows, 'site-external-link', linkId);
      await updateLink(tx, rows, link, input, now());
      await tx.audit(structureEntry(site, caller, 'update', 'site-external-link', linkId));
    });
    return this.reads.node(
      site,
      caller.role,
      linkId,
      'site-external-link',
    ) as Promise<SiteExternalLink>;
  }

  /** Deletes a section, group or link: true when it existed (205), false when not (204). */
  async delete(organizationId: string, siteId: string, kind: NodeKind, id: string, actor: Actor) {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    return this.change(site, async (tx, rows) => {
      const row = rowOf(rows, kind, id);
      if (row === undefined) return false;
      if (kind === 'site-section') {
        await deleteSection(tx, rows, await tx.variants(), requireNode(rows, kind, id));
      } else if (kind === 'site-section-group') {
        await deleteGroup(tx, rows, requireNode(rows, kind, id));
      } else {
        await tx.deleteNode(kind, id);
      }
      await tx.audit(structureEntry(site, actor, 'delete', kind, id, row.title));
      return true;
    });
  }

  async moveSection(
    organizationId: string,
    siteId: string,
    sectionId: string,
    input: MoveSiteSection,
    caller: Caller,
  ): Promise<SiteSection> {
    const { before, after } = input.position ?? {};
    const target = moveTarget(
      {
        ...(before === undefined ? {} : { before: { type: before.type, id: before.siteSection } }),
        ...(after === undefined ? {} : { after: { type: after.type, id: after.siteSection } }),
      },
      'body.position',
    );
    return this.moveNodeOf(
      organizationId,
      siteId,
      'site-section',
      sectionId,
      target,
      caller,
    ) as Promise<SiteSection>;
  }

  async moveGroup(
    organizationId: string,
    siteId: string,
    groupId: string,
    input: MoveSiteSectionGroup,
    caller: Caller,
  ): Promise<SiteSectionGroup> {
    const target = moveTarget(input.position, 'body.position');
    return this.moveNodeOf(
      organizationId,
      siteId,
      'site-section-group',
      groupId,
      target,
      caller,
    ) as Promise<SiteSectionGroup>;
  }

  async moveSiteSpace(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    input: MoveSiteSpace,
    caller: Caller,
  ): Promise<SiteSpace> {
    const { before, after } = input.position ?? {};
    const target = moveTarget(
      {
        ...(before === undefined ? {} : { before: { type: before.type, id: before.siteSpace } }),
        ...(after === undefined ? {} : { after: { type: after.type, id: after.siteSpace } }),
      },
      'body.position',
    );
    return this.moveVariantOf(organizationId, siteId, siteSpaceId, target, caller);
  }

  /** sortSiteStructure: moves any item next to another of its level; answers the item. */
  async sort(
    organizationId: string,
    siteId: string,
    input: SortSiteStructure,
    caller: Caller,
  ): Promise<SiteSpace | SiteStructureNode> {
    const target = moveTarget(input.position, 'body.position');
    const { type, id } = input.item;
    if (type === 'site-space')
      return this.moveVariantOf(organizationId, siteId, id, target, caller);
    return this.moveNodeOf(organizationId, siteId, type, id, target, caller);
  }

  /**
   * duplicateSiteSpace: a copy of the variant's space (its current content: pages, files,
   * reusable content) shown by a new variant right after it, in the same section, titled and
   * pathed like it with "copy". Never the default.
   */
  async duplicateSiteSpace(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    input: DuplicateSiteSpace,
    caller: Caller,
  ): Promise<SiteSpace> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    const id = await this.change(site, async (tx) => {
      const variants = await tx.variants();
      const original = variants.find((v) => v.id === siteSpaceId);
      if (original === undefined) throw notFound('site-space', siteSpaceId);
      const source = await tx.trx
        .selectFrom('spaces')
        .selectAll()
        .where('id', '=', original.space_id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const at = now();
      const copy: SpaceRow = {
        ...newSpaceRow(organizationId, { title: copyTitle(source.title, 50) }, at),
        emoji: source.emoji,
        icon: source.icon,
        language: source.language,
      };
      await tx.copySpace(source, copy);
      const siblings = variants.filter((v) => v.section_id === original.section_id);
      const paths = new Set(siblings.map((v) => v.path));
      const row = {
        ...original,
        id: newId('sitesp_'),
        space_id: copy.id,
        path: uniqueSlug(`${original.path}-copy`.slice(0, 100), paths),
        is_default: 0,
        position: original.position,
        created_at: at,
        override: original.override,
        override_version: original.override === null ? 0 : 1,
        override_updated_at: original.override === null ? null : at,
        title: original.title === null ? null : copyTitle(original.title, 128),
        git_key: null,
        draft: input.draft === true ? 1 : 0,
      };
      await tx.insertVariant(row);
      await moveVariant(tx, [...variants, row], row, {
        reference: { kind: 'site-space', id: original.id },
        before: false,
        field: 'siteSpaceId',
      });
      await tx.audit(structureEntry(site, caller, 'duplicate', 'site-space', row.id));
      return row.id;
    });
    return this.deps.siteSpaces.get(organizationId, caller.role, siteId, id);
  }

  private async moveNodeOf(
    organizationId: string,
    siteId: string,
    kind: NodeKind,
    id: string,
    target: MoveTarget,
    caller: Caller,
  ): Promise<SiteStructureNode> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    await this.change(site, async (tx, rows) => {
      requireNode(rows, kind, id);
      await moveNode(tx, rows, kind, id, target);
      await tx.audit(structureEntry(site, caller, 'move', kind, id));
    });
    return this.reads.node(site, caller.role, id, kind);
  }

  private async moveVariantOf(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    target: MoveTarget,
    caller: Caller,
  ): Promise<SiteSpace> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    await this.change(site, async (tx) => {
      const variants = await tx.variants();
      const moved = variants.find((v) => v.id === siteSpaceId);
      if (moved === undefined) throw notFound('site-space', siteSpaceId);
      if (target.reference !== undefined) {
        const ref = variants.find((v) => v.id === target.reference?.id);
        if (ref !== undefined && ref.section_id !== moved.section_id) {
          requireNotLastOfSection(variants, moved, target.field);
        }
      }
      await moveVariant(tx, variants, moved, target);
      await tx.audit(structureEntry(site, caller, 'move', 'site-space', siteSpaceId));
    });
    return this.deps.siteSpaces.get(organizationId, caller.role, siteId, siteSpaceId);
  }

  private async change<T>(
    site: SiteRow,
    change: (tx: StructureTx, rows: StructureRows) => Promise<T>,
  ): Promise<T> {
    const result = await this.repo.change(site.id, async (tx) => change(tx, await tx.rows()));
    if (result === SITE_GONE) throw notFound('site', site.id);
    return result;
  }
}

/** The row of a node of the site, or a 404 naming it. */
function requireNode<K extends NodeKind>(rows: StructureRows, kind: K, id: string) {
  const row = rowOf(rows, kind, id);
  if (row === undefined) throw notFound(kind, id);
  return row as K extends 'site-section'
    ? StructureRows['sections'][number]
    : K extends 'site-section-group'
      ? StructureRows['groups'][number]
      : StructureRows['links'][number];
}

/** Every node of a presented tree in reading order (a group before what it holds). */
function flatten(nodes: readonly unknown[]): SiteStructureNode[] {
  return (nodes as SiteStructureNode[]).flatMap((node) =>
    node.object === 'site-section-group' ? [node, ...flatten(node.children)] : [node],
  );
}

/** One page of an ordered list; the cursor's key is the position in the list. */
function pageOf<T extends { id: string }>(items: T[], page: PageRequest): Page<T> {
  const indexed = items.map((item, index) => ({ id: item.id, index, item }));
  const { cursor } = page;
  const after =
    cursor === undefined ? indexed : indexed.filter((x) => x.index > Number(cursor.key));
  return toPage(
    after.slice(0, page.limit + 1),
    page.limit,
    items.length,
    (x) => x.item,
    (x) => x.index,
  );
}
