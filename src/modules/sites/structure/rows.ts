import type {
  SiteExternalLinkRow,
  SiteRow,
  SiteSectionGroupRow,
  SiteSectionRow,
  SiteStructureNodeRow,
} from '../../../db/schema.js';
import { newId } from '../../../ids.js';
import type { Actor } from '../../audit/actor.js';
import type { AuditEntry } from '../../audit/record.js';
import type { NodeKind } from './tree.js';

/** What a new node of any kind is made from. */
export interface NodeInput {
  title: string;
  position: number;
  parent: string | null;
  icon: string | null;
  draft: boolean;
  at: string;
  localizedTitle?: Record<string, string> | undefined;
  description?: string | null;
  localizedDescription?: Record<string, string> | undefined;
  gitKey?: string | null;
}

/** A localized map as stored: JSON, or null when absent or empty. */
export function localizedColumn(value: Record<string, string> | null | undefined): string | null {
  return value === undefined || value === null || Object.keys(value).length === 0
    ? null
    : JSON.stringify(value);
}

function nodeRow(prefix: string, siteId: string, input: NodeInput): SiteStructureNodeRow {
  return {
    id: newId(prefix),
    site_id: siteId,
    title: input.title,
    localized_title: localizedColumn(input.localizedTitle),
    description: input.description ?? null,
    localized_description: localizedColumn(input.localizedDescription),
    icon: input.icon,
    draft: input.draft ? 1 : 0,
    position: input.position,
    parent_group_id: input.parent,
    git_key: input.gitKey ?? null,
    created_at: input.at,
    updated_at: input.at,
  };
}

export function newSectionRow(
  siteId: string,
  input: NodeInput & { path: string; isDefault: boolean },
): SiteSectionRow {
  return {
    ...nodeRow('sitesc_', siteId, input),
    path: input.path,
    is_default: input.isDefault ? 1 : 0,
  };
}

export function newGroupRow(siteId: string, input: NodeInput): SiteSectionGroupRow {
  return nodeRow('sitesg_', siteId, input);
}

export function newLinkRow(
  siteId: string,
  input: NodeInput & { url: string },
): SiteExternalLinkRow {
  return { ...nodeRow('siteel_', siteId, input), url: input.url };
}

/** The audit entry of a change to a site's structure. */
export function structureEntry(
  site: Pick<SiteRow, 'id' | 'organization_id'>,
  actor: Actor,
  operation: 'add' | 'update' | 'move' | 'delete' | 'duplicate' | 'sort',
  kind: NodeKind | 'site-space',
  id: string,
  title?: string,
): AuditEntry {
  return {
    organizationId: site.organization_id,
    actor: { userId: actor.userId, tokenId: actor.tokenId },
    action: 'site.structure.changed',
    target: { kind: 'site', id: site.id },
    details: { operation, kind, id, ...(title === undefined ? {} : { title }) },
  };
}
