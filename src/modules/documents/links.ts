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
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Page paths and ids of a revision, from `[path, id]` pairs. */
export function pageLinks(pages: Iterable<[string, string]>, path = ''): Required<PageLinks> {
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
  if (page === undefined) return { kind: 'url', url: href };
  return anchor === '' ? { kind: 'page', page } : { kind: 'anchor', anchor, page };
}

function pageIdAt(target: string, links: PageLinks): string | undefined {
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
  return `${encodeText(path)}.md${anchor}`;
}

/** `encodeURI` that never throws: a lone surrogate in stored text is encoded as U+FFFD. */
const encodeText = (text: string) => encodeURI(text.toWellFormed());
