import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  adminQuery,
  apiCall,
  buildLivery,
  dropSchema,
  machine,
  median,
  postgresTarget,
  ROOT,
  schemaUrl,
  startLivery,
  stop,
  TOKEN,
} from './lib.js';

/**
 * `npm run bench:storage`: what one content edit costs in a space of 3,000 pages (30 sections of
 * 99 pages, every body ~1 KB: 3 MB of Markdown), this build against the build before
 * content-addressed storage, on each backend: the edit's latency (one at a time), the server's
 * CPU time per edit, and how much the database grows per edit.
 *
 * "before" is BENCH_STORAGE_BASE_DIR (a checkout of the base, built there), else
 * BENCH_STORAGE_BASE (default 8d3b3b5) checked out in a temporary worktree and built. Both
 * servers run side by side on fresh databases seeded alike; BENCH_ROUNDS (default 3) rounds of
 * BENCH_EDITS (default 20) edits of each kind alternate between them:
 *   title     update_page renaming one page (no new Markdown);
 *   markdown  update_page replacing one page's Markdown with ~1 KB of new text.
 */

const BASE = process.env.BENCH_STORAGE_BASE ?? '8d3b3b5';
const BASE_DIR = process.env.BENCH_STORAGE_BASE_DIR;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EDITS = Number(process.env.BENCH_EDITS ?? 20);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');
const SECTIONS = 30;
const PER_SECTION = 99;
const BODY = `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16)}\n`;
const KINDS = ['title', 'markdown'] as const;
type Server = 'after' | 'before';

/** The base build's dist/server.js (a worktree made here, or BENCH_STORAGE_BASE_DIR). */
function buildBase(dir: string): string {
  let checkout = BASE_DIR;
  if (checkout === undefined) {
    checkout = join(dir, 'base');
    const added = spawnSync('git', ['worktree', 'add', '--detach', checkout, BASE], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (added.status !== 0) throw new Error(`git worktree add ${BASE} failed`);
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  }
  const built = spawnSync('npm', ['run', 'build'], { cwd: checkout, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`the build of ${checkout} failed (${built.status})`);
  return join(checkout, 'dist', 'server.js');
}

interface Space {
  base: string;
  pid: number | undefined;
  content: string;
  pages: string[];
  size: () => Promise<number>;
}

/** 3,000 pages through a change request (50 changes per request), merged; a new one to edit. */
async function seed(base: string): Promise<Omit<Space, 'pid' | 'size'>> {
  const call = (method: string, path: string, body?: unknown) => apiCall(base, method, path, body);
  const orgs = (await call('GET', '/v1/orgs')) as { items: { id: string }[] };
  const space = (await call('POST', `/v1/orgs/${orgs.items[0]?.id}/spaces`, { title: 'Big' })).id;
  const spaceBase = `/v1/spaces/${space}`;
  const cr = (await call('POST', `${spaceBase}/change-requests`, { subject: 'Seed' })).id;
  const crBase = `${spaceBase}/change-requests/${cr}`;
  const insert = (title: string, into?: string) => ({
    operation: 'insert_page',
    title,
    document: { markdown: `# ${title}\n\n${BODY}` },
    ...(into === undefined ? {} : { into }),
  });
  await call('POST', `${crBase}/content`, {
    changes: Array.from({ length: SECTIONS }, (_, s) => insert(`Section ${s + 1}`)),
  });
  const sections = (await call('GET', `${crBase}/content/pages`)).pages as { id: string }[];
  const changes = sections.flatMap((section) =>
    Array.from({ length: PER_SECTION }, (_, p) => insert(`Topic ${p + 1}`, section.id)),
  );
  for (let i = 0; i < changes.length; i += 50) {
    await call('POST', `${crBase}/content`, { changes: changes.slice(i, i + 50) });
  }
  await call('POST', `${crBase}/merge`, {});
  const tree = (await call('GET', `${spaceBase}/content/pages`)).pages as {
    pages: { id: string }[];
  }[];
  const pages = tree.flatMap((section) => section.pages.map((page) => page.id));
  const edits = (await call('POST', `${spaceBase}/change-requests`, { subject: 'Edits' })).id;
  return { base, content: `${spaceBase}/change-requests/${edits}/content`, pages };
}

let sent = 0;

/** One edit; its latency in ms. */
async function edit(space: Space, kind: (typeof KINDS)[number]): Promise<number> {
  sent += 1;
  const page = space.pages[(sent * 37) % space.pages.length];
  const change =
    kind === 'title'
      ? { operation: 'update_page', page, title: `Renamed ${sent}` }
      : { operation: 'update_page', page, document: { markdown: `# Edit ${sent}\n\n${BODY}` } };
  const started = performance.now();
  const res = await fetch(`${space.base}${space.content}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ changes: [change] }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`edit: ${res.status} ${text}`);
  return performance.now() - started;
}

/** User + system CPU seconds of a process so far (clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function sqliteSize(file: string): () => Promise<number> {
  return async () => {
    const db = new Database(file, { readonly: true });
    try {
      const pages = Number(db.pragma('page_count', { simple: true }));
      return pages * Number(db.pragma('page_size', { simple: true }));
    } finally {
      db.close();
    }
  };
}

function postgresSize(url: string, schema: string): () => Promise<number> {
  return async () => {
    const { rows } = await adminQuery(
      url,
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relkind in ('r', 'm')`,
      [schema],
    );
    return Number(rows[0]?.bytes);
  };
}

interface Figures {
  latencies: number[];
  cpu: number;
  growth: number;
  edits: number;
}

/** Lines of the cold-read table, printed at the end. */
const reads: string[] = [];
const COLD_READS = 3;

/**
 * The change request's page tree read by a server that just started (nothing cached: the revision
 * read from the database, then rendered), then again (cached): medians over COLD_READS restarts.
 */
async function coldReads(
  children: ChildProcess[],
  space: Space,
  restart: () => Promise<{ base: string; child: ChildProcess }>,
): Promise<[number, number]> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < COLD_READS; i++) {
    for (const child of children) if (child.pid === space.pid) await stop(child);
    const restarted = await restart();
    space.pid = restarted.child.pid;
    space.base = restarted.base;
    cold.push(await timedGet(`${space.base}${space.content}/pages`));
    warm.push(await timedGet(`${space.base}${space.content}/pages`));
  }
  return [median(cold), median(warm)];
}

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return performance.now() - started;
}

