import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import Database from 'better-sqlite3';
import {
  adminQuery,
  buildLivery,
  DURATION,
  dropSchema,
  type Measure,
  machine,
  measure,
  median,
  patchLoad,
  postgresTarget,
  ROOT,
  schemaUrl,
  seed,
  startLivery,
  stop,
} from './lib.js';

/**
 * `npm run bench:history`: what customization history (issue 17) costs a PATCH, and what a
 * revision takes on disk.
 *
 * "without" is BENCH_HISTORY_BASE (default 5cbb838, the last commit before history), checked out
 * in a temporary worktree and built there; "with" is this checkout. On each backend (SQLite, and
 * PostgreSQL on fresh schemas when reachable) both servers run side by side on fresh databases
 * seeded alike, and BENCH_ROUNDS (default 5) rounds of BENCH_SECONDS of PATCH load alternate
 * between them, so that machine noise hits both alike. Every PATCH sets a new title on the next
 * of 8 variants: each changes the override, so each records a revision and an audit entry.
 * Afterwards the "with" database is read for the bytes per revision. Target: with / without
 * >= 0.80 on each backend; BENCH_CHECK=1 makes a miss exit 1.
 */

const BASE = process.env.BENCH_HISTORY_BASE ?? '5cbb838';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** BENCH_BACKENDS: which of sqlite and postgres to measure (default both). */
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');
const TARGET = 0.8;
/** bench/lib.ts `seed` makes 2 + spread variants. */
const SPREAD = 6;

// A title never sent before: a PATCH that changed nothing would record no revision.
const patchOptions = (origin: string, paths: string[]) =>
  patchLoad(origin, paths, (n) => ({ title: `Benchmark ${n}` }));

