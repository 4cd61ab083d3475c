import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IMPORT_REF, listTree, streamBlobs } from '../src/modules/git-sync/git-command.js';
import { runGit } from '../src/modules/git-sync/git-process.js';
import { GIT_ENV, git, makeRepository } from './git-fixture.js';
import { machine, median, PINNED, ROOT } from './lib.js';

/**
 * `ISOGIT_DIR=/tmp/isogit npm run bench:git-library`: the `git` command against isomorphic-git
 * (the well-kept pure-JavaScript Git), for what an import asks of Git: a shallow fetch of one
 * commit and every blob of its tree read. isomorphic-git is not a dependency of Livery: install
 * it outside the project (`mkdir /tmp/isogit && cd /tmp/isogit && npm install isomorphic-git`)
 * and name that directory in ISOGIT_DIR.
 *
 * The repository is bench/git-import.ts's (500 pages and 1,000 images, packed), served over
 * smart HTTP by `git http-backend` from this process (CPU 1): isomorphic-git fetches over HTTP
 * only. Each client runs in its own process on CPU 0 under /usr/bin/time (its peak RSS: for the
 * git command, the largest of node and its git processes), BENCH_ROUNDS (default 3) rounds
 * alternating:
 *
 *   git        what src/modules/git-sync does: `git init --bare`, `git fetch --depth=1` (fetchRef's
 *              arguments, http allowed for this run), listTree, streamBlobs (one cat-file);
 *   none       the client process doing nothing: the RSS every client starts from;
 *   isogit     isomorphic-git's `fetch` (depth 1, single branch) into a bare directory, its tree
 *              walked with `readTree`, every blob read with `readBlob` (one shared `cache`).
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = Number(process.env.BENCH_GIT_PAGES ?? 500);
const IMAGES = Number(process.env.BENCH_GIT_IMAGES ?? 1000);
const ISOGIT_DIR = process.env.ISOGIT_DIR ?? '/tmp/isogit';

interface ClientResult {
  ms: number;
  fetchMs: number;
  blobs: number;
  bytes: number;
}

/** The client side, in a child process: `… client <git|isogit> <url> <dir>`. */
async function client(kind: string, url: string, dir: string): Promise<ClientResult> {
  const t0 = performance.now();
  let fetched = 0;
  let blobs = 0;
  let bytes = 0;
  if (kind === 'none') {
    // The process alone (node, tsx, this module): the baseline of the peak RSS.
    fetched = t0;
  } else if (kind === 'git') {
    await runGit(['init', '--bare', '--quiet', dir]);
    await runGit(
      [
        '--git-dir',
        dir,
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-write-fetch-head',
        '--no-recurse-submodules',
        '--depth=1',
        '--',
        url,
        `+refs/heads/main:${IMPORT_REF}`,
      ],
      { config: ['protocol.http.allow=always'], timeoutMs: 300_000 },
    );
    fetched = performance.now();
    const oid = (await runGit(['--git-dir', dir, 'rev-parse', `${IMPORT_REF}^{commit}`]))
      .toString('utf8')
      .trim();
    const entries = await listTree(dir, oid);
    for await (const blob of streamBlobs(
      dir,
      entries.map((e) => e.oid),
    )) {
      blobs += 1;
      bytes += blob.data.length;
    }
  } else {
    const isogit = await import(
      pathToFileURL(join(ISOGIT_DIR, 'node_modules/isomorphic-git/index.js')).href
    );
    const http = await import(
      pathToFileURL(join(ISOGIT_DIR, 'node_modules/isomorphic-git/http/node/index.js')).href
    );
    const fs = await import('node:fs');
    const gitdir = dir;
    // isomorphic-git's documented cache of parsed packfiles, shared by every call (without it,
    // each readBlob parses the pack index again: 30–70 s for these 1,503 blobs).
    const cache = {};
    await isogit.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
    await isogit.addRemote({ fs, gitdir, remote: 'origin', url });
    const fetchedRef = await isogit.fetch({
      fs,
      http: http.default ?? http,
      gitdir,
      remote: 'origin',
      ref: 'main',
      singleBranch: true,
      depth: 1,
      tags: false,
      cache,
    });
    fetched = performance.now();
    const walk = async (oid: string): Promise<void> => {
      const { tree } = await isogit.readTree({ fs, gitdir, oid, cache });
      for (const entry of tree as { type: string; oid: string }[]) {
        if (entry.type === 'tree') await walk(entry.oid);
        else if (entry.type === 'blob') {
          const { blob } = await isogit.readBlob({ fs, gitdir, oid: entry.oid, cache });
          blobs += 1;
          bytes += (blob as Uint8Array).length;
        }
      }
    };
    await walk(fetchedRef.fetchHead as string);
  }
  return { ms: performance.now() - t0, fetchMs: fetched - t0, blobs, bytes };
}