async function runBackend(
  backend: string,
  dir: string,
  entries: Record<Server, string>,
  databases: Record<Server, { url: string; size: () => Promise<number> }>,
): Promise<void> {
  const children: ChildProcess[] = [];
  try {
    const spaces = {} as Record<Server, Space>;
    for (const server of ['after', 'before'] as const) {
      const log = join(dir, `${backend}-${server}.log`);
      const { url, size } = databases[server];
      const started = await startLivery(children, url, log, {}, [], entries[server]);
      const seeded = await seed(started.base);
      spaces[server] = { ...seeded, pid: started.child.pid, size };
      for (const kind of KINDS) await edit(spaces[server], kind); // warm-up
    }
    const figures = new Map<string, Figures>();
    for (let round = 1; round <= ROUNDS; round++) {
      const order =
        round % 2 === 1 ? (['after', 'before'] as const) : (['before', 'after'] as const);
      for (const server of order) {
        const space = spaces[server];
        for (const kind of KINDS) {
          const key = `${server} ${kind}`;
          const f = figures.get(key) ?? { latencies: [], cpu: 0, growth: 0, edits: 0 };
          const size = await space.size();
          const cpu = cpuSecondsOf(space.pid);
          for (let i = 0; i < EDITS; i++) f.latencies.push(await edit(space, kind));
          f.cpu += cpuSecondsOf(space.pid) - cpu;
          f.growth += (await space.size()) - size;
          f.edits += EDITS;
          figures.set(key, f);
        }
      }
      process.stdout.write(`  ${backend}: round ${round} done\n`);
    }
    for (const [key, f] of figures) {
      const sorted = [...f.latencies].sort((a, b) => a - b);
      const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? Number.NaN;
      process.stdout.write(
        `| ${backend} | ${key} | ${median(f.latencies).toFixed(1)} | ${p90.toFixed(1)} | ` +
          `${((f.cpu * 1000) / f.edits).toFixed(1)} | ${(f.growth / 1024 / f.edits).toFixed(0)} |\n`,
      );
    }
    for (const server of ['after', 'before'] as const) {
      const [cold, warm] = await coldReads(children, spaces[server], () =>
        startLivery(
          children,
          databases[server].url,
          join(dir, `${backend}-${server}-restarted.log`),
          {},
          [],
          entries[server],
        ),
      );
      reads.push(`| ${backend} | ${server} | ${cold.toFixed(1)} | ${warm.toFixed(1)} |`);
    }
  } finally {
    for (const child of children) await stop(child);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-storage-'));
  const schemas: string[] = [];
  const postgres = await postgresTarget();
  try {
    buildLivery();
    const entries: Record<Server, string> = {
      after: join(ROOT, 'dist', 'server.js'),
      before: buildBase(dir),
    };
    process.stdout.write(
      `Content storage: 3,000-page space, ${ROUNDS} rounds x ${EDITS} edits per kind, ${machine()}\n` +
        '| backend | build, edit | p50 ms | p90 ms | server CPU ms/edit | growth KiB/edit |\n' +
        '|---|---|---|---|---|---|\n',
    );
    for (const backend of BACKENDS) {
      if (backend === 'sqlite') {
        const file = (server: Server) => join(dir, `${server}.db`);
        const database = (server: Server) => ({
          url: `sqlite:${file(server)}`,
          size: sqliteSize(file(server)),
        });
        await runBackend(backend, dir, entries, {
          after: database('after'),
          before: database('before'),
        });
      } else if (postgres.ok) {
        const database = () => {
          const fresh = schemaUrl(postgres.url, 'benchst');
          schemas.push(fresh.schema);
          return { url: fresh.url, size: postgresSize(postgres.url, fresh.schema) };
        };
        await runBackend(backend, dir, entries, { after: database(), before: database() });
      } else {
        process.stdout.write(`!! PostgreSQL NOT MEASURED: ${postgres.reason}\n`);
      }
    }
    process.stdout.write(
      `\nThe change request's 3,000-page tree (GET …/content/pages), ms: first read after a restart, then cached (medians of ${COLD_READS} restarts)\n` +
        `| backend | build | first read | cached |\n|---|---|---|---|\n${reads.join('\n')}\n`,
    );
  } finally {
    for (const schema of schemas) await dropSchema(postgres.url, schema).catch(() => {});
    if (BASE_DIR === undefined) {
      spawnSync('git', ['worktree', 'remove', '--force', join(dir, 'base')], { cwd: ROOT });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
