import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Custom hostnames (docs/sites.md, "Custom hostnames"): a site may be served at the root of its
 * own hostname behind a reverse proxy.
 *
 * - `sites.hostname`: stored in lower case (the API folds it), so the unique index makes two
 *   sites' hostnames differ case-insensitively, across organizations. NULL: no hostname (many).
 * - The index is also the lookup of every request that arrives for a hostname (published/
 *   access/site-hostnames.ts). The `sites` table already announces its changes to other
 *   processes (0002_change_notifications).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('hostname', 'text').execute();
  await db.schema.createIndex('sites_hostname').on('sites').column('hostname').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sites_hostname').execute();
  await db.schema.alterTable('sites').dropColumn('hostname').execute();
}
