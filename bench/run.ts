import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import {
  buildLivery,
  CONNECTIONS,
  DURATION,
  dropSchema,
  type Measure,
  machine,
  measure,
  median,
  postgresTarget,
  RENDERER_HEADERS,
  ROUNDS,
  rendererReads,
  schemaUrl,
  seed,
  start,
  startLivery,
  stop,
  TOKEN,
} from './lib.js';
import { PAGE_HEADERS, type RecordedAnswer, recordAnswer, seedPage } from './page-answer.js';

/**
 * `npm run bench`: in one run, on loopback, in rounds that alternate the targets so that machine
 * noise hits them alike:
 *   ceiling          a bare node:http server answering a precomputed body of the same size;
 *   fastify          Fastify answering the same body with Livery's logging (the framework's share);
 *   GET <backend>    Livery's effective site-space customization (auth + database read);
 *   urls/published <backend>  the URL lookup GitBook's renderer makes 4-5 times per page view
 *                    (POST /v1/urls/published: site, variant, page path, site token);
 *   published <backend>  the published view of the site (getPublishedContentSite), read with a
 *                    site token and Node's fetch's Accept-Encoding as the renderer does;
 *   page <backend>   a reader's page view, GET /s/bench/…/section-7/topic-5 (a page of the
 *                    220-page space of bench:content, shown by the GET's variant), anonymous,
 *                    with a browser's Accept-Encoding; its ratio is to `page ceiling`, a bare
 *                    node:http server replaying the SQLite process's answer to the same request
 *                    (status, headers, body bytes as sent: bench/page-ceiling.ts);
 *   PATCH <backend>  Livery's override PATCH, each request a new value: a real, durable write;
 *                    all on one variant (one row: on PostgreSQL the writers queue on its lock);
 *   PATCH spread <backend>  the same, each request to the next of 16 variants of the site;
 *   mixed <backend>  90% GET / 10% PATCH of one variant: every connection cycles through nine
 *                    GETs and one PATCH (one autocannon `requests` array), so every PATCH also
 *                    invalidates what the next GETs read;
 * with <backend> = sqlite (a new file, synchronous=FULL) and postgres (a second Livery process on
 * a fresh schema of BENCH_DATABASE_URL / TEST_DATABASE_URL / the local server, dropped at the end;
 * reported NOT MEASURED when unreachable). Prints req/s, p50 and p99 (median over rounds), the
 * server's RSS under load and the ratio to the ceiling, then each target: met / NOT MET.
 *
 * With two CPUs or more (and `taskset`), every server runs on CPU 0 and this process, autocannon
 * included, on CPU 1 (bench/lib.ts PINNED; BENCH_PIN=0 turns it off): the ratio then compares
 * servers, not the load generator's share of one machine. Each target also reports the server's
 * CPU time per request (/proc/<pid>/stat), the steadiest figure on a shared machine.
 * BENCH_KINDS=GET (comma-separated kinds) measures only those Livery targets.
 */

const WARMUP = Math.min(2, DURATION);
/** Variants the `PATCH spread` target writes to, one after the other. */
const SPREAD = 16;
const ALL_KINDS = [
  'GET',
  'urls/published',
  'published',
  'page',
  'PATCH',
  'PATCH spread',
  'mixed',
] as const;
type Kind = (typeof ALL_KINDS)[number];
/** BENCH_KINDS=GET,PATCH measures only those Livery targets (with the ceiling and Fastify). */
const KINDS: readonly Kind[] = process.env.BENCH_KINDS
  ? ALL_KINDS.filter((kind) => process.env.BENCH_KINDS?.split(',').includes(kind))
  : ALL_KINDS;
let written = 0;

type Backend = 'sqlite' | 'postgres';

interface Target {
  name: string;
  options: autocannon.Options;
  /** Options made afresh before each measurement (a site token that must not expire mid-run). */
  refresh?: () => Promise<autocannon.Options>;
  /** The server's pid, for its memory. */
  pid?: number;
}

