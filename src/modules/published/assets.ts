import { createHash } from 'node:crypto';
import { SITE_CSS } from './site-css.js';
import { SITE_JS } from './site-js.js';

/**
 * Livery's own files of every published site, served under `/s/@livery/` (no CDN: a site works
 * offline): the site stylesheet (site-css.ts) and script (site-js.ts). The look comes from the
 * theme CSS (theme/css.ts) through custom properties.
 */

/** A strong ETag of a text. */
export const contentTag = (text: string) =>
  `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;

export const ASSETS: Readonly<Record<string, { type: string; body: string; etag: string }>> = {
  'site.css': { type: 'text/css; charset=utf-8', body: SITE_CSS, etag: contentTag(SITE_CSS) },
  'site.js': { type: 'text/javascript; charset=utf-8', body: SITE_JS, etag: contentTag(SITE_JS) },
};
