import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync, transformSync } from 'esbuild';

/**
 * Builds the published site's own script and stylesheet (src/modules/published/assets/browser/:
 * real files, linted by Biome, the script type-checked by its tsconfig.json) into dist/published/,
 * which the server serves at `/s/@livery/site.js` and `site.css` (published/assets/assets.ts).
 * scripts/build-studio.ts runs it, so `npm start`, `npm test` and `npm run build:studio` build
 * them; the test helpers that build an app or start a server call `ensureSiteAssets` first.
 * The script is bundled by esbuild (for browsers of `TARGET`); the stylesheet is checked by
 * esbuild's CSS parser (a syntax error fails the build) and served as written, one rule a line.
 * Each file is written beside and renamed into place: a server never reads half a file.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = `${ROOT}src/modules/published/assets/browser/`;
export const SITE_ASSETS_OUT = `${ROOT}dist/published/`;
const FILES = ['site.js', 'site.css'] as const;
const TARGET = ['es2019'];

export function buildSiteAssets(): void {
  mkdirSync(SITE_ASSETS_OUT, { recursive: true });
  const script = buildSync({
    absWorkingDir: ROOT,
    entryPoints: [`${SOURCES}site.js`],
    bundle: true,
    write: false,
    format: 'iife',
    target: TARGET,
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
  }).outputFiles[0];
  if (script === undefined) throw new Error('build-site-assets: esbuild wrote no script');
  const css = readFileSync(`${SOURCES}site.css`, 'utf8');
  transformSync(css, { loader: 'css', logLevel: 'silent' });
  place('site.js', script.text);
  place('site.css', css);
}

function place(name: string, text: string): void {
  const temporary = `${SITE_ASSETS_OUT}${name}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, `${SITE_ASSETS_OUT}${name}`);
}

/** Builds them when a built file is missing or older than its source (tests, benchmarks). */
export function ensureSiteAssets(): void {
  const stale = FILES.some((name) => {
    const built = `${SITE_ASSETS_OUT}${name}`;
    return !existsSync(built) || statSync(built).mtimeMs < statSync(`${SOURCES}${name}`).mtimeMs;
  });
  if (stale) buildSiteAssets();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildSiteAssets();
}
