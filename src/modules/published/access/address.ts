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
  path: string;
  isDefault: boolean;
}

export type Located<V extends VariantAddress> =
  | { kind: 'page'; variant: V; pagePath: string }
  /** The default variant's own path: its pages live at the site's root. */
  | { kind: 'redirect-to-root'; pagePath: string };

/**
 * The variant and page path of the segments after the site. A first segment that is a variant's
 * `path` names that variant (variant paths come before the default variant's page slugs); the
 * default variant's own path redirects to the root, where its pages are served.
 */
export function locateVariant<V extends VariantAddress>(
  segments: readonly string[],
  variants: readonly V[],
): Located<V> | undefined {
  const [first, ...rest] = segments;
  const byPath = first === undefined ? undefined : variants.find((v) => v.path === first);
  if (byPath !== undefined) {
    return byPath.isDefault
      ? { kind: 'redirect-to-root', pagePath: rest.join('/') }
      : { kind: 'page', variant: byPath, pagePath: rest.join('/') };
  }
  const fallback = variants.find((v) => v.isDefault) ?? variants[0];
  return fallback === undefined
    ? undefined
    : { kind: 'page', variant: fallback, pagePath: segments.join('/') };
}

export interface SectionAddress {
  id: string;
  path: string;
  isDefault: boolean;
  draft?: boolean;
}

export interface SectionedVariantAddress extends VariantAddress {
  section?: SectionAddress;
  draft?: boolean;
}

/** The variants a visitor may open: not drafts, nor in a draft section. */
export function liveVariants<V extends SectionedVariantAddress>(variants: readonly V[]): V[] {
  return variants.filter((v) => v.draft !== true && v.section?.draft !== true);
}

/**
 * The variant a site opens on: the default variant of its default section (or of the site, when
 * it has no sections), else the first live one.
 */
export function defaultVariantOf<V extends SectionedVariantAddress>(
  variants: readonly V[],
): V | undefined {
  const live = liveVariants(variants);
  return (
    live.find((v) => v.isDefault && (v.section === undefined || v.section.isDefault)) ??
    live.find((v) => v.isDefault) ??
    live[0]
  );
}

/**
 * The variant and page path of the segments after the site, in a site with sections or not
 * (issue 29): `/{site}/[{sectionPath}/][{variantPath}/][{pagePath}]`. A first segment that is a
 * section's path names that section (section paths come before the default section's variant
 * paths and page slugs), else the default section is meant; then the rest is read inside the
 * section as `locateVariant` reads a site without sections. The default section's own path
 * redirects to the root, a section's default variant's path to the section's address. Drafts
 * (variants, sections) are not served.
 */
export function locatePage<V extends SectionedVariantAddress>(
  segments: readonly string[],
  variants: readonly V[],
): Located<V> | undefined {
  const live = liveVariants(variants);
  const sectioned = live.filter((v) => v.section !== undefined);
  if (sectioned.length === 0) return locateVariant(segments, live);
  const [first, ...rest] = segments;
  const named =
    first === undefined ? undefined : sectioned.find((v) => v.section?.path === first)?.section;
  if (named?.isDefault === true) return { kind: 'redirect-to-root', pagePath: rest.join('/') };
  const section = named ?? defaultVariantOf(sectioned)?.section;
  if (section === undefined) return undefined;
  const within = locateVariant(
    named === undefined ? segments : rest,
    sectioned.filter((v) => v.section?.id === section.id),
  );
  if (within?.kind !== 'redirect-to-root' || section.isDefault) return within;
  const pagePath = within.pagePath === '' ? section.path : `${section.path}/${within.pagePath}`;
  return { kind: 'redirect-to-root', pagePath };
}

/** The same address without the one-time credential parameters (`share`, `jwt_token`). */
export function withoutCredentials(rawUrl: string): string {
  const [path, query = ''] = rawUrl.split(/\?(.*)/s, 2) as [string, string?];
  const kept = new URLSearchParams(query);
  kept.delete('share');
  kept.delete('jwt_token');
  const rest = kept.toString();
  return rest === '' ? path : `${path}?${rest}`;
}
