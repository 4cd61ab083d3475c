import type { Db } from '../../db/database.js';
import { GenerationCache, prepareCached } from '../../db/prepared.js';
import type { Localized } from '../../settings/settings-parts.js';
import type { StructureItem, StructureSection } from './rendering/sections.js';
import type { PublishedVariant } from './repository.js';

/**
 * A site's structure as the published site reads it (issue 29): its sections, section groups and
 * external links (migration 0019) as one ordered tree. Siblings are ordered by `position` across
 * the three tables, then by id, as the API's getSiteStructure orders them. Kept while the
 * database is unchanged, like every read behind a page view: a view of a sectioned site costs no
 * more query than a view of a site without sections.
 */

interface NodeRow {
  id: string;
  title: string;
  localized_title: string | null;
  description: string | null;
  localized_description: string | null;
  icon: string | null;
  draft: number;
  position: number;
  parent_group_id: string | null;
}

const COMMON = [
  'id',
  'title',
  'localized_title',
  'description',
  'localized_description',
  'icon',
  'draft',
  'position',
  'parent_group_id',
] as const;

export function readStructure(db: Db): (siteId: string) => Promise<readonly StructureItem[]> {
  const sections = prepareCached(
    db,
    (siteId: string) =>
      db
        .selectFrom('site_sections')
        .select([...COMMON, 'path', 'is_default'])
        .where('site_id', '=', siteId),
    (rows) => rows,
  );
  const groups = prepareCached(
    db,
    (siteId: string) =>
      db.selectFrom('site_section_groups').select(COMMON).where('site_id', '=', siteId),
    (rows) => rows,
  );
  const links = prepareCached(
    db,
    (siteId: string) =>
      db
        .selectFrom('site_external_links')
        .select([...COMMON, 'url'])
        .where('site_id', '=', siteId),
    (rows) => rows,
  );
  const trees = new GenerationCache<readonly StructureItem[]>(db);
  return (siteId) =>
    trees.get(siteId, async () => {
      const [s, g, l] = await Promise.all([sections(siteId), groups(siteId), links(siteId)]);
      if (s.length === 0) return NO_STRUCTURE;
      return structureTree(s, g, l);
    });
}

const NO_STRUCTURE: readonly StructureItem[] = Object.freeze([]);

type Positioned = { item: StructureItem; position: number; parent: string | null };

/** The rows of the three tables as one tree (pure). A group in a cycle is left out. */
export function structureTree(
  sections: readonly (NodeRow & { path: string; is_default: number })[],
  groups: readonly NodeRow[],
  links: readonly (NodeRow & { url: string })[],
): StructureItem[] {
  const nodes: Positioned[] = [
    ...sections.map((row) => ({
      ...placed(row),
      item: {
        ...common(row),
        ...described(row),
        kind: 'section' as const,
        path: row.path,
        isDefault: Number(row.is_default) === 1,
      },
    })),
    ...groups.map((row) => ({
      ...placed(row),
      item: { ...common(row), kind: 'group' as const, children: [] as StructureItem[] },
    })),
    ...links.map((row) => ({
      ...placed(row),
      item: { ...common(row), ...described(row), kind: 'link' as const, url: row.url },
    })),
  ];
  nodes.sort((a, b) => a.position - b.position || compare(a.item.id, b.item.id));
  const childrenOf = (parent: string | null, seen: ReadonlySet<string>): StructureItem[] =>
    nodes
      .filter((node) => node.parent === parent && !seen.has(node.item.id))
      .map(({ item }) =>
        item.kind === 'group'
          ? { ...item, children: childrenOf(item.id, new Set([...seen, item.id])) }
          : item,
      );
  return childrenOf(null, new Set());
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const placed = (row: NodeRow) => ({ position: row.position, parent: row.parent_group_id });

function common(row: NodeRow) {
  const localizedTitle = parseLocalized(row.localized_title);
  return {
    id: row.id,
    title: row.title,
    draft: Number(row.draft) === 1,
    hidden: false,
    ...(localizedTitle === undefined ? {} : { localizedTitle }),
    ...(row.icon === null ? {} : { icon: row.icon }),
  };
}

function described(row: NodeRow) {
  const localizedDescription = parseLocalized(row.localized_description);
  return {
    ...(row.description === null ? {} : { description: row.description }),
    ...(localizedDescription === undefined ? {} : { localizedDescription }),
  };
}

/**
 * The structure a visitor's navigation shows: a section with no live variant (all drafts, or
 * none) is left out like a draft, since it has no page to open.
 */
export function liveStructure(
  items: readonly StructureItem[],
  variants: readonly PublishedVariant[],
): StructureItem[] {
  // The repository leaves drafts out of the variants: what remains is live.
  const live = new Set(variants.map((v) => v.sectionId));
  const walk = (list: readonly StructureItem[]): StructureItem[] =>
    list.map((item) => {
      if (item.kind === 'group') return { ...item, children: walk(item.children) };
      if (item.kind === 'section' && !live.has(item.id)) return { ...item, hidden: true };
      return item;
    });
  return walk(items);
}

/** The sections of a structure, depth first. */
export function sectionsOf(items: readonly StructureItem[]): StructureSection[] {
  return items.flatMap((item) =>
    item.kind === 'section' ? [item] : item.kind === 'group' ? sectionsOf(item.children) : [],
  );
}

/** A stored LocalizedString (JSON, language → text), or undefined when absent or unreadable. */
export function parseLocalized(json: string | null): Localized | undefined {
  if (json === null) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value).filter(([, text]) => typeof text === 'string');
    return entries.length === 0 ? undefined : (Object.fromEntries(entries) as Localized);
  } catch {
    return undefined;
  }
}
