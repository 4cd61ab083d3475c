import type { SiteSpaceRow } from '../../../db/schema.js';
import { badRequest, conflict } from '../../../errors.js';
import type { StructureTx } from './repository.js';
import {
  childrenOf,
  groupPlacementProblem,
  type NodeKind,
  orderVariants,
  type Placement,
  placeAmong,
  type StructureRows,
} from './tree.js';

// Moves within a site's structure, inside the site's transaction: where a node or a variant
// goes, and the rules it must keep (groups nest one level, no cycles, a section keeps a
// variant). Each refusal names the body field that asked for it.

/** A move's target as the request gives it: next to a reference item, or last. */
export type MoveTarget =
  | { reference: { kind: NodeKind | 'site-space'; id: string }; before: boolean; field: string }
  | { reference: undefined; field: string; parent?: string | null };

/** The position object of a move body, as a MoveTarget (`field`: where it is in the body). */
export function moveTarget(
  position:
    | { before?: { type: string; id: string }; after?: { type: string; id: string } }
    | undefined,
  field: string,
): MoveTarget {
  if (position?.before !== undefined && position.after !== undefined) {
    throw badRequest(`${field}: give before or after, not both`);
  }
  const ref = position?.before ?? position?.after;
  if (ref === undefined) return { reference: undefined, field };
  const side = position?.before !== undefined ? 'before' : 'after';
  return {
    reference: { kind: ref.type as NodeKind | 'site-space', id: ref.id },
    before: side === 'before',
    field: `${field}.${side}`,
  };
}

function findNode(rows: StructureRows, kind: NodeKind, id: string) {
  const list =
    kind === 'site-section'
      ? rows.sections
      : kind === 'site-section-group'
        ? rows.groups
        : rows.links;
  return (list as { id: string; parent_group_id: string | null }[]).find((r) => r.id === id);
}

/**
 * Moves a section, group or link next to `target`'s reference (joining the reference's parent)
 * or last at the root. Throws a 400 naming the field when the reference is not a node of the
 * site, is the node itself, or the place breaks a rule of groups.
 */
export async function moveNode(
  tx: StructureTx,
  rows: StructureRows,
  kind: NodeKind,
  id: string,
  target: MoveTarget,
): Promise<void> {
  let parent: string | null = target.reference === undefined ? (target.parent ?? null) : null;
  let placement: Placement = 'end';
  if (target.reference !== undefined) {
    const { kind: refKind, id: refId } = target.reference;
    if (refKind === 'site-space') {
      throw badRequest(`${target.field}: a ${kind} moves among sections, groups and links`);
    }
    const ref = findNode(rows, refKind, refId);
    if (ref === undefined) {
      throw badRequest(`${target.field}: no ${refKind} ${JSON.stringify(refId)} in this site`);
    }
    if (refId === id) throw badRequest(`${target.field}: an item cannot move next to itself`);
    parent = ref.parent_group_id;
    placement = target.before ? { before: refId } : { after: refId };
  }
  if (kind === 'site-section-group') {
    const problem = groupPlacementProblem(rows.groups, id, parent);
    if (problem !== undefined) throw badRequest(`${target.field}: ${problem}`);
  }
  const siblings = childrenOf(rows, parent);
  const order = placeAmong(
    siblings.map((n) => n.row.id),
    id,
    placement,
  );
  if (order === undefined) throw badRequest(`${target.field}: not a place in this site`);
  const kinds = new Map<string, NodeKind>(siblings.map((n) => [n.row.id, n.kind]));
  kinds.set(id, kind);
  await tx.updateNode(kind, id, { parent_group_id: parent });
  await tx.renumber(order.map((nodeId) => ({ kind: kinds.get(nodeId) as NodeKind, id: nodeId })));
}

/**
 * Moves a variant next to another one (joining its section) or last in its own section. A
 * variant that leaves its section takes the section's default with it only if another variant
 * remains to take it; a section never ends up empty (delete the section instead).
 */
export async function moveVariant(
  tx: StructureTx,
  variants: SiteSpaceRow[],
  moved: SiteSpaceRow,
  target: MoveTarget,
): Promise<void> {
  let section = moved.section_id;
  let placement: Placement = 'end';
  if (target.reference !== undefined) {
    const { kind, id } = target.reference;
    if (kind !== 'site-space') {
      throw badRequest(`${target.field}: a site-space moves among site-spaces`);
    }
    const ref = variants.find((v) => v.id === id);
    if (ref === undefined) {
      throw badRequest(`${target.field}: no site-space ${JSON.stringify(id)} in this site`);
    }
    if (id === moved.id) throw badRequest(`${target.field}: an item cannot move next to itself`);
    section = ref.section_id;
    placement = target.before ? { before: id } : { after: id };
  }
  const leaving = section !== moved.section_id;
  if (leaving) {
    const remaining = orderVariants(
      variants.filter((v) => v.section_id === moved.section_id && v.id !== moved.id),
    );
    if (remaining.length === 0) {
      throw badRequest(
        `${target.field}: site-space ${moved.id} is the only one of its section, which would be left empty: delete the section instead (deleteSiteSectionById)`,
      );
    }
    const holder = variants.find(
      (v) => v.section_id === section && v.path === moved.path && v.id !== moved.id,
    );
    if (holder !== undefined) {
      throw conflict(
        `${target.field}: site-space ${holder.id} of that section already has the path ${JSON.stringify(moved.path)}`,
      );
    }
    await tx.updateVariant(moved.id, { section_id: section, is_default: 0 });
    const first = remaining[0];
    if (moved.is_default === 1 && first !== undefined) await tx.makeDefaultVariant(first);
  }
  const siblings = orderVariants(variants.filter((v) => v.section_id === section));
  const order = placeAmong(
    siblings.map((v) => v.id),
    moved.id,
    placement,
  );
  if (order === undefined) throw badRequest(`${target.field}: not a place in this site`);
  await tx.renumberVariants(order);
}
