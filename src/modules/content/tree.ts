/**
 * A revision's pages, as stored: a tree of plain objects, immutable once the revision is written
 * (docs/content.md). Paths are never stored: a page's `path` is its ancestors' slugs and its own,
 * joined by `/`, so renaming or moving a page changes the path of every descendant for free.
 */

export type PageType = 'document' | 'group' | 'link';

export interface LinkTarget {
  /** `anchor`: a heading of a page (GitBook's ContentRefAnchor), from a SUMMARY `page.md#id`. */
  kind: 'url' | 'page' | 'anchor';
  url?: string;
  page?: string;
  anchor?: string;
}

export interface StoredPage {
  id: string;
  type: PageType;
  title: string;
  /** Documents and groups: the page's slug among its siblings. */
  slug?: string;
  emoji?: string;
  description?: string;
  /** Documents: the body, as Markdown. */
  markdown?: string;
  hidden?: boolean;
  /** Links: where the link goes. */
  target?: LinkTarget;
  createdAt: string;
  updatedAt: string;
  /** Pages imported from Git (docs/git-sync.md): the blob the page came from. */
  git?: { oid: string; path: string };
  /** Imported pages: the file's front matter as written (YAML), kept for export. */
  frontMatter?: string;
  /** The SUMMARY entry's link title (`[T](p.md "Link title")`), GitBook's `linkTitle`. */
  linkTitle?: string;
  /** Imported pages' front matter (docs/git-sync.md, "Pages"): GitBook's page fields. */
  icon?: string;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  cover?: PageCover;
  /** The layout options the front matter sets, over Livery's defaults. */
  layout?: Record<string, string | boolean>;
  pages: StoredPage[];
}

export type Tree = StoredPage[];

/** GitBook's RevisionPageDocumentCover: images as file or URL references. */
export interface PageCover {
  ref?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  refDark?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  yPos: number;
  height?: number;
}

/** A page found in a tree, with what its presentation needs to know of its place. */
export interface Located {
  page: StoredPage;
  path: string;
  parent: StoredPage | undefined;
  siblings: StoredPage[];
  index: number;
}

export const MAX_SLUG = 100;

/** Every page, depth first in reading order, with its path (links have none: ''). */
export function* walk(tree: Tree, parentPath = '', parent?: StoredPage): Generator<Located> {
  for (const [index, page] of tree.entries()) {
    const path = page.slug === undefined ? '' : joinPath(parentPath, page.slug);
    yield { page, path, parent, siblings: tree, index };
    yield* walk(page.pages, page.slug === undefined ? parentPath : path, page);
  }
}

export const joinPath = (parentPath: string, slug: string) =>
  parentPath === '' ? slug : `${parentPath}/${slug}`;

export function findById(tree: Tree, id: string): Located | undefined {
  for (const located of walk(tree)) if (located.page.id === id) return located;
  return undefined;
}

/**
 * The document or group at `path`. The path is compared after Unicode NFC normalisation and with
 * leading and trailing slashes ignored, so `/a/b/`, `a/b` and the decoded `a%2Fb` all match.
 */
export function findByPath(tree: Tree, path: string): Located | undefined {
  const wanted = normalizePath(path);
  if (wanted === '') return undefined;
  for (const located of walk(tree)) {
    if (located.page.type !== 'link' && located.path.normalize('NFC') === wanted) return located;
  }
  return undefined;
}

export function normalizePath(path: string): string {
  return path.normalize('NFC').replace(/^\/+|\/+$/g, '');
}

/** A page and all of its descendants' ids. */
export function subtreeIds(page: StoredPage): string[] {
  return [page.id, ...page.pages.flatMap(subtreeIds)];
}

/**
 * Why `slug` cannot be a page's slug, or undefined when it can. Slugs are one path segment of
 * letters (any script), digits, `-`, `_` and `.`, at most 100 characters.
 */
export function slugProblem(slug: string): string | undefined {
  if (slug.length === 0) return 'must not be empty';
  if (slug.includes('/')) return 'must not contain "/" (a slug is one segment of the path)';
  if ([...slug].length > MAX_SLUG) return `must be at most ${MAX_SLUG} characters`;
  if (slug === '.' || slug === '..') return 'must not be "." or ".."';
  if (!/^[\p{L}\p{M}\p{N}._-]+$/u.test(slug)) {
    return 'may contain only letters, digits, "-", "_" and "."';
  }
  return undefined;
}

/**
 * A copy of every page object (and link target), so that applying changes never touches a tree
 * other requests may be reading. Strings are immutable, so the copy shares them: the Markdown of
 * a large space is not copied on every write, and an unchanged page's body is the very string its
 * stored revision holds (content/storage/ compares it in O(1)).
 */
export function cloneTree(tree: Tree): Tree {
  return tree.map(clonePage);
}

function clonePage(page: StoredPage): StoredPage {
  const copy = { ...page, pages: page.pages.map(clonePage) };
  if (page.target !== undefined) copy.target = { ...page.target };
  return copy;
}
