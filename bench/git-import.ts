import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markdownToDocument } from '../src/modules/documents/index.js';
import { GIT_ENV, git, makeRepository } from './git-fixture.js';
import {
  apiCall,
  buildLivery,
  dropSchema,
  machine,
  median,
  memoryOf,
  postgresTarget,
  schemaUrl,
  startLivery,
  stop,
} from './lib.js';

/**
 * `npm run bench:git`: what a Git Sync import costs (issue 27, "Performance"), in one run, on
 * SQLite and, when reachable, PostgreSQL (a fresh schema), each server started as `npm start`
 * does, pinned to CPU 0 (bench/lib.ts), alone while it is measured.
 *
 * The repositories are made here with the `git` command, in GitBook's format: BENCH_GIT_PAGES
 * (default 500) pages plus the readme, in groups of 5 sections of 10 pages (a section's readme,
 * 8 pages under it, one of them with a child page), every page with front matter, hints, tabs,
 * code, two images and links; 2 images per page (PNG headers with 1–16 KB of random bytes)
 * under .gitbook/assets. BENCH_ROUNDS (default 3) rounds, each on its own repository (so no
 * round finds another's objects in the server's fetch cache or its blobs in `file_blobs`):
 *
 *   floor      `git clone --depth 1 file://…` plus markdownToDocument of every page, in this
 *              process (CPU 1): what any import must at least do;
 *   import     POST /v1/spaces/{id}/git/import into a new space, then GET …/git/info every
 *              20 ms until it is no longer running: the time from the POST to the end seen;
 *   bare floor the same without the checkout (a bare clone, the pages read by one cat-file);
 *   re-import  one page changed and committed, imported again.
 *
 * Then the memory: a fresh server per backend imports a repository of BENCH_GIT_BIG_PAGES
 * (default 5,000) pages and 1,000 images; its VmHWM (peak RSS since it started) is read from
 * /proc at the end. Targets (issue 27): import ≤ 15 s and ≤ 3× the floor, re-import ≤ 1 s,
 * peak RSS < 300 MiB. Prints a table per backend; the figures go to docs/BENCHMARKS.md.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = Number(process.env.BENCH_GIT_PAGES ?? 500);
const BIG_PAGES = Number(process.env.BENCH_GIT_BIG_PAGES ?? 5000);
const IMAGES = Number(process.env.BENCH_GIT_IMAGES ?? 1000);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');

/** The floor: a shallow clone and every page parsed; ms. */
function floor(
  repo: string,
  pages: readonly string[],
  into: string,
): { clone: number; parse: number } {
  const t0 = performance.now();
  execFileSync('git', ['clone', '-q', '--depth', '1', '--no-tags', `file://${repo}`, into], {
    env: GIT_ENV,
  });
  const t1 = performance.now();
  let blocks = 0;
  for (const file of pages) {
    blocks += markdownToDocument(readFileSync(join(into, file), 'utf8')).nodes.length;
  }
  const t2 = performance.now();
  if (blocks === 0) throw new Error('the floor parsed nothing');
  rmSync(into, { recursive: true, force: true });
  return { clone: t1 - t0, parse: t2 - t1 };
}

/**
 * A tighter floor, without the checkout's file writes (which the import does not do, and which
 * on this machine's disk vary from 0.4 to 5 s for the same clone): a bare shallow clone, the tree
 * listed, every page read through one `git cat-file --batch` and parsed; ms.
 */
function bareFloor(repo: string, pages: readonly string[], into: string): number {
  const t0 = performance.now();
  execFileSync(
    'git',
    ['clone', '-q', '--bare', '--depth', '1', '--no-tags', `file://${repo}`, into],
    {
      env: GIT_ENV,
    },
  );
  const wanted = new Set(pages);
  const oids: string[] = [];
  for (const line of git(into, 'ls-tree', '-r', '-z', 'HEAD').split('\0')) {
    const tab = line.indexOf('\t');
    if (wanted.has(line.slice(tab + 1))) oids.push(line.slice(0, tab).split(' ')[2] ?? '');
  }
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd: into,
    env: GIT_ENV,
    input: `${oids.join('\n')}\n`,
    maxBuffer: 1 << 30,
  });
  let at = 0;
  let blocks = 0;
  while (at < out.length) {
    const eol = out.indexOf(10, at);
    const size = Number(out.subarray(at, eol).toString('latin1').split(' ')[2]);
    blocks += markdownToDocument(out.subarray(eol + 1, eol + 1 + size).toString('utf8')).nodes
      .length;
    at = eol + 1 + size + 1;
  }
  const ms = performance.now() - t0;
  if (blocks === 0) throw new Error('the bare floor parsed nothing');
  rmSync(into, { recursive: true, force: true });
  return ms;
}

