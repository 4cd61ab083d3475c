import type { Ref } from './model.js';

/**
 * Links between the pages of one revision. Markdown links to another page (`other.md`,
 * `../guide/install.md`, `/guide/install`, `guide/README.md`, with an optional `#anchor`) become
 * content references to that page's id; the way back gives each page its path again.
 * Relative paths are read from the page's folder, as a browser reads them from the page's
 * address on the published site (`guide/install` is in `guide/`).
 */
export interface PageLinks {
  /** The page the Markdown belongs to (`guide/install`), '' or absent at the root. */
  path?: string;
  /** Document and group ids by path (`guide/install` → id). */
  ids?: ReadonlyMap<string, string>;
  /** Paths by page id: the inverse of `ids`. */
  paths?: ReadonlyMap<string, string>;
  /**
   * Pages imported from Git (docs/git-sync.md): the page's file, relative to the space's root in
   * the repository (`guide/install.md`). Relative targets are then read from that file's folder
   * against the maps below, as GitBook reads them, whatever the page's place in the tree.
   */
  file?: string;
  /** Page ids by their file's path (`guide/README.md`, `guide/install.md`). */
  pageFiles?: ReadonlyMap<string, string>;
  /** Revision file ids by path (`.gitbook/assets/a b.png`). */
  files?: ReadonlyMap<string, string>;
  /** Reusable content ids by path (`.gitbook/includes/setup.md`). */
  includes?: ReadonlyMap<string, string>;
  /**
   * Writing a repository's files (Git export): a link to a folder's `README` page is written as
   * the folder (`guide/`, `./`, `../`), as GitBook's exporter writes it.
   */
  readmeAsFolder?: boolean;
}

/**
 * A path written in the file `from` (relative to its folder, or to the root when it starts with
 * `/`), resolved to a path from the root: `../a/./b.md` → `a/b.md`; undefined when it climbs above
 * the root. Percent-escapes are decoded.
 */
export function resolveRepoPath(from: string, target: string): string | undefined {
  const decoded = decode(target);
  const parts = decoded.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const part of decoded.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/').normalize('NFC');
}

