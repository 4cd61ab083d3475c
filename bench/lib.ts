import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureSiteAssets } from '../scripts/build-site-assets.js';
import { startCommand, TSC } from '../scripts/start-command.js';

/** What bench/run.ts and bench/scale.ts share: processes, measurement, PostgreSQL schemas. */

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const TOKEN = 'gb_benchmark-token-0123456789abcdef';

/** Rounds per target, seconds per round and connections (BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS). */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const MIB = 1024 * 1024;

/**
 * Where the processes run. On a machine with at least two CPUs (and `taskset`, util-linux), every
 * server a benchmark starts runs on CPU 0 and the benchmark's own process, autocannon included
 * (it runs in this process, no workers), on CPU 1: the load generator then takes nothing from
 * the server's CPU, and the ceiling measures the server, not the client. BENCH_PIN=0 turns it
 * off. On one CPU nothing is pinned and the report says so. The database server (PostgreSQL) is
 * not ours to pin: it runs wherever the kernel puts it.
 */
export const PINNED: boolean = pinning();

function pinning(): boolean {
  if (process.env.BENCH_PIN === '0' || cpus().length < 2) return false;
  if (spawnSync('taskset', ['-V']).status !== 0) return false;
  // -a: every thread of this process (libuv's pool, V8's); the children it spawns inherit it.
  const self = spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
  return self.status === 0;
}

/** How the run was placed, for the report header. */
export function placement(): string {
  return PINNED
    ? 'servers pinned to CPU 0, load generator to CPU 1 (taskset)'
    : `NOT PINNED (${cpus().length < 2 ? 'one CPU' : process.env.BENCH_PIN === '0' ? 'BENCH_PIN=0' : 'no taskset'}): the load generator shares the server's CPU`;
}

export interface Measure {
  rps: number;
  /** Latency percentiles in ms, from every 2xx response (autocannon's own are whole ms). */
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Highest VmRSS sampled (every 100 ms) during the run, MiB; NaN without a pid. */
  rssPeak: number;
  /** VmHWM (the process's peak RSS since it started) at the end of the run, MiB. */
  hwm: number;
  /**
   * The server's CPU time (user + system, from /proc/<pid>/stat) per completed request, µs: what
   * a request costs the server, much less sensitive than req/s to what else the machine does.
   * NaN without a pid.
   */
  cpuPerRequest: number;
}

/**
 * One autocannon run. Latencies are recorded from autocannon's `response` events with
 * sub-millisecond precision; the server's memory is sampled from /proc/<pid>/status meanwhile.
 */
export async function measure(
  options: autocannon.Options,
  duration: number,
  connections: number,
  pid?: number,
): Promise<Measure> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let rssPeak = Number.NaN;
  const sample = () => {
    if (pid === undefined) return;
    const rss = memoryOf(pid).rss;
    if (!(rss <= rssPeak)) rssPeak = rss;
  };
  sample();
  const cpuBefore = pid === undefined ? Number.NaN : cpuSecondsOf(pid);
  const sampler = setInterval(sample, 100);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections, ...options, duration }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode >= 300) return;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
    });
  });
  clearInterval(sampler);
  sample();
  const cpu = pid === undefined ? Number.NaN : cpuSecondsOf(pid) - cpuBefore;
  const sorted = latencies.subarray(0, count).sort();
  const at = (q: number) => sorted[Math.min(count - 1, Math.floor(q * count))] ?? Number.NaN;
  return {
    rps: result.requests.average,
    p50: round2(at(0.5)),
    p99: round2(at(0.99)),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    rssPeak,
    hwm: pid === undefined ? Number.NaN : memoryOf(pid).hwm,
    cpuPerRequest: round2((cpu * 1e6) / result.requests.total),
  };
}

