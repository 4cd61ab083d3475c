import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Content from Git (docs/git-sync.md).
 *
 * - `file_blobs`: the bytes of revision files (images, downloads), keyed by the SHA-256 of their
 *   content, stored once however many revisions and spaces use them, readable by every process.
 *   Rows never change; a row whose last user went stays (docs/git-sync.md, "Storage").
 * - `content_sets`: a revision's list of files, or of reusable contents, as canonical JSON keyed
 *   by its hash (a space's 1,000 files are one row shared by every revision that has them).
 * - `revisions.git` (the commit a revision was imported from, JSON), `revisions.files` and
 *   `revisions.reusable_contents` (content_sets hashes; null: none), `revisions.redirects`
 *   (`.gitbook.yaml`'s redirects as JSON: old path → page id).
 * - `git_sync`: a space's repository and its latest operation. One row per space; the row is the
 *   lock that keeps one operation at a time per space, across processes (`owner`, `lease_until`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('content_sets')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_sets_pk', ['space_id', 'hash'])
    .execute();
  for (const column of ['git', 'files', 'reusable_contents', 'redirects']) {
    await db.schema.alterTable('revisions').addColumn(column, 'text').execute();
  }
  await db.schema
    .createTable('git_sync')
    .addColumn('space_id', 'text', (c) =>
      c.primaryKey().references('spaces.id').onDelete('cascade'),
    )
    // The repository's URL with any credentials replaced by `***`: credentials are never stored.
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text')
    .addColumn('tree_url', 'text')
    .addColumn('commit_url', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('error', 'text')
    // JSON array of warnings ({file, line, message}) of the latest operation.
    .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
    // The last commit imported, and the `timestamp` of the last operation asked for.
    .addColumn('commit_oid', 'text')
    .addColumn('timestamp', 'text')
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('git_sync').execute();
  for (const column of ['git', 'files', 'reusable_contents', 'redirects']) {
    await db.schema.alterTable('revisions').dropColumn(column).execute();
  }
  await db.schema.dropTable('content_sets').execute();
  await db.schema.dropTable('file_blobs').execute();
}
