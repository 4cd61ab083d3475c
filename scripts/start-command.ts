import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * package.json's `start` script, `tsc -p <config> && node <flags> dist/server.js`, split into
 * its build step and the arguments of `node`: the benchmarks and the test of `npm start` run the
 * server exactly as `npm start` does, V8 flags included, with one definition of it.
 */
export function startCommand(): { tscArgs: string[]; nodeArgs: string[] } {
  const scripts = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).scripts;
  const match = /(?:^|&& )tsc (.+?) && node (.+)$/.exec(String(scripts.start));
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new Error('package.json: start does not end with `tsc … && node …`');
  }
  return { tscArgs: match[1].split(/\s+/), nodeArgs: match[2].split(/\s+/) };
}

/** The TypeScript compiler's entry point, for `node <tsc> …`. */
export const TSC = `${ROOT}node_modules/typescript/bin/tsc`;
