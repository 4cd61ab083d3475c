import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * A whole site from Git (docs/git-sync.md, "Whole sites (docs.yaml)").
 *
 * - `site_git_sync`: a site's repository and its latest site operation, as `git_sync` is for a
 *   space (migration 0016): one row per site, and the row is the lock that keeps one site
 *   operation at a time across processes (`owner`, `lease_until`). The site's spaces keep their
 *   own `git_sync` rows: each space import of a site import is recorded there too.
 * - `customization_revisions.message`: why a revision was made, when something other than a
 *   person's request made it (a site import: the commit it came from); null otherwise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_git_sync')
    .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    // The repository's URL with any credentials replaced by `***`: credentials are never stored.
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text')
    .addColumn('tree_url', 'text')
    .addColumn('commit_url', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('error', 'text')
    .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('commit_oid', 'text')
    .addColumn('timestamp', 'text')
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('customization_revisions').addColumn('message', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customization_revisions').dropColumn('message').execute();
  await db.schema.dropTable('site_git_sync').execute();
}
