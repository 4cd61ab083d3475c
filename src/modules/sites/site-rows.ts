import type { SiteRow, SiteSpaceRow } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { CreateSite } from './schemas.js';

/** A new site's row: unpublished, no basename, no customization of its own yet. */
export function newSiteRow(
  organizationId: string,
  title: string,
  input: CreateSite,
  at: string,
): SiteRow {
  return {
    id: newId('site_'),
    organization_id: organizationId,
    title,
    type: input.type ?? 'basic',
    visibility: input.visibility ?? 'public',
    published: 0,
    basename: null,
    agents_context: 'included',
    created_at: at,
    updated_at: at,
    customization: null,
    customization_version: 0,
    customization_updated_at: null,
    proxy: null,
  };
}

/**
 * A new variant, shown, titled like its space unless `title` is its own; the one at position 1
 * is the default until the site says otherwise.
 */
export function newSiteSpaceRow(
  siteId: string,
  spaceId: string,
  path: string,
  position: number,
  at: string,
  title: string | null = null,
  sectionId: string | null = null,
): SiteSpaceRow {
  return {
    id: newId('sitesp_'),
    site_id: siteId,
    space_id: spaceId,
    path,
    is_default: position === 1 ? 1 : 0,
    position,
    created_at: at,
    override: null,
    override_version: 0,
    override_updated_at: null,
    condition: null,
    title,
    hidden: 0,
    section_id: sectionId,
    git_key: null,
    localized_title: null,
    draft: 0,
  };
}
