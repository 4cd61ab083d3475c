import type { SiteSpaceRow } from '../../../db/schema.js';
import { badRequest } from '../../../errors.js';
import type { SiteStructureNode } from './schemas.js';
import { childrenOf, type StructureRows } from './tree.js';

// The rules the structure operations share, each refusal naming the field.

/** A node anywhere in a presented tree. */
export function findNode(
  nodes: readonly SiteStructureNode[],
  id: string,
): SiteStructureNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    if (node.object === 'site-section-group') {
      const inner = findNode(node.children, id);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** The position after the last child of `parent` (null: the root). */
export function nextPosition(rows: StructureRows, parent: string | null): number {
  return Math.max(0, ...childrenOf(rows, parent).map((n) => n.row.position)) + 1;
}

export function requireGroup(rows: StructureRows, groupId: string, field: string): void {
  if (!rows.groups.some((g) => g.id === groupId)) {
    throw badRequest(`${field}: no section group ${JSON.stringify(groupId)} in this site`);
  }
}

export function requireSections(rows: StructureRows, field: string, why: string): void {
  if (rows.sections.length === 0) {
    throw badRequest(
      `${field}: the site has no sections, and ${why}: add a section first (addSectionToSite)`,
    );
  }
}

/** An external link's URL: absolute http or https (the one scheme rule of GitBook's schema). */
export function requireLinkUrl(url: string, field: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`${field}: not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw badRequest(`${field}: only http and https URLs are accepted`);
  }
  return url;
}

export const missingSpace = (spaceId: string, field = 'body.spaceId') =>
  badRequest(`${field}: no space ${JSON.stringify(spaceId)} in this organization`);

/**
 * Refuses a change that would leave a section without variants: a section holds at least one
 * (GitSyncSiteConfig); deleting it is deleteSiteSectionById.
 */
export function requireNotLastOfSection(
  variants: readonly SiteSpaceRow[],
  variant: SiteSpaceRow,
  field: string,
): void {
  if (variant.section_id === null) return;
  const others = variants.filter((v) => v.section_id === variant.section_id && v.id !== variant.id);
  if (others.length === 0) {
    throw badRequest(
      `${field}: site-space ${variant.id} is the only one of section ${variant.section_id}, which would be left empty: delete the section instead (deleteSiteSectionById)`,
    );
  }
}
