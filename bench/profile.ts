import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type autocannon from 'autocannon';
import {
  buildLivery,
  measure,
  RENDERER_HEADERS,
  ROOT,
  rendererReads,
  seed,
  startLivery,
  stop,
  TOKEN,
} from './lib.js';
import { PAGE_HEADERS, seedPage } from './page-answer.js';

/**
 * `npm run bench:profile [-- get|patch|lookup|page|published]`: where a Livery process spends its CPU under load.
 *
 * Starts the compiled server as `npm start` does, plus `--cpu-prof`, on a new SQLite file (or
 * PROFILE_DATABASE_URL), seeds it like `npm run bench`, runs PROFILE_SECONDS (default 10) of
 * GET (or PATCH, the URL lookup, bench/run.ts's page view, or the renderer's read of the
 * published view with a site token) load with 16 connections, stops the server with SIGTERM (which writes the
 * profile), and prints the self time by function and by package. The `.cpuprofile` file is kept
 * for Chrome DevTools; its path is printed.
 */

const KIND = (process.argv[2] ?? 'get').toLowerCase();
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

async function main(): Promise<void> {
  if (!['get', 'patch', 'lookup', 'page', 'published'].includes(KIND)) {
    throw new Error('usage: bench:profile [get|patch|lookup|page|published]');
  }
  buildLivery();
  const dir = mkdtempSync(join(tmpdir(), 'livery-profile-'));
  const children: ChildProcess[] = [];
  const databaseUrl = process.env.PROFILE_DATABASE_URL ?? `sqlite:${join(dir, 'livery.db')}`;
  const { base, child } = await startLivery(
    children,
    databaseUrl,
    join(dir, 'server.log'),
    {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  );
  try {
    const { getUrl, patchUrl } = await seed(base, 0);
    let n = 0;
    const lookup = ['lookup', 'page', 'published'].includes(KIND)
      ? await rendererReads(base, getUrl)
      : undefined;
    const page = KIND === 'page' ? await seedPage(base, getUrl) : undefined;
    const renderer =
      KIND === 'published' && lookup !== undefined
        ? {
            url: lookup.publishedUrl,
            headers: { ...RENDERER_HEADERS, authorization: `Bearer ${await lookup.siteToken()}` },
          }
        : undefined;
    const options =
      renderer !== undefined
        ? renderer
        : page !== undefined
          ? { url: page, headers: PAGE_HEADERS }
          : KIND === 'get'
            ? { url: getUrl, headers: { authorization: `Bearer ${TOKEN}` } }
            : lookup !== undefined
              ? {
                  url: `${base}/v1/urls/published`,
                  method: 'POST' as const,
                  headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
                  body: lookup.lookupBody,
                }
              : {
                  // autocannon applies setupRequest only per entry of `requests`, not at the top.
                  url: patchUrl,
                  requests: [
                    {
                      method: 'PATCH' as const,
                      path: new URL(patchUrl).pathname,
                      headers: {
                        authorization: `Bearer ${TOKEN}`,
                        'content-type': 'application/json',
                      },
                      setupRequest: (request) => ({
                        ...request,
                        body: JSON.stringify({ title: `Title ${n++}` }),
                      }),
                    } satisfies autocannon.Request,
                  ],
                };
    await measure(options, 2, 16); // warm-up
    const m = await measure(options, SECONDS, 16, child.pid);
    process.stdout.write(
      `${KIND.toUpperCase()} ${m.rps.toFixed(0)} req/s under the profiler, ` +
        `server CPU ${m.cpuPerRequest} µs/request (${m.requests} requests)\n`,
    );
  } finally {
    await stop(child);
  }
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no profile written in ${dir}`);
  report(JSON.parse(readFileSync(join(dir, file), 'utf8')).nodes as ProfileNode[]);
  process.stdout.write(`\nprofile: ${join(dir, file)}\n`);
  if (process.env.PROFILE_KEEP === undefined) rmSync(join(dir, 'livery.db'), { force: true });
}

/** Where a sample's function lives: a package, Livery's own file, or Node/V8 itself. */
function owner(url: string): string {
  if (url === '') return '(V8: gc, idle, program, native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg !== undefined) return pkg;
  if (url.startsWith('node:')) return 'node internals';
  return relative(ROOT, url.replace(/^file:\/\//, ''));
}

function report(nodes: ProfileNode[]): void {
  const total = nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'}  ${owner(url)}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    const who = owner(url);
    byOwner.set(who, (byOwner.get(who) ?? 0) + hits);
  }
  const print = (title: string, map: Map<string, number>, limit: number) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, hits] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
      process.stdout.write(`  ${((100 * hits) / total).toFixed(1).padStart(5)}%  ${key}\n`);
    }
  };
  print('Self time by owner', byOwner, 25);
  print('Self time by function', byFunction, 30);
}

await main();
