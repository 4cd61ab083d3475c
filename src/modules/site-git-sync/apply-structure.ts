import {
  nodesOf,
  type SiteConfig,
  type SpaceNode,
  type StructureNode,
} from '../git-sync/site/site-config.js';
import type { Violation } from '../git-sync/site/yaml-file.js';
import { newSiteSpaceRow } from '../sites/site-rows.js';
import type { StructureTx } from '../sites/structure/repository.js';
import {
  localizedColumn,
  newGroupRow,
  newLinkRow,
  newSectionRow,
} from '../sites/structure/rows.js';
import { newSpaceRow } from '../spaces/service.js';

/** What applying docs.yaml did: each space node's variant and space, and what Livery ignores. */
export interface AppliedStructure {
  /** Space node key → its variant and the space it shows. */
  variants: Map<string, { siteSpaceId: string; spaceId: string; node: SpaceNode }>;
  warnings: Violation[];
}

/**
 * The prefix of a path held by a node for the time of the transaction: `#` and `/` are in no
 * path a file or the API may give (one URL segment), and PostgreSQL's text holds no NUL.
 */
const PARKED = '#parked/';

/**
 * Makes a site's structure what docs.yaml says, in the caller's one transaction (all or
 * nothing). Nodes are matched across imports by `git_key`: a node of the file whose key the site
 * has is updated (and moved), the others are created; every section, section group, external
 * link and variant of the site that the file does not describe is removed (its space is kept,
 * with its content: removing a variant never deletes a space). A new space node gets a new space
 * of the site's organization, titled by the node (its first 50 characters).
 */
