import type { Kysely } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Site redirects (GitBook 0.202's site-redirects; docs/sites.md, "Redirects").
 *
 * - `site_redirects`: one rule per row. `source` is stored in its canonical form (percent-encoding
 *   normalized, modules/redirects/source-path.ts), so the unique index also catches `/caf%c3%a9`
 *   against `/café`. A draft and a live rule may share a source (GitBook's `intent`), hence
 *   `(site_id, draft, source)`. `destination` is GitBook's SiteRedirectDestination as JSON text.
 * - The same index serves the list ordered by source and the exact lookup; the list's default
 *   order (`createdAt`) has its own.
 * - Changes are announced to other processes (db/change-notifications.ts): each process keeps a
 *   per-site index of the live rules in memory, dropped on any commit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_redirects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('draft', 'integer', (c) => c.notNull())
    .addColumn('capture_wildcard', 'integer', (c) => c.notNull())
    .addColumn('permanent', 'integer', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema
    .createIndex('site_redirects_source')
    .on('site_redirects')
    .columns(['site_id', 'draft', 'source'])
    .unique()
    .execute();
  await db.schema
    .createIndex('site_redirects_created')
    .on('site_redirects')
    .columns(['site_id', 'created_at', 'id'])
    .execute();
  await announceChanges(db, ['site_redirects']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_redirects').execute();
}
