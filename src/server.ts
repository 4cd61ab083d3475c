import pino from 'pino';
import { buildApp, buildServices } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { bootstrapIfEmpty } from './modules/identity/bootstrap.js';

/** The Livery process: config, migrations, first-start bootstrap, listen, graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const db = openDatabase(config.database);
  await migrateToLatest(db);
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
