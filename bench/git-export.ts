import { type ChildProcess, execFileSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GIT_ENV, git, makeRepository } from './git-fixture.js';
import {
  apiCall,
  buildLivery,
  dropSchema,
  machine,
  median,
  postgresTarget,
  schemaUrl,
  startLivery,
  stop,
} from './lib.js';

/**
 * `npm run bench:git` (after bench/git-import.ts): what Git Sync's export and two-way sync cost
 * (issue 28, "Performance"), in one run, on SQLite and, when reachable, PostgreSQL (a fresh
 * schema), each server started as `npm start` does, pinned to CPU 0 (bench/lib.ts), alone while
 * it is measured; the floors run in this process and its `git` children, on CPU 1. The server's
 * env: GIT_LOCAL_DIRS (the temporary root: file:// remotes), SECRET_KEY, the default
 * GIT_SYNC_DEBOUNCE_MS (1000) and GIT_SYNC_TICK_MS (5000). BENCH_ROUNDS (default 3) rounds:
 *
 *   export     a space imported from its own bench/git-fixture.ts repository (BENCH_GIT_PAGES
 *              pages + readme, BENCH_GIT_IMAGES images), then POST …/git/export to a fresh empty
 *              bare repository (refs/heads/main: a new branch, every file written), GET
 *              …/git/info every 20 ms until it is no longer running: from the POST to the end;
 *   floor      the files of that exported commit (read back from the remote beforehand, held in
 *              memory) written to a fresh directory, then `git init`, `git add -A`, `git commit`,
 *              `git push` to a fresh bare repository (file://): what any export must at least do;
 *   unchanged  the same export again (the branch now holds the space): no commit;
 *   API space  a space of as many pages made through change requests (no git origin, no files),
 *              exported to a fresh bare repository, and its own floor;
 *   webhook    a space linked (PUT …/git/link) to a bare repository of the fixture, published
 *              as a site; one page changed and pushed to the remote (not timed), then the signed
 *              push webhook sent: from sending it to the new text served by GET /s/<site>/<page>
 *              (polled every 20 ms);
 *   merge      one page edited in a change request and merged: from the merge's answer to the
 *              remote branch's head changing (`git rev-parse`, every 20 ms); it includes
 *              GIT_SYNC_DEBOUNCE_MS.
 *
 * The server's own durations ('git export ended' / 'git sync ended', `ms`) are read from its
 * log. Targets: export ≤ 10 s and ≤ 3× the floor; webhook to the site ≤ 2 s; merge to the
 * remote ≤ 5 s.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = Number(process.env.BENCH_GIT_PAGES ?? 500);
const IMAGES = Number(process.env.BENCH_GIT_IMAGES ?? 1000);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');
const DEBOUNCE_MS = Number(process.env.GIT_SYNC_DEBOUNCE_MS ?? 1000);
const POLL_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Waits until the space's Git Sync operation is no longer running; its final state. */
async function settled(base: string, spaceId: string) {
  for (;;) {
    const info = (await apiCall(base, 'GET', `/v1/spaces/${spaceId}/git/info`)) as {
      operation: { state: string; error?: string };
      commit?: string;
    };
    if (info.operation.state !== 'running') return info;
    await sleep(POLL_MS);
  }
}

/** POSTs an operation (import or export) and polls until it ends; ms from the POST to the end. */
async function operation(
  base: string,
  spaceId: string,
  kind: 'import' | 'export',
  body: Record<string, unknown>,
): Promise<number> {
  const t0 = performance.now();
  await apiCall(base, 'POST', `/v1/spaces/${spaceId}/git/${kind}`, body);
  const info = await settled(base, spaceId);
  const ms = performance.now() - t0;
  if (info.operation.state !== 'success') {
    throw new Error(`the ${kind} ended as ${info.operation.state}: ${info.operation.error}`);
  }
  return ms;
}

async function orgOf(base: string): Promise<string> {
  const orgs = (await apiCall(base, 'GET', '/v1/orgs')) as { items: { id: string }[] };
  return orgs.items[0]?.id ?? '';
}

async function newSpace(base: string, title: string): Promise<string> {
  const space = await apiCall(base, 'POST', `/v1/orgs/${await orgOf(base)}/spaces`, { title });
  return String(space.id);
}

interface ApiPage {
  id: string;
  type: string;
  title: string;
  path?: string;
  pages?: ApiPage[];
}

