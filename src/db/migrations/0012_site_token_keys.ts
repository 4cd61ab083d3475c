import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * The keys that sign site tokens (docs/renderer.md): short-lived JWTs that the URL lookup mints
 * for GitBook's renderer. A key never leaves the server; `livery site-token-keys rotate` adds a
 * new one and retires the current, which goes on verifying the tokens it signed until they expire.
 * One key is made here, so that every server of a database signs with the same key from the start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_token_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .execute();
  await announceChanges(db, ['site_token_keys']);
  await (db as Kysely<{ site_token_keys: Record<string, string | null> }>)
    .insertInto('site_token_keys')
    .values({
      id: `k${randomBytes(6).toString('hex')}`,
      secret: randomBytes(32).toString('base64url'),
      created_at: new Date().toISOString(),
      retired_at: null,
    })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_token_keys').execute();
}
