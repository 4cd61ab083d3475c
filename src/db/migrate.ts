import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './database.js';
import * as m0001 from './migrations/0001_init.js';

// Listed explicitly (not read from the directory) so the set of migrations is part of the code
// that ships, whatever the runtime or bundler.
const migrations: Record<string, Migration> = {
  '0001_init': m0001,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema to the latest version; throws (with the failing migration) on error. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const name = failed?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${name} failed`, { cause: error });
  }
}
