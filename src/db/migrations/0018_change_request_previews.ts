import { type Kysely, sql } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Change request previews (docs/change-request-previews.md): a link that lets anyone
 * holding it read a change request's content as the published site would show it.
 *
 * - `change_request_previews`: one row per link ever made. The link's signature is not stored:
 *   it is the server key's HMAC of the id (src/server-key.ts), computed again when needed.
 *   `closed_at` set: the link ended (`closed_reason` says why, when the caller said).
 * - At most one open link per change request: a unique index on `change_request_id` over the
 *   rows not closed (a partial index, on SQLite as on PostgreSQL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_request_previews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('label', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('closed_reason', 'text')
    .execute();
  await db.schema
    .createIndex('change_request_previews_open')
    .on('change_request_previews')
    .column('change_request_id')
    .unique()
    .where(sql.ref('closed_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('change_request_previews_space')
    .on('change_request_previews')
    .columns(['space_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('change_request_previews').execute();
}
