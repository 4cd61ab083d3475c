import type { SiteSpaceRow } from '../../db/schema.js';
import { slugify } from '../../slug.js';
import { isInside, join, relativeTo } from '../git-sync/format/paths.js';
import { childrenOf, type StructureRows } from '../sites/structure/tree.js';

/**
 * A site's structure as docs.yaml (GitBook 0.202's GitSyncSiteConfig), for the site export
 * (docs/git-sync.md, "Export of a whole site"). Pure: the caller reads the rows and writes back
 * the keys this generates.
 *
 * - Every node keeps its `git_key`; a node without one gets a key made from its path (sections,
 *   variants) or title (groups, links), unique in the file; the caller stores it, so the next
 *   import of this file matches the same rows.
 * - A variant's `content.directory` is where its space came from in this repository (`kept`),
 *   else `<section path>/<variant path>` (`<variant path>` in a site without sections) below
 *   the project directory; a directory two variants would share gets `-2`, `-3`…
 * - Fields at their default (hidden, draft, default: false) are left out, as GitBook writes them.
 */
export interface VariantInfo {
  row: SiteSpaceRow;
  /** The variant's title when its row has none: its space's. */
  spaceTitle: string;
  language: string | null;
  /** The directory (from the repository's top) its space was last imported from, if any. */
  kept: string | undefined;
  /**
   * The space has no page and was never imported from Git: `content.directory: null` (a variant
   * not fed from the repository, as docs.yaml's `null` imported it), and nothing is written.
   */
  empty: boolean;
}

export interface SiteDocumentInput {
  title: string;
  rows: StructureRows;
  variants: readonly VariantInfo[];
  /** The site's project directory in the repository ('' = the top). */
  projectDirectory: string;
}

export interface SiteDocument {
  /** `{site: {title, structure}}`, to be written as YAML. */
  document: { $schema: string; site: { title: string; structure: unknown[] } };
  /** Keys made now, by row id (sections, groups, links and variants alike). */
  newKeys: Map<string, string>;
  /** Each variant's directory from the repository's top, by site-space id (none: `null`). */
  directories: Map<string, string>;
}

/** The line GitBook's own docs.yaml starts with (editors validate the file with it). */
export const SCHEMA = 'https://api.gitbook.com/openapi.yaml#/components/schemas/GitSyncSiteConfig';

const localized = (json: string | null) =>
  json === null ? undefined : (JSON.parse(json) as Record<string, string>);

/** Only the fields that have a value (YAML without `null`s or `false`s GitBook leaves out). */
function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== false),
  );
}

export function siteDocumentOf(input: SiteDocumentInput): SiteDocument {
  const { rows, projectDirectory } = input;
  const used = new Set<string>();
  const all = [
    ...rows.sections,
    ...rows.groups,
    ...rows.links,
    ...input.variants.map((v) => v.row),
  ];
  for (const row of all) if (row.git_key !== null) used.add(row.git_key);
  const newKeys = new Map<string, string>();
  const keyOf = (row: { id: string; git_key: string | null }, wanted: string) => {
    if (row.git_key !== null) return row.git_key;
    const made = newKeys.get(row.id);
    if (made !== undefined) return made;
    const key = free(wanted.slice(0, 120), used);
    used.add(key);
    newKeys.set(row.id, key);
    return key;
  };

  const directories = new Map<string, string>();
  const taken = new Set<string>();
  for (const v of input.variants) {
    if (v.kept !== undefined && !taken.has(v.kept)) {
      directories.set(v.row.id, v.kept);
      taken.add(v.kept);
    }
  }
  const sectionPath = new Map(rows.sections.map((s) => [s.id, s.path]));
  // A made directory is never inside another space's directory nor holds one (the space at the
  // project directory itself aside): `<section>/<variant>`, else `<section>-<variant>`, else -2…
  const clashes = (dir: string) =>
    [...taken].some(
      (other) => other !== projectDirectory && (isInside(dir, other) || isInside(other, dir)),
    );
  for (const v of input.variants) {
    if (directories.has(v.row.id) || v.empty) continue;
    const section = v.row.section_id === null ? undefined : sectionPath.get(v.row.section_id);
    const candidates =
      section === undefined
        ? [v.row.path]
        : [`${section}/${v.row.path}`, `${section}-${v.row.path}`];
    let dir = candidates.map((c) => join(projectDirectory, c)).find((c) => !clashes(c));
    for (let n = 2; dir === undefined; n++) {
      const next = join(projectDirectory, `${candidates.at(-1)}-${n}`);
      if (!clashes(next)) dir = next;
    }
    directories.set(v.row.id, dir);
    taken.add(dir);
  }

  const variantsIn = (sectionId: string | null) =>
    input.variants
      .filter((v) => v.row.section_id === sectionId)
      .sort((a, b) => a.row.position - b.row.position || (a.row.id < b.row.id ? -1 : 1));
  const spaceNode = (v: VariantInfo, prefix: string) => {
    const dir = directories.get(v.row.id);
    return compact({
      type: 'space',
      key: keyOf(v.row, prefix === '' ? v.row.path : `${prefix}-${v.row.path}`),
      title: v.row.title ?? v.spaceTitle,
      localizedTitle: localized(v.row.localized_title),
      path: v.row.path,
      default: v.row.is_default === 1,
      hidden: v.row.hidden === 1,
      draft: v.row.draft === 1,
      // `directory: null` is written as such (compact would drop it).
      content: {
        directory: dir === undefined ? null : written(dir, projectDirectory),
        ...(v.language === null ? {} : { language: v.language }),
      },
    });
  };
  const nodes = (parent: string | null): unknown[] =>
    childrenOf(rows, parent).map((node) => {
      const row = node.row;
      const common = {
        title: row.title,
        localizedTitle: localized(row.localized_title),
      };
      if (node.kind === 'site-section') {
        const section = node.row;
        return compact({
          type: 'section',
          key: keyOf(section, section.path),
          ...common,
          path: section.path,
          description: section.description,
          localizedDescription: localized(section.localized_description),
          icon: section.icon,
          default: section.is_default === 1,
          children: variantsIn(section.id).map((v) => spaceNode(v, section.path)),
        });
      }
      if (node.kind === 'site-section-group') {
        return compact({
          type: 'section-group',
          key: keyOf(row, `group-${slugify(row.title, 'group', 60)}`),
          ...common,
          icon: row.icon,
          draft: row.draft === 1,
          children: nodes(row.id),
        });
      }
      return compact({
        type: 'external-link',
        key: keyOf(row, `link-${slugify(row.title, 'link', 60)}`),
        ...common,
        description: row.description,
        localizedDescription: localized(row.localized_description),
        icon: row.icon,
        url: node.row.url,
        draft: row.draft === 1,
      });
    });
  const structure =
    rows.sections.length > 0 ? nodes(null) : variantsIn(null).map((v) => spaceNode(v, ''));
  return {
    document: { $schema: SCHEMA, site: { title: input.title, structure } },
    newKeys,
    directories,
  };
}

/** A directory as docs.yaml writes it: `./x` inside the project directory, `/x` elsewhere. */
function written(dir: string, projectDirectory: string): string {
  if (!isInside(dir, projectDirectory)) return `/${dir}`;
  const inner = relativeTo(dir, projectDirectory);
  return inner === '' ? './' : `./${inner}`;
}

/** `wanted`, or the first of `wanted-2`, `wanted-3`… not taken. */
function free(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}
