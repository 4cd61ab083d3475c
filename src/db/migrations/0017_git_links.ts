import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Two-way Git Sync (docs/git-sync.md, "Linking a repository").
 *
 * - `git_links`: a space linked to a repository's branch. The URL is stored twice: with its
 *   credentials replaced by `***` (shown, logged), and whole, encrypted with the server key
 *   (`url_secret`, null when it has no credentials); the webhook secret is encrypted too.
 * - `git_sync.revision_id`: the space's revision that `commit_oid` holds (the last point both
 *   sides agreed on); `owned_paths`: the files the space owns in the repository at that point
 *   (JSON), so that an export deletes what the space no longer has and nothing else;
 *   `conflict`: the last sync where both sides changed the same file (JSON), shown by
 *   getSpaceGitInfo.
 * - `git_branch_previews`: branches other than the linked one, each imported as a change request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['revision_id', 'owned_paths', 'conflict']) {
    await db.schema.alterTable('git_sync').addColumn(column, 'text').execute();
  }
  await db.schema
    .createTable('git_links')
    .addColumn('space_id', 'text', (c) =>
      c.primaryKey().references('spaces.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('url_secret', 'text')
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text')
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('commit_template', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text')
    .addColumn('author_email', 'text')
    .addColumn('preview_branches', 'integer', (c) => c.notNull())
    .addColumn('poll_seconds', 'integer', (c) => c.notNull())
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // When the remote was last fetched; null: fetch at the next look (a webhook said it moved).
    .addColumn('polled_at', 'text')
    .execute();
  await db.schema
    .createTable('git_branch_previews')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('change_request_id', 'text', (c) => c.notNull())
    .addColumn('commit_oid', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('git_branch_previews_pk', ['space_id', 'branch'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('git_branch_previews').execute();
  await db.schema.dropTable('git_links').execute();
  for (const column of ['conflict', 'owned_paths', 'revision_id']) {
    await db.schema.alterTable('git_sync').dropColumn(column).execute();
  }
}
