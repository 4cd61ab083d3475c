import type { Kysely } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Uploads (GitBook 0.202's generateStorageUploadURL; docs/uploads.md).
 *
 * - `storage_uploads`: one row per signed upload URL handed out: what it may take (kind, name,
 *   declared type and size) and until when. `used_at` is set by the one upload that takes it,
 *   in the transaction that stores the file (`UPDATE … WHERE used_at IS NULL`): a URL is used
 *   once however many processes share the database. Rows are pruned a day after they expire.
 * - `storage_objects`: each stored file, by its `key` (GitBook's StorageFileKey, unique). Its
 *   bytes are in `file_blobs` (0016) under `hash`, shared with revision files: the same bytes
 *   are stored once. Rows never change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('storage_uploads_expires')
    .on('storage_uploads')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('storage_objects')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('storage_objects_organization')
    .on('storage_objects')
    .columns(['organization_id', 'created_at'])
    .execute();
  await announceChanges(db, ['storage_uploads', 'storage_objects']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_objects').execute();
  await db.schema.dropTable('storage_uploads').execute();
}
