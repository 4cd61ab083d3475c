import { type Located, type StoredPage, type Tree, walk } from './tree.js';

/**
 * What a revision changed against its parent, in GitBook 0.202's RevisionSemanticChange terms
 * (getRevisionSemanticChanges; docs/content.md, "What a revision changed"). Pure: both sides are
 * given whole, so it is table-tested (test/unit/semantic-changes.test.ts).
 *
 * Pages are matched by id, never by path or title:
 * - an id only in `after`: `page_created`; only in `before`: `page_deleted` (every page of a
 *   deleted subtree, each reported);
 * - an id on both sides whose parent page differs: `page_moved` (a reorder among the same
 *   siblings is not a move: GitBook's change names a parent before and after, nothing else);
 * - an id on both sides whose own attributes differ (title, slug, description, emoji, body,
 *   cover, layout; a link's target): `page_edited` with those attributes. A rename is an edit of
 *   `title` (and `slug`). A page both moved and edited gets both changes. A descendant whose
 *   path changed only because an ancestor moved or was renamed is not reported.
 * Files and reusable contents are matched by id the same way.
 */

/** GitBook's ChangedRevisionPage. */
export interface ChangedPage {
  id: string;
  type: StoredPage['type'];
  title: string;
  path?: string;
}

/** GitBook's ChangedRevisionFile (the fields compared are RevisionFileChangeAttributes'). */
export interface FileSnapshot {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
}

/** A reusable content as compared: its body by its Markdown. */
export interface ReusableSnapshot {
  id: string;
  title: string;
  markdown: string;
}

export interface RevisionSide {
  pages: Tree;
  files: readonly FileSnapshot[];
  reusableContents: readonly ReusableSnapshot[];
}

type Before<T> = { before?: T; after?: T };

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, Before<unknown>> }
  | { type: 'page_moved'; page: ChangedPage; parent: Before<ChangedPage> }
  | { type: 'file_created' | 'file_deleted'; file: FileOut }
  | { type: 'file_edited'; file: FileOut; attributes: Record<string, Before<unknown>> }
  | {
      type: 'reusable_content_created' | 'reusable_content_deleted';
      reusableContent: ReusableOut;
    }
  | {
      type: 'reusable_content_edited';
      reusableContent: ReusableOut;
      attributes: Record<string, Before<unknown>>;
    };

type FileOut = Pick<FileSnapshot, 'id' | 'name' | 'contentType' | 'downloadURL'>;
type ReusableOut = { id: string; title: string; document: string };

export interface SemanticChangeOptions {
  /** A document's layout options as presented (Livery's defaults with the page's own over them). */
  layoutOf: (page: StoredPage) => unknown;
}

/**
 * The changes from `before` (the parent revision; undefined for a first revision, whose every
 * page is created) to `after`, in order: pages created, moved and edited in `after`'s reading
 * order, then pages deleted in `before`'s, then files, then reusable contents.
 */
export function semanticChanges(
  before: RevisionSide | undefined,
  after: RevisionSide,
  options: SemanticChangeOptions,
): SemanticChange[] {
  const out: SemanticChange[] = [];
  const old = new Map<string, Located>();
  for (const located of walk(before?.pages ?? [])) old.set(located.page.id, located);
  const fresh = new Map<string, Located>();
  for (const located of walk(after.pages)) fresh.set(located.page.id, located);
  const kept = new Set<string>();
  for (const located of fresh.values()) {
    const { page } = located;
    const previous = old.get(page.id);
    if (previous === undefined) {
      out.push({ type: 'page_created', page: changedPage(located) });
      continue;
    }
    kept.add(page.id);
    if (previous.parent?.id !== located.parent?.id) {
      const parent: Before<ChangedPage> = {};
      const was = previous.parent && old.get(previous.parent.id);
      const is = located.parent && fresh.get(located.parent.id);
      if (was) parent.before = changedPage(was);
      if (is) parent.after = changedPage(is);
      out.push({ type: 'page_moved', page: changedPage(located), parent });
    }
    const attributes = pageAttributes(previous.page, page, options);
    if (Object.keys(attributes).length > 0) {
      out.push({ type: 'page_edited', page: changedPage(located), attributes });
    }
  }
  for (const located of old.values()) {
    if (!kept.has(located.page.id)) out.push({ type: 'page_deleted', page: changedPage(located) });
  }
  out.push(...fileChanges(before?.files ?? [], after.files));
  out.push(...reusableChanges(before?.reusableContents ?? [], after.reusableContents));
  return out;
}