async function documents(base: string, spaceId: string): Promise<ApiPage[]> {
  const content = (await apiCall(base, 'GET', `/v1/spaces/${spaceId}/content`)) as {
    pages: ApiPage[];
  };
  const all: ApiPage[] = [];
  const visit = (pages: readonly ApiPage[]) => {
    for (const page of pages) {
      if (page.type === 'document') all.push(page);
      visit(page.pages ?? []);
    }
  };
  visit(content.pages);
  return all;
}

/** A bare repository with no commit (the export's target, or the floor's). */
function bareRepository(path: string): string {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', path], { env: GIT_ENV });
  return path;
}

/** Every file of a branch of a bare repository, in memory (path → bytes). */
function filesOf(gitDir: string, ref = 'refs/heads/main'): Map<string, Buffer> {
  const entries = git(gitDir, 'ls-tree', '-r', '-z', ref)
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      return { oid: line.slice(0, tab).split(' ')[2] ?? '', path: line.slice(tab + 1) };
    });
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd: gitDir,
    env: GIT_ENV,
    input: `${entries.map((e) => e.oid).join('\n')}\n`,
    maxBuffer: 1 << 30,
  });
  const files = new Map<string, Buffer>();
  let at = 0;
  for (const entry of entries) {
    const eol = out.indexOf(10, at);
    const size = Number(out.subarray(at, eol).toString('latin1').split(' ')[2]);
    files.set(entry.path, Buffer.from(out.subarray(eol + 1, eol + 1 + size)));
    at = eol + 1 + size + 1;
  }
  return files;
}

/**
 * The floor: the same files written to a fresh directory, then `git init`, `git add -A`,
 * `git commit`, `git push` to a fresh bare repository; ms of the writes and of git.
 */
function exportFloor(
  files: ReadonlyMap<string, Buffer>,
  root: string,
): { write: number; git: number } {
  const work = join(root, 'work');
  const remote = bareRepository(join(root, 'remote.git'));
  const t0 = performance.now();
  for (const [path, data] of files) {
    const full = join(work, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, data);
  }
  const t1 = performance.now();
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'Docs');
  git(work, 'push', '-q', `file://${remote}`, 'main:refs/heads/main');
  const t2 = performance.now();
  const pushed = git(remote, 'ls-tree', '-r', '--name-only', 'refs/heads/main').split('\n');
  if (pushed.length !== files.size) throw new Error(`the floor pushed ${pushed.length} files`);
  rmSync(root, { recursive: true, force: true });
  return { write: t1 - t0, git: t2 - t1 };
}

/**
 * A tighter floor, what the server's own git work is: the same files as one `git fast-import`
 * stream (one commit) into a fresh bare repository, then `git push` of it to another (file://);
 * no file writes, no loose objects. ms.
 */
function fastImportFloor(files: ReadonlyMap<string, Buffer>, root: string): number {
  const repo = bareRepository(join(root, 'cache.git'));
  const remote = bareRepository(join(root, 'remote.git'));
  const t0 = performance.now();
  const parts: Buffer[] = [
    Buffer.from(
      'commit refs/heads/main\nauthor Writer <w@example.test> 0 +0000\n' +
        'committer Writer <w@example.test> 0 +0000\ndata 4\nDocs\n',
    ),
  ];
  for (const [path, data] of files) {
    parts.push(
      Buffer.from(`M 100644 inline "${path}"\ndata ${data.length}\n`),
      data,
      Buffer.from('\n'),
    );
  }
  parts.push(Buffer.from('done\n'));
  execFileSync('git', ['--git-dir', repo, 'fast-import', '--quiet', '--done'], {
    env: GIT_ENV,
    input: Buffer.concat(parts),
    maxBuffer: 1 << 30,
  });
  git(repo, 'push', '-q', `file://${remote}`, 'refs/heads/main:refs/heads/main');
  const ms = performance.now() - t0;
  const pushed = git(remote, 'ls-tree', '-r', '--name-only', 'refs/heads/main').split('\n');
  if (pushed.length !== files.size)
    throw new Error(`the fast-import floor pushed ${pushed.length}`);
  rmSync(root, { recursive: true, force: true });
  return ms;
}

const BODY =
  'Paragraph: **configure** the `client` and read the [API docs](https://example.com/api). ' +
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut ' +
  'labore et dolore magna aliqua.\n';

