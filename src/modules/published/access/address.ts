/**
 * Where a published-site request goes (issue 7, docs/published-site.md). Pure: the route passes
 * the raw request path, so that it alone decides how percent-encoding is read.
 *
 * `/s/{site}/[{variantPath}/][{pagePath}]`: `site` is a basename or a site id; the default
 * variant is at the root, the others under their site-space `path`; the rest is a page `path`.
 */

/** The segment of Livery's own files under `/s/` and under each site: never a site or a page. */
export const ASSETS_SEGMENT = '@livery';

export interface SiteAddress {
  /** The basename or id, as written. */
  site: string;
  /** The decoded segments after it. */
  segments: string[];
}

/**
 * The site and the decoded segments of `/s/…`, or undefined when the address cannot name a page
 * of a site: a segment that is `.` or `..` (raw or encoded), that decodes to a separator (`%2F`,
 * `%5C`) or a control character, or is not valid percent-encoding. Such a request could only be
 * trying to step outside the site, so it is answered 404. Empty segments (`//`, a trailing `/`)
 * are ignored.
 */
export function parseSiteAddress(rawPath: string): SiteAddress | undefined {
  const path = rawPath.split('?', 1)[0] ?? '';
  if (!path.startsWith('/s/')) return undefined;
  const segments: string[] = [];
  for (const raw of path.slice(3).split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === '.' || segment === '..' || /[/\\\p{Cc}]/u.test(segment)) return undefined;
    segments.push(segment);
  }
  const [site, ...rest] = segments;
  return site === undefined ? undefined : { site, segments: rest };
}

export interface VariantAddress {
  id: string;
  /** One segment, or `section/variant` in a site with sections. */
  path: string;
  isDefault: boolean;
  /** Paths that redirect to the variant (published/repository.ts). */
  aliases?: readonly string[];
}

export type Located<V extends VariantAddress> =
  /** `prefix`: the segments that named the variant (none for the default variant at the root). */
  | { kind: 'page'; variant: V; pagePath: string; prefix: readonly string[] }
  /** Another address of the variant (the default variant's own path): its pages live elsewhere. */
  | { kind: 'redirect'; variant: V; pagePath: string };

/** Whether `segments` begin with all of `prefix`. */
function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((segment, index) => segments[index] === segment);
}

/**
 * The variant and page path of the segments after the site. The longest variant path the
 * segments begin with names the variant (variant paths come before the default variant's page
 * slugs); the default variant's own path, and a variant's aliases, redirect to where its pages
 * are served.
 */
export function locateVariant<V extends VariantAddress>(
  segments: readonly string[],
  variants: readonly V[],
): Located<V> | undefined {
  let best: { variant: V; length: number; alias: boolean } | undefined;
  for (const variant of variants) {
    for (const [path, alias] of [
      [variant.path, false] as const,
      ...(variant.aliases ?? []).map((a) => [a, true] as const),
    ]) {
      const prefix = path.split('/');
      if (startsWith(segments, prefix) && (best === undefined || prefix.length > best.length)) {
        best = { variant, length: prefix.length, alias };
      }
    }
  }
  if (best !== undefined) {
    const pagePath = segments.slice(best.length).join('/');
    return best.alias || best.variant.isDefault
      ? { kind: 'redirect', variant: best.variant, pagePath }
      : {
          kind: 'page',
          variant: best.variant,
          pagePath,
          prefix: segments.slice(0, best.length),
        };
  }
  const fallback = variants.find((v) => v.isDefault) ?? variants[0];
  return fallback === undefined
    ? undefined
    : { kind: 'page', variant: fallback, pagePath: segments.join('/'), prefix: [] };
}

/** A variant path as written in a URL: each segment percent-encoded. */
export function encodeVariantPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The same address without the one-time credential parameters (`share`, `jwt_token`, `preview`). */
export function withoutCredentials(rawUrl: string): string {
  const [path, query = ''] = rawUrl.split(/\?(.*)/s, 2) as [string, string?];
  const kept = new URLSearchParams(query);
  kept.delete('share');
  kept.delete('jwt_token');
  kept.delete('preview');
  const rest = kept.toString();
  return rest === '' ? path : `${path}?${rest}`;
}
