import pino from 'pino';
import { buildApp, buildServices } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Db, openDatabase } from './db/database.js';
import { sqliteFileProblem } from './db/environment-check.js';
import { describeDriverError, environmentFault, isUnavailable } from './db/errors.js';
import { migrateToLatest } from './db/migrate.js';
import { bootstrapIfEmpty } from './modules/identity/bootstrap.js';

/** The Livery process: config, migrations, first-start bootstrap, listen, graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  let db: Db | undefined;
  try {
    db = openDatabase(config.database);
    await refuseReadOnlySqlite(config);
    await migrateToLatest(db);
    await bootstrapIfEmpty(buildServices({ config, db }).identity, config, (text) =>
      process.stdout.write(`${text}\n`),
    );
  } catch (error) {
    await exitIfEnvironmentFault(error, db, config);
    throw error;
  }

  // Log lines are buffered (one write per 4 KiB instead of a system call per request) and flushed
  // at least every second and on exit.
  const logStream = pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 1000 });
  const app = await buildApp({ config, db, logStream });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting anyway');
      logStream.flushSync();
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    // A keep-alive connection becomes idle when its in-flight request completes; close those as
    // they appear, or close() would wait for the client's keep-alive timeout.
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
    try {
      await app.close(); // stops accepting, waits for in-flight requests
      clearInterval(sweeper);
      await db.destroy();
      app.log.info('stopped');
      logStream.flushSync();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      logStream.flushSync();
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
}

/**
 * SQLite opens a file it may not write read-only, without a word: every write would then fail.
 * Say so before serving (db/environment-check.ts).
 */
async function refuseReadOnlySqlite(config: Config): Promise<void> {
  const database = config.database;
  if (database.dialect !== 'sqlite' || database.filename === ':memory:') return;
  const problem = await sqliteFileProblem(database.filename);
  if (problem !== undefined) throw new StartupFault(problem);
}

class StartupFault extends Error {}

// What creating the database's directory or opening its file can fail with (fs errors).
const FILE_FAULTS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR', 'EEXIST', 'ELOOP']);

/**
 * A database that is unreachable, missing, read-only or full at start-up is an operator's
 * problem: one line on stderr that names the database and the cause, no stack, exit 1. The
 * driver's code and message name no credentials (the URL is never part of them).
 */
async function exitIfEnvironmentFault(
  error: unknown,
  db: Db | undefined,
  config: Config,
): Promise<void> {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const where =
    config.database.dialect === 'postgres'
      ? `PostgreSQL at ${config.database.display}`
      : `SQLite at ${config.database.filename}`;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const fault = environmentFault(error);
  let line: string;
  if (error instanceof StartupFault) {
    line = `Livery cannot use the database (${where}): ${error.message}`;
  } else if (isUnavailable(cause) || isUnavailable(error)) {
    line = `Livery cannot reach the database (${where}): ${describeDriverError(cause)}`;
  } else if (fault !== undefined || (typeof code === 'string' && FILE_FAULTS.has(code))) {
    // SQLite's "unable to open database file" does not say why; the file check often can.
    const why =
      (config.database.dialect === 'sqlite'
        ? await sqliteFileProblem(config.database.filename).catch(() => undefined)
        : undefined) ?? fault;
    const driver = describeDriverError(cause);
    line = `Livery cannot use the database (${where}): ${why === undefined ? driver : `${why} (${driver})`}`;
  } else {
    return;
  }
  process.stderr.write(`${line}\n`);
  await db?.destroy().catch(() => {});
  process.exit(1);
}

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Livery failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
