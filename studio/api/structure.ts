/**
 * A site's structure (GitBook 0.202's getSiteStructure) and its reordering (sortSiteStructure):
 * sections, section groups, external links and variants, as the structure screen shows them.
 */
import { api } from './client';

export type Localized = Record<string, string>;

export interface StructureSiteSpace {
  object: 'site-space';
  id: string;
  title: string;
  path: string;
  default?: boolean;
  hidden?: boolean;
  draft?: boolean;
  space: { id: string; title: string };
}

export interface StructureSection {
  object: 'site-section';
  id: string;
  title: string;
  localizedTitle?: Localized;
  description?: string;
  path: string;
  default?: boolean;
  draft: boolean;
  icon?: string;
  siteSpaces: StructureSiteSpace[];
}

export interface StructureGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  localizedTitle?: Localized;
  draft: boolean;
  icon?: string;
  children: StructureNode[];
}

export interface StructureLink {
  object: 'site-external-link';
  id: string;
  title: string;
  localizedTitle?: Localized;
  url: string;
  draft: boolean;
  icon?: string;
}

export type StructureNode = StructureSection | StructureGroup | StructureLink;

export type SiteStructure =
  | { type: 'sections'; structure: StructureNode[] }
  | { type: 'siteSpaces'; structure: StructureSiteSpace[] };

/** What sortSiteStructure's `item` and `position` point at. */
export interface Pointer {
  type: 'site-space' | 'site-section' | 'site-section-group' | 'site-external-link';
  id: string;
}

export type MovePosition = { before: Pointer } | { after: Pointer };

const structureUrl = (organizationId: string, siteId: string) =>
  `/v1/orgs/${encodeURIComponent(organizationId)}/sites/${encodeURIComponent(siteId)}/structure`;

export const getSiteStructure = async (organizationId: string, siteId: string) =>
  (await api.get<SiteStructure>(structureUrl(organizationId, siteId))).body;

export const sortSiteStructure = async (
  organizationId: string,
  siteId: string,
  item: Pointer,
  position: MovePosition,
) => {
  await api.patch<unknown>(`${structureUrl(organizationId, siteId)}/sort`, { item, position });
};

/** A node's pointer: its `object` is the pointer's `type`. */
export const pointerOf = (node: StructureNode | StructureSiteSpace): Pointer => ({
  type: node.object,
  id: node.id,
});
