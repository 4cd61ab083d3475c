import type { StoredPage, Tree } from './tree.js';

/**
 * Three-way merge of page trees at page granularity (docs/content.md). `ours` is a change
 * request's content, `theirs` the space's current content, and each side names the pages it
 * touched since their common base (inserted, edited, moved or deleted). The result is `theirs`
 * with every page `ours` touched taken from `ours`. A page touched by both sides with different
 * results is a conflict; so is a page left without its parent, a group below the top level, two
 * siblings with one slug, or two pages moved into each other.
 */
export interface MergeInput {
  ours: Tree;
  oursTouched: ReadonlySet<string>;
  theirs: Tree;
  theirsTouched: ReadonlySet<string>;
}

export interface Conflict {
  page: string;
  title: string;
  reason: string;
}

export type MergeResult = { tree: Tree; conflicts?: undefined } | { conflicts: Conflict[] };

interface Entry {
  page: StoredPage;
  parent: string | null;
  index: number;
}

export function mergeTrees({ ours, oursTouched, theirs, theirsTouched }: MergeInput): MergeResult {
  const oursFlat = flatten(ours);
  const theirsFlat = flatten(theirs);
  const conflicts: Conflict[] = [];
  for (const id of oursTouched) {
    if (!theirsTouched.has(id)) continue;
    const mine = oursFlat.get(id);
    const other = theirsFlat.get(id);
    if (!sameEntry(mine, other)) {
      conflicts.push(
        describe(
          id,
          mine ?? other,
          'changed both in the change request and in the space since the change request was last updated',
        ),
      );
    }
  }
  const merged = new Map(theirsFlat);
  for (const id of oursTouched) {
    const mine = oursFlat.get(id);
    if (mine === undefined) merged.delete(id);
    else merged.set(id, mine);
  }
  for (const [id, entry] of merged) {
    if (entry.parent !== null && !merged.has(entry.parent)) {
      conflicts.push(
        describe(
          id,
          entry,
          `its parent page ${JSON.stringify(entry.parent)} was deleted on the other side`,
        ),
      );
    } else if (entry.parent !== null && entry.page.type === 'group') {
      conflicts.push(describe(id, entry, 'a group page would end up below the top level'));
    }
  }
  if (conflicts.length > 0) return { conflicts };

  const children = new Map<string | null, string[]>();
  const childrenOf = (parent: string | null) => {
    const list = children.get(parent) ?? [];
    children.set(parent, list);
    return list;
  };
  // The space's order first, then each page the change request placed, at its index there.
  for (const [id, entry] of theirsFlat) {
    if (!oursTouched.has(id) && merged.has(id)) childrenOf(entry.parent).push(id);
  }
  const placed = [...oursTouched].flatMap((id) => {
    const entry = oursFlat.get(id);
    return entry === undefined ? [] : [{ id, entry }];
  });
  placed.sort((a, b) => a.entry.index - b.entry.index);
  for (const { id, entry } of placed) {
    const list = childrenOf(entry.parent);
    list.splice(Math.min(entry.index, list.length), 0, id);
  }

  const reached = new Set<string>();
  const build = (parent: string | null): Tree =>
    (children.get(parent) ?? []).map((id) => {
      reached.add(id);
      const { page } = merged.get(id) as Entry;
      return { ...page, pages: build(id) };
    });
  const tree = build(null);
  for (const [id, entry] of merged) {
    if (!reached.has(id))
      conflicts.push(describe(id, entry, 'pages were moved into each other on the two sides'));
  }
  checkSlugs(tree, conflicts);
  return conflicts.length > 0 ? { conflicts } : { tree };
}

function flatten(tree: Tree): Map<string, Entry> {
  const flat = new Map<string, Entry>();
  const visit = (pages: Tree, parent: string | null) => {
    for (const [index, page] of pages.entries()) {
      flat.set(page.id, { page, parent, index });
      visit(page.pages, page.id);
    }
  };
  visit(tree, null);
  return flat;
}

/** Same page content and parent (timestamps and children aside). */
function sameEntry(a: Entry | undefined, b: Entry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.parent === b.parent && contentKey(a.page) === contentKey(b.page);
}

function contentKey({
  pages: _pages,
  createdAt: _c,
  updatedAt: _u,
  ...content
}: StoredPage): string {
  return JSON.stringify(Object.entries(content).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function checkSlugs(tree: Tree, conflicts: Conflict[]): void {
  const seen = new Map<string, StoredPage>();
  for (const page of tree) {
    if (page.slug !== undefined) {
      const other = seen.get(page.slug);
      if (other !== undefined) {
        conflicts.push({
          page: page.id,
          title: page.title,
          reason: `its slug ${JSON.stringify(page.slug)} is also the slug of page ${JSON.stringify(other.id)} in the same parent`,
        });
      } else seen.set(page.slug, page);
    }
    checkSlugs(page.pages, conflicts);
  }
}

function describe(id: string, entry: Entry | undefined, reason: string): Conflict {
  return { page: id, title: entry?.page.title ?? id, reason };
}
