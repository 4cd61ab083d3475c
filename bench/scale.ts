import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { type Db, openDatabase } from '../src/db/database.js';
import { CustomizationRepository } from '../src/modules/customization/repository.js';
import { IdentityRepository } from '../src/modules/identity/repository.js';
import { hashToken } from '../src/modules/identity/tokens.js';
import { PublishedRepository } from '../src/modules/published/repository.js';
import { SitesRepository } from '../src/modules/sites/repository.js';
import {
  buildLivery,
  dropSchema,
  type Measure,
  machine,
  measure,
  postgresTarget,
  ROOT,
  schemaUrl,
  startLivery,
  stop,
  TOKEN,
} from './lib.js';

/**
 * `npm run bench:scale`: do the customization read and the URL lookup of GitBook's renderer stay
 * flat from 100 to 100,000 sites?
 *
 * For each backend (SQLite: a temporary file; PostgreSQL: a fresh schema, dropped afterwards, of
 * BENCH_DATABASE_URL / TEST_DATABASE_URL / the local server) and each size (SCALE_SITES, default
 * 100 and 100000; SCALE_VARIANTS variants each, default 5):
 *   1. `scripts/seed.ts` fills the database (timed);
 *   2. direct lookups: the repository's own variant read, without Livery's caches, for random
 *      site-spaces, one after another: microseconds per query;
 *   3. a real server process (src/server.ts, LOG_LEVEL=warn) under autocannon: GET effective
 *      customization of a random site-space of the whole seeded set on every request (so the
 *      in-memory caches, 10,000 entries, cannot hold the working set at 100,000 sites), and the
 *      first page of the site listing; and POST /v1/urls/published of a random site's page;
 *   4. at the largest size, the plans of the hot queries, as Livery's repositories compile them:
 *      EXPLAIN QUERY PLAN (SQLite), EXPLAIN (ANALYZE, BUFFERS) (PostgreSQL).
 * Prints a table and the plans (markdown, for docs/BENCHMARKS.md).
 */