interface Livery {
  backend: Backend;
  child: ChildProcess;
  getUrl: string;
  patchUrl: string;
  spreadPaths: string[];
  body: string;
  renderer: Awaited<ReturnType<typeof rendererReads>>;
  /** The `page` target's URL and the answer it gave once seeded (when `page` is measured). */
  page?: { url: string; answer: RecordedAnswer };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-'));
  const children: ChildProcess[] = [];
  buildLivery(); // the servers run the compiled code, as `npm start` does
  const postgres = await postgresTarget();
  let schema: string | undefined;
  if (!postgres.ok) {
    process.stdout.write(
      `\n${'!'.repeat(100)}\n!! PostgreSQL NOT MEASURED: ${postgres.url.replace(/\/\/[^@/]*@/, '//…@')} ` +
        `is unreachable (${postgres.reason}).\n!! Set BENCH_DATABASE_URL=postgres://… to measure it.\n` +
        `${'!'.repeat(100)}\n\n`,
    );
    // Asked for by name and not there: the run did not do what it was asked to.
    if (postgres.explicit) process.exitCode = 1;
  }
  try {
    const liveries: Livery[] = [];
    liveries.push(await startSeeded(children, 'sqlite', `sqlite:${join(dir, 'livery.db')}`, dir));
    if (postgres.ok) {
      const fresh = schemaUrl(postgres.url, 'bench');
      schema = fresh.schema;
      liveries.push(await startSeeded(children, 'postgres', fresh.url, dir));
    }
    const body = liveries[0]?.body ?? '';
    for (const livery of liveries) {
      if (livery.body !== body) throw new Error(`${livery.backend} answers another body`);
    }
    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, body);
    const ceiling = await startListening(children, 'bench/ceiling.ts', bodyFile, dir);
    const fastify = await startListening(children, 'bench/fastify-reference.ts', bodyFile, dir);
    const path = new URL(liveries[0]?.getUrl ?? '').pathname;
    const pageAnswer = liveries[0]?.page?.answer;
    for (const livery of liveries) {
      const answer = livery.page?.answer;
      if (answer === undefined || pageAnswer === undefined) continue;
      // Ids differ between databases, so the bytes do too; their size must not (much).
      const [size, reference] = [answer.body.length, pageAnswer.body.length];
      if (Math.abs(size - reference) > reference / 100) {
        throw new Error(
          `${livery.backend}'s page answer is ${size} bytes (base64), not ~${reference}`,
        );
      }
    }
    const pageCeiling =
      pageAnswer === undefined
        ? undefined
        : await startListening(
            children,
            'bench/page-ceiling.ts',
            writeJson(join(dir, 'page.json'), pageAnswer),
            dir,
          );

    const pidOf = (pid: number | undefined) => (pid === undefined ? {} : { pid });
    const targets: Target[] = [
      {
        name: 'ceiling',
        options: { url: `http://127.0.0.1:${ceiling.port}/` },
        ...pidOf(ceiling.pid),
      },
      {
        name: 'fastify',
        options: { url: `http://127.0.0.1:${fastify.port}${path}` },
        ...pidOf(fastify.pid),
      },
    ];
    if (pageCeiling !== undefined) {
      targets.push({
        name: 'page ceiling',
        options: { url: `http://127.0.0.1:${pageCeiling.port}/`, headers: PAGE_HEADERS },
        ...pidOf(pageCeiling.pid),
      });
    }
    for (const kind of KINDS) {
      for (const livery of liveries) {
        targets.push({
          name: `${kind} ${livery.backend}`,
          options: liveryOptions(kind, livery),
          ...(kind === 'published' ? { refresh: () => publishedOptions(livery) } : {}),
          ...pidOf(livery.child.pid),
        });
      }
    }

