import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db } from './database.js';
import { isPostgres } from './dialect.js';
import * as m0001 from './migrations/0001_init.js';
import * as m0002 from './migrations/0002_change_notifications.js';
import * as m0003 from './migrations/0003_idempotency_keys.js';
import * as m0004 from './migrations/0004_site_lifecycle.js';
import * as m0005 from './migrations/0005_token_scopes.js';
import * as m0006 from './migrations/0006_teams.js';
import * as m0007 from './migrations/0007_invites.js';
import * as m0008 from './migrations/0008_content.js';
import * as m0009 from './migrations/0009_missing_initial_revisions.js';
import * as m0010 from './migrations/0010_customization_0202.js';
import * as m0011 from './migrations/0011_gitbook_0202_inputs.js';
import * as m0012 from './migrations/0012_site_token_keys.js';
import * as m0013 from './migrations/0013_history_and_audit.js';
import * as m0014 from './migrations/0014_studio_sessions.js';
import * as m0015 from './migrations/0015_content_addressed_pages.js';
import * as m0016 from './migrations/0016_git_sync.js';
import * as m0017 from './migrations/0017_git_links.js';
import * as m0018 from './migrations/0018_change_request_previews.js';
import * as m0019 from './migrations/0019_site_structure.js';
import * as m0020 from './migrations/0020_site_redirects.js';
import * as m0021 from './migrations/0021_site_hostnames.js';
import * as m0022 from './migrations/0022_site_git_sync.js';
import * as m0024 from './migrations/0024_storage.js';
import * as m0025 from './migrations/0025_custom_fonts.js';
import * as m0026 from './migrations/0026_site_insight_events.js';
import * as m0028 from './migrations/0028_space_trash.js';
import * as m0029 from './migrations/0029_space_order.js';

// Listed explicitly (not read from the directory) so the set of migrations is part of the code
// that ships, whatever the runtime or bundler.
export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_change_notifications': m0002,
  '0003_idempotency_keys': m0003,
  '0004_site_lifecycle': m0004,
  '0005_token_scopes': m0005,
  '0006_teams': m0006,
  '0007_invites': m0007,
  '0008_content': m0008,
  '0009_missing_initial_revisions': m0009,
  '0010_customization_0202': m0010,
  '0011_gitbook_0202_inputs': m0011,
  '0012_site_token_keys': m0012,
  '0013_history_and_audit': m0013,
  '0014_studio_sessions': m0014,
  '0015_content_addressed_pages': m0015,
  '0016_git_sync': m0016,
  '0017_git_links': m0017,
  '0018_change_request_previews': m0018,
  '0019_site_structure': m0019,
  '0020_site_redirects': m0020,
  '0021_site_hostnames': m0021,
  '0022_site_git_sync': m0022,
  '0024_storage': m0024,
  '0025_custom_fonts': m0025,
  '0026_site_insight_events': m0026,
  '0028_space_trash': m0028,
  '0029_space_order': m0029,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema to the latest version; throws (with the failing migration) on error.
 * Safe when several processes start at once: on PostgreSQL Kysely's migrator holds an advisory
 * lock while it runs; on SQLite its transaction begins IMMEDIATE, which excludes other writers.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = await createMigrator(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const name = failed?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? `: ${error.message}` : '';
    throw new Error(`Database migration ${name} failed${reason}`, { cause: error });
  }
}

/** Kysely's migrator over Livery's migrations (tests use it to migrate down and up again). */
export async function createMigrator(db: Db): Promise<Migrator> {
  return new Migrator({ db, provider, ...(await migrationSchema(db)) });
}

/**
 * On PostgreSQL, Livery's schema (the first of the connection's `search_path`, set from
 * DATABASE_URL's `schema`) is created if needed and holds Kysely's migration tables too; it is
 * named explicitly because Kysely otherwise takes a migration table in any schema for its own.
 */
async function migrationSchema(db: Db): Promise<{ migrationTableSchema?: string }> {
  if (!isPostgres(db)) return {};
  const { rows } = await sql<{
    path: string;
  }>`select current_setting('search_path') as path`.execute(db);
  const first = rows[0]?.path.split(',')[0]?.trim().replace(/^"|"$/g, '');
  const schema = first === undefined || first === '' || first === '$user' ? 'public' : first;
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (error) {
    // Two processes creating it at the same moment: one wins, the other finds it there.
    const { rows: found } = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(
      db,
    );
    if (found.length === 0) throw error;
  }
  return { migrationTableSchema: schema };
}