function git(args: string[]): void {
  const result = spawnSync('git', args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed (${result.status})`);
}

/** The base revision in a worktree of its own, built; answers its dist/server.js. */
function buildBase(worktree: string): string {
  git(['worktree', 'add', '--detach', worktree, BASE]);
  symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'));
  const built = spawnSync('npm', ['run', 'build'], { cwd: worktree, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`the build of ${BASE} failed (${built.status})`);
  return join(worktree, 'dist', 'server.js');
}

interface Storage {
  revisions: number;
  /** Average bytes of a revision's stored columns (document, changes, the rest). */
  payload: number;
  revisionBytes: number;
  audit: number;
  auditBytes: number;
}

/** A revision's stored bytes, uncompressed, as `fn` (length or octet_length) counts them. */
const PAYLOAD = (fn: string) =>
  ['scope', 'created_at', 'actor_user_id', 'actor_token_id']
    .concat(['operation', 'etag', 'document', 'changes'])
    .map((column) => `coalesce(${fn}(${column}), 0)`)
    .join(' + ');

/** Pages of each table and its indexes (dbstat), as SQLite stores them. */
function sqliteStorage(file: string): Storage {
  const db = new Database(file, { readonly: true });
  try {
    const bytes = (table: string) =>
      Number(
        db
          .prepare(
            `select coalesce(sum(pgsize), 0) as n from dbstat
             where name in (select name from sqlite_schema where tbl_name = ?)`,
          )
          .pluck()
          .get(table),
      );
    const count = (table: string) =>
      Number(db.prepare(`select count(*) from ${table}`).pluck().get());
    const payload = db
      .prepare(`select avg(${PAYLOAD('length')}) from customization_revisions`)
      .pluck()
      .get();
    return {
      revisions: count('customization_revisions'),
      payload: Number(payload),
      revisionBytes: bytes('customization_revisions'),
      audit: count('audit_log'),
      auditBytes: bytes('audit_log'),
    };
  } finally {
    db.close();
  }
}

/** Heap, TOAST and indexes of each table (pg_total_relation_size). */
async function postgresStorage(url: string, schema: string): Promise<Storage> {
  const { rows } = await adminQuery(
    url,
    `select (select count(*) from "${schema}".customization_revisions)::int as revisions,
            pg_total_relation_size('"${schema}".customization_revisions')::bigint as revision_bytes,
            (select avg(${PAYLOAD('octet_length')}) from "${schema}".customization_revisions)::float
              as payload,
            (select count(*) from "${schema}".audit_log)::int as audit,
            pg_total_relation_size('"${schema}".audit_log')::bigint as audit_bytes`,
  );
  const row = rows[0] ?? {};
  return {
    revisions: Number(row.revisions),
    payload: Number(row.payload),
    revisionBytes: Number(row.revision_bytes),
    audit: Number(row.audit),
    auditBytes: Number(row.audit_bytes),
  };
}

/** One kind of load on one server. */
interface Target {
  server: 'with' | 'without';
  kind: string;
  pid: number | undefined;
  options: autocannon.Options;
  measures: Measure[];
}

interface Outcome {
  backend: string;
  /** Kind of load → [with, without]. */
  pairs: [string, Target, Target][];
  storage: Storage;
}

async function runBackend(
  backend: string,
  urls: Record<'with' | 'without', string>,
  entries: Record<'with' | 'without', string>,
  dir: string,
  storage: () => Promise<Storage>,
): Promise<Outcome> {
  const children: ChildProcess[] = [];
  try {
    const targets: Target[] = [];
    for (const server of ['with', 'without'] as const) {
      const log = join(dir, `${backend}-${server}.log`);
      const started = await startLivery(children, urls[server], log, {}, [], entries[server]);
      const seeded = await seed(started.base, SPREAD);
      const one = new URL(seeded.patchUrl).pathname;
      const spread = [new URL(seeded.getUrl).pathname, one, ...seeded.spreadPaths];
      for (const [kind, paths] of [
        ['1 variant', [one]],
        [`${spread.length} variants`, spread],
      ] as const) {
        const options = patchOptions(started.base, [...paths]);
        targets.push({ server, kind, pid: started.child.pid, options, measures: [] });
      }
    }
    for (const t of targets) await measure(t.options, Math.min(2, DURATION), CONNECTIONS);
    for (let round = 1; round <= ROUNDS; round++) {
      // Each server goes first in every other round: neither always follows the other's writes.
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      for (const t of order) {
        const m = await measure(t.options, DURATION, CONNECTIONS, t.pid);
        t.measures.push(m);
        process.stdout.write(
          `  ${backend} round ${round} ${t.kind.padEnd(10)} ${t.server.padEnd(7)} ` +
            `${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  ` +
            `CPU ${m.cpuPerRequest} µs/req` +
            `${m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}\n`,
        );
      }
    }
    const pairs = [...new Set(targets.map((t) => t.kind))].map((kind) => {
      const of = (server: string) =>
        targets.find((t) => t.kind === kind && t.server === server) as Target;
      return [kind, of('with'), of('without')] as [string, Target, Target];
    });
    return { backend, pairs, storage: await storage() };
  } finally {
    for (const child of children) await stop(child);
  }
}

const of = (t: Target, pick: (m: Measure) => number) => median(t.measures.map(pick));

/**
 * The target's figure: the ratio of the medians. The median of each round's ratio (the two
 * servers measured back to back) is printed beside it, as a check on a noisy machine.
 */
const ratioOf = (w: Target, wo: Target) => of(w, (m) => m.rps) / of(wo, (m) => m.rps);

function report(outcomes: Outcome[]): boolean {
  process.stdout.write(
    '\n| backend | PATCH of | req/s without | req/s with | with / without (median of rounds) | CPU µs/PATCH without → with | p99 ms without → with |\n' +
      '|---|---|---|---|---|---|---|\n',
  );
  let met = true;
  for (const o of outcomes) {
    for (const [kind, w, wo] of o.pairs) {
      const ratio = ratioOf(w, wo);
      const rounds = w.measures.map((m, i) => m.rps / (wo.measures[i]?.rps ?? Number.NaN));
      met &&= ratio >= TARGET;
      const failed = [...w.measures, ...wo.measures].reduce((n, m) => n + m.non2xx + m.errors, 0);
      if (failed > 0) process.exitCode = 1;
      process.stdout.write(
        `| ${o.backend} | ${kind} | ${of(wo, (m) => m.rps).toFixed(0)} | ${of(w, (m) => m.rps).toFixed(0)} | ` +
          `${ratio.toFixed(2)} (${median(rounds).toFixed(2)}) | ` +
          `${of(wo, (m) => m.cpuPerRequest).toFixed(0)} → ${of(w, (m) => m.cpuPerRequest).toFixed(0)} | ` +
          `${of(wo, (m) => m.p99)} → ${of(w, (m) => m.p99)} |` +
          `${failed > 0 ? ` ${failed} FAILED requests` : ''}\n`,
      );
    }
  }
  process.stdout.write('\n');
  for (const o of outcomes) {
    const st = o.storage;
    process.stdout.write(
      `${o.backend}: ${st.revisions} revisions in ${st.revisionBytes} bytes, ` +
        `${(st.revisionBytes / st.revisions).toFixed(0)} per revision (row + indexes; stored columns ` +
        `${st.payload.toFixed(0)} bytes on average); ${st.audit} audit entries in ${st.auditBytes} ` +
        `bytes, ${(st.auditBytes / st.audit).toFixed(0)} per entry\n`,
    );
    for (const [kind, w, wo] of o.pairs) {
      const ratio = ratioOf(w, wo);
      process.stdout.write(
        `  PATCH (${kind}) with history >= ${TARGET * 100}% of without: ${(ratio * 100).toFixed(1)}%: ` +
          `${ratio >= TARGET ? 'PASS' : 'FAIL'}\n`,
      );
    }
  }
  return met;
}

async function main(): Promise<void> {
  buildLivery();
  const dir = mkdtempSync(join(tmpdir(), 'livery-history-'));
  const worktree = join(dir, 'base');
  const postgres = await postgresTarget();
  const schemas: string[] = [];
  try {
    const entries = { with: join(ROOT, 'dist', 'server.js'), without: buildBase(worktree) };
    process.stdout.write(
      `PATCH with history (this checkout) vs without (${BASE}): ${ROUNDS} rounds x ${DURATION}s, ` +
        `${CONNECTIONS} connections, ${machine()}\n`,
    );
    const outcomes: Outcome[] = [];
    const sqlite = { with: join(dir, 'with.db'), without: join(dir, 'without.db') };
    if (BACKENDS.includes('sqlite'))
      outcomes.push(
        await runBackend(
          'sqlite',
          { with: `sqlite:${sqlite.with}`, without: `sqlite:${sqlite.without}` },
          entries,
          dir,
          async () => sqliteStorage(sqlite.with),
        ),
      );
    if (postgres.ok && BACKENDS.includes('postgres')) {
      const fresh = {
        with: schemaUrl(postgres.url, 'hist_with'),
        without: schemaUrl(postgres.url, 'hist_without'),
      };
      schemas.push(fresh.with.schema, fresh.without.schema);
      outcomes.push(
        await runBackend(
          `postgres`,
          { with: fresh.with.url, without: fresh.without.url },
          entries,
          dir,
          () => postgresStorage(postgres.url, fresh.with.schema),
        ),
      );
    } else if (!postgres.ok) {
      process.stdout.write(`!! PostgreSQL NOT MEASURED: ${postgres.reason}\n`);
      if (postgres.explicit) process.exitCode = 1;
    }
    const met = report(outcomes);
    if (!met && process.env.BENCH_CHECK === '1') process.exitCode = 1;
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', worktree], { cwd: ROOT, stdio: 'inherit' });
    spawnSync('git', ['worktree', 'prune'], { cwd: ROOT });
    if (postgres.ok) for (const schema of schemas) await dropSchema(postgres.url, schema);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