/** User + system CPU time of a process so far, in seconds (clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name (which may contain spaces): state is field 3, utime 14.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** VmRSS and VmHWM of a process, in MiB (NaN once it is gone). */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rss: (kib('VmRSS') * 1024) / MIB, hwm: (kib('VmHWM') * 1024) / MIB };
  } catch {
    return { rss: Number.NaN, hwm: Number.NaN };
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a process with its output in a log file; resolves once `ready` says so. */
export async function start(
  children: ChildProcess[],
  args: string[],
  env: Record<string, string>,
  ready: () => Promise<boolean>,
  logFile: string,
): Promise<ChildProcess> {
  ensureSiteAssets(); // the server reads the published site's built script and stylesheet
  const log = openSync(logFile, 'w');
  // taskset execs node in place: the child's pid is the server's, for its /proc figures.
  const command = PINNED ? 'taskset' : process.execPath;
  const argv = PINNED ? ['-c', '0', process.execPath, ...args] : args;
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', log, log],
  });
  children.push(child);
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (await ready()) return child;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${args.join(' ')} did not start:\n${readFileSync(logFile, 'utf8')}`);
}

/**
 * A Livery server process as `npm start` runs it (`dist/server.js`, compiled by `buildLivery`)
 * on a free port; resolves once /healthz answers.
 */
export async function startLivery(
  children: ChildProcess[],
  databaseUrl: string,
  logFile: string,
  extraEnv: Record<string, string> = {},
  /** node flags before npm start's own, e.g. --cpu-prof (not allowed in NODE_OPTIONS). */
  nodeFlags: string[] = [],
  /** The server to run with npm start's flags: this checkout's dist/server.js by default. */
  entry?: string,
): Promise<{ base: string; child: ChildProcess }> {
  const nodeArgs = startCommand().nodeArgs;
  if (entry !== undefined) nodeArgs.splice(-1, 1, entry);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await start(
    children,
    [...nodeFlags, ...nodeArgs],
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LIVERY_BOOTSTRAP_TOKEN: TOKEN,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      // One token sends every request: the per-token limit (docs/operations.md) stays in the
      // path, as in production, but high enough never to answer 429.
      RATE_LIMIT_PER_MINUTE: '1000000000',
      // e.g. BENCH_NODE_OPTIONS=--max-semi-space-size=4 to see what V8's heap sizing costs.
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      ...extraEnv,
    },
    async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok === true,
    logFile,
  );
  return { base, child };
}

/** The build step of `npm start` (`npm run build`). */
export function buildLivery(): void {
  const result = spawnSync(process.execPath, [TSC, ...startCommand().tscArgs], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status})`);
}

/**
 * Seeds a fresh Livery through its API: a site with a realistic customization (header links,
 * footer groups, announcement, logo) and 2 + `spread` variants. GET reads the first; PATCH and
 * mixed write the second, so that the GET body stays the bytes the ceiling and the Fastify
 * reference answer; the `spread` others are for the PATCH target that spreads its writes.
 */
export async function seed(base: string, spread: number) {
  const call = (method: string, path: string, body?: unknown) => apiCall(base, method, path, body);
  const orgs = (await call('GET', '/v1/orgs')) as { items: { id: string }[] };
  const orgId = orgs.items[0]?.id ?? '';
  const site = await call('POST', `/v1/orgs/${orgId}/sites`, {
    title: 'Benchmark',
    spaces: 'empty',
  });
  const siteBase = `/v1/orgs/${orgId}/sites/${String(site.id)}`;
  const variants: Record<string, unknown>[] = [];
  for (let i = 0; i < 2 + spread; i++) {
    const space = await call('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Deutsch' });
    variants.push(await call('POST', `${siteBase}/site-spaces`, { spaceId: space.id }));
  }
  const link = (title: string) => ({
    title,
    to: { kind: 'url', url: `https://example.com/${title}` },
  });
  await call('PUT', `${siteBase}/customization`, {
    title: 'Benchmark docs',
    styling: { primaryColor: { light: '#0b5fff', dark: '#7aa7ff' }, corners: 'circular' },
    favicon: { emoji: '📘' },
    header: {
      logo: { light: 'https://example.com/logo.svg', dark: 'https://example.com/logo-dark.svg' },
      links: [
        { ...link('Guides'), links: [link('Start'), link('Install')] },
        { ...link('API'), style: 'button-primary', links: [] },
      ],
    },
    footer: {
      groups: [{ title: 'Product', links: [link('Pricing'), link('Changelog')] }],
      copyright: '© Benchmark',
    },
    announcement: { enabled: true, message: 'Version 2 is out', style: 'info', link: link('v2') },
  });
  const [getUrl, patchUrl, ...spreadUrls] = variants.map(
    (variant) => `${base}${siteBase}/site-spaces/${String(variant.id)}/customization`,
  ) as [string, string, ...string[]];
  for (const url of [getUrl, patchUrl]) {
    await call('PATCH', url.slice(base.length), {
      title: 'Benchmark-Doku',
      internationalization: { locale: 'de' },
    });
  }
  const res = await fetch(getUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
  return {
    getUrl,
    patchUrl,
    spreadPaths: spreadUrls.map((u) => new URL(u).pathname),
    body: await res.text(),
  };
}

