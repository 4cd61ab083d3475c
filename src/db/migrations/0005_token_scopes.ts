import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Scoped API tokens (docs/permissions.md): a token may carry a subset of GitBook's OAuth scope
 * names (`scopes`, a JSON array; null = all of its user's rights), may expire, and records when
 * it was last used (at most once a minute: it is not a write per request).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('scopes', 'text').execute();
  await db.schema.alterTable('api_tokens').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('api_tokens').addColumn('last_used_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['last_used_at', 'expires_at', 'scopes']) {
    await db.schema.alterTable('api_tokens').dropColumn(column).execute();
  }
}
