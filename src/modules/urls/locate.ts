import { encodeSegment } from '../../well-formed-text.js';
import { parseSiteAddress } from '../published/access/address.js';

/**
 * Which published site a URL names (pure; `POST /v1/urls/published`, docs/renderer.md). Livery's
 * sites live at PUBLIC_URL: `{PUBLIC_URL}{site}/[{shareKey}/][{variantPath}/][{pagePath}]`, the
 * site by its basename or id. GitBook's renderer asks for several prefixes of one URL at once
 * and keeps the full URL's answer or a prefix's answer that says `complete`.
 */
export interface UrlAddress {
  /** The site segment as written (basename or id). */
  site: string;
  /** The decoded segments after it. */
  rest: string[];
  /** `?share=` of the URL, for callers other than the renderer (which strips queries). */
  shareQuery: string | undefined;
  /** The origin of the URL and the path of PUBLIC_URL (`/s/`). */
  origin: string;
  mount: string;
}

/** Undefined when the URL is not a page address under PUBLIC_URL (another host, another path). */
export function locateUrl(url: URL, publicUrl: URL): UrlAddress | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.host.toLowerCase() !== publicUrl.host.toLowerCase()) return undefined;
  const mount = publicUrl.pathname.endsWith('/') ? publicUrl.pathname : `${publicUrl.pathname}/`;
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  if (!path.startsWith(mount)) return undefined;
  const address = parseSiteAddress(`/s/${url.pathname.slice(mount.length)}`);
  if (address === undefined || address.site.startsWith('@')) return undefined;
  return {
    site: address.site,
    rest: address.segments,
    shareQuery: url.searchParams.get('share') ?? undefined,
    origin: url.origin,
    mount,
  };
}

export interface Resolved {
  siteBasePath: string;
  basePath: string;
  pathname: string;
  canonicalUrl: string;
}

/** GitBook's paths of a resolution: the site's root, the variant's root, the page's path. */
export function pathsOf(
  address: UrlAddress,
  shareSegment: string | undefined,
  variantPath: string | undefined,
  pagePath: string,
): Resolved {
  const enc = encodeSegment; // stored paths: never a throw, whatever was stored
  const siteBasePath = `${address.mount}${enc(address.site)}/${shareSegment === undefined ? '' : `${enc(shareSegment)}/`}`;
  // A variant path of a site with sections has two segments (`section/variant`).
  const variantSegments = variantPath === undefined ? [] : variantPath.split('/');
  const basePath = `${siteBasePath}${variantSegments.map((s) => `${enc(s)}/`).join('')}`;
  const encodedPage = pagePath.split('/').filter(Boolean).map(enc).join('/');
  return {
    siteBasePath,
    basePath,
    pathname: pagePath,
    canonicalUrl: `${address.origin}${basePath}${encodedPage}`,
  };
}
