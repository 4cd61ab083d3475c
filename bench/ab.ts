import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  buildLivery,
  dropSchema,
  measure,
  median,
  postgresTarget,
  ROOT,
  schemaUrl,
  seed,
  startLivery,
  stop,
  TOKEN,
} from './lib.js';

/**
 * `npm run bench:ab -- <other checkout>`: did a change make the GET hot path cheaper?
 *
 * Builds this checkout, then starts two servers as `npm start` does: this checkout's
 * `dist/server.js` ("this") and the other checkout's (built with `npm run build` there), each on
 * a new database of AB_BACKEND (sqlite, default, or postgres: a fresh schema of the local server
 * or BENCH_DATABASE_URL), seeded alike. Then AB_ROUNDS (default 5) rounds of 5 s of GET load,
 * alternating the two servers, so that machine noise hits both alike. Prints the medians of
 * req/s and of the server's CPU time per request.
 *
 * For example, to measure the last commit: `git worktree add /tmp/before HEAD~1`,
 * `ln -s $PWD/node_modules /tmp/before/`, `(cd /tmp/before && npm run build)`, then
 * `npm run bench:ab -- /tmp/before`.
 */

const other = process.argv[2];
const BACKEND = process.env.AB_BACKEND ?? 'sqlite';
const ROUNDS = Number(process.env.AB_ROUNDS ?? 5);

async function main(): Promise<void> {
  if (other === undefined) throw new Error('usage: npm run bench:ab -- <other checkout>');
  buildLivery();
  const postgres = BACKEND === 'postgres' ? await postgresTarget() : undefined;
  if (postgres !== undefined && !postgres.ok) throw new Error(`PostgreSQL: ${postgres.reason}`);
  const dir = mkdtempSync(join(tmpdir(), 'livery-ab-'));
  const children: ChildProcess[] = [];
  const schemas: string[] = [];
  const entries = {
    this: join(ROOT, 'dist', 'server.js'),
    other: join(resolve(other), 'dist', 'server.js'),
  };
  const servers: { name: string; url: string; pid: number | undefined }[] = [];
  try {
    for (const [name, entry] of Object.entries(entries)) {
      let databaseUrl = `sqlite:${join(dir, `${name}.db`)}`;
      if (postgres?.ok) {
        const fresh = schemaUrl(postgres.url, `ab_${name}`);
        schemas.push(fresh.schema);
        databaseUrl = fresh.url;
      }
      const { base, child } = await startLivery(
        children,
        databaseUrl,
        join(dir, `${name}.log`),
        {},
        [],
        entry,
      );
      servers.push({ name, url: (await seed(base, 0)).getUrl, pid: child.pid });
    }
    const options = (url: string) => ({ url, headers: { authorization: `Bearer ${TOKEN}` } });
    for (const s of servers) await measure(options(s.url), 3, 16); // warm-up
    const results = new Map(
      servers.map((s) => [s.name, { rps: [] as number[], cpu: [] as number[] }]),
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const s of servers) {
        const m = await measure(options(s.url), 5, 16, s.pid);
        results.get(s.name)?.rps.push(m.rps);
        results.get(s.name)?.cpu.push(m.cpuPerRequest);
        process.stdout.write(
          `  round ${round} ${s.name.padEnd(5)} ${m.rps.toFixed(0)} req/s  ${m.cpuPerRequest} µs CPU/request\n`,
        );
      }
    }
    process.stdout.write(`\nGET on ${BACKEND}, medians of ${ROUNDS} rounds:\n`);
    for (const [name, r] of results) {
      process.stdout.write(
        `  ${name.padEnd(5)} ${median(r.rps).toFixed(0)} req/s  ${median(r.cpu)} µs CPU/request` +
          `  (${name === 'this' ? ROOT : resolve(other)})\n`,
      );
    }
  } finally {
    for (const child of children) await stop(child);
    rmSync(dir, { recursive: true, force: true });
    if (postgres?.ok) {
      for (const schema of schemas) await dropSchema(postgres.url, schema);
    }
  }
}

await main();
