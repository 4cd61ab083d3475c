import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  adminQuery,
  buildLivery,
  CONNECTIONS,
  DURATION,
  type Measure,
  machine,
  measure,
  median,
  patchLoad,
  postgresTarget,
  ROOT,
  ROUNDS,
  schemaUrl,
  seed,
  startLivery,
  stop,
} from './lib.js';

/**
 * `npm run bench:patch [-- <other checkout>]`: PATCH of a variant's override on PostgreSQL
 * (`synchronous_commit=on`), the write path of issue 16's target (≥ 1,000/s on one variant).
 *
 *   PATCH         every request to one variant (one row), a new value each time;
 *   PATCH spread  each request to the next of 16 variants of the site.
 *
 * With another checkout (built there with `npm run build`; e.g. `git archive HEAD | tar -x -C
 * /tmp/before`, `ln -s $PWD/node_modules /tmp/before/`, `(cd /tmp/before && npm run build)`),
 * its server runs beside this one's, on the same database, and the rounds alternate between them
 * so that machine noise hits both alike.
 *
 * The servers run on a database of their own, created for the run and dropped after it. After
 * the last round every variant's `override_version` (one per committed write) is compared with
 * the 2xx answers received: no acknowledged write may be missing.
 */

const other = process.argv[2];
const SPREAD = 16;

interface Server {
  name: string;
  pid: number | undefined;
  schema: string;
  patchPath: string;
  spreadPaths: string[];
  origin: string;
  acknowledged: number;
}

/** bench/lib.ts `seed` PATCHes two variants once each: two versions before the first round. */
const SEED_VERSIONS = 2;

// A new value every request, so every PATCH really writes (and is made durable).
const patchOptions = (origin: string, paths: string[]) =>
  patchLoad(origin, paths, (n) => ({ footer: { copyright: `c ${n}` } }));

async function main(): Promise<void> {
  const postgres = await postgresTarget();
  if (!postgres.ok) throw new Error(`PostgreSQL unreachable: ${postgres.reason}`);
  buildLivery();
  const database = `livery_patch_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(postgres.url, `create database ${database}`);
  const databaseUrl = new URL(postgres.url);
  databaseUrl.pathname = `/${database}`;
  const { rows } = await adminQuery(databaseUrl.toString(), 'show synchronous_commit');
  const dir = mkdtempSync(join(tmpdir(), 'livery-patch-'));
  const children: ChildProcess[] = [];
  const entries: [string, string][] = [['this', join(ROOT, 'dist', 'server.js')]];
  if (other !== undefined) entries.push(['other', join(resolve(other), 'dist', 'server.js')]);
  try {
    const servers: Server[] = [];
    for (const [name, entry] of entries) {
      const fresh = schemaUrl(databaseUrl.toString(), `patch_${name}`);
      const { base, child } = await startLivery(
        children,
        fresh.url,
        join(dir, `${name}.log`),
        {},
        [],
        entry,
      );
      const seeded = await seed(base, SPREAD);
      servers.push({
        name,
        pid: child.pid,
        schema: fresh.schema,
        origin: base,
        patchPath: new URL(seeded.patchUrl).pathname,
        spreadPaths: seeded.spreadPaths,
        acknowledged: 0,
      });
    }
    const targets = servers.flatMap((server) => [
      {
        server,
        name: `PATCH ${server.name}`,
        options: patchOptions(server.origin, [server.patchPath]),
      },
      {
        server,
        name: `PATCH spread ${server.name}`,
        options: patchOptions(server.origin, server.spreadPaths),
      },
    ]);
    process.stdout.write(
      `PATCH on PostgreSQL ${postgres.version} (synchronous_commit=${rows[0]?.synchronous_commit}): ` +
        `${ROUNDS} rounds x ${DURATION}s per target, ${CONNECTIONS} connections, ${machine()}\n`,
    );
    for (const target of targets) {
      const warm = await measure(target.options, Math.min(2, DURATION), CONNECTIONS);
      target.server.acknowledged += warm.requests - warm.non2xx;
    }
    const results = new Map<string, Measure[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        const m = await measure(target.options, DURATION, CONNECTIONS, target.server.pid);
        target.server.acknowledged += m.requests - m.non2xx;
        results.get(target.name)?.push(m);
        process.stdout.write(
          `  round ${round} ${target.name.padEnd(18)} ${m.rps.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${m.cpuPerRequest} µs/req` +
            `${m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}\n`,
        );
      }
    }
    process.stdout.write(
      '\n| target | req/s (median) | p50 ms | p99 ms | server CPU µs/request |\n|---|---|---|---|---|\n',
    );
    for (const [name, list] of results) {
      const of = (pick: (m: Measure) => number) => median(list.map(pick));
      const failures = list.reduce((n, m) => n + m.non2xx + m.errors, 0);
      process.stdout.write(
        `| ${name} | ${of((m) => m.rps).toFixed(0)} | ${of((m) => m.p50)} | ${of((m) => m.p99)} | ` +
          `${of((m) => m.cpuPerRequest).toFixed(0)} |` +
          `${failures > 0 ? ` ${failures} FAILED requests` : ''}\n`,
      );
      if (failures > 0) process.exitCode = 1;
    }
    process.stdout.write('\n');
    for (const server of servers) {
      const stored = await adminQuery(
        databaseUrl.toString(),
        `select coalesce(sum(override_version), 0)::int as n from "${server.schema}".site_spaces`,
      );
      const committed = Number(stored.rows[0]?.n) - SEED_VERSIONS;
      // Requests still in flight when a run stopped may have committed unanswered: committed
      // can exceed acknowledged, never fall short of it.
      const ok = committed >= server.acknowledged;
      process.stdout.write(
        `${server.name}: ${server.acknowledged} PATCHes acknowledged (2xx), ${committed} committed: ` +
          `${ok ? 'every acknowledged write is stored' : 'ACKNOWLEDGED WRITES MISSING'}\n`,
      );
      if (!ok) process.exitCode = 1;
    }
    const mine = median((results.get('PATCH this') ?? []).map((m) => m.rps));
    process.stdout.write(
      `\nTarget: PATCH postgres, one variant, >= 1,000 req/s: ${mine.toFixed(0)} req/s: ${mine >= 1000 ? 'met' : 'NOT MET'}\n`,
    );
  } finally {
    for (const child of children) await stop(child);
    rmSync(dir, { recursive: true, force: true });
    await adminQuery(postgres.url, `drop database if exists ${database} with (force)`);
  }
}

await main();