function apiMarkdown(title: string, n: number): string {
  return `# ${title}\n\n${BODY}\n{% hint style="info" %}\nA hint on page ${n}.\n{% endhint %}\n\n## Install\n\n\`\`\`bash\nnpm install @example/client@${n}\n\`\`\`\n\n1. Open the settings.\n2. Choose **Tokens**.\n\n| Option | Default |\n| ------ | ------- |\n| \`retries\` | 3 |\n\n${BODY}`;
}

/** A space of `pages` pages made through one change request: sections of a page and 9 children. */
async function apiSpace(base: string, pages: number): Promise<string> {
  const space = await newSpace(base, 'Written in Livery');
  const crBase = `/v1/spaces/${space}/change-requests`;
  const cr = String((await apiCall(base, 'POST', crBase, { subject: 'Seed' })).id);
  const sections = Math.ceil(pages / 10);
  const insert = (title: string, n: number, into?: string) => ({
    operation: 'insert_page',
    title,
    document: { markdown: apiMarkdown(title, n) },
    ...(into === undefined ? {} : { into }),
  });
  for (let i = 0; i < sections; i += 50) {
    await apiCall(base, 'POST', `${crBase}/${cr}/content`, {
      changes: Array.from({ length: Math.min(50, sections - i) }, (_, s) =>
        insert(`Section ${i + s + 1}`, (i + s) * 10),
      ),
    });
  }
  const tree = (await apiCall(base, 'GET', `${crBase}/${cr}/content/pages`)).pages as ApiPage[];
  const changes = tree.flatMap((section, s) =>
    Array.from({ length: 9 }, (_, p) => insert(`Topic ${p + 1}`, s * 10 + p + 1, section.id)),
  );
  for (let i = 0; i < changes.length; i += 50) {
    await apiCall(base, 'POST', `${crBase}/${cr}/content`, { changes: changes.slice(i, i + 50) });
  }
  await apiCall(base, 'POST', `${crBase}/${cr}/merge`, {});
  return space;
}

/** The server's 'git … ended' lines written after byte `offset`: their `ms`. */
function endedLines(logFile: string, offset: number, message: string): number[] {
  const text = readFileSync(logFile).subarray(offset).toString('utf8');
  const found: number[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes(message)) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; ms?: number };
      if (entry.msg === message && typeof entry.ms === 'number') found.push(entry.ms);
    } catch {
      // not a JSON line
    }
  }
  return found;
}

const logSize = (logFile: string) => statSync(logFile).size;

/**
 * The `ms` of the last 'git … ended' line after `offset`; the server logs it just after the
 * operation ends (and writes its log asynchronously): waited for up to 2 s. NaN when absent.
 */
async function serverMs(logFile: string, offset: number, message: string): Promise<number> {
  for (let waited = 0; waited < 2_000; waited += 50) {
    const found = endedLines(logFile, offset, message).at(-1);
    if (found !== undefined) return found;
    await sleep(50);
  }
  return Number.NaN;
}

