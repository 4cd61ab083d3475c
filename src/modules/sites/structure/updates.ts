import type {
  SiteExternalLinkRow,
  SiteSectionGroupRow,
  SiteSectionRow,
  SiteSpaceRow,
} from '../../../db/schema.js';
import { badRequest, conflict } from '../../../errors.js';
import { moveNode } from './moves.js';
import type { StructureTx } from './repository.js';
import { localizedColumn } from './rows.js';
import type {
  UpdateSiteExternalLink,
  UpdateSiteSection,
  UpdateSiteSectionGroup,
} from './schemas.js';
import { requireGroup, requireLinkUrl } from './service-rules.js';
import type { StructureRows } from './tree.js';

// The changes of updateSiteSectionById, updateSiteSectionGroupById and
// updateSiteExternalLinkById, inside the site's transaction: every rule is checked before
// anything is written, and a throw rolls back what was.

type NodeChange = Partial<SiteSectionRow & SiteExternalLinkRow>;

/** The fields every node shares: title, localized title, icon, draft. */
function commonChange(
  input: {
    title?: string | undefined;
    localizedTitle?: Record<string, string> | null | undefined;
    icon?: string | null | undefined;
    draft?: boolean | undefined;
  },
  at: string,
): NodeChange {
  const change: NodeChange = { updated_at: at };
  if (input.title !== undefined) change.title = input.title;
  if (input.localizedTitle !== undefined) {
    change.localized_title = localizedColumn(input.localizedTitle);
  }
  if (input.icon !== undefined) change.icon = input.icon;
  if (input.draft !== undefined) change.draft = input.draft ? 1 : 0;
  return change;
}

function descriptionChange(
  input: {
    description?: string | null | undefined;
    localizedDescription?: Record<string, string> | null | undefined;
  },
  change: NodeChange,
): void {
  if (input.description !== undefined) change.description = input.description;
  if (input.localizedDescription !== undefined) {
    change.localized_description = localizedColumn(input.localizedDescription);
  }
}

export async function updateSection(
  tx: StructureTx,
  rows: StructureRows,
  variants: SiteSpaceRow[],
  section: SiteSectionRow,
  input: UpdateSiteSection,
  at: string,
): Promise<void> {
  const change = commonChange(input, at);
  descriptionChange(input, change);
  if (input.path !== undefined && input.path !== section.path) {
    const holder = rows.sections.find((s) => s.path === input.path && s.id !== section.id);
    if (holder !== undefined) {
      throw conflict(
        `body.path: ${JSON.stringify(input.path)} is already the path of section ${holder.id} of this site`,
      );
    }
    change.path = input.path;
  }
  if (input.draft === true && section.is_default === 1) {
    throw badRequest(
      `body.draft: section ${section.id} is the site's default section, which is never a draft: make another section the default first (updateSiteById defaultSiteSection)`,
    );
  }
  let newDefault: SiteSpaceRow | undefined;
  if (input.defaultSiteSpace !== undefined) {
    newDefault = variants.find(
      (v) => v.id === input.defaultSiteSpace && v.section_id === section.id,
    );
    if (newDefault === undefined) {
      throw badRequest(
        `body.defaultSiteSpace: no site-space ${JSON.stringify(input.defaultSiteSpace)} in section ${section.id}`,
      );
    }
    if (newDefault.draft === 1) {
      throw badRequest(
        `body.defaultSiteSpace: site-space ${newDefault.id} is a draft, and a default is never one`,
      );
    }
  }
  const parent = input.siteSectionGroupId;
  if (parent !== undefined && parent !== null) {
    requireGroup(rows, parent, 'body.siteSectionGroupId');
  }
  await tx.updateNode('site-section', section.id, change);
  if (newDefault !== undefined) await tx.makeDefaultVariant(newDefault);
  if (parent !== undefined && parent !== section.parent_group_id) {
    await moveNode(tx, rows, 'site-section', section.id, {
      reference: undefined,
      parent,
      field: 'body.siteSectionGroupId',
    });
  }
}

export async function updateGroup(
  tx: StructureTx,
  rows: StructureRows,
  group: SiteSectionGroupRow,
  input: UpdateSiteSectionGroup,
  at: string,
): Promise<void> {
  const parent = input.parentSectionGroupId;
  if (parent !== undefined && parent !== null) {
    requireGroup(rows, parent, 'body.parentSectionGroupId');
  }
  await tx.updateNode('site-section-group', group.id, commonChange(input, at));
  if (parent !== undefined && parent !== group.parent_group_id) {
    // moveNode refuses a cycle or a third level of groups.
    await moveNode(tx, rows, 'site-section-group', group.id, {
      reference: undefined,
      parent,
      field: 'body.parentSectionGroupId',
    });
  }
}

export async function updateLink(
  tx: StructureTx,
  rows: StructureRows,
  link: SiteExternalLinkRow,
  input: UpdateSiteExternalLink,
  at: string,
): Promise<void> {
  const change = commonChange(input, at);
  descriptionChange(input, change);
  if (input.url !== undefined) change.url = requireLinkUrl(input.url, 'body.url');
  const parent = input.parent;
  if (parent !== undefined && parent !== null) requireGroup(rows, parent, 'body.parent');
  await tx.updateNode('site-external-link', link.id, change);
  if (parent !== undefined && parent !== link.parent_group_id) {
    await moveNode(tx, rows, 'site-external-link', link.id, {
      reference: undefined,
      parent,
      field: 'body.parent',
    });
  }
}
