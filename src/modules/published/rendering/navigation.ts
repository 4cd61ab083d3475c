import { encodeSegment } from '../../../well-formed-text.js';
import { findById, type StoredPage, type Tree, walk } from '../../content/tree.js';

/**
 * The published site's navigation (issue 7), from a revision's page tree: the sidebar, the
 * reading order behind previous/next, breadcrumbs, and where customization links point. Pure;
 * `base` is the variant's address on the site (`/s/acme/` or `/s/acme/de/`, ending with `/`).
 */

export interface NavEntry {
  id: string;
  title: string;
  emoji?: string;
  kind: 'document' | 'group' | 'link';
  /** Where the entry goes; groups have none. */
  href?: string;
  active: boolean;
  /** The current page is this entry or below it. */
  open: boolean;
  children: NavEntry[];
}

export interface PageLink {
  title: string;
  href: string;
}

/**
 * The URL of a page's path below `base`: each segment percent-encoded, `/` kept between them.
 * Never throws: slugs are letters and digits, but a page must render whatever was stored.
 */
export function pageHref(base: string, path: string): string {
  return base + path.split('/').map(encodeSegment).join('/');
}

/** The sidebar: every page not `hidden`, in order, the current page's ancestors open. */
export function sidebar(tree: Tree, base: string, currentId?: string): NavEntry[] {
  const entries = (pages: Tree, parentPath: string): NavEntry[] =>
    pages
      .filter((page) => !page.hidden)
      .map((page) => {
        const path = page.slug === undefined ? parentPath : join(parentPath, page.slug);
        const children = entries(page.pages, path);
        const active = page.id === currentId;
        const entry: NavEntry = {
          id: page.id,
          title: page.title,
          kind: page.type,
          active,
          open: active || children.some((child) => child.open),
          children,
        };
        if (page.emoji !== undefined) entry.emoji = page.emoji;
        const href = page.type === 'document' ? pageHref(base, path) : linkHref(page, tree, base);
        if (href !== undefined) entry.href = href;
        return entry;
      });
  return entries(tree, '');
}

/** Document pages in reading order (depth first), hidden ones left out: previous/next follow it. */
export function readingOrder(tree: Tree, base: string): (PageLink & { id: string })[] {
  const order: (PageLink & { id: string })[] = [];
  const visit = (pages: Tree, parentPath: string, hiddenAbove: boolean) => {
    for (const page of pages) {
      const hidden = hiddenAbove || page.hidden === true;
      const path = page.slug === undefined ? parentPath : join(parentPath, page.slug);
      if (page.type === 'document' && !hidden) {
        order.push({ id: page.id, title: page.title, href: pageHref(base, path) });
      }
      visit(page.pages, path, hidden);
    }
  };
  visit(tree, '', false);
  return order;
}

export function neighbours(tree: Tree, base: string, currentId: string) {
  const order = readingOrder(tree, base);
  const index = order.findIndex((entry) => entry.id === currentId);
  const link = (i: number) => {
    const entry = order[i];
    return entry === undefined ? undefined : { title: entry.title, href: entry.href };
  };
  return index === -1 ? {} : { previous: link(index - 1), next: link(index + 1) };
}

/** The current page's ancestors, outermost first, each with its address when it has one. */
export function breadcrumbs(
  tree: Tree,
  base: string,
  currentId: string,
): { title: string; href?: string }[] {
  const trail: { title: string; href?: string }[] = [];
  let located = findById(tree, currentId);
  while (located?.parent !== undefined) {
    const parent = located.parent;
    const parentPath = located.path.slice(0, Math.max(0, located.path.lastIndexOf('/')));
    trail.unshift(
      parent.type === 'document'
        ? { title: parent.title, href: pageHref(base, parentPath) }
        : { title: parent.title },
    );
    located = findById(tree, parent.id);
  }
  return trail;
}

/** A customization link target (GitBook's ContentRef) as the site can follow it. */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'space'; space: string }
  | { kind: string; [field: string]: unknown };

export interface LinkContext {
  tree: Tree;
  base: string;
  spaceId: string;
  /** The address of each space this site shows (its site-space), by space id. */
  spaceBases: ReadonlyMap<string, string>;
}

const SAFE_URL = /^(https?:|mailto:)/i;

/**
 * Where a link goes, or undefined when the site cannot follow it (it is then shown as text):
 * - `url`: as is, when it is http(s) or mailto; anything else (`javascript:` …) is refused;
 * - `page` / `anchor`: the page's address in this variant (and `#anchor`); a page of another
 *   space, or one not in the current revision, cannot be followed;
 * - `space`: the address of the variant that shows the space on this site;
 * - `file`, `user`, `collection`, `reusable-content`, `openapi`: Livery has none of these.
 */
export function resolveLink(ref: ContentRef, context: LinkContext): string | undefined {
  switch (ref.kind) {
    case 'url':
      return typeof ref.url === 'string' && SAFE_URL.test(ref.url.trim())
        ? ref.url.trim()
        : undefined;
    case 'page':
    case 'anchor': {
      const { page, space, anchor } = ref as { page?: string; space?: string; anchor?: string };
      if (space !== undefined && space !== context.spaceId) return undefined;
      const hash = anchor === undefined ? '' : `#${encodeSegment(anchor)}`;
      if (page === undefined) return hash === '' ? undefined : hash;
      const path = documentPath(context.tree, page);
      return path === undefined ? undefined : pageHref(context.base, path) + hash;
    }
    case 'space':
      return context.spaceBases.get(String((ref as { space: string }).space));
    default:
      return undefined;
  }
}

function documentPath(tree: Tree, pageId: string): string | undefined {
  for (const { page, path } of walk(tree)) {
    if (page.id === pageId) return page.type === 'link' ? undefined : path;
  }
  return undefined;
}

/** A link page's own target, followed like a customization link. */
function linkHref(page: StoredPage, tree: Tree, base: string): string | undefined {
  if (page.type !== 'link' || page.target === undefined) return undefined;
  const { target } = page;
  if (target.kind === 'url')
    return resolveLink(
      { kind: 'url', url: target.url ?? '' },
      { tree, base, spaceId: '', spaceBases: new Map() },
    );
  const path = target.page === undefined ? undefined : documentPath(tree, target.page);
  if (path === undefined) return undefined;
  const anchor =
    target.kind === 'anchor' && target.anchor !== undefined
      ? `#${encodeURIComponent(target.anchor)}`
      : '';
  return `${pageHref(base, path)}${anchor}`;
}

const join = (parent: string, slug: string) => (parent === '' ? slug : `${parent}/${slug}`);
