import { constants } from 'node:fs';
import { access, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sql } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { Db } from './database.js';

/**
 * Why the database cannot take writes right now, found without writing anything (for `/readyz`
 * and start-up); undefined when nothing is found. Reads answering says nothing about writes: a
 * read-only file, a full disk or a read-only PostgreSQL server all answer SELECTs.
 */
export async function writeBlocker(db: Db, database: DatabaseConfig): Promise<string | undefined> {
  if (database.dialect === 'postgres') return postgresReadOnly(db);
  if (database.filename === ':memory:') return undefined;
  return (await sqliteFileProblem(database.filename)) ?? (await sqliteFull(db));
}

/**
 * The file, its directory and the disk, as the process sees them. `access(W_OK)` is the kernel's
 * own answer, root included: it fails for an immutable file (chattr +i) or a read-only mount even
 * where root ignores permission bits. In WAL mode SQLite also writes `-wal` and `-shm` beside the
 * file, and creates them in the directory when they are missing.
 */
export async function sqliteFileProblem(filename: string): Promise<string | undefined> {
  const directory = dirname(filename);
  const file = await notWritable(filename);
  if (file === 'ENOENT') {
    const parent = await notWritable(directory);
    if (parent === 'ENOENT') return `the database directory is missing (${directory})`;
    return parent === undefined
      ? `the database file is missing (${filename}): it was moved or deleted; restore it, then restart Livery`
      : `the database directory is read-only (${directory}): SQLite cannot create the database file there`;
  }
  if (file !== undefined) return `the database file is read-only (${filename})`;
  let sidecarMissing = false;
  for (const sidecar of [`${filename}-wal`, `${filename}-shm`]) {
    const problem = await notWritable(sidecar);
    if (problem === 'ENOENT') sidecarMissing = true;
    else if (problem !== undefined) return `the database file is read-only (${sidecar})`;
  }
  if (sidecarMissing && (await notWritable(directory)) !== undefined) {
    return `the database directory is read-only (${directory}): SQLite creates the database's -wal and -shm files there`;
  }
  const disk = await statfs(directory).catch(() => undefined);
  // Root may use the blocks reserved for it; anyone else only the available ones.
  const free = process.getuid?.() === 0 ? disk?.bfree : disk?.bavail;
  if (free === 0) return `disk full: no space left on the file system holding ${directory}`;
  return undefined;
}

async function notWritable(path: string): Promise<string | undefined> {
  try {
    await access(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

/** SQLite's own limit: a database at `max_page_count` with no free page cannot grow. */
async function sqliteFull(db: Db): Promise<string | undefined> {
  const { rows } = await sql<{ pages: number; max: number; free: number }>`
    select page_count as pages, max_page_count as max, freelist_count as free
    from pragma_page_count(), pragma_max_page_count(), pragma_freelist_count()`.execute(db);
  const row = rows[0];
  if (row === undefined || row.free > 0 || row.pages < row.max) return undefined;
  return `the database is full: it reached its maximum size (max_page_count, ${row.max} pages)`;
}

/** A standby, or a server or database set to `default_transaction_read_only`. */
async function postgresReadOnly(db: Db): Promise<string | undefined> {
  const { rows } = await sql<{ readOnly: string }>`
    select current_setting('transaction_read_only') as "readOnly"`.execute(db);
  return rows[0]?.readOnly === 'on'
    ? 'the PostgreSQL server accepts no writes (transaction_read_only is on: a standby, or default_transaction_read_only)'
    : undefined;
}
