import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

// What differs between SQLite and PostgreSQL in how Livery uses them, in one place, so
// repositories and migrations stay dialect-free.

// biome-ignore lint/suspicious/noExplicitAny: works on any Kysely instance or transaction
type AnyDb = Kysely<any>;

export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Row locks for a read-modify-write inside a transaction. PostgreSQL runs concurrent
 * transactions (from this process's pool or other processes) at READ COMMITTED, so the rows
 * read must be locked (`FOR UPDATE OF <table>`) until commit. SQLite has a single writer:
 * Livery's transactions begin IMMEDIATE, which already excludes every other writer.
 */
export function lockRows<Q extends { forUpdate(of?: never): Q }>(
  db: AnyDb,
  query: Q,
  table: string,
): Q {
  return isPostgres(db) ? query.forUpdate(table as never) : query;
}

/**
 * Serializes first-start bootstrap between processes starting at once: a transaction-scoped
 * advisory lock on PostgreSQL; on SQLite the IMMEDIATE transaction already does.
 */
export async function lockBootstrap(trx: AnyDb): Promise<void> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(hashtext(current_schema()))`.execute(trx);
}

/**
 * The text at `path` inside a JSON document stored as text (Livery's JSON columns), or null when
 * the column is null or the path leads nowhere: `json_extract` on SQLite, `#>>` on PostgreSQL.
 * `path` comes from code, never from a request.
 */
export function jsonTextAt(
  db: AnyDb,
  column: string,
  path: readonly string[],
): RawBuilder<string | null> {
  if (!path.every((key) => /^[A-Za-z]+$/.test(key))) throw new Error(`Bad JSON path ${path}`);
  return isPostgres(db)
    ? sql<string | null>`(${sql.ref(column)}::jsonb #>> ${sql.lit(`{${path.join(',')}}`)})`
    : sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${path.join('.')}`)})`;
}
