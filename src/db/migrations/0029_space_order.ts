import { type Kysely, sql } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * The order of an organization's spaces (docs/content.md, "The order of an organization's
 * spaces"): moveSpace changes it, listSpacesInOrganizationById lists by it.
 *
 * - `spaces.position`: the space's sort key within its organization, text. A new space's is its
 *   creation time and id (`<created_at>/<id>`, newSpaceRow), so it goes last, and existing
 *   spaces get theirs the same way: the order they were listed in so far. A move deals the
 *   organization's existing keys out again in the new order (spaces/order.ts), so keys stay
 *   unique, never later than the newest creation, and a space created later still goes last.
 * - The index serves the organization's list, by (position, id) as its page cursors are.
 *   The `spaces` table already announces its changes to other processes (0002).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('spaces')
    .addColumn('position', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await sql`update spaces set position = created_at || '/' || id`.execute(db);
  await db.schema
    .createIndex('spaces_organization_position')
    .on('spaces')
    .columns(['organization_id', 'position', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('spaces_organization_position').execute();
  await db.schema.alterTable('spaces').dropColumn('position').execute();
}
