import type { ContentSource } from '../content/service.js';

/**
 * Which Livery content an API or studio URL names (pure; getContentByUrl, docs/api.md "Resolving
 * URLs"). Livery's "app" URLs, the `urls.app` of its pages and search results, are its API URLs:
 *
 * - `{BASE_URL}/v1/spaces/{spaceId}[/content][/page/{pageId} | /path/{pagePath}]`: the space, a
 *   page of its current revision;
 * - `…/spaces/{spaceId}/change-requests/{id}[/content][/page/… | /path/…]`: a change request;
 * - `…/spaces/{spaceId}/revisions/{id}[/page/… | /path/…]`: a page of a revision;
 * - any other path under a space (`/search`, `/git/info`…): the space alone;
 * - the studio's `{BASE_URL}/studio#/orgs/{org}/sites/{site}/variants/{siteSpaceId}`: the space
 *   that variant shows.
 *
 * A fragment (`#anchor` of a section) is ignored. Published URLs need the database
 * (content-by-url.ts).
 */
export type NamedContent =
  | {
      kind: 'space';
      spaceId: string;
      source: ContentSource;
      page?: { id: string } | { path: string };
    }
  | { kind: 'variant'; organizationId: string; siteId: string; siteSpaceId: string };

export function namedContent(url: URL, base: URL): NamedContent | undefined {
  if (url.origin !== base.origin) return undefined;
  const mount = base.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${mount}/`)) return undefined;
  const segments = decoded(url.pathname.slice(mount.length + 1));
  if (segments === undefined) return undefined;
  if (segments[0] === 'studio' && segments.length === 1) return studioRoute(url.hash);
  const [v1, spaces, spaceId, ...rest] = segments;
  if (v1 !== 'v1' || spaces !== 'spaces' || spaceId === undefined) return undefined;
  let source: ContentSource = { kind: 'space' };
  let tail = rest;
  const [kind, id, ...after] = rest;
  if (kind === 'change-requests' && id !== undefined) {
    source = { kind: 'change-request', changeRequest: id };
    tail = after;
  } else if (kind === 'revisions' && id !== undefined) {
    source = { kind: 'revision', revisionId: id };
    tail = after;
  }
  if (tail[0] === 'content' && source.kind !== 'revision') tail = tail.slice(1);
  const [what, ...target] = tail;
  const named: NamedContent = { kind: 'space', spaceId, source };
  if (what === 'page' && target.length === 1) named.page = { id: target[0] as string };
  if (what === 'path' && target.length > 0) named.page = { path: target.join('/') };
  return named;
}

/** The studio's hash route of a variant (studio/router.ts), else undefined. */
function studioRoute(hash: string): NamedContent | undefined {
  const parts = decoded(hash.replace(/^#\/?/, ''));
  if (parts === undefined) return undefined;
  const [orgs, organizationId, sites, siteId, variants, siteSpaceId] = parts;
  if (orgs !== 'orgs' || sites !== 'sites' || variants !== 'variants') return undefined;
  if (organizationId === undefined || siteId === undefined || siteSpaceId === undefined) {
    return undefined;
  }
  return { kind: 'variant', organizationId, siteId, siteSpaceId };
}

/** The non-empty segments of a path, decoded; undefined when one is not well encoded. */
function decoded(path: string): string[] | undefined {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}