const SIZES = (process.env.SCALE_SITES ?? '100,100000').split(',').map(Number);
const VARIANTS = Number(process.env.SCALE_VARIANTS ?? 5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LOOKUPS = Number(process.env.SCALE_LOOKUPS ?? 20_000);
/** Site-spaces of the hot-set measurement: 100 sites x 5 variants, the small size's all. */
const HOT = 500;

type Backend = 'sqlite' | 'postgres';

interface Row {
  backend: Backend;
  sites: number;
  rows: number;
  seedSeconds: number;
  lookup: { p50: number; p99: number };
  get: Measure;
  /** GET of a random one of HOT site-spaces (when there are more). */
  hot: Measure | undefined;
  list: Measure;
  /** POST /v1/urls/published of a random site's page (GitBook's renderer's lookup). */
  urlLookup: Measure;
  /** The same, of a random one of the smallest size's number of sites (when there are more). */
  hotLookup: Measure | undefined;
}

interface Plan {
  backend: Backend;
  name: string;
  sql: string;
  plan: string;
  scans: string[];
}

async function main(): Promise<void> {
  buildLivery(); // the servers run the compiled code, as `npm start` does
  const postgres = await postgresTarget();
  const backends: Backend[] = ['sqlite'];
  if (postgres.ok) backends.push('postgres');
  else {
    process.stdout.write(
      `\n${'!'.repeat(100)}\n!! PostgreSQL NOT MEASURED: unreachable (${postgres.reason}).\n` +
        `!! Set BENCH_DATABASE_URL=postgres://… to measure it.\n${'!'.repeat(100)}\n\n`,
    );
    if (postgres.explicit) process.exitCode = 1;
  }
  process.stdout.write(
    `Scale benchmark: ${SIZES.join(' and ')} sites x ${VARIANTS} variants, ${DURATION}s per ` +
      `target, ${CONNECTIONS} connections, ${machine()}` +
      `${postgres.ok ? `, PostgreSQL ${postgres.version}` : ''}\n`,
  );
  const rows: Row[] = [];
  const plans: Plan[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'livery-scale-'));
  const children: ChildProcess[] = [];
  try {
    for (const backend of backends) {
      for (const sites of SIZES) {
        let url: string;
        let drop = async () => {};
        if (backend === 'sqlite') {
          const file = join(dir, `scale-${sites}.db`);
          url = `sqlite:${file}`;
          drop = async () => {
            for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
          };
        } else if (postgres.ok) {
          const fresh = schemaUrl(postgres.url, `scale_${sites}`);
          url = fresh.url;
          drop = () => dropSchema(postgres.url, fresh.schema);
        } else continue;
        try {
          process.stdout.write(`\n== ${backend}, ${sites} sites ==\n`);
          const seeded = await seed(url, sites);
          const db = openDatabase(loadConfig({ DATABASE_URL: url }).database);
          let paths: string[];
          let lookup: { p50: number; p99: number };
          try {
            const ids = await db
              .selectFrom('site_spaces as ss')
              .innerJoin('sites as s', 's.id', 'ss.site_id')
              .select(['s.id as site_id', 'ss.id as id'])
              .where('s.organization_id', '=', seeded.organizationId)
              .execute();
            paths = ids.map(
              (r) =>
                `/v1/orgs/${seeded.organizationId}/sites/${r.site_id}/site-spaces/${r.id}/customization`,
            );
            lookup = await directLookups(db, seeded.organizationId, ids);
            process.stdout.write(
              `  direct variant read, ${LOOKUPS} random: p50 ${lookup.p50} µs, p99 ${lookup.p99} µs\n`,
            );
            if (sites === Math.max(...SIZES)) {
              plans.push(...(await explain(db, backend, url, seeded.organizationId, ids)));
            }
          } finally {
            await db.destroy();
          }
          const { base, child } = await startLivery(
            children,
            url,
            join(dir, `${backend}-${sites}.log`),
            { LOG_LEVEL: 'warn' },
          );
          const headers = { authorization: `Bearer ${TOKEN}` };
          const randomOf = (from: string[]): autocannon.Request => ({
            method: 'GET',
            headers,
            setupRequest: (request) => ({
              ...request,
              path: from[Math.floor(Math.random() * from.length)] ?? '/',
            }),
          });
          const random = randomOf(paths);
          await measure({ url: base, requests: [random] }, Math.min(3, DURATION), CONNECTIONS);
          const get = await measure(
            { url: base, requests: [random] },
            DURATION,
            CONNECTIONS,
            child.pid,
          );
          print('GET random site-space', get);
          // The smallest size's working set, drawn from the large database: the caches hold it
          // as they hold all of the small one, so only the size of the database differs.
          let hot: Measure | undefined;
          if (paths.length > HOT) {
            const subset = Array.from(
              { length: HOT },
              () => paths[Math.floor(Math.random() * paths.length)] ?? '/',
            );
            await measure({ url: base, requests: [randomOf(subset)] }, 2, CONNECTIONS);
            hot = await measure(
              { url: base, requests: [randomOf(subset)] },
              DURATION,
              CONNECTIONS,
              child.pid,
            );
            print(`GET random of ${HOT} site-spaces`, hot);
          }
          const list = await measure(
            { url: `${base}/v1/orgs/${seeded.organizationId}/sites`, headers },
            Math.max(2, DURATION / 2),
            CONNECTIONS,
            child.pid,
          );
          print('GET sites (first page of 100)', list);
          const sitesSeeded = [...new Set(paths.map((p) => p.split('/')[5] ?? ''))];
          const lookupOf = (from: string[]): autocannon.Request => ({
            method: 'POST',
            path: '/v1/urls/published',
            headers: { ...headers, 'content-type': 'application/json' },
            setupRequest: (request) => {
              const siteId = from[Math.floor(Math.random() * from.length)] ?? '';
              const url = `${base}/s/p-${siteId.slice('site_'.length)}/getting-started`;
              return { ...request, body: JSON.stringify({ url }) };
            },
          });
          const lookupRequest = lookupOf(sitesSeeded);
          await measure({ url: base, requests: [lookupRequest] }, 2, CONNECTIONS);
          const urlLookup = await measure(
            { url: base, requests: [lookupRequest] },
            DURATION,
            CONNECTIONS,
            child.pid,
          );
          print('POST urls/published random site', urlLookup);
          // The smallest size's working set (its number of sites), drawn from the large one.
          let hotLookup: Measure | undefined;
          if (sitesSeeded.length > HOT / VARIANTS) {
            const subset = sitesSeeded.slice(0, HOT / VARIANTS);
            const hotRequest = lookupOf(subset);
            await measure({ url: base, requests: [hotRequest] }, 2, CONNECTIONS);
            hotLookup = await measure(
              { url: base, requests: [hotRequest] },
              DURATION,
              CONNECTIONS,
              child.pid,
            );
            print(`POST urls/published of ${subset.length} sites`, hotLookup);
          }
          await stop(child);
          rows.push({
            backend,
            sites,
            rows: seeded.rows,
            seedSeconds: seeded.seconds,
            lookup,
            get,
            hot,
            list,
            urlLookup,
            hotLookup,
          });
        } finally {
          await drop();
        }
      }
    }
  } finally {
    for (const child of children) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
  report(rows, plans, postgres.ok ? undefined : postgres.reason);
}

function print(what: string, m: Measure): void {
  process.stdout.write(
    `  ${what.padEnd(30)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  ` +
      `RSS ${m.rssPeak.toFixed(0)} MiB (VmHWM ${m.hwm.toFixed(0)})` +
      `${m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}\n`,
  );
}

/** Runs scripts/seed.ts as `npm run seed` would; returns its `seed-result`. */
async function seed(databaseUrl: string, sites: number) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/seed.ts',
      '--sites',
      String(sites),
      '--variants',
      String(VARIANTS),
      '--token',
      TOKEN,
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    for (const line of chunk.split('\n')) {
      if (/^\s+\d+\/\d+ sites|rows in/.test(line)) process.stdout.write(`  seed: ${line.trim()}\n`);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = /^seed-result (.*)$/m.exec(output)?.[1];
  if (code !== 0 || line === undefined) throw new Error(`seed failed (exit ${code}):\n${output}`);
  return JSON.parse(line) as { organizationId: string; rows: number; seconds: number };
}

/** A Kysely instance without Livery's caches whose executed queries are recorded. */
function recording(db: Db): { db: Db; queries: CompiledQuery[] } {
  const passThrough: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => args.result,
  };
  // A new instance: db/database.ts knows no generation for it, so prepareCached never caches.
  const uncached = db.withPlugin(passThrough);
  const queries: CompiledQuery[] = [];
  const executor = uncached.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = ((query: CompiledQuery, ...rest: unknown[]) => {
    queries.push(query);
    return (execute as (...args: unknown[]) => ReturnType<typeof execute>)(query, ...rest);
  }) as typeof executor.executeQuery;
  return { db: uncached, queries };
}

