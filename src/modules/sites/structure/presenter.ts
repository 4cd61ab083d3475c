import type {
  SiteExternalLinkRow,
  SiteSectionGroupRow,
  SiteSectionRow,
  SiteStructureNodeRow,
} from '../../../db/schema.js';
import type { SiteSpace } from '../schemas.js';
import type {
  SiteExternalLink,
  SiteSection,
  SiteSectionGroup,
  SiteStructure,
  SiteStructureNode,
} from './schemas.js';
import { childrenOf, type StructureRows } from './tree.js';

// GitBook 0.202's SiteSection, SiteSectionGroup, SiteExternalLink and SiteStructure from rows.

/** A JSON column of localized texts, or undefined when there is none. */
function localized(text: string | null): Record<string, string> | undefined {
  return text === null ? undefined : (JSON.parse(text) as Record<string, string>);
}

/** The fields every node has, each only when it has a value. */
function common(row: SiteStructureNodeRow) {
  const localizedTitle = localized(row.localized_title);
  return {
    id: row.id,
    title: row.title,
    ...(localizedTitle === undefined ? {} : { localizedTitle }),
    ...(row.parent_group_id === null ? {} : { sectionGroup: row.parent_group_id }),
    draft: row.draft === 1,
    ...(row.icon === null ? {} : { icon: row.icon }),
  };
}

function descriptions(row: SiteStructureNodeRow) {
  const localizedDescription = localized(row.localized_description);
  return {
    ...(row.description === null ? {} : { description: row.description }),
    ...(localizedDescription === undefined ? {} : { localizedDescription }),
  };
}

/** A section's published URL: the site's, plus its path unless it is the default section. */
export function sectionUrl(siteUrl: string | undefined, row: SiteSectionRow): string | undefined {
  if (siteUrl === undefined) return undefined;
  return row.is_default === 1 ? siteUrl : `${siteUrl}/${row.path}`;
}

export function presentSection(
  row: SiteSectionRow,
  siteSpaces: SiteSpace[],
  siteUrl: string | undefined,
  location: (sectionId: string) => string,
): SiteSection {
  const published = sectionUrl(siteUrl, row);
  return {
    object: 'site-section',
    ...common(row),
    ...descriptions(row),
    default: row.is_default === 1,
    path: row.path,
    siteSpaces,
    urls: { location: location(row.id), ...(published === undefined ? {} : { published }) },
  };
}

export function presentLink(row: SiteExternalLinkRow): SiteExternalLink {
  return { object: 'site-external-link', ...common(row), ...descriptions(row), url: row.url };
}

export function presentGroup(
  row: SiteSectionGroupRow,
  children: SiteStructureNode[],
): SiteSectionGroup {
  return {
    object: 'site-section-group',
    ...common(row),
    sections: children.filter((c): c is SiteSection => c.object === 'site-section'),
    children,
  };
}

/**
 * The tree of a site's structure. `variantsOf(sectionId)`: a section's presented variants in
 * order. `keep`: which nodes to show (the published view leaves drafts out).
 */
export function presentTree(
  rows: StructureRows,
  variantsOf: (sectionId: string) => SiteSpace[],
  siteUrl: string | undefined,
  location: (sectionId: string) => string,
  keep: (row: SiteStructureNodeRow) => boolean = () => true,
): SiteStructureNode[] {
  const level = (parent: string | null): SiteStructureNode[] =>
    childrenOf(rows, parent)
      .filter((node) => keep(node.row))
      .map((node) => {
        switch (node.kind) {
          case 'site-section':
            return presentSection(node.row, variantsOf(node.row.id), siteUrl, location);
          case 'site-external-link':
            return presentLink(node.row);
          default:
            return presentGroup(node.row, level(node.row.id));
        }
      });
  return level(null);
}

/** SiteStructure: `sections` when the site has any, else its variants. */
export function presentStructure(
  rows: StructureRows,
  variants: SiteSpace[],
  siteUrl: string | undefined,
  location: (sectionId: string) => string,
  keep?: (row: SiteStructureNodeRow) => boolean,
): SiteStructure {
  if (rows.sections.length === 0) return { type: 'siteSpaces', structure: variants };
  const bySection = new Map<string, SiteSpace[]>();
  for (const variant of variants) {
    if (variant.section === undefined) continue;
    const list = bySection.get(variant.section) ?? [];
    list.push(variant);
    bySection.set(variant.section, list);
  }
  return {
    type: 'sections',
    structure: presentTree(rows, (id) => bySection.get(id) ?? [], siteUrl, location, keep),
  };
}
