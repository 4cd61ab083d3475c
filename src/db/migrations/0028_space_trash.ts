import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * The trash of spaces (docs/content.md, "Spaces: delete, restore, duplicate, move").
 *
 * - `spaces.deleted_at`: when deleteSpaceById put the space in the trash; NULL for a live space.
 *   A space in the trash is read by nobody (every query of `spaces` keeps `deleted_at IS NULL`;
 *   test/unit/deleted-spaces-filter.test.ts holds every reader to it) and is purged, with
 *   everything of it (ON DELETE CASCADE), 7 days later by the purge sweep (spaces/trash.ts).
 * - The index serves that sweep, which looks for the oldest deleted spaces; live spaces are NULL.
 *   The `spaces` table already announces its changes to other processes (0002).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('spaces').addColumn('deleted_at', 'text').execute();
  await db.schema.createIndex('spaces_deleted_at').on('spaces').column('deleted_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('spaces_deleted_at').execute();
  await db.schema.alterTable('spaces').dropColumn('deleted_at').execute();
}
