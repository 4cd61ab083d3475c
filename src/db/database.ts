import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { DatabaseSchema } from './schema.js';
import { LiverySqliteDialect } from './sqlite-driver.js';

export type Db = Kysely<DatabaseSchema>;

/** Opens the configured database. The caller owns it and must `destroy()` it. */
export function openDatabase(config: DatabaseConfig): Db {
  const dialect = new LiverySqliteDialect(openSqlite(config.filename, config.synchronous));
  const db = new Kysely<DatabaseSchema>({ dialect });
  generations.set(db, () => dialect.generation());
  return db;
}

function openSqlite(filename: string, synchronous: 'FULL' | 'NORMAL'): SQLite.Database {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const db = new SQLite(filename);
  // WAL lets readers (another Livery process, the CLI, a backup) work while a write commits;
  // busy_timeout makes a second process wait for the write lock instead of failing at once.
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

const generations = new WeakMap<Db, () => string>();

/**
 * The database's current generation (see LiverySqliteDialect.generation), or undefined when the
 * dialect cannot tell, in which case nothing may be cached.
 */
export function generationOf(db: Db): (() => string) | undefined {
  return generations.get(db);
}
