import { checkedUrl, type SafeUrl } from './safe-html.js';

/**
 * The one allow-list of URL schemes for `href` and `src` (safe-html.ts refuses any other value
 * there). A URL is followed when it has no scheme (a path, `?query`, `#anchor`, `//host/…`), or
 * one of SCHEMES; an image may also be a `data:` URL of a raster format (no SVG, which can hold
 * script). Anything else (`javascript:`, `vbscript:`, `file:`, `data:text/html`, an unknown app
 * scheme) is refused, and the caller shows the link as its text.
 *
 * The scheme is read as a browser reads it: control characters and spaces anywhere before the
 * colon are ignored (`java\tscript:`), and letters in any case. Entities need no decoding: the
 * URL is written escaped, so `javascript&#58;` reaches the browser as text with no colon.
 */
const SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'ftp']);
const RASTER_DATA = /^data:image\/(gif|png|jpeg|webp);/;

/** The scheme of a URL, lowercased and squeezed; '' when it has none. */
function schemeOf(url: string): string {
  const colon = url.indexOf(':');
  if (colon === -1) return '';
  let scheme = '';
  for (let i = 0; i < colon; i++) {
    const code = url.charCodeAt(i);
    // `/`, `?` or `#` before the first colon: a relative URL whose path or query has a colon.
    if (code === 0x2f || code === 0x3f || code === 0x23) return '';
    if (code > 0x20 && code !== 0x7f) scheme += url[i];
  }
  return scheme.toLowerCase();
}

/** Whether a URL may be followed from a link (`image`: or shown as an image). */
export function isAllowedUrl(url: string, image = false): boolean {
  const scheme = schemeOf(url);
  if (scheme === '' || SCHEMES.has(scheme)) return true;
  if (!image || scheme !== 'data') return false;
  const squeezed = [...url]
    .filter((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .toLowerCase();
  return RASTER_DATA.test(squeezed);
}

/** A URL for `href` (or `src` of an image, `image`), or undefined when its scheme is refused. */
export function attrUrl(url: string, image = false): SafeUrl | undefined {
  return isAllowedUrl(url, image) ? checkedUrl(url) : undefined;
}

/** A URL Livery made itself (its own addresses, below a site's root), checked all the same. */
export function ownUrl(url: string): SafeUrl {
  const checked = attrUrl(url);
  if (checked === undefined) throw new TypeError(`not a followable URL: ${url}`);
  return checked;
}