    process.stdout.write(
      `Livery benchmark: ${ROUNDS} rounds x ${DURATION}s per target, ${CONNECTIONS} connections, ` +
        `${body.length}-byte body${pageAnswer === undefined ? '' : `, page: ${pageAnswer.headers['content-encoding'] ?? 'identity'} ${Buffer.from(pageAnswer.body, 'base64').length} bytes`}, ${machine()}` +
        `${postgres.ok ? `, PostgreSQL ${postgres.version}` : ''}, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}\n`,
    );
    // Warm-up: JIT, caches, statement caches, connection pools.
    for (const target of targets) {
      if (target.pid !== undefined && !target.name.startsWith('mixed')) {
        await measure((await target.refresh?.()) ?? target.options, WARMUP, CONNECTIONS);
      }
    }
    const results = new Map<string, Measure[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        const options = (await target.refresh?.()) ?? target.options;
        const m = await measure(options, DURATION, CONNECTIONS, target.pid);
        results.get(target.name)?.push(m);
        process.stdout.write(
          `  round ${round} ${target.name.padEnd(21)} ${m.rps.toFixed(0).padStart(7)} req/s  ` +
            `p50 ${m.p50} ms  p99 ${m.p99} ms${Number.isNaN(m.rssPeak) ? '' : `  RSS ${m.rssPeak.toFixed(0)} MiB  CPU ${m.cpuPerRequest} µs/req`}` +
            `${m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}\n`,
        );
      }
    }
    report(results, liveries, postgres.ok ? undefined : postgres.reason);
  } finally {
    for (const child of children) await stop(child);
    if (schema !== undefined && postgres.ok) await dropSchema(postgres.url, schema);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** autocannon options of one Livery target. */
function liveryOptions(kind: Kind, livery: Livery): autocannon.Options {
  const headers = { authorization: `Bearer ${TOKEN}` };
  if (kind === 'GET') return { url: livery.getUrl, headers };
  if (kind === 'urls/published') {
    return {
      url: new URL('/v1/urls/published', livery.getUrl).toString(),
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: livery.renderer.lookupBody,
    };
  }
  // Measured with what the renderer sends: the site token (refreshed before each round).
  if (kind === 'published') return { url: livery.renderer.publishedUrl, headers };
  if (kind === 'page') return { url: livery.page?.url ?? '', headers: PAGE_HEADERS };
  const url = livery.patchUrl;
  const path = new URL(url).pathname;
  // A new value every request, so every PATCH really writes (and is made durable).
  const patch = (paths: string[]): autocannon.Request => ({
    method: 'PATCH',
    path,
    headers: { ...headers, 'content-type': 'application/json' },
    setupRequest: (request) => {
      written += 1;
      return {
        ...request,
        path: paths[written % paths.length] ?? path,
        body: JSON.stringify({ footer: { copyright: `c ${written}` } }),
      };
    },
  });
  if (kind === 'PATCH') return { url, requests: [patch([path])] };
  if (kind === 'PATCH spread') return { url, requests: [patch(livery.spreadPaths)] };
  const get: autocannon.Request = { method: 'GET', path, headers };
  return { url, requests: [...Array.from({ length: 9 }, () => ({ ...get })), patch([path])] };
}

/** A Livery process on a new database, seeded through its API. */
async function startSeeded(
  children: ChildProcess[],
  backend: Backend,
  databaseUrl: string,
  dir: string,
): Promise<Livery> {
  const { base, child } = await startLivery(children, databaseUrl, join(dir, `${backend}.log`));
  const seeded = await seed(base, SPREAD);
  const renderer = await rendererReads(base, seeded.getUrl);
  if (!KINDS.includes('page')) return { backend, child, ...seeded, renderer };
  const url = await seedPage(base, seeded.getUrl);
  const again = await fetch(seeded.getUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
  if ((await again.text()) !== seeded.body) throw new Error('the page changed the GET body');
  await recordAnswer(url); // the first view renders the page; the second is a repeat view
  return { backend, child, ...seeded, renderer, page: { url, answer: await recordAnswer(url) } };
}

function writeJson(file: string, value: unknown): string {
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** The published view as the renderer reads it: with a site token of the site, fresh. */
async function publishedOptions(livery: Livery): Promise<autocannon.Options> {
  const token = await livery.renderer.siteToken();
  return {
    url: livery.renderer.publishedUrl,
    headers: { ...RENDERER_HEADERS, authorization: `Bearer ${token}` },
  };
}

const fmt = (n: number, digits = 0) => (Number.isNaN(n) ? '-' : n.toFixed(digits));

function report(results: Map<string, Measure[]>, liveries: Livery[], postgresMissing?: string) {
  const ceiling = median((results.get('ceiling') ?? []).map((m) => m.rps));
  // A page view is compared with the ceiling of its own answer (`page ceiling`).
  const ceilingOf = (name: string) => (name.startsWith('page ') ? 'page ceiling' : 'ceiling');
  const rpsOf = (name: string) => median((results.get(name) ?? []).map((m) => m.rps));
  const summary = new Map<string, { rps: number; p50: number; p99: number; rss: number }>();
  process.stdout.write(
    '\n| target | req/s (median) | p50 ms | p99 ms | server RSS under load, MiB (peak sampled / VmHWM) | ratio to ceiling (page: to page ceiling) | server CPU µs/request | CPU vs ceiling |\n' +
      '|---|---|---|---|---|---|---|---|\n',
  );
  const cpuOf = new Map<string, number>();
  for (const [name, measures] of results) {
    const rps = median(measures.map((m) => m.rps));
    const p50 = median(measures.map((m) => m.p50));
    const p99 = median(measures.map((m) => m.p99));
    const rss = Math.max(...measures.map((m) => m.rssPeak));
    const hwm = Math.max(...measures.map((m) => m.hwm));
    summary.set(name, { rps, p50, p99, rss: hwm });
    const failures = measures.reduce((n, m) => n + m.non2xx + m.errors, 0);
    const cpu = median(measures.map((m) => m.cpuPerRequest));
    cpuOf.set(name, cpu);
    const cpuRatio = cpu / (cpuOf.get(ceilingOf(name)) ?? Number.NaN);
    process.stdout.write(
      `| ${name} | ${rps.toFixed(0)} | ${p50} | ${p99} | ${Number.isNaN(rss) ? '-' : `${fmt(rss)} / ${fmt(hwm)}`} | ` +
        `${((100 * rps) / rpsOf(ceilingOf(name))).toFixed(1)}% | ${fmt(cpu)} | ${fmt(cpuRatio, 2)}x |` +
        `${failures > 0 ? ` ${failures} FAILED requests` : ''}\n`,
    );
  }
  if (postgresMissing !== undefined) {
    for (const kind of KINDS) {
      process.stdout.write(`| ${kind} postgres | NOT MEASURED: ${postgresMissing} | | | | |\n`);
    }
  }

  const ratio = (name: string) => (100 * (summary.get(name)?.rps ?? Number.NaN)) / ceiling;
  const pageCeiling = summary.get('page ceiling')?.rps ?? Number.NaN;
  const pageRatio = (name: string) =>
    summary.has(name) ? (100 * (summary.get(name)?.rps ?? Number.NaN)) / pageCeiling : undefined;
  const checks: [string, number | undefined, (v: number) => boolean, (v: number) => string][] = [
    [
      'GET sqlite >= 40% of the ceiling',
      ratio('GET sqlite'),
      (v) => v >= 40,
      (v) => `${v.toFixed(1)}%`,
    ],
    [
      'GET postgres >= 40% of the ceiling',
      summary.has('GET postgres') ? ratio('GET postgres') : undefined,
      (v) => v >= 40,
      (v) => `${v.toFixed(1)}%`,
    ],
    [
      'urls/published sqlite >= GET sqlite (req/s)',
      (summary.get('urls/published sqlite')?.rps ?? Number.NaN) /
        (summary.get('GET sqlite')?.rps ?? Number.NaN),
      (v) => v >= 1,
      (v) => `${v.toFixed(2)}x`,
    ],
    [
      'urls/published postgres >= GET postgres (req/s)',
      summary.has('GET postgres')
        ? (summary.get('urls/published postgres')?.rps ?? Number.NaN) /
          (summary.get('GET postgres')?.rps ?? Number.NaN)
        : undefined,
      (v) => v >= 1,
      (v) => `${v.toFixed(2)}x`,
    ],
    [
      'page sqlite >= 40% of the page ceiling',
      pageRatio('page sqlite'),
      (v) => v >= 40,
      (v) => `${v.toFixed(1)}%`,
    ],
    [
      'page postgres >= 40% of the page ceiling',
      pageRatio('page postgres'),
      (v) => v >= 40,
      (v) => `${v.toFixed(1)}%`,
    ],
    [
      'PATCH sqlite >= 2,000 req/s',
      summary.get('PATCH sqlite')?.rps,
      (v) => v >= 2000,
      (v) => `${v.toFixed(0)} req/s`,
    ],
    [
      'PATCH postgres (one variant) >= 1,000 req/s',
      summary.get('PATCH postgres')?.rps,
      (v) => v >= 1000,
      (v) => `${v.toFixed(0)} req/s`,
    ],
  ];
  for (const livery of liveries) {
    const peak = Math.max(
      ...[...summary].filter(([n]) => n.endsWith(` ${livery.backend}`)).map(([, s]) => s.rss),
    );
    checks.push([
      `RSS under load < 200 MiB (${livery.backend} process, VmHWM)`,
      peak,
      (v) => v < 200,
      (v) => `${v.toFixed(0)} MiB`,
    ]);
  }
  if (postgresMissing !== undefined) {
    checks.push([
      'RSS under load < 200 MiB (postgres process, VmHWM)',
      undefined,
      () => false,
      String,
    ]);
  }
  process.stdout.write('\nTargets:\n');
  for (const [what, value, ok, show] of checks) {
    const verdict =
      value === undefined || Number.isNaN(value)
        ? `NOT MEASURED (${postgresMissing !== undefined ? 'PostgreSQL unreachable' : 'not in BENCH_KINDS'})`
        : `${show(value)}: ${ok(value) ? 'met' : 'NOT MET'}`;
    process.stdout.write(`  ${what.padEnd(52)} ${verdict}\n`);
  }
}

/** Starts a bench server script that prints `listening <port>`; resolves with the port. */
async function startListening(
  children: ChildProcess[],
  script: string,
  bodyFile: string,
  dir: string,
): Promise<{ port: number; pid: number | undefined }> {
  const log = join(dir, `${script.replace(/\W/g, '-')}.log`);
  const port = () => /listening (\d+)/.exec(readFileSync(log, 'utf8'))?.[1];
  const child = await start(
    children,
    ['--import', 'tsx', script, bodyFile],
    {},
    async () => port() !== undefined,
    log,
  );
  return { port: Number(port()), pid: child.pid };
}

/** A site with a realistic customization and a variant with an override, through the API. */

await main();
