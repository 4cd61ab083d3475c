import type { SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow } from '../../../db/schema.js';
import { badRequest } from '../../../errors.js';
import type { StructureTx } from './repository.js';
import { childrenOf, type StructureRows, sectionsInOrder } from './tree.js';

// Deletions in a site's structure, inside the site's transaction (docs/sites.md, "Sections").

/**
 * Deletes a section with its variants (their spaces remain, as deleteSiteSpaceById leaves
 * them). The default section's role goes to the first remaining section in reading order that
 * is not a draft (else the first, which stops being a draft). The last section goes only when
 * no section group or external link remains: they exist only beside sections.
 */
export async function deleteSection(
  tx: StructureTx,
  rows: StructureRows,
  variants: SiteSpaceRow[],
  section: SiteSectionRow,
): Promise<void> {
  const remaining = sectionsInOrder(rows).filter((s) => s.id !== section.id);
  if (remaining.length === 0 && (rows.groups.length > 0 || rows.links.length > 0)) {
    throw badRequest(
      `siteSectionId: ${section.id} is the site's last section, and its section groups and external links exist only beside sections: delete them first`,
    );
  }
  for (const variant of variants.filter((v) => v.section_id === section.id)) {
    await tx.deleteVariant(variant.id);
  }
  await tx.deleteNode('site-section', section.id);
  if (section.is_default === 1) {
    const next = remaining.find((s) => s.draft === 0) ?? remaining[0];
    if (next !== undefined) {
      if (next.draft === 1) await tx.updateNode('site-section', next.id, { draft: 0 });
      await tx.makeDefaultSection(next.id);
    }
  }
}

/**
 * Deletes a section group; what it held takes its place, in its order, in the group's parent
 * (nothing it held is deleted). A root group's groups come to the root, which keeps groups one
 * level deep.
 */
export async function deleteGroup(
  tx: StructureTx,
  rows: StructureRows,
  group: SiteSectionGroupRow,
): Promise<void> {
  const parent = group.parent_group_id;
  const held = childrenOf(rows, group.id);
  const order = childrenOf(rows, parent).flatMap((node) =>
    node.row.id === group.id ? held : [node],
  );
  for (const node of held) {
    await tx.updateNode(node.kind, node.row.id, { parent_group_id: parent });
  }
  await tx.deleteNode('site-section-group', group.id);
  await tx.renumber(order.map((node) => ({ kind: node.kind, id: node.row.id })));
}
