import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { DatabaseConfig, SqliteConfig } from '../config.js';
import type { PoolStats } from './pool-stats.js';
import { LiveryPostgres } from './postgres.js';
import type { DatabaseSchema } from './schema.js';
import { LiverySqliteDialect } from './sqlite-driver.js';

export type Db = Kysely<DatabaseSchema>;

interface Instruments {
  /** See generationOf. */
  generation: () => string | undefined;
  stats: () => PoolStats;
  /** See freshnessFenceOf. */
  fence?: () => Promise<void>;
}

const instruments = new WeakMap<Db, Instruments>();

/** Opens the configured database. The caller owns it and must `destroy()` it. */
export function openDatabase(config: DatabaseConfig): Db {
  if (config.dialect === 'postgres') {
    const postgres = new LiveryPostgres(config);
    const db = new Kysely<DatabaseSchema>({ dialect: postgres.dialect });
    instruments.set(db, {
      generation: () => postgres.generation(),
      stats: () => postgres.stats(),
      fence: () => postgres.fence(),
    });
    return db;
  }
  const dialect = new LiverySqliteDialect(openSqlite(config), config.lockWaitMs);
  const db = new Kysely<DatabaseSchema>({ dialect });
  instruments.set(db, { generation: () => dialect.generation(), stats: () => dialect.stats() });
  return db;
}

function openSqlite({ filename, synchronous, lockWaitMs }: SqliteConfig): SQLite.Database {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const db = new SQLite(filename);
  // busy_timeout makes a second process wait for a lock instead of failing at once; it comes
  // first because switching a new file to WAL takes a lock too (two processes starting together
  // on a new file both switch it). WAL lets readers (another Livery process, the CLI, a backup)
  // work while a write commits.
  db.pragma(`busy_timeout = ${Math.max(lockWaitMs, 5000)}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  // From here on, a statement that finds the lock held fails at once, and the driver waits for
  // the lock on a timer (sqlite-driver.ts): SQLite's own wait would block the event loop.
  db.pragma('busy_timeout = 0');
  // SQLite's lower() folds only A-Z; PostgreSQL's folds every letter (É → é). Livery's
  // case-insensitive filters (db/like.ts) need the same answer on both, so lower() is
  // JavaScript's here. It is deterministic, as SQLite requires of functions used in queries.
  db.function('lower', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );
  return db;
}

/**
 * The database's generation: a value that changes whenever the database may have changed, by
 * this process or another. It returns undefined when that cannot be known right now (e.g. the
 * PostgreSQL change listener is reconnecting), in which case nothing may be cached.
 */
export function generationOf(db: Db): () => string | undefined {
  return instruments.get(db)?.generation ?? (() => undefined);
}

/**
 * For a database whose generation can lag behind commits made elsewhere (PostgreSQL: another
 * process's commit is heard asynchronously), a function to await before the cached reads of a
 * request: it resolves once every commit made before the call is reflected in the generation.
 * Undefined where the generation never lags (SQLite reads `data_version` synchronously).
 */
export function freshnessFenceOf(db: Db): (() => Promise<void>) | undefined {
  return instruments.get(db)?.fence;
}

/** The database's connection-pool figures right now (for `/metrics`). */
export function poolStatsOf(db: Db): PoolStats {
  return instruments.get(db)?.stats() ?? { size: 0, idle: 0, waiting: 0 };
}