/** A GitHub push event, signed with the link's secret. */
async function webhook(
  base: string,
  spaceId: string,
  secret: string,
  url: string,
  after: string,
): Promise<void> {
  const body = JSON.stringify({
    ref: 'refs/heads/main',
    after,
    repository: { clone_url: url },
  });
  const res = await fetch(`${base}/v1/spaces/${spaceId}/git/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  });
  const answer = await res.text();
  if (res.status !== 202) throw new Error(`webhook: ${res.status} ${answer}`);
}

interface Row {
  backend: string;
  export: number[];
  exportServer: number[];
  floor: number[];
  floorWrite: number[];
  floorGit: number[];
  fastFloor: number[];
  unchanged: number[];
  apiExport: number[];
  apiFloor: number[];
  webhook: number[];
  webhookServer: number[];
  merge: number[];
  mergeServer: number[];
  exportedFiles: number;
  apiFiles: number;
  mergeFiles: number[];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-gitexport-'));
  const children: ChildProcess[] = [];
  const schemas: string[] = [];
  buildLivery();
  const postgres = BACKENDS.includes('postgres') ? await postgresTarget() : undefined;
  process.stdout.write(
    `Git export and two-way sync benchmark: ${PAGES} pages + readme, ${IMAGES} images, ${ROUNDS} rounds, ` +
      `GIT_SYNC_DEBOUNCE_MS=${DEBOUNCE_MS}; ${machine()}\n`,
  );
  try {
    const t0 = performance.now();
    const repos = Array.from({ length: ROUNDS }, (_, r) =>
      makeRepository(dir, `docs-${r + 1}`, PAGES, IMAGES, 200 + r),
    );
    process.stdout.write(`  repositories made in ${f(performance.now() - t0)}\n`);
    const backends: { name: string; url: () => string }[] = [];
    for (const name of BACKENDS) {
      if (name === 'sqlite') {
        backends.push({ name, url: () => `sqlite:${join(dir, `livery-${Math.random()}.db`)}` });
      } else if (name === 'postgres' && postgres?.ok) {
        backends.push({
          name,
          url: () => {
            const fresh = schemaUrl(postgres.url, 'benchgitx');
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
    for (const [b, backend] of backends.entries()) {
      const row: Row = {
        backend: backend.name,
        export: [],
        exportServer: [],
        floor: [],
        floorWrite: [],
        floorGit: [],
        fastFloor: [],
        unchanged: [],
        apiExport: [],
        apiFloor: [],
        webhook: [],
        webhookServer: [],
        merge: [],
        mergeServer: [],
        exportedFiles: 0,
        apiFiles: 0,
        mergeFiles: [],
      };
      rows.push(row);
      const logFile = join(dir, `${backend.name}.log`);
      const server = await startLivery(children, backend.url(), logFile, {
        GIT_LOCAL_DIRS: dir,
        GIT_CACHE_DIR: join(dir, `cache-${backend.name}`),
        SECRET_KEY: 'bench-secret-key-0123456789abcdef-0123456789',
        LOG_LEVEL: 'info',
        ...(process.env.GIT_SYNC_DEBOUNCE_MS === undefined
          ? {}
          : { GIT_SYNC_DEBOUNCE_MS: process.env.GIT_SYNC_DEBOUNCE_MS }),
      });
      const { base } = server;

      // 1. Export of an imported space, to a new branch; then of the unchanged space; then of a
      // space written through the API.
      for (const [r, repo] of repos.entries()) {
        const spaceId = await newSpace(base, 'Imported');
        await operation(base, spaceId, 'import', {
          url: `file://${repo.dir}`,
          ref: 'refs/heads/main',
        });
        const target = bareRepository(join(dir, `export-${backend.name}-${r}.git`));
        const url = `file://${target}`;
        const body = { url, ref: 'refs/heads/main', commitMessage: `Export ${r}` };
        let offset = logSize(logFile);
        const ms = await operation(base, spaceId, 'export', body);
        const exportMs = await serverMs(logFile, offset, 'git export ended');
        const head = git(target, 'rev-parse', 'refs/heads/main');
        const files = filesOf(target);
        row.exportedFiles = files.size;
        offset = logSize(logFile);
        const again = await operation(base, spaceId, 'export', {
          ...body,
          commitMessage: 'Nothing',
        });
        const againServer = await serverMs(logFile, offset, 'git export ended');
        if (git(target, 'rev-parse', 'refs/heads/main') !== head) {
          throw new Error('the export of an unchanged space made a commit');
        }
        const fl = exportFloor(files, join(dir, `floor-${backend.name}-${r}`));
        const fast = fastImportFloor(files, join(dir, `fast-${backend.name}-${r}`));

        const apiSpaceId = await apiSpace(base, PAGES);
        const apiTarget = bareRepository(join(dir, `export-api-${backend.name}-${r}.git`));
        const apiMs = await operation(base, apiSpaceId, 'export', {
          url: `file://${apiTarget}`,
          ref: 'refs/heads/main',
          commitMessage: 'Export',
        });
        const apiFiles = filesOf(apiTarget);
        row.apiFiles = apiFiles.size;
        const apiFl = exportFloor(apiFiles, join(dir, `floor-api-${backend.name}-${r}`));

        row.export.push(ms);
        row.exportServer.push(exportMs);
        row.floor.push(fl.write + fl.git);
        row.floorWrite.push(fl.write);
        row.floorGit.push(fl.git);
        row.fastFloor.push(fast);
        row.unchanged.push(again);
        row.apiExport.push(apiMs);
        row.apiFloor.push(apiFl.write + apiFl.git);
        process.stdout.write(
          `  ${backend.name} round ${r + 1}: export ${f(ms)} (server ${f(exportMs)}, ${files.size} files), ` +
            `floor ${f(fl.write + fl.git)} (write ${f(fl.write)} + git ${f(fl.git)}) = ${(ms / (fl.write + fl.git)).toFixed(2)}x, fast-import floor ${f(fast)} = ${(ms / fast).toFixed(2)}x; ` +
            `unchanged ${f(again)} (server ${f(againServer)}); ` +
            `API space ${f(apiMs)} (${apiFiles.size} files), floor ${f(apiFl.write + apiFl.git)} = ${(apiMs / (apiFl.write + apiFl.git)).toFixed(2)}x\n`,
        );
      }

      // 2 and 3. A linked space, published; pushes with their webhook, merges to the remote.
      const source = makeRepository(dir, `linked-${backend.name}`, PAGES, IMAGES, 300 + b);
      const remote = join(dir, `linked-${backend.name}.git`);
      execFileSync('git', ['clone', '-q', '--bare', source.dir, remote], { env: GIT_ENV });
      const work = source.dir;
      git(work, 'remote', 'add', 'origin', remote);
      const remoteUrl = `file://${remote}`;
      const spaceId = await newSpace(base, 'Linked');
      const link = (await apiCall(base, 'PUT', `/v1/spaces/${spaceId}/git/link`, {
        url: remoteUrl,
        ref: 'main',
      })) as { webhook: { secret: string } };
      let pages: ApiPage[] = [];
      for (let waited = 0; pages.length < source.tree.pages.length; waited += 100) {
        if (waited > 120_000) throw new Error(`the linked space has ${pages.length} pages`);
        await sleep(100);
        pages = await documents(base, spaceId);
      }
      await settled(base, spaceId);
      const org = await orgOf(base);
      const site = await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, {
        title: 'Git',
        spaces: [spaceId],
      });
      const siteBase = `/v1/orgs/${org}/sites/${String(site.id)}`;
      const basename = `gitbench-${backend.name}`;
      await apiCall(base, 'PATCH', siteBase, { basename, visibility: 'public' });
      await apiCall(base, 'POST', `${siteBase}/publish`);
      // The page the pushes change (a page under a section) and the one the merges edit.
      const pushedFile = source.tree.pages[3] ?? 'README.md';
      const pushedPage = pages[3];
      const editedPage = pages[5];
      if (pushedPage === undefined || editedPage === undefined) throw new Error('no pages');
      const pageUrl = `${base}/s/${basename}/${pushedPage.path}`;
      const first = await fetch(pageUrl);
      const firstText = await first.text();
      if (!first.ok || !firstText.includes('Paragraph 1 of page 3')) {
        throw new Error(`${pageUrl}: ${first.status}, not page 3 (${pushedPage.title})`);
      }
      for (let r = 0; r < ROUNDS; r++) {
        // 2. A one-file push, its webhook, the page on the site.
        git(work, 'fetch', '-q', 'origin');
        git(work, 'reset', '-q', '--hard', 'origin/main');
        const marker = `Pushed in round ${r + 1} ${randomUUID().slice(0, 8)}`;
        const before = readFileSync(join(work, pushedFile), 'utf8');
        writeFileSync(
          join(work, pushedFile),
          before.replace(
            /(Paragraph 1 of page 3|Pushed in round \d+ [0-9a-f]+)[^:]*:/,
            `${marker}:`,
          ),
        );
        git(work, 'commit', '-q', '-am', `Round ${r + 1}`);
        git(work, 'push', '-q', 'origin', 'main');
        const pushed = git(work, 'rev-parse', 'HEAD');
        let offset = logSize(logFile);
        const t1 = performance.now();
        await webhook(base, spaceId, link.webhook.secret, remoteUrl, pushed);
        for (let waited = 0; ; waited += POLL_MS) {
          const res = await fetch(pageUrl);
          const text = await res.text();
          if (res.ok && text.includes(marker)) break;
          if (waited > 60_000) throw new Error(`the push never reached ${pageUrl}`);
          await sleep(POLL_MS);
        }
        const webhookMs = performance.now() - t1;
        await settled(base, spaceId);
        const webhookServer = await serverMs(logFile, offset, 'git sync ended');

        // 3. An edit merged in Livery, to a commit on the remote.
        const headBefore = git(remote, 'rev-parse', 'refs/heads/main');
        const markdown = String(
          (
            await apiCall(
              base,
              'GET',
              `/v1/spaces/${spaceId}/content/page/${editedPage.id}?format=markdown`,
            )
          ).markdown ?? '',
        );
        if (markdown === '') throw new Error('the page has no markdown');
        const edited = `${markdown.trimEnd()}\n\nMerged in round ${r + 1}.\n`;
        const crBase = `/v1/spaces/${spaceId}/change-requests`;
        const cr = await apiCall(base, 'POST', crBase, { subject: `Edit ${r + 1}` });
        await apiCall(base, 'POST', `${crBase}/${String(cr.id)}/content`, {
          changes: [
            { operation: 'update_page', page: editedPage.id, document: { markdown: edited } },
          ],
        });
        offset = logSize(logFile);
        await apiCall(base, 'POST', `${crBase}/${String(cr.id)}/merge`, {});
        const t2 = performance.now();
        for (let waited = 0; ; waited += POLL_MS) {
          if (git(remote, 'rev-parse', 'refs/heads/main') !== headBefore) break;
          if (waited > 60_000) throw new Error('the merge never reached the remote');
          await sleep(POLL_MS);
        }
        const mergeMs = performance.now() - t2;
        const changed = git(remote, 'diff', '--name-only', headBefore, 'refs/heads/main')
          .split('\n')
          .filter((line) => line !== '');
        await sleep(50);
        await settled(base, spaceId);
        const mergeServer = await serverMs(logFile, offset, 'git sync ended');
        row.webhook.push(webhookMs);
        row.webhookServer.push(webhookServer);
        row.merge.push(mergeMs);
        row.mergeServer.push(mergeServer);
        row.mergeFiles.push(changed.length);
        process.stdout.write(
          `  ${backend.name} round ${r + 1}: webhook to the site ${f(webhookMs)} (server sync ${f(webhookServer)}); ` +
            `merge to the remote ${f(mergeMs)} (debounce ${f(DEBOUNCE_MS)}, server sync ${f(mergeServer)}, ${changed.length} file(s) in the commit)\n`,
        );
      }
      await stop(server.child);
    }

    process.stdout.write(
      `\n| backend | export (${PAGES} pages, ${IMAGES} images, new branch) | floor: write + git | export / floor | fast-import floor | export / fast-import floor | export, unchanged space | API space export (${PAGES} pages) | API export / floor | webhook → published page | merge → remote head (of which debounce) |\n|---|---|---|---|---|---|---|---|---|---|---|\n`,
    );
    for (const row of rows) {
      const ratio = median(row.export.map((ms, i) => ms / (row.floor[i] ?? Number.NaN)));
      const fastRatio = median(row.export.map((ms, i) => ms / (row.fastFloor[i] ?? Number.NaN)));
      const apiRatio = median(row.apiExport.map((ms, i) => ms / (row.apiFloor[i] ?? Number.NaN)));
      process.stdout.write(
        `| ${row.backend} | ${f(median(row.export))} (server ${f(median(row.exportServer))}) | ${f(median(row.floor))} (${f(median(row.floorWrite))} + ${f(median(row.floorGit))}) | ` +
          `${ratio.toFixed(2)}x | ${f(median(row.fastFloor))} | ${fastRatio.toFixed(2)}x | ${f(median(row.unchanged))} | ${f(median(row.apiExport))} | ${apiRatio.toFixed(2)}x | ` +
          `${f(median(row.webhook))} (server sync ${f(median(row.webhookServer))}) | ${f(median(row.merge))} (${f(DEBOUNCE_MS)}; server sync ${f(median(row.mergeServer))}) |\n`,
      );
      const missed: string[] = [];
      if (median(row.export) > 10_000) missed.push('export > 10 s');
      if (ratio > 3) missed.push('export > 3x the floor');
      if (median(row.webhook) > 2_000) missed.push('webhook to the site > 2 s');
      if (median(row.merge) > 5_000) missed.push('merge to the remote > 5 s');
      if (missed.length > 0) process.stdout.write(`!! ${row.backend}: ${missed.join(', ')}\n`);
    }
    process.stdout.write(
      `(medians of ${ROUNDS} rounds; ${rows[0]?.exportedFiles} files exported, ${rows[0]?.apiFiles} for the API space; targets: export ≤ 10 s and ≤ 3x, webhook ≤ 2 s, merge ≤ 5 s)\n`,
    );
  } finally {
    for (const child of children) await stop(child);
    if (postgres?.ok) for (const schema of schemas) await dropSchema(postgres.url, schema);
    if (process.env.BENCH_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
    else process.stdout.write(`kept ${dir}\n`);
  }
}

await main();
