import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Livery's own files of every published site, served under `/s/@livery/` (no CDN: a site works
 * offline): the site stylesheet and script, whose sources are browser/site.css and
 * browser/site.js beside this file, built into dist/published/ by scripts/build-site-assets.ts
 * (`npm start` and `npm test` build them). The look comes from the theme CSS (theme/css.ts)
 * through custom properties. KaTeX's stylesheet (`katex.css`, linked by pages that show a
 * formula: documents/blocks/math.ts) and its fonts (`fonts/KaTeX_*.woff2`) come from the `katex`
 * package as published.
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
  const katex = katexCss();
  loaded = {
    'site.css': { type: 'text/css; charset=utf-8', body: css, etag: contentTag(css) },
    'site.js': { type: 'text/javascript; charset=utf-8', body: js, etag: contentTag(js) },
    'katex.css': { type: 'text/css; charset=utf-8', body: katex, etag: contentTag(katex) },
  };
  return loaded;
}

const require = createRequire(import.meta.url);
const KATEX_CSS = require.resolve('katex/dist/katex.min.css');
const KATEX_FONTS = new URL('fonts/', pathToFileURL(KATEX_CSS));

/**
 * KaTeX's stylesheet with its WOFF2 fonts only (every browser the site supports reads them; the
 * WOFF and TrueType copies would be files the site also had to serve). Its `fonts/…` addresses
 * are relative: from `/s/@livery/katex.css`, the fonts route below.
 */
function katexCss(): string {
  return readFileSync(KATEX_CSS, 'utf8').replace(
    /,url\(fonts\/[\w-]+\.woff\) format\("woff"\),url\(fonts\/[\w-]+\.ttf\) format\("truetype"\)/g,
    '',
  );
}

let katexFonts: Map<string, Buffer | undefined> | undefined;

/** A KaTeX font by its file name (`KaTeX_Main-Regular.woff2`), or undefined. */
export function katexFont(name: string): Buffer | undefined {
  katexFonts ??= new Map(
    readdirSync(KATEX_FONTS)
      .filter((file) => file.endsWith('.woff2'))
      .map((file) => [file, undefined]),
  );
  if (!katexFonts.has(name)) return undefined;
  let bytes = katexFonts.get(name);
  if (bytes === undefined) {
    bytes = readFileSync(new URL(name, KATEX_FONTS));
    katexFonts.set(name, bytes);
  }
  return bytes;
}
