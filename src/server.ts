import pino from 'pino';
import { buildApp, buildServices } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Db, openDatabase } from './db/database.js';
import { isUnavailable } from './db/errors.js';
import { migrateToLatest } from './db/migrate.js';
import { bootstrapIfEmpty } from './modules/identity/bootstrap.js';

/** The Livery process: config, migrations, first-start bootstrap, listen, graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const db = openDatabase(config.database);
  await migrateOrExit(db, config);
  await bootstrapIfEmpty(buildServices({ config, db }).identity, config, (text) =>
    process.stdout.write(`${text}\n`),
  );

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

/** An unreachable database at start-up is an operator's problem: say which one, briefly. */
async function migrateOrExit(db: Db, config: Config): Promise<void> {
  try {
    await migrateToLatest(db);
  } catch (error) {
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    if (!isUnavailable(cause) && !isUnavailable(error)) throw error;
    const where =
      config.database.dialect === 'postgres'
        ? `PostgreSQL at ${config.database.display}`
        : `SQLite at ${config.database.filename}`;
    const reason = describe(cause);
    process.stderr.write(`Livery cannot reach the database (${where}): ${reason}\n`);
    await db.destroy().catch(() => {});
    process.exit(1);
  }
}

/** The driver's code and message, which name no credentials (the URL is never part of them). */
function describe(error: unknown): string {
  if (error instanceof AggregateError) return error.errors.map(describe).join('; ');
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${code} ${error.message}`
    : error.message;
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
