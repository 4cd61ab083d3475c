import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp, type buildServices } from '../app.js';
import { LIMIT_NAMES, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { PreviewEvents } from './events.js';
import { installPreviewHttp } from './http.js';
import { FolderLoader, type LoadOutcome, type Problem } from './load-folder.js';
import { createPreviewSite } from './site.js';
import { watchFolder } from './watch.js';

/** The port a preview listens on when `--port` is not given (docs/preview.md). */
export const DEFAULT_PORT = 4000;

export const PREVIEW_USAGE = `Usage: livery preview <folder> [--port N]

  Serves the folder (a whole site described by docs.yaml, or a space: .gitbook.yaml, SUMMARY.md
  or plain Markdown files) on
  http://127.0.0.1:<port>/ (default port ${DEFAULT_PORT}; 0 picks a free one), read-only, with a
  throwaway database. Saved changes show in open pages at once. Stop with Ctrl-C.`;

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * `livery preview <folder>` (docs/preview.md): a throwaway embedded database in a temporary
 * directory (removed on exit), one organization, space and public site made inside it, the
 * folder imported into the space and imported again on every change, served read-only on
 * 127.0.0.1. Resolves with the exit code once stopped (SIGINT, SIGTERM), or at once when the
 * arguments or the folder are wrong.
 */
export async function runPreview(args: string[], io: Io): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help === true) {
    io.out(PREVIEW_USAGE);
    return 0;
  }
  const given = positionals[0];
  if (given === undefined || positionals.length > 1) {
    io.err(PREVIEW_USAGE);
    return 2;
  }
  const folder = resolve(given);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    io.err(`livery preview: ${given} is not a folder`);
    return 2;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535) || values.port === '') {
    io.err('livery preview: --port must be a whole number from 0 to 65535');
    return 2;
  }
  // From now on a signal stops the preview cleanly (its temporary directory removed), even
  // during start-up.
  const stop = new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
  });
  await buildSiteAssetsIfSources();
  const chosen = port === 0 ? await freePort() : port;

  const temp = mkdtempSync(join(tmpdir(), 'livery-preview-'));
  const removeTemp = () => rmSync(temp, { recursive: true, force: true });
  process.once('exit', removeTemp); // whatever ends the process, the database goes
  const config = loadConfig(
    {
      HOST: '127.0.0.1',
      PORT: String(chosen),
      DATABASE_URL: `sqlite:${join(temp, 'preview.db')}`,
      SQLITE_SYNCHRONOUS: 'NORMAL', // a throwaway database: no fsync per commit
      SECRET_KEY_FILE: join(temp, 'secret.key'),
      GIT_CACHE_DIR: join(temp, 'git'),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      // The operator's own thread count and content limits still hold.
      ...Object.fromEntries(
        ['WORKER_THREADS', ...Object.values(LIMIT_NAMES)].flatMap((key) =>
          process.env[key] === undefined ? [] : [[key, process.env[key]]],
        ),
      ),
    },
    temp,
  );
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const events = new PreviewEvents();
  let services: ReturnType<typeof buildServices> | undefined;
  const app: FastifyInstance = await buildApp({
    config,
    db,
    // Logs (warnings and errors only, unless LOG_LEVEL says otherwise) go to stderr: stdout is
    // the preview's own lines.
    logStream: process.stderr,
    withoutApi: true, // docs/preview.md, Read-only
    extend: (instance, built) => {
      services = built;
      installPreviewHttp(instance, events, `http://127.0.0.1:${chosen}`);
    },
  });
  if (services === undefined) throw new Error('buildApp gives its services to extend');
  // The render thread loads its modules while the folder is imported: the first page is then
  // rendered at once, not after the thread's start (seconds from the sources, under tsx).
  services.workers.render.run('pageBlocks', ['# warm-up']).catch(() => {});
  const site = await createPreviewSite(services, db, basename(folder));
  const loader = new FolderLoader(folder, {
    services,
    db,
    site,
    limits: config.contentLimits,
    log: app.log,
  });

  let shown = '';
  // One load at a time, in order: the first one and the watcher's.
  let chain = Promise.resolve();
  const load = () => {
    chain = chain.then(loadOnce);
    return chain;
  };
  const loadOnce = async () => {
    const started = performance.now();
    const outcome = await loader.load();
    const ms = Math.round(performance.now() - started);
    const report = reportOf(outcome);
    // Problems are printed when they change, not on every save that leaves them as they were.
    if (report !== shown) {
      shown = report;
      for (const line of outcome.notices) io.err(`notice: ${line}`);
      for (const problem of outcome.problems) io.err(problemLine(problem));
    }
    if (outcome.changed) io.out(`updated in ${ms} ms`);
    const same = JSON.stringify(outcome.problems) === JSON.stringify(events.problems);
    if (outcome.changed || !same) events.update(outcome.problems);
  };
  const stopWatching = watchFolder(folder, load, (error) =>
    io.err(`livery preview: ${error.message}`),
  );
  await load();
  try {
    await app.listen({ host: '127.0.0.1', port: chosen });
  } catch (error) {
    stopWatching();
    await app.close();
    await db.destroy();
    const code = (error as { code?: unknown }).code;
    io.err(
      code === 'EADDRINUSE'
        ? `livery preview: port ${chosen} is in use; choose another with --port N`
        : `livery preview: cannot listen on 127.0.0.1:${chosen} (${String(code ?? error)})`,
    );
    return 1;
  }
  io.out(`Previewing ${folder}`);
  io.out(`  http://127.0.0.1:${chosen}/  (read-only; saved changes show at once; Ctrl-C stops)`);

  const signal = await stop;
  // A second signal, or a stop that takes too long, ends the process at once (the 'exit'
  // handler still removes the temporary directory).
  const now = () => {
    io.err('livery preview: stopped without waiting for open requests');
    process.exit(1);
  };
  process.once('SIGINT', now);
  process.once('SIGTERM', now);
  setTimeout(now, 5000).unref();
  stopWatching();
  await chain.catch(() => {});
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
  await app.close();
  clearInterval(sweeper);
  await db.destroy();
  removeTemp();
  io.out(`stopped (${signal})`);
  return 0;
}

function reportOf(outcome: LoadOutcome): string {
  return JSON.stringify([outcome.notices, outcome.problems]);
}

function problemLine(p: Problem): string {
  return `${p.severity}: ${p.file}${p.line === undefined ? '' : `:${p.line}`}: ${p.message}`;
}

/** A port free right now on 127.0.0.1 (`--port 0`), so that the addresses printed are real. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? done(address.port) : fail(address),
      );
    });
  });
}

/**
 * From a checkout (no build step): the published site's script and stylesheet, built from their
 * sources when missing or older (scripts/build-site-assets.ts). A built Livery has them already.
 */
async function buildSiteAssetsIfSources(): Promise<void> {
  const script = new URL('../../scripts/build-site-assets.ts', import.meta.url);
  if (!existsSync(script)) return;
  const module = (await import(pathToFileURL(script.pathname).href)) as {
    ensureSiteAssets: () => void;
  };
  module.ensureSiteAssets();
}