/** Imports and polls until the operation ends; ms from the POST to the end seen. */
async function importOnce(base: string, spaceId: string, dir: string): Promise<number> {
  const t0 = performance.now();
  await apiCall(base, 'POST', `/v1/spaces/${spaceId}/git/import`, {
    url: `file://${dir}`,
    ref: 'refs/heads/main',
  });
  for (;;) {
    const info = (await apiCall(base, 'GET', `/v1/spaces/${spaceId}/git/info`)) as {
      operation: { state: string; error?: string };
      warnings?: unknown[];
    };
    if (info.operation.state !== 'running') {
      const ms = performance.now() - t0;
      if (info.operation.state !== 'success') {
        throw new Error(`the import ended as ${info.operation.state}: ${info.operation.error}`);
      }
      return ms;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function newSpace(base: string): Promise<string> {
  const orgs = (await apiCall(base, 'GET', '/v1/orgs')) as { items: { id: string }[] };
  const space = await apiCall(base, 'POST', `/v1/orgs/${orgs.items[0]?.id}/spaces`, {
    title: 'Imported',
  });
  return String(space.id);
}

async function pageCount(base: string, spaceId: string): Promise<number> {
  const content = (await apiCall(base, 'GET', `/v1/spaces/${spaceId}/content`)) as {
    pages: { type: string; pages?: unknown[] }[];
  };
  let n = 0;
  const visit = (pages: readonly { type: string; pages?: unknown[] }[]) => {
    for (const page of pages) {
      if (page.type === 'document') n += 1;
      visit((page.pages ?? []) as { type: string; pages?: unknown[] }[]);
    }
  };
  visit(content.pages);
  return n;
}

interface Row {
  backend: string;
  floor: number[];
  bare: number[];
  clone: number[];
  parse: number[];
  import: number[];
  reimport: number[];
  bigImport?: number;
  hwmIdle?: number;
  hwm?: number;
  rssPeak?: number;
}

const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-git-'));
  const children: ChildProcess[] = [];
  const schemas: string[] = [];
  buildLivery();
  const postgres = BACKENDS.includes('postgres') ? await postgresTarget() : undefined;
  process.stdout.write(
    `Git import benchmark: ${PAGES} pages + readme, ${IMAGES} images, ${ROUNDS} rounds; ${machine()}\n`,
  );
  try {
    const t0 = performance.now();
    const repos = Array.from({ length: ROUNDS }, (_, r) =>
      makeRepository(dir, `docs-${r + 1}`, PAGES, IMAGES, r + 1),
    );
    const big = makeRepository(dir, 'docs-big', BIG_PAGES, IMAGES, 99);
    const packed = git(repos[0]?.dir ?? '', 'count-objects', '-vH').match(/size-pack: (.*)/)?.[1];
    process.stdout.write(
      `  repositories made in ${f(performance.now() - t0)} (${packed} packed each)\n`,
    );
    // The parser warmed up (JIT) before the floor is measured, as the server's is by its start.
    for (const file of repos[0]?.tree.pages ?? []) {
      markdownToDocument(readFileSync(join(repos[0]?.dir ?? '', file), 'utf8'));
    }
    const backends: { name: string; url: () => string }[] = [];
    for (const name of BACKENDS) {
      if (name === 'sqlite') {
        backends.push({ name, url: () => `sqlite:${join(dir, `livery-${Math.random()}.db`)}` });
      } else if (name === 'postgres' && postgres?.ok) {
        backends.push({
          name,
          url: () => {
            const fresh = schemaUrl(postgres.url, 'benchgit');
            schemas.push(fresh.schema);
            return fresh.url;
          },
        });
      } else if (name === 'postgres') {
        process.stdout.write(
          `!! PostgreSQL NOT MEASURED: ${postgres?.ok ? '' : postgres?.reason}\n`,
        );
      }
    }
    const rows: Row[] = [];
    for (const backend of backends) {
      const row: Row = {
        backend: backend.name,
        floor: [],
        bare: [],
        clone: [],
        parse: [],
        import: [],
        reimport: [],
      };
      rows.push(row);
      const env = (cache: string) => ({
        GIT_LOCAL_DIRS: dir,
        GIT_CACHE_DIR: join(dir, cache),
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      });
      const server = await startLivery(
        children,
        backend.url(),
        join(dir, `${backend.name}.log`),
        env(`cache-${backend.name}`),
      );
      for (const [r, repo] of repos.entries()) {
        const fl = floor(repo.dir, repo.tree.pages, join(dir, `floor-${backend.name}-${r}`));
        const bare = bareFloor(repo.dir, repo.tree.pages, join(dir, `bare-${backend.name}-${r}`));
        const spaceId = await newSpace(server.base);
        const ms = await importOnce(server.base, spaceId, repo.dir);
        const count = await pageCount(server.base, spaceId);
        if (count !== repo.tree.pages.length) {
          throw new Error(`${count} pages imported, ${repo.tree.pages.length} expected`);
        }
        // One page changed and committed (then put back for the other backend's round).
        const changed = repo.tree.pages[3] ?? 'README.md';
        const before = readFileSync(join(repo.dir, changed), 'utf8');
        writeFileSync(join(repo.dir, changed), `${before}\nOne more line, round ${r}.\n`);
        git(repo.dir, 'commit', '-q', '-am', 'One page');
        const again = await importOnce(server.base, spaceId, repo.dir);
        writeFileSync(join(repo.dir, changed), before);
        git(repo.dir, 'commit', '-q', '-am', 'Back');
        row.clone.push(fl.clone);
        row.parse.push(fl.parse);
        row.floor.push(fl.clone + fl.parse);
        row.bare.push(bare);
        row.import.push(ms);
        row.reimport.push(again);
        process.stdout.write(
          `  ${backend.name} round ${r + 1}: floor ${f(fl.clone + fl.parse)} (clone ${f(fl.clone)}, parse ${f(fl.parse)}), ` +
            `bare floor ${f(bare)}, import ${f(ms)} (${(ms / (fl.clone + fl.parse)).toFixed(2)}x, ${(ms / bare).toFixed(2)}x bare), re-import ${f(again)}, ${count} pages\n`,
        );
      }
      await stop(server.child);

      // Memory: a fresh server, the big repository.
      const fresh = await startLivery(
        children,
        backend.url(),
        join(dir, `${backend.name}-big.log`),
        env(`cache-big-${backend.name}`),
      );
      const pid = fresh.child.pid ?? 0;
      const spaceId = await newSpace(fresh.base);
      row.hwmIdle = memoryOf(pid).hwm;
      let rssPeak = 0;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, memoryOf(pid).rss || 0);
      }, 50);
      row.bigImport = await importOnce(fresh.base, spaceId, big.dir);
      clearInterval(sampler);
      row.hwm = memoryOf(pid).hwm;
      row.rssPeak = rssPeak;
      const count = await pageCount(fresh.base, spaceId);
      process.stdout.write(
        `  ${backend.name} ${BIG_PAGES} pages: import ${f(row.bigImport)}, ${count} pages, ` +
          `VmHWM ${row.hwmIdle.toFixed(0)} MiB before, ${row.hwm.toFixed(0)} MiB after\n`,
      );
      await stop(fresh.child);
    }

    process.stdout.write(
      `\n| backend | floor: clone + parse | bare floor | import (${PAGES} pages, ${IMAGES} images) | import / floor | import / bare floor | re-import after a one-file commit | ${BIG_PAGES} pages: import | peak RSS (VmHWM) |\n|---|---|---|---|---|---|---|---|---|\n`,
    );
    for (const row of rows) {
      const ratio = median(row.import.map((ms, i) => ms / (row.floor[i] ?? Number.NaN)));
      const bareRatio = median(row.import.map((ms, i) => ms / (row.bare[i] ?? Number.NaN)));
      process.stdout.write(
        `| ${row.backend} | ${f(median(row.floor))} (${f(median(row.clone))} + ${f(median(row.parse))}) | ${f(median(row.bare))} | ${f(median(row.import))} | ` +
          `${ratio.toFixed(2)}x | ${bareRatio.toFixed(2)}x | ${f(median(row.reimport))} | ${f(row.bigImport ?? Number.NaN)} | ` +
          `${(row.hwm ?? Number.NaN).toFixed(0)} MiB (${(row.hwmIdle ?? Number.NaN).toFixed(0)} MiB before) |\n`,
      );
      const missed: string[] = [];
      if (median(row.import) > 15_000) missed.push('import > 15 s');
      if (ratio > 3) missed.push('import > 3x the floor');
      if (median(row.reimport) > 1_000) missed.push('re-import > 1 s');
      if ((row.hwm ?? 0) >= 300) missed.push('peak RSS >= 300 MiB');
      if (missed.length > 0) process.stdout.write(`!! ${row.backend}: ${missed.join(', ')}\n`);
    }
    process.stdout.write('(medians of the rounds; targets: ≤ 15 s, ≤ 3x, ≤ 1 s, < 300 MiB)\n');
  } finally {
    for (const child of children) await stop(child);
    if (postgres?.ok) for (const schema of schemas) await dropSchema(postgres.url, schema);
    if (process.env.BENCH_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
    else process.stdout.write(`kept ${dir}\n`);
  }
}

await main();
