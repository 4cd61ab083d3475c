import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * The `Idempotency-Key` records of POST requests (src/http/idempotency.ts): one row per key of a
 * user, in progress (`status` null) until the response is stored. Not announced to other
 * processes (0002): nothing reads this table through a cache, every read goes to the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_user_key', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_expires')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
