import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Sessions of Livery Studio (docs/studio.md): an API token pasted once is exchanged for a
 * session cookie. Only the SHA-256 of the cookie's secret is stored. A session acts as its token
 * (`token_id`): revoking the token, or deleting its user, ends the session with it.
 *
 * `server_secrets` holds keys every server of a database must share. The first is the HMAC key
 * that binds the studio's CSRF tokens to the session they were given to; it is made here so that
 * every server has the same one from the start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('studio_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('token_id', 'text', (c) =>
      c.notNull().references('api_tokens.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('studio_sessions_token')
    .on('studio_sessions')
    .column('token_id')
    .execute();
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ server_secrets: Record<string, string> }>)
    .insertInto('server_secrets')
    .values({
      name: 'studio-csrf',
      secret: randomBytes(32).toString('base64url'),
      created_at: new Date().toISOString(),
    })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
  await db.schema.dropTable('studio_sessions').execute();
}
