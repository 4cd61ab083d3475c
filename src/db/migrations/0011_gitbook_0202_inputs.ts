import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * What GitBook 0.202's request fields store (docs/api.md, "GitBook 0.202's inputs"): a
 * site-space's own title for the variant (null: the space's title) and whether it is hidden from
 * the published site's variant switcher; a space's icon (an absolute URL) and its explicit
 * language (null: derived from the variants showing it); the address visitors of a
 * visitor-authentication site are sent to to sign out upstream. Existing rows keep their meaning:
 * no title of their own, shown, no icon, no explicit language, no logout URL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_spaces').addColumn('title', 'text').execute();
  await db.schema
    .alterTable('site_spaces')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('spaces').addColumn('icon', 'text').execute();
  await db.schema.alterTable('spaces').addColumn('language', 'text').execute();
  await db.schema.alterTable('site_publishing_auth').addColumn('logout_url', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_publishing_auth').dropColumn('logout_url').execute();
  await db.schema.alterTable('spaces').dropColumn('language').execute();
  await db.schema.alterTable('spaces').dropColumn('icon').execute();
  await db.schema.alterTable('site_spaces').dropColumn('hidden').execute();
  await db.schema.alterTable('site_spaces').dropColumn('title').execute();
}
