import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

/**
 * Livery's own files of every published site, served under `/s/@livery/` (no CDN: a site works
 * offline): the site stylesheet and script, whose sources are browser/site.css and
 * browser/site.js beside this file, built into dist/published/ by scripts/build-site-assets.ts
 * (`npm start` and `npm test` build them). The look comes from the theme CSS (theme/css.ts)
 * through custom properties.
 */

/** A strong ETag of a text. */
export const contentTag = (text: string) =>
  `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;

export type SiteAssets = Readonly<Record<string, { type: string; body: string; etag: string }>>;

/** Where they are built (from src/ and from dist/ alike). */
const BUILT = new URL('../../../../dist/published/', import.meta.url);

let loaded: SiteAssets | undefined;

/** The built files, read once; a clear error when they are not built. */
export function siteAssets(): SiteAssets {
  if (loaded !== undefined) return loaded;
  const read = (name: string) => {
    const file = new URL(name, BUILT);
    if (!existsSync(file)) {
      throw new Error(
        `The published site's ${name} is not built (${file.pathname}): run \`npm run build:studio\` (npm start and npm test build it)`,
      );
    }
    return readFileSync(file, 'utf8');
  };
  const css = read('site.css');
  const js = read('site.js');
  loaded = {
    'site.css': { type: 'text/css; charset=utf-8', body: css, etag: contentTag(css) },
    'site.js': { type: 'text/javascript; charset=utf-8', body: js, etag: contentTag(js) },
  };
  return loaded;
}
