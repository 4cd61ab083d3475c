import type { Kysely } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Custom fonts (GitBook 0.202's custom-fonts; docs/customization.md, "Custom fonts").
 *
 * - `custom_fonts`: one font family of an organization per row. `faces` is the JSON text of its
 *   faces, `[{weight, storageKey, url, format?}]` in weight order: the storage object each weight
 *   was given (modules/storage) and its download URL and format as they were when given, so a
 *   read needs no storage lookup.
 * - The organization's list is read by `(organization_id, created_at, id)`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('custom_fonts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('font_family', 'text', (c) => c.notNull())
    .addColumn('faces', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema
    .createIndex('custom_fonts_organization')
    .on('custom_fonts')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await announceChanges(db, ['custom_fonts']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_fonts').execute();
}
