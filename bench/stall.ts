import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_ENV, measureStalls, seedHostile, stallReport } from './hostile.js';
import {
  buildLivery,
  dropSchema,
  machine,
  placement,
  postgresTarget,
  schemaUrl,
  startLivery,
  stop,
  TOKEN,
} from './lib.js';

/**
 * `npm run bench:stall`: the hostile pages of issue 25 (bench/hostile.ts) served by a fresh Livery
 * (`npm start`'s command, pinned like every benchmark server) on SQLite and on PostgreSQL, each
 * page's first view and its document read while a prober measures how long the server's event
 * loop stands still, against an ordinary page in the same run. Prints a table per backend.
 */
async function main(): Promise<void> {
  process.stdout.write(`Stall benchmark: ${placement()}, ${machine()}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-stall-'));
  const children: ChildProcess[] = [];
  buildLivery();
  const postgres = await postgresTarget();
  let schema: string | undefined;
  try {
    const backends = [{ name: 'sqlite', url: `sqlite:${join(dir, 'livery.db')}` }];
    if (postgres.ok) {
      const fresh = schemaUrl(postgres.url, 'benchst');
      schema = fresh.schema;
      backends.push({ name: 'postgres', url: fresh.url });
    } else {
      process.stdout.write(`!! PostgreSQL NOT MEASURED: ${postgres.reason}\n`);
      if (postgres.explicit) process.exitCode = 1;
    }
    for (const backend of backends) {
      const { base } = await startLivery(
        children,
        backend.url,
        join(dir, `${backend.name}.log`),
        HOSTILE_ENV,
      );
      const site = await seedHostile(base);
      const stalls = await measureStalls(base, site, `Bearer ${TOKEN}`);
      process.stdout.write(`${stallReport(backend.name, stalls)}\n`);
      if (stalls.some((s) => s.status !== 200)) process.exitCode = 1;
    }
  } finally {
    for (const child of children) await stop(child);
    if (schema !== undefined && postgres.ok) await dropSchema(postgres.url, schema);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