/** The repository's variant read for random site-spaces, uncached, one at a time. */
async function directLookups(
  db: Db,
  organizationId: string,
  ids: { site_id: string; id: string }[],
): Promise<{ p50: number; p99: number }> {
  const repo = new CustomizationRepository(recording(db).db);
  const times = new Float64Array(LOOKUPS);
  for (let i = -1_000; i < LOOKUPS; i++) {
    const pick = ids[Math.floor(Math.random() * ids.length)];
    if (pick === undefined) break;
    const started = performance.now();
    const record = await repo.readVariant(organizationId, pick.site_id, pick.id);
    if (i >= 0) times[i] = (performance.now() - started) * 1000;
    if (record === undefined) throw new Error(`variant ${pick.id} not found`);
  }
  times.sort();
  return {
    p50: Math.round(times[Math.floor(LOOKUPS * 0.5)] ?? Number.NaN),
    p99: Math.round(times[Math.floor(LOOKUPS * 0.99)] ?? Number.NaN),
  };
}

/** The hot queries as the repositories run them, and their plans. */
async function explain(
  db: Db,
  backend: Backend,
  url: string,
  organizationId: string,
  ids: { site_id: string; id: string }[],
): Promise<Plan[]> {
  const middle = ids[Math.floor(ids.length / 2)] ?? { site_id: '', id: '' };
  const captured: { name: string; query: CompiledQuery }[] = [];
  const capture = async (name: string, run: (db: Db) => Promise<unknown>) => {
    const { db: recorder, queries } = recording(db);
    await run(recorder);
    queries.forEach((query, i) => {
      captured.push({
        name: queries.length > 1 ? `${name} (${i + 1}/${queries.length})` : name,
        query,
      });
    });
  };
  await capture('token lookup', (r) =>
    new IdentityRepository(r).findActiveToken(hashToken(TOKEN), organizationId),
  );
  await capture('variant customization read', (r) =>
    new CustomizationRepository(r).readVariant(organizationId, middle.site_id, middle.id),
  );
  const basename = `p-${middle.site_id.slice('site_'.length)}`;
  await capture('URL lookup: site by address', (r) =>
    new PublishedRepository(r).siteByAddress(basename),
  );
  await capture('URL lookup: variants of the site', (r) =>
    new PublishedRepository(r).variantsOf(middle.site_id),
  );
  await capture('site listing, first page', (r) =>
    new SitesRepository(r).listSites(organizationId, {}, { cursor: undefined, limit: 100 }),
  );
  const site = await db
    .selectFrom('sites')
    .select(['created_at', 'id'])
    .where('id', '=', middle.site_id)
    .executeTakeFirstOrThrow();
  await capture('site listing, a page in the middle', async (r) => {
    const { rows } = await new SitesRepository(r).listSites(
      organizationId,
      {},
      { cursor: { key: site.created_at, id: site.id }, limit: 100 },
    );
    return rows;
  });

  const plans: Plan[] = [];
  if (backend === 'sqlite') {
    const config = loadConfig({ DATABASE_URL: url }).database;
    const file = config.dialect === 'sqlite' ? config.filename : '';
    const sqlite = new SQLite(file, { readonly: true });
    try {
      for (const { name, query } of captured) {
        const steps = sqlite
          .prepare(`explain query plan ${query.sql}`)
          .all(...(query.parameters as unknown[])) as {
          id: number;
          parent: number;
          detail: string;
        }[];
        const depth = new Map<number, number>([[0, 0]]);
        const lines = steps.map((s) => {
          const d = (depth.get(s.parent) ?? 0) + 1;
          depth.set(s.id, d);
          return `${'  '.repeat(d - 1)}${s.detail}`;
        });
        plans.push({
          backend,
          name,
          sql: query.sql,
          plan: lines.join('\n'),
          // A SCAN of a table (not of the rows an index search found) reads the whole table.
          scans: lines.filter((l) => /^\s*SCAN /.test(l)),
        });
      }
    } finally {
      sqlite.close();
    }
  } else {
    const config = loadConfig({ DATABASE_URL: url }).database;
    if (config.dialect !== 'postgres') throw new Error('not a PostgreSQL URL');
    const client = new pg.Client({
      connectionString: config.connectionString,
      options: `-c search_path=${config.schema}`,
    });
    await client.connect();
    try {
      for (const { name, query } of captured) {
        const run = async () => {
          // Twice: the first run warms the buffers and the plan cache, as on a running server.
          await client.query(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]);
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(
            `explain (analyze, buffers) ${query.sql}`,
            [...query.parameters],
          );
          return rows.map((r) => r['QUERY PLAN']);
        };
        const lines = await run();
        const scans = lines.filter((l) => /Seq Scan/.test(l));
        plans.push({ backend, name, sql: query.sql, plan: lines.join('\n'), scans });
        if (scans.length > 0) {
          // A sequential scan of a table of a row or two is the planner's best choice; show that
          // the index is there and what the plan costs with it.
          await client.query('set enable_seqscan = off');
          const forced = await run();
          await client.query('reset enable_seqscan');
          plans.push({
            backend,
            name: `${name}, with enable_seqscan = off`,
            sql: query.sql,
            plan: forced.join('\n'),
            scans: forced.filter((l) => /Seq Scan/.test(l)),
          });
        }
      }
    } finally {
      await client.end();
    }
  }
  return plans;
}