/** What GitBook's renderer's fetch sends besides its token (Node's fetch: undici's default). */
export const RENDERER_HEADERS = { 'accept-encoding': 'gzip, deflate' } as const;

/**
 * What GitBook's renderer reads of the seeded site (`getUrl`'s variant): the site is given the
 * basename `bench` and published; answers the URL lookup's request body, the published view's
 * URL and a function that looks the URL up for a fresh site token.
 */
export async function rendererReads(base: string, getUrl: string) {
  const variant = new URL(getUrl).pathname.replace(/\/customization$/, '');
  const siteBase = variant.replace(/\/site-spaces\/[^/]+$/, '');
  const listed = (await apiCall(base, 'GET', `${siteBase}/site-spaces?limit=100`)) as {
    items: { id: string; path: string; default: boolean }[];
  };
  const path = listed.items.find((item) => variant.endsWith(`/${item.id}`));
  if (path === undefined) throw new Error(`no site-space ${variant}`);
  await apiCall(base, 'PATCH', siteBase, { basename: 'bench' });
  await apiCall(base, 'POST', `${siteBase}/publish`);
  const lookupBody = JSON.stringify({
    url: `${base}/s/bench/${path.default ? '' : `${path.path}/`}getting-started/install`,
    visitor: { type: 'human' },
    redirectOnError: false,
  });
  const siteToken = async () =>
    (
      (await apiCall(base, 'POST', '/v1/urls/published', JSON.parse(lookupBody))) as {
        apiToken: string;
      }
    ).apiToken;
  return { lookupBody, publishedUrl: `${base}${siteBase}/published`, siteToken };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The machine, for the report header. */
export function machine(): string {
  return `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${placement()}`;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

export type PostgresTarget =
  | { ok: true; url: string; version: string }
  | { ok: false; url: string; reason: string; explicit: boolean };

/**
 * The PostgreSQL to measure: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server
 * (postgres://postgres@127.0.0.1:5432/test). Unreachable: `ok: false` with the reason, which the
 * caller reports as NOT MEASURED.
 */
export async function postgresTarget(): Promise<PostgresTarget> {
  const explicit = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
  const url = explicit ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: plain(url), connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>(
      "select current_setting('server_version') as v",
    );
    return { ok: true, url, version: rows[0]?.v ?? '?' };
  } catch (error) {
    const reason = error instanceof Error ? error.message || String(error) : String(error);
    return { ok: false, url, reason, explicit: explicit !== undefined };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs statements on the target's database, outside Livery (own connection). */
export async function adminQuery(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: plain(url) });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** The URL without Livery's own `schema` parameter, for `pg` itself. */
function plain(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  return parsed.toString();
}

/** A fresh schema name and Livery's DATABASE_URL for it (Livery creates it at start-up). */
export function schemaUrl(base: string, prefix: string): { url: string; schema: string } {
  const schema = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return { url: url.toString(), schema };
}

export async function dropSchema(base: string, schema: string): Promise<void> {
  await adminQuery(base, `drop schema if exists "${schema}" cascade`);
}

/** One load target of a comparison: its `baseline <backend>` target is the reference. */
export interface ComparedTarget {
  name: string;
  backend: string;
  options: autocannon.Options;
  pid?: number;
}

/**
 * Measures every target for ROUNDS rounds (interleaved, so a noisy moment hits all alike) and
 * prints a table of medians with each target's throughput as a share of `baseline <backend>`.
 * Failed requests fail the run.
 */
export async function compareTargets(
  title: string,
  targets: ComparedTarget[],
): Promise<Map<string, Measure[]>> {
  process.stdout.write(
    `${title}: ${ROUNDS} rounds x ${DURATION}s per target, ${CONNECTIONS} connections, ${machine()}\n`,
  );
  for (const target of targets) await measure(target.options, Math.min(2, DURATION), CONNECTIONS);
  const results = new Map<string, Measure[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const m = await measure(target.options, DURATION, CONNECTIONS, target.pid);
      results.get(target.name)?.push(m);
      process.stdout.write(
        `  round ${round} ${target.name.padEnd(20)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms` +
          `${m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}\n`,
      );
    }
  }
  process.stdout.write(
    '\n| target | req/s (median) | p50 ms | p99 ms | vs baseline (same backend) | server CPU µs/request |\n|---|---|---|---|---|---|\n',
  );
  for (const target of targets) {
    const measures = results.get(target.name) ?? [];
    const rps = median(measures.map((m) => m.rps));
    const baseline = median((results.get(`baseline ${target.backend}`) ?? []).map((m) => m.rps));
    const failures = measures.reduce((n, m) => n + m.non2xx + m.errors, 0);
    process.stdout.write(
      `| ${target.name} | ${rps.toFixed(0)} | ${median(measures.map((m) => m.p50))} | ${median(measures.map((m) => m.p99))} | ` +
        `${((100 * rps) / baseline).toFixed(0)}% | ${median(measures.map((m) => m.cpuPerRequest)).toFixed(0)} |` +
        `${failures > 0 ? ` ${failures} FAILED requests` : ''}\n`,
    );
    if (failures > 0) process.exitCode = 1;
  }
  return results;
}

export interface BenchServer {
  base: string;
  backend: string;
  pid: number | undefined;
}

/**
 * A Livery per backend: SQLite and, when reachable, PostgreSQL (a fresh schema), each started
 * (`npm start`'s command, pinned) with `env`, all running while `run` gets them; with
 * `oneAtATime`, each started, given to `run` alone and stopped before the next starts (for
 * measures of one server's own stalls). Cleans up processes, files and schema.
 */
export async function withBackends(
  prefix: string,
  env: Record<string, string>,
  run: (servers: BenchServer[]) => Promise<void>,
  { oneAtATime = false }: { oneAtATime?: boolean } = {},
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `livery-bench-${prefix}-`));
  const children: ChildProcess[] = [];
  buildLivery();
  const postgres = await postgresTarget();
  let schema: string | undefined;
  try {
    const backends = [{ name: 'sqlite', url: `sqlite:${join(dir, 'livery.db')}` }];
    if (postgres.ok) {
      const fresh = schemaUrl(postgres.url, prefix);
      schema = fresh.schema;
      backends.push({ name: 'postgres', url: fresh.url });
    } else {
      process.stdout.write(`!! PostgreSQL NOT MEASURED: ${postgres.reason}\n`);
      if (postgres.explicit) process.exitCode = 1;
    }
    const servers: BenchServer[] = [];
    for (const backend of backends) {
      const log = join(dir, `${backend.name}.log`);
      const { base, child } = await startLivery(children, backend.url, log, env);
      const server = { base, backend: backend.name, pid: child.pid };
      if (!oneAtATime) {
        servers.push(server);
        continue;
      }
      // Alone on its CPU: the other server's own work would be counted as this one's stall.
      await run([server]);
      await stop(child);
    }
    if (!oneAtATime) await run(servers);
  } finally {
    for (const child of children) await stop(child);
    if (schema !== undefined && postgres.ok) await dropSchema(postgres.url, schema);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A comparison benchmark on SQLite and, when reachable, PostgreSQL: `prepare` seeds each Livery
 * and names its targets (load options by kind; the `baseline` kind is the reference), then
 * compareTargets, every server running.
 */
export async function compareOnBackends(
  title: string,
  prefix: string,
  prepare: (base: string) => Promise<Record<string, autocannon.Options>>,
): Promise<Map<string, Measure[]>> {
  let results = new Map<string, Measure[]>();
  await withBackends(prefix, {}, async (servers) => {
    const targets: ComparedTarget[] = [];
    for (const { base, backend, pid } of servers) {
      for (const [kind, options] of Object.entries(await prepare(base))) {
        targets.push({
          name: `${kind} ${backend}`,
          backend,
          options,
          ...(pid === undefined ? {} : { pid }),
        });
      }
    }
    results = await compareTargets(title, targets);
  });
  return results;
}

/**
 * A set-up request as the benchmark's owner. A 503 (the server shedding load while the machine is
 * busy, e.g. with another benchmark's build) is retried after a pause; anything else not 2xx fails.
 */
export async function apiCall(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status === 503 && attempt < 30) {
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      continue;
    }
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 || res.status === 205
      ? {}
      : ((await res.json()) as Record<string, unknown>);
  }
}

let patchesSent = 0;

/**
 * PATCH load spread over `paths` in turn, each with the body `bodyOf(n)` for a counter `n` that
 * never repeats in this process: every PATCH changes its variant, so every one really writes.
 */
export function patchLoad(
  origin: string,
  paths: string[],
  bodyOf: (n: number) => unknown,
): autocannon.Options {
  const first = paths[0] ?? '/';
  return {
    url: `${origin}${first}`,
    requests: [
      {
        method: 'PATCH',
        path: first,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        setupRequest: (request) => {
          patchesSent += 1;
          return {
            ...request,
            path: paths[patchesSent % paths.length] ?? first,
            body: JSON.stringify(bodyOf(patchesSent)),
          };
        },
      },
    ],
  };
}