function changedPage({ page, path }: Located): ChangedPage {
  const changed: ChangedPage = { id: page.id, type: page.type, title: page.title };
  if (page.type !== 'link') changed.path = path;
  return changed;
}

/** The attributes GitBook's change lists for the page's type, where the two sides differ. */
function pageAttributes(
  a: StoredPage,
  b: StoredPage,
  { layoutOf }: SemanticChangeOptions,
): Record<string, Before<unknown>> {
  const out: Record<string, Before<unknown>> = {};
  const compare = (name: string, x: unknown, y: unknown) => {
    if (same(x, y)) return;
    const change: Before<unknown> = {};
    if (x !== undefined) change.before = x;
    if (y !== undefined) change.after = y;
    out[name] = change;
  };
  compare('title', a.title, b.title);
  compare('emoji', a.emoji, b.emoji);
  if (b.type === 'link') {
    compare('target', linkRef(a), linkRef(b));
    return out;
  }
  compare('slug', a.slug, b.slug);
  if (b.type === 'group') return out;
  compare('description', a.description, b.description);
  // A page's document id is its page id (docs/content.md): the same on both sides, read in
  // each revision (getPageDocumentInRevisionById) to see the bodies.
  if ((a.markdown ?? '') !== (b.markdown ?? '')) out.document = { before: a.id, after: b.id };
  compare('cover', a.cover, b.cover);
  compare('layout', layoutOf(a), layoutOf(b));
  return out;
}

/** A link's target as GitBook's ContentRef. */
function linkRef(page: StoredPage): unknown {
  const target = page.target;
  if (target === undefined) return undefined;
  if (target.kind === 'url') return { kind: 'url', url: target.url ?? '' };
  if (target.kind === 'page') return { kind: 'page', page: target.page ?? '' };
  return {
    kind: 'anchor',
    anchor: target.anchor ?? '',
    ...(target.page === undefined ? {} : { page: target.page }),
  };
}

function fileChanges(before: readonly FileSnapshot[], after: readonly FileSnapshot[]) {
  const out: SemanticChange[] = [];
  const old = new Map(before.map((f) => [f.id, f]));
  const present = (f: FileSnapshot): FileOut => ({
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: f.downloadURL,
  });
  for (const file of after) {
    const previous = old.get(file.id);
    if (previous === undefined) {
      out.push({ type: 'file_created', file: present(file) });
      continue;
    }
    const attributes: Record<string, Before<unknown>> = {};
    for (const name of ['name', 'downloadURL', 'size', 'contentType', 'dimensions'] as const) {
      if (same(previous[name], file[name])) continue;
      attributes[name] = {
        ...(previous[name] === undefined ? {} : { before: previous[name] }),
        ...(file[name] === undefined ? {} : { after: file[name] }),
      };
    }
    if (Object.keys(attributes).length > 0) {
      out.push({ type: 'file_edited', file: present(file), attributes });
    }
  }
  const ids = new Set(after.map((f) => f.id));
  for (const file of before) {
    if (!ids.has(file.id)) out.push({ type: 'file_deleted', file: present(file) });
  }
  return out;
}

function reusableChanges(before: readonly ReusableSnapshot[], after: readonly ReusableSnapshot[]) {
  const out: SemanticChange[] = [];
  const old = new Map(before.map((r) => [r.id, r]));
  // A reusable content's document id is its own id (files/service.ts presentReusable).
  const present = (r: ReusableSnapshot): ReusableOut => ({
    id: r.id,
    title: r.title,
    document: r.id,
  });
  for (const item of after) {
    const previous = old.get(item.id);
    if (previous === undefined) {
      out.push({ type: 'reusable_content_created', reusableContent: present(item) });
      continue;
    }
    const attributes: Record<string, Before<unknown>> = {};
    if (previous.title !== item.title)
      attributes.title = { before: previous.title, after: item.title };
    if (previous.markdown !== item.markdown)
      attributes.document = { before: item.id, after: item.id };
    if (Object.keys(attributes).length > 0) {
      out.push({ type: 'reusable_content_edited', reusableContent: present(item), attributes });
    }
  }
  const ids = new Set(after.map((r) => r.id));
  for (const item of before) {
    if (!ids.has(item.id)) {
      out.push({ type: 'reusable_content_deleted', reusableContent: present(item) });
    }
  }
  return out;
}

/** Structural equality of plain JSON values (page attributes are small). */
function same(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.length !== ky.length) return false;
  return kx.every((k) =>
    same((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]),
  );
}