/** An image's or file's source as a reference: the revision's file when it has one, else the URL. */
export function fileRefOf(src: string, links: PageLinks = {}): Ref {
  if (links.file !== undefined && links.files !== undefined && !SCHEME.test(src)) {
    const path = resolveRepoPath(links.file, src.split(/[?#]/)[0] ?? '');
    const file = path === undefined ? undefined : links.files.get(path);
    if (file !== undefined) return { kind: 'file', file };
  }
  return { kind: 'url', url: src };
}

/** An include's target (`../.gitbook/includes/x.md`) as the reusable content's id, if known. */
export function reusableContentOf(src: string, links: PageLinks = {}): string | undefined {
  if (links.file === undefined || links.includes === undefined) return undefined;
  const path = resolveRepoPath(links.file, src);
  return path === undefined ? undefined : links.includes.get(path);
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Page paths and ids of a revision, from `[path, id]` pairs. */
export function pageLinks(
  pages: Iterable<[string, string]>,
  path = '',
): Required<Pick<PageLinks, 'path' | 'ids' | 'paths'>> {
  const ids = new Map<string, string>();
  const paths = new Map<string, string>();
  for (const [pagePath, id] of pages) {
    if (pagePath === '') continue;
    ids.set(pagePath.normalize('NFC'), id);
    paths.set(id, pagePath);
  }
  return { path, ids, paths };
}

/** A Markdown link's target as a content reference. */
export function refOf(href: string, links: PageLinks = {}): Ref {
  if (href.startsWith('#')) return { kind: 'anchor', anchor: decode(href.slice(1)) };
  if (SCHEME.test(href) || href.startsWith('//')) return { kind: 'url', url: href };
  const hash = href.indexOf('#');
  const target = hash === -1 ? href : href.slice(0, hash);
  const anchor = hash === -1 ? '' : decode(href.slice(hash + 1));
  const page = pageIdAt(target, links);
  if (page === undefined) return importedTarget(target, href, links);
  return anchor === '' ? { kind: 'page', page } : { kind: 'anchor', anchor, page };
}

/**
 * A relative target of an imported page that is no page: a file of the revision (a download), or,
 * for a Markdown file or folder the revision does not have, GitBook's broken-link form
 * (`broken-reference`, what GitBook writes for a link to a missing page). The Markdown keeps the
 * link as written. Anything else stays a URL.
 */
function importedTarget(target: string, href: string, links: PageLinks): Ref {
  if (links.file === undefined || target === '' || target.includes('?'))
    return { kind: 'url', url: href };
  const path = resolveRepoPath(links.file, target);
  const file = path === undefined ? undefined : links.files?.get(path);
  if (file !== undefined) return { kind: 'file', file };
  if (/\.md$|\/$/i.test(target) || path === undefined)
    return { kind: 'url', url: 'broken-reference' };
  return { kind: 'url', url: href };
}

function pageIdAt(target: string, links: PageLinks): string | undefined {
  if (links.file !== undefined && links.pageFiles !== undefined) {
    const path = resolveRepoPath(links.file, target === '' ? '' : target);
    if (path !== undefined && target !== '') {
      const found =
        links.pageFiles.get(path) ??
        links.pageFiles.get(`${path}.md`) ??
        links.pageFiles.get(
          path.endsWith('/') || path === '' ? `${path}README.md` : `${path}/README.md`,
        );
      if (found !== undefined) return found;
    }
  }
  if (links.ids === undefined || target === '' || target.includes('?')) return undefined;
  const folder = (links.path ?? '').split('/').slice(0, -1);
  const parts = decode(target).startsWith('/') ? [] : folder;
  for (const part of decode(target).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const last = parts.at(-1);
  if (last !== undefined && /^readme\.md$/i.test(last)) parts.pop();
  else if (last !== undefined) parts[parts.length - 1] = last.replace(/\.md$/i, '');
  return links.ids.get(parts.join('/').normalize('NFC'));
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A content reference as a Markdown link target: pages as paths relative to the page's folder,
 * ending with `.md` (GitBook's Markdown); a page the revision does not have as its id.
 */
export function hrefOf(ref: Ref, links: PageLinks = {}): string {
  if (ref.kind === 'url') return ref.url;
  if (ref.kind === 'file' || ref.kind === 'reusable-content') return '';
  const anchor = ref.kind === 'anchor' ? `#${encodeText(ref.anchor)}` : '';
  if (ref.page === undefined) return anchor;
  const target = links.paths?.get(ref.page);
  if (target === undefined) return `${encodeText(ref.page)}${anchor}`;
  const from = (links.path ?? '').split('/').slice(0, -1);
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.slice(common).map(() => '..');
  const path = [...up, ...to.slice(common)].join('/');
  if (links.readmeAsFolder === true && /^readme$/i.test(to.at(-1) ?? '')) {
    const folder = [...up, ...to.slice(common, -1)].join('/');
    return `${folder === '' ? './' : `${encodeText(folder)}/`}${anchor}`;
  }
  return `${encodeText(path)}.md${anchor}`;
}

/**
 * The text GitBook writes for a content reference (`{% content-ref %}`'s link, a card's target
 * cell): a page's file name (`[api.md](../reference/api.md)`), any other target as its address.
 */
export function refLinkText(ref: Ref, href: string): string {
  if (ref.kind !== 'page' || href === '') return href;
  // A folder (a README written as its folder, `guide/`): its name; `./`, `../` as written.
  const parts = href.split('/').filter((part) => part !== '');
  const last = parts.at(-1) ?? href;
  return last === '.' || last === '..' ? href : last;
}

/** `encodeURI` that never throws: a lone surrogate in stored text is encoded as U+FFFD. */
const encodeText = (text: string) => encodeURI(text.toWellFormed());
