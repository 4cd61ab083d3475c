import { type Kysely, sql } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Content (issue 6, docs/content.md): immutable revisions of a space's page tree, change
 * requests, and the page views and feedback ratings behind content insights. Everything that
 * belongs to a space goes with it (ON DELETE CASCADE).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    // edits | merge | update (GitBook's Revision types)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('parents', 'text', (c) => c.notNull()) // JSON array of revision ids
    .addColumn('merged_from', 'text') // the change request a merge revision came from
    .addColumn('pages', 'text', (c) => c.notNull()) // JSON page tree (modules/content/tree.ts)
    .addColumn('touched', 'text', (c) => c.notNull()) // JSON array: pages changed from parents[0]
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revisions_space').on('revisions').column('space_id').execute();
  // Every existing space gets the empty revision its `revision_id` already names.
  await sql`
    insert into revisions (id, space_id, type, parents, pages, touched, created_at)
    select revision_id, id, 'edits', '[]', '[]', '[]', created_at from spaces`.execute(db);

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('revision_initial', 'text', (c) => c.notNull())
    .addColumn('revision_merged_ancestor', 'text')
    .addColumn('revision_merged', 'text')
    .execute();
  await db.schema
    .createIndex('change_requests_space_number')
    .on('change_requests')
    .columns(['space_id', 'number'])
    .unique()
    .execute();
  await db.schema
    .createIndex('change_requests_space_status')
    .on('change_requests')
    .columns(['space_id', 'status', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('page_feedbacks')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('visitor_id', 'text', (c) => c.notNull())
    .addColumn('rating', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_feedbacks_pk', ['space_id', 'page_id', 'visitor_id'])
    .execute();

  // Page views are counted per page and day (UTC): content insights read counts, whatever the
  // traffic; no per-view row, and no visitor id, is kept.
  await db.schema
    .createTable('page_view_days')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_view_days_pk', ['space_id', 'day', 'page_id'])
    .execute();
  await announceChanges(db, ['revisions', 'change_requests', 'page_feedbacks', 'page_view_days']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['page_view_days', 'page_feedbacks', 'change_requests', 'revisions']) {
    await db.schema.dropTable(table).execute();
  }
}
