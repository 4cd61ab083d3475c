/**
 * Builds Livery Studio (studio/, browser code) into dist/studio/: one minified ES module bundle
 * and stylesheet with content-hashed names, and the index.html that names them; then the
 * published site's script and stylesheet into dist/published/ (scripts/build-site-assets.ts).
 * `npm start` and `npm test` run it first; nothing is fetched at run time. Prints the sizes (raw and gzip) from
 * esbuild's metafile, which bench/studio.ts and test/http/studio-assets.test.ts read too.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { buildSiteAssets } from './build-site-assets.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const STUDIO_OUT = `${ROOT}dist/studio/`;

export interface StudioBuild {
  /** Output file name → { bytes, gzip } */
  files: Record<string, { bytes: number; gzip: number }>;
  /** Every source file bundled (relative to the project). */
  inputs: string[];
}

export async function buildStudio(options: { quiet?: boolean } = {}): Promise<StudioBuild> {
  // Built beside and swapped in whole: a server never sees a half-written studio.
  const out = `${ROOT}dist/studio.${process.pid}.tmp/`;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(`${out}assets`, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { studio: 'studio/main.tsx' },
    outdir: `${out}assets`,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = Object.keys(result.metafile.outputs).filter((file) => !file.endsWith('.map'));
  const script = outputs.find((file) => file.endsWith('.js'));
  const style = outputs.find((file) => file.endsWith('.css'));
  if (script === undefined) throw new Error('build-studio: esbuild wrote no script');
  const template = readFileSync(`${ROOT}studio/index.html`, 'utf8');
  const html = template
    .replace('%SCRIPT%', `/studio/assets/${basename(script)}`)
    .replace(
      '%STYLE%',
      style === undefined ? '' : `<link rel="stylesheet" href="/studio/assets/${basename(style)}">`,
    );
  writeFileSync(`${out}index.html`, html);
  const files: StudioBuild['files'] = {};
  for (const file of [...outputs, `${out}index.html`]) {
    const path = file.startsWith('/') ? file : `${ROOT}${file}`;
    const content = readFileSync(path);
    files[basename(path)] = { bytes: content.length, gzip: gzipSync(content, { level: 9 }).length };
  }
  const inputs = Object.keys(result.metafile.inputs);
  const report: StudioBuild = { files, inputs };
  writeFileSync(`${out}build.json`, `${JSON.stringify(report, null, 2)}\n`);
  rmSync(STUDIO_OUT, { recursive: true, force: true });
  renameSync(out, STUDIO_OUT);
  if (!options.quiet) {
    const total = Object.values(files).reduce((sum, f) => sum + f.gzip, 0);
    const list = Object.entries(files)
      .map(
        ([name, f]) =>
          `${name} ${(f.bytes / 1024).toFixed(1)} KB (${(f.gzip / 1024).toFixed(1)} KB gzip)`,
      )
      .join(', ');
    process.stdout.write(`studio: built ${list}; ${(total / 1024).toFixed(1)} KB gzip in all\n`);
  }
  return report;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildStudio();
  // The published site's script and stylesheet go through the same esbuild, at the same times.
  buildSiteAssets();
}