export async function applyStructure(
  tx: StructureTx,
  organizationId: string,
  config: SiteConfig,
  at: string,
): Promise<AppliedStructure> {
  const rows = await tx.rows();
  const variants = await tx.variants();
  const byKey = <T extends { git_key: string | null }>(list: readonly T[]) =>
    new Map(list.flatMap((r) => (r.git_key === null ? [] : [[r.git_key, r] as const])));
  const sections = byKey(rows.sections);
  const groups = byKey(rows.groups);
  const links = byKey(rows.links);
  const siteSpaces = byKey(variants);
  const warnings: Violation[] = [];
  const applied: AppliedStructure = { variants: new Map(), warnings };

  const fileKeys = new Set([...nodesOf(config.structure)].map((n) => n.key));
  const inFile = (row: { git_key: string | null }) =>
    row.git_key !== null && fileKeys.has(row.git_key);

  // What the file does not describe goes first, so that its paths are free for the file's nodes.
  // Paths and defaults are unique within a site (or a section), so the nodes kept first take
  // places no file can hold (a temporary path, no default, no parent): two nodes may then swap
  // their paths or parents in one import. All of it is one transaction: no one sees the steps.
  for (const row of variants) {
    if (!inFile(row)) await tx.deleteVariant(row.id);
    else
      await tx.updateVariant(row.id, {
        path: `${PARKED}${row.id}`,
        is_default: 0,
        section_id: null,
      });
  }
  for (const row of rows.sections) {
    if (inFile(row)) {
      await tx.updateNode('site-section', row.id, {
        path: `${PARKED}${row.id}`,
        is_default: 0,
        parent_group_id: null,
      });
    }
  }
  for (const row of [...rows.links, ...rows.groups]) {
    if (inFile(row)) {
      const kind = 'url' in row ? 'site-external-link' : 'site-section-group';
      await tx.updateNode(kind, row.id, { parent_group_id: null });
    }
  }
  for (const row of rows.links) if (!inFile(row)) await tx.deleteNode('site-external-link', row.id);
  for (const row of rows.sections) if (!inFile(row)) await tx.deleteNode('site-section', row.id);
  const goneGroups = rows.groups.filter((row) => !inFile(row));
  const holdsGone = (id: string) => goneGroups.some((g) => g.parent_group_id === id);
  // The innermost first: a group is deleted after the groups it holds.
  for (const row of [...goneGroups].sort(
    (a, b) => Number(holdsGone(a.id)) - Number(holdsGone(b.id)),
  )) {
    await tx.deleteNode('site-section-group', row.id);
  }

  const ignored = (node: StructureNode, field: string, why: string) =>
    warnings.push({
      rule: 'not-applied',
      file: config.file,
      line: node.line,
      key: node.key,
      message: `${field} is not applied: ${why}`,
    });

  const place = async (
    nodes: readonly StructureNode[],
    parent: string | null,
    section: string | null,
  ): Promise<void> => {
    let position = 0;
    for (const node of nodes) {
      position++;
      const common = {
        title: node.title,
        localized_title: localizedColumn(node.localizedTitle),
        position,
        updated_at: at,
      };
      if (node.type === 'space') {
        if (node.condition !== undefined && node.condition !== '') {
          ignored(node, 'condition', 'Livery has no conditional variants');
        }
        const existing = siteSpaces.get(node.key);
        const change = {
          ...common,
          path: node.path,
          hidden: node.hidden ? 1 : 0,
          draft: node.draft ? 1 : 0,
          section_id: section,
          is_default: 0,
        };
        delete (change as { updated_at?: string }).updated_at;
        if (existing !== undefined) {
          await tx.updateVariant(existing.id, change);
          applied.variants.set(node.key, {
            siteSpaceId: existing.id,
            spaceId: existing.space_id,
            node,
          });
        } else {
          const space = newSpaceRow(
            organizationId,
            {
              title: node.title.slice(0, 50),
              ...(node.language ? { language: node.language } : {}),
            },
            at,
          );
          const row = {
            ...newSiteSpaceRow(tx.siteId, space.id, node.path, position, at, node.title, section),
            ...change,
            git_key: node.key,
          };
          await tx.insertVariant(row, space);
          applied.variants.set(node.key, { siteSpaceId: row.id, spaceId: space.id, node });
        }
        if (node.default) {
          const variant = applied.variants.get(node.key);
          if (variant !== undefined) {
            await tx.makeDefaultVariant({ id: variant.siteSpaceId, section_id: section });
          }
        }
        continue;
      }
      if (node.type === 'section') {
        if (node.condition !== undefined && node.condition !== '') {
          ignored(node, 'condition', 'Livery has no conditional sections');
        }
        const fields = {
          ...common,
          description: node.description ?? null,
          localized_description: localizedColumn(node.localizedDescription),
          icon: node.icon ?? null,
          path: node.path,
          parent_group_id: parent,
        };
        let id = sections.get(node.key)?.id;
        if (id !== undefined) await tx.updateNode('site-section', id, fields);
        else {
          const row = newSectionRow(tx.siteId, {
            ...nodeInput(node, position, parent, at),
            path: node.path,
            isDefault: false,
          });
          await tx.insertSection(row);
          id = row.id;
        }
        await place(node.children, null, id);
        if (node.default) await tx.makeDefaultSection(id);
        continue;
      }
      if (node.type === 'section-group') {
        const fields = {
          ...common,
          icon: node.icon ?? null,
          draft: node.draft ? 1 : 0,
          parent_group_id: parent,
        };
        let id = groups.get(node.key)?.id;
        if (id !== undefined) await tx.updateNode('site-section-group', id, fields);
        else {
          const row = newGroupRow(tx.siteId, nodeInput(node, position, parent, at));
          await tx.insertGroup(row);
          id = row.id;
        }
        await place(node.children, id, null);
        continue;
      }
      if (node.condition !== undefined && node.condition !== '') {
        ignored(node, 'condition', 'Livery has no conditional links');
      }
      const fields = {
        ...common,
        description: node.description ?? null,
        localized_description: localizedColumn(node.localizedDescription),
        icon: node.icon ?? null,
        draft: node.draft ? 1 : 0,
        url: node.url,
        parent_group_id: parent,
      };
      const id = links.get(node.key)?.id;
      if (id !== undefined) await tx.updateNode('site-external-link', id, fields);
      else
        await tx.insertLink(
          newLinkRow(tx.siteId, { ...nodeInput(node, position, parent, at), url: node.url }),
        );
    }
  };
  await place(config.structure, null, null);
  return applied;
}

function nodeInput(node: StructureNode, position: number, parent: string | null, at: string) {
  return {
    title: node.title,
    position,
    parent,
    icon: 'icon' in node ? (node.icon ?? null) : null,
    draft: 'draft' in node ? node.draft : false,
    at,
    localizedTitle: node.localizedTitle,
    description: 'description' in node ? (node.description ?? null) : null,
    localizedDescription: 'localizedDescription' in node ? node.localizedDescription : undefined,
    gitKey: node.key,
  };
}