/** `git http-backend` (CGI) behind a Node HTTP server: smart HTTP for both clients. */
function serve(root: string) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const child = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      res.write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => res.end());
  });
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

/**
 * One client run in its own process, pinned to CPU 0, under /usr/bin/time. Spawned
 * asynchronously: this process's event loop serves the client's HTTP requests meanwhile.
 */
async function run(
  kind: string,
  url: string,
  dir: string,
): Promise<ClientResult & { rss: number }> {
  const command = [
    '/usr/bin/time',
    '-f',
    'maxrss %M',
    process.execPath,
    '--import',
    'tsx',
    join(ROOT, 'bench/git-library.ts'),
    'client',
    kind,
    url,
    dir,
  ];
  const argv = PINNED ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(argv[0] ?? '', argv.slice(1), { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`${kind}: ${stderr}`);
  const rss = Number(/maxrss (\d+)/.exec(stderr)?.[1]) / 1024;
  return { ...(JSON.parse(stdout) as ClientResult), rss };
}

if (process.argv[2] === 'client') {
  const [, , , kind = '', url = '', dir = ''] = process.argv;
  process.stdout.write(JSON.stringify(await client(kind, url, dir)));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-gitlib-'));
  try {
    readFileSync(join(ISOGIT_DIR, 'node_modules/isomorphic-git/package.json'));
  } catch {
    throw new Error(`isomorphic-git is not installed in ISOGIT_DIR (${ISOGIT_DIR})`);
  }
  const version = JSON.parse(
    readFileSync(join(ISOGIT_DIR, 'node_modules/isomorphic-git/package.json'), 'utf8'),
  ).version;
  try {
    const repo = makeRepository(dir, 'docs.git', PAGES, IMAGES, 1);
    git(repo.dir, 'config', 'http.receivepack', 'false');
    const http = await serve(dir);
    const url = `${http.url}/docs.git`;
    process.stdout.write(
      `git command (${spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim()}) vs isomorphic-git ${version}: ` +
        `${PAGES} pages + readme, ${IMAGES} images over smart HTTP, ${ROUNDS} rounds; ${machine()}\n`,
    );
    const results: Record<string, (ClientResult & { rss: number })[]> = {
      none: [],
      git: [],
      isogit: [],
    };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ['none', 'git', 'isogit']) {
        const into = join(dir, `${kind}-${round}.git`);
        const r = await run(kind, url, into);
        rmSync(into, { recursive: true, force: true });
        results[kind]?.push(r);
        process.stdout.write(
          `  round ${round} ${kind.padEnd(6)} ${(r.ms / 1000).toFixed(2)} s (fetch ${(r.fetchMs / 1000).toFixed(2)} s), ` +
            `${r.blobs} blobs, ${(r.bytes / 1048576).toFixed(1)} MiB, peak RSS ${r.rss.toFixed(0)} MiB\n`,
        );
      }
    }
    http.close();
    process.stdout.write(
      '\n| client | fetch + read every blob | of which fetch | peak RSS | vs git |\n|---|---|---|---|---|\n',
    );
    const gitMs = median((results.git ?? []).map((r) => r.ms));
    for (const [kind, rs] of Object.entries(results)) {
      const ms = median(rs.map((r) => r.ms));
      process.stdout.write(
        `| ${kind} | ${(ms / 1000).toFixed(2)} s | ${(median(rs.map((r) => r.fetchMs)) / 1000).toFixed(2)} s | ` +
          `${median(rs.map((r) => r.rss)).toFixed(0)} MiB | ${(ms / gitMs).toFixed(2)}x |\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
