import { type Kysely, sql } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Repairs spaces created with a site (`createSite` with `spaces: "empty"`) between migration
 * 0008 and this release: their row named an initial revision that was never written, so every
 * content read of them was a 404. Each gets the empty revision its `revision_id` names, as 0008
 * gave every space that existed then. Idempotent; nothing to undo.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into revisions (id, space_id, type, parents, pages, touched, created_at)
    select s.revision_id, s.id, 'edits', '[]', '[]', '[]', s.created_at from spaces s
    where not exists (select 1 from revisions r where r.id = s.revision_id)`.execute(db);
}

export async function down(): Promise<void> {}
