import type { Kysely } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Site lifecycle (issue 4): a site's proxy, a variant's condition, share links (only a hash of
 * each key is stored), visitor-authentication settings, and the history of publishing and
 * visibility changes. Everything that belongs to a site goes with it (ON DELETE CASCADE).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('proxy', 'text').execute();
  // Published sites are served at PUBLIC_URL + basename: a basename names one site.
  await db.schema.createIndex('sites_basename').on('sites').column('basename').unique().execute();
  await db.schema.alterTable('site_spaces').addColumn('condition', 'text').execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    // Hex SHA-256 of the key; the key itself is shown once, at creation.
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_share_links_site_created')
    .on('site_share_links')
    .columns(['site_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('site_publishing_auth')
    .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('fallback_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('site_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('old_value', 'text', (c) => c.notNull())
    .addColumn('new_value', 'text', (c) => c.notNull())
    // No foreign key: the history keeps who acted even after that user is gone.
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_events_site_at')
    .on('site_events')
    .columns(['site_id', 'at'])
    .execute();

  await announceChanges(db, ['site_share_links', 'site_publishing_auth', 'site_events']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['site_events', 'site_publishing_auth', 'site_share_links']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('sites_basename').execute();
  await db.schema.alterTable('site_spaces').dropColumn('condition').execute();
  await db.schema.alterTable('sites').dropColumn('proxy').execute();
}
