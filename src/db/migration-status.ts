import { DEFAULT_MIGRATION_TABLE } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrate.js';

export interface MigrationStatus {
  /** Known to this code and recorded as applied. */
  applied: string[];
  /** Known to this code and not applied yet: the database is behind the code. */
  pending: string[];
  /**
   * Recorded as applied but unknown to this code: a newer version migrated the database (e.g.
   * during a rolling deployment). Not a reason to stop serving: migrations only add.
   */
  unknown: string[];
}

/**
 * Compares the migrations this code ships (db/migrate.ts) with those recorded in Kysely's
 * migration table. One query; throws when the database does not answer or was never migrated
 * (no table). The table is found through the connection's `search_path` on PostgreSQL, whose
 * first schema is where `migrateToLatest` keeps it.
 */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  const rows = await db
    .withTables<{ [DEFAULT_MIGRATION_TABLE]: { name: string } }>()
    .selectFrom(DEFAULT_MIGRATION_TABLE)
    .select('name')
    .execute();
  const recorded = new Set(rows.map((row) => row.name));
  const known = Object.keys(migrations).sort();
  return {
    applied: known.filter((name) => recorded.has(name)),
    pending: known.filter((name) => !recorded.has(name)),
    unknown: [...recorded].filter((name) => !(name in migrations)).sort(),
  };
}
