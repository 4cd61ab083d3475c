import type {
  SiteExternalLinkRow,
  SiteSectionGroupRow,
  SiteSectionRow,
  SiteSpaceRow,
} from '../../../db/schema.js';

// The pure logic of a site's structure: how its rows form a tree, where a move puts a node,
// and which shapes GitBook's rules (GitSyncSiteConfig's validation) allow. No database here.

export type NodeKind = 'site-section' | 'site-section-group' | 'site-external-link';

/** A site's structure rows, as read in one go. */
export interface StructureRows {
  sections: SiteSectionRow[];
  groups: SiteSectionGroupRow[];
  links: SiteExternalLinkRow[];
}

export type StructureNode =
  | { kind: 'site-section'; row: SiteSectionRow }
  | { kind: 'site-section-group'; row: SiteSectionGroupRow }
  | { kind: 'site-external-link'; row: SiteExternalLinkRow };

/** Nodes in their order: by position, then id (ties only arise from concurrent writers). */
function byPosition(a: StructureNode, b: StructureNode): number {
  return (
    a.row.position - b.row.position || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0)
  );
}

/** Every node of a site, whatever its kind. */
export function allNodes(rows: StructureRows): StructureNode[] {
  return [
    ...rows.sections.map((row) => ({ kind: 'site-section' as const, row })),
    ...rows.groups.map((row) => ({ kind: 'site-section-group' as const, row })),
    ...rows.links.map((row) => ({ kind: 'site-external-link' as const, row })),
  ];
}

/** The ordered children of a group (`null`: the site's root). */
export function childrenOf(rows: StructureRows, parent: string | null): StructureNode[] {
  return allNodes(rows)
    .filter((node) => node.row.parent_group_id === parent)
    .sort(byPosition);
}

/** Sections in the order a reader meets them (depth first through groups). */
export function sectionsInOrder(rows: StructureRows): SiteSectionRow[] {
  const out: SiteSectionRow[] = [];
  const walk = (parent: string | null) => {
    for (const node of childrenOf(rows, parent)) {
      if (node.kind === 'site-section') out.push(node.row);
      else if (node.kind === 'site-section-group') walk(node.row.id);
    }
  };
  walk(null);
  return out;
}

/** Variants in their order: by position, then id. */
export function orderVariants<T extends Pick<SiteSpaceRow, 'position' | 'id'>>(rows: T[]): T[] {
  return [...rows].sort(
    (a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** How deep a group sits: 0 at the root, 1 inside a root group. */
export function groupDepth(groups: readonly SiteSectionGroupRow[], groupId: string): number {
  const byId = new Map(groups.map((g) => [g.id, g]));
  let depth = 0;
  let current = byId.get(groupId)?.parent_group_id ?? null;
  const seen = new Set<string>([groupId]);
  while (current !== null && !seen.has(current)) {
    seen.add(current);
    depth += 1;
    current = byId.get(current)?.parent_group_id ?? null;
  }
  return depth;
}

/** Whether a group holds other groups. */
export function hasChildGroups(groups: readonly SiteSectionGroupRow[], groupId: string): boolean {
  return groups.some((g) => g.parent_group_id === groupId);
}

/**
 * Whether putting group `groupId` inside `parentId` would make a cycle: the parent is the group
 * itself or one of its descendants.
 */
export function makesCycle(
  groups: readonly SiteSectionGroupRow[],
  groupId: string,
  parentId: string,
): boolean {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const seen = new Set<string>();
  let current: string | null = parentId;
  while (current !== null && !seen.has(current)) {
    if (current === groupId) return true;
    seen.add(current);
    current = byId.get(current)?.parent_group_id ?? null;
  }
  return false;
}

/**
 * Why a group may not sit in `parentId` (GitSyncSiteConfig: groups hold one further level of
 * groups), or undefined when it may. `groupId` undefined: a new group.
 */
export function groupPlacementProblem(
  groups: readonly SiteSectionGroupRow[],
  groupId: string | undefined,
  parentId: string | null,
): string | undefined {
  if (parentId === null) return undefined;
  if (groupId !== undefined && makesCycle(groups, groupId, parentId)) {
    return `group ${groupId} cannot be moved into itself or one of its own groups`;
  }
  if (groupDepth(groups, parentId) > 0) {
    return `group ${parentId} is itself in a group: section groups nest one level only`;
  }
  if (groupId !== undefined && hasChildGroups(groups, groupId)) {
    return `group ${groupId} holds groups: a group with groups stays at the root (section groups nest one level only)`;
  }
  return undefined;
}

/** Where to put a node among its new siblings: before or after one of them, or last. */
export type Placement = { before: string } | { after: string } | 'end';

/**
 * The order of ids after `moved` is placed among `siblings` (which may or may not hold it).
 * Undefined when the reference of the placement is not among the siblings.
 */
export function placeAmong(
  siblings: readonly string[],
  moved: string,
  placement: Placement,
): string[] | undefined {
  const rest = siblings.filter((id) => id !== moved);
  if (placement === 'end') return [...rest, moved];
  const reference = 'before' in placement ? placement.before : placement.after;
  if (reference === moved) return undefined;
  const index = rest.indexOf(reference);
  if (index === -1) return undefined;
  const at = 'before' in placement ? index : index + 1;
  return [...rest.slice(0, at), moved, ...rest.slice(at)];
}