function report(rows: Row[], plans: Plan[], postgresMissing?: string): void {
  process.stdout.write(
    `\n| backend | sites | rows seeded | seed s (rows/s) | direct read p50 / p99 µs | GET random site-space req/s | p50 ms | p99 ms | GET random of ${HOT} req/s | p50 ms | p99 ms | GET sites (100) req/s | p50 ms | p99 ms | POST urls/published req/s | p50 ms | p99 ms | server VmHWM MiB |\n` +
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const r of rows) {
    process.stdout.write(
      `| ${r.backend} | ${r.sites} | ${r.rows} | ${r.seedSeconds.toFixed(1)} (${Math.round(r.rows / r.seedSeconds)}) | ` +
        `${r.lookup.p50} / ${r.lookup.p99} | ${r.get.rps.toFixed(0)} | ${r.get.p50} | ${r.get.p99} | ` +
        `${r.hot === undefined ? '(all) | | ' : `${r.hot.rps.toFixed(0)} | ${r.hot.p50} | ${r.hot.p99}`} | ` +
        `${r.list.rps.toFixed(0)} | ${r.list.p50} | ${r.list.p99} | ` +
        `${r.urlLookup.rps.toFixed(0)} | ${r.urlLookup.p50} | ${r.urlLookup.p99} | ` +
        `${Math.max(r.get.hwm, r.list.hwm, r.hot?.hwm ?? 0, r.urlLookup.hwm).toFixed(0)} |` +
        `${r.get.non2xx + r.get.errors + r.list.non2xx + r.list.errors + r.urlLookup.non2xx + r.urlLookup.errors > 0 ? ' FAILED requests' : ''}\n`,
    );
  }
  if (postgresMissing !== undefined) {
    process.stdout.write(`| postgres | NOT MEASURED: ${postgresMissing} |\n`);
  }
  process.stdout.write('\nLargest / smallest size:\n');
  const backends = [...new Set(rows.map((r) => r.backend))];
  for (const backend of backends) {
    const mine = rows.filter((r) => r.backend === backend).sort((a, b) => a.sites - b.sites);
    const small = mine[0];
    const large = mine[mine.length - 1];
    if (small === undefined || large === undefined || small === large) continue;
    const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    process.stdout.write(
      `  ${backend}: direct read p50 ${x(large.lookup.p50, small.lookup.p50)}, ` +
        `GET req/s ${x(large.get.rps, small.get.rps)}, GET p50 ${x(large.get.p50, small.get.p50)}, ` +
        `GET p99 ${x(large.get.p99, small.get.p99)}` +
        `${large.hot === undefined ? '' : `, GET of ${HOT} (same working set as ${small.sites} sites) req/s ${x(large.hot.rps, small.get.rps)} p50 ${x(large.hot.p50, small.get.p50)}`}` +
        `, listing req/s ${x(large.list.rps, small.list.rps)}` +
        `, urls/published req/s ${x(large.urlLookup.rps, small.urlLookup.rps)} p99 ${x(large.urlLookup.p99, small.urlLookup.p99)}` +
        `${large.hotLookup === undefined ? '' : `, urls/published of ${HOT / VARIANTS} sites req/s ${x(large.hotLookup.rps, small.urlLookup.rps)} p99 ${x(large.hotLookup.p99, small.urlLookup.p99)}`}\n`,
    );
  }
  process.stdout.write('\nPlans of the hot queries at the largest size:\n');
  for (const p of plans) {
    process.stdout.write(
      `\n#### ${p.backend}: ${p.name}${p.scans.length > 0 ? `  (FULL SCAN: ${p.scans.map((s) => s.trim()).join('; ')})` : ''}\n\n` +
        `\`\`\`sql\n${p.sql}\n\`\`\`\n\n\`\`\`\n${p.plan}\n\`\`\`\n`,
    );
  }
}

await main();
