import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * `npm run bench`: in one run, on loopback, in rounds that alternate the targets so that machine
 * noise hits them alike:
 *   ceiling  a bare node:http server answering a precomputed body of the same size;
 *   fastify  Fastify answering the same body with Livery's logging (the framework's share);
 *   GET      Livery's effective site-space customization (auth + database read in the path);
 *   PATCH    Livery's override PATCH, each request a real, durable write (synchronous=FULL).
 * Prints req/s, p50 and p99 per target (median over rounds) and the ratio to the ceiling.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const TOKEN = 'gb_benchmark-token-0123456789abcdef';
let written = 0;

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-'));
  const children: ChildProcess[] = [];
  try {
    const livery = await freePort();
    await start(
      children,
      ['--import', 'tsx', 'src/server.ts'],
      {
        PORT: String(livery),
        DATABASE_URL: `sqlite:${join(dir, 'livery.db')}`,
        LIVERY_BOOTSTRAP_TOKEN: TOKEN,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      },
      async () =>
        (await fetch(`http://127.0.0.1:${livery}/healthz`).catch(() => undefined))?.ok === true,
      join(dir, 'livery.log'),
    );
    const { getUrl, patchUrl, body } = await seed(`http://127.0.0.1:${livery}`);
    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, body);
    const ceiling = await startListening(children, 'bench/ceiling.ts', bodyFile, dir);
    const fastify = await startListening(children, 'bench/fastify-reference.ts', bodyFile, dir);

    const headers = { authorization: `Bearer ${TOKEN}` };
    const targets: Record<string, autocannon.Options> = {
      ceiling: { url: `http://127.0.0.1:${ceiling}/` },
      fastify: { url: `http://127.0.0.1:${fastify}${new URL(getUrl).pathname}` },
      GET: { url: getUrl, headers },
      PATCH: {
        url: patchUrl,
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/json' },
        // A new value every request, so every PATCH really writes (and fsyncs).
        requests: [
          {
            setupRequest: (request) => {
              written += 1;
              return {
                ...request,
                body: JSON.stringify({ footer: { copyright: `c ${written}` } }),
              };
            },
          },
        ],
      },
    };

    process.stdout.write(
      `Livery benchmark: ${ROUNDS} rounds x ${DURATION}s per target, ${CONNECTIONS} connections, ` +
        `${body.length}-byte body, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}\n`,
    );
    await measure(targets.GET as autocannon.Options, 2); // warm-up: JIT, caches, statement cache
    const results: Record<string, Measure[]> = { ceiling: [], fastify: [], GET: [], PATCH: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, options] of Object.entries(targets)) {
        const m = await measure(options, DURATION);
        results[name]?.push(m);
        process.stdout.write(
          `  round ${round} ${name.padEnd(7)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms` +
            `${m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}\n`,
        );
      }
    }
    report(results);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(options: autocannon.Options, duration: number): Promise<Measure> {
  const result = await autocannon({ connections: CONNECTIONS, ...options, duration });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function report(results: Record<string, Measure[]>): void {
  const ceiling = median((results.ceiling ?? []).map((m) => m.rps));
  process.stdout.write(
    '\n| target | req/s (median) | p50 ms | p99 ms | ratio to ceiling |\n|---|---|---|---|---|\n',
  );
  for (const [name, measures] of Object.entries(results)) {
    const rps = median(measures.map((m) => m.rps));
    const p50 = median(measures.map((m) => m.p50));
    const p99 = median(measures.map((m) => m.p99));
    const failures = measures.reduce((n, m) => n + m.non2xx + m.errors, 0);
    process.stdout.write(
      `| ${name} | ${rps.toFixed(0)} | ${p50} | ${p99} | ${((100 * rps) / ceiling).toFixed(1)}% |` +
        `${failures > 0 ? ` ${failures} failed requests` : ''}\n`,
    );
  }
}

/** Starts a bench server script that prints `listening <port>`; resolves with the port. */
async function startListening(
  children: ChildProcess[],
  script: string,
  bodyFile: string,
  dir: string,
): Promise<number> {
  const log = join(dir, `${script.replace(/\W/g, '-')}.log`);
  const port = () => /listening (\d+)/.exec(readFileSync(log, 'utf8'))?.[1];
  await start(
    children,
    ['--import', 'tsx', script, bodyFile],
    {},
    async () => port() !== undefined,
    log,
  );
  return Number(port());
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Starts a process with its output in a log file; resolves once `ready` says so. */
async function start(
  children: ChildProcess[],
  args: string[],
  env: Record<string, string>,
  ready: () => Promise<boolean>,
  logFile: string,
): Promise<void> {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', log, log],
  });
  children.push(child);
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (await ready()) return;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${args.join(' ')} did not start:\n${readFileSync(logFile, 'utf8')}`);
}

/** A site with a realistic customization and a variant with an override, through the API. */
async function seed(base: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 || res.status === 205
      ? {}
      : ((await res.json()) as Record<string, unknown>);
  };
  const orgs = (await call('GET', '/v1/orgs')) as { items: { id: string }[] };
  const orgId = orgs.items[0]?.id ?? '';
  const site = await call('POST', `/v1/orgs/${orgId}/sites`, {
    title: 'Benchmark',
    spaces: 'empty',
  });
  const siteBase = `/v1/orgs/${orgId}/sites/${String(site.id)}`;
  const space = await call('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Deutsch' });
  const variant = await call('POST', `${siteBase}/site-spaces`, { spaceId: space.id });
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
  const patchUrl = `${base}${siteBase}/site-spaces/${String(variant.id)}/customization`;
  await call('PATCH', patchUrl.slice(base.length), {
    title: 'Benchmark-Doku',
    internationalization: { locale: 'de' },
  });
  const res = await fetch(patchUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { getUrl: patchUrl, patchUrl, body: await res.text() };
}

await main();
