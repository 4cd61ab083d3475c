import { type Kysely, sql } from 'kysely';
import { announceChanges } from '../change-notifications.js';
import { isPostgres } from '../dialect.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Site structure (docs/sites.md, "Sections"): GitBook 0.202's sections, section groups and
 * external links, and site-spaces that belong to a section.
 *
 * - `site_section_groups`, `site_sections`, `site_external_links`: one row per node of a site's
 *   structure. Siblings (nodes with the same `parent_group_id`, null at the root) are ordered by
 *   `position` across the three tables. `localized_*` hold JSON objects keyed by language, or
 *   null. `git_key` is the node's stable key in a Git Sync `docs.yaml` (null for nodes made
 *   through the API); it is unique per site within each table here, and across the four tables
 *   (site-spaces included) by the code that sets it.
 * - A section's `path` is unique in its site, and at most one section of a site is its default.
 * - `site_spaces` gains `section_id` (null: a site without sections), `git_key`,
 *   `localized_title` and `draft`. A variant's path becomes unique per (site, section), and its
 *   default one per (site, section); positions are no longer unique (moves renumber siblings).
 *   SQLite cannot drop the inline UNIQUE constraints of 0001, so there the table is rebuilt
 *   (nothing references `site_spaces.id` by a foreign key); PostgreSQL drops them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('localized_title', 'text')
    .addColumn('description', 'text')
    .addColumn('localized_description', 'text')
    .addColumn('icon', 'text')
    .addColumn('draft', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('parent_group_id', 'text', (c) => c.references('site_section_groups.id'))
    .addColumn('git_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('localized_title', 'text')
    .addColumn('description', 'text')
    .addColumn('localized_description', 'text')
    .addColumn('icon', 'text')
    .addColumn('draft', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('parent_group_id', 'text', (c) => c.references('site_section_groups.id'))
    .addColumn('git_key', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('site_sections_site_path', ['site_id', 'path'])
    .execute();
  await db.schema
    .createTable('site_external_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('localized_title', 'text')
    .addColumn('description', 'text')
    .addColumn('localized_description', 'text')
    .addColumn('icon', 'text')
    .addColumn('draft', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('parent_group_id', 'text', (c) => c.references('site_section_groups.id'))
    .addColumn('git_key', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_sections_one_default')
    .on('site_sections')
    .column('site_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();
  for (const table of ['site_section_groups', 'site_sections', 'site_external_links']) {
    await db.schema
      .createIndex(`${table}_site`)
      .on(table)
      .columns(['site_id', 'position'])
      .execute();
    await db.schema.createIndex(`${table}_parent`).on(table).column('parent_group_id').execute();
    await gitKeyIndex(db, table);
  }

  if (isPostgres(db)) {
    await sql`alter table site_spaces drop constraint site_spaces_site_path`.execute(db);
    await sql`alter table site_spaces drop constraint site_spaces_site_position`.execute(db);
    await sql`drop index site_spaces_one_default`.execute(db);
    await sql`alter table site_spaces add column section_id text references site_sections (id) on delete cascade`.execute(
      db,
    );
    await sql`alter table site_spaces add column git_key text`.execute(db);
    await sql`alter table site_spaces add column localized_title text`.execute(db);
    await sql`alter table site_spaces add column draft integer default 0 not null`.execute(db);
  } else {
    await sql`create table site_spaces_new (
      id text primary key,
      site_id text not null references sites (id) on delete cascade,
      space_id text not null references spaces (id),
      path text not null,
      is_default integer not null,
      position integer not null,
      created_at text not null,
      override text,
      override_version integer not null,
      override_updated_at text,
      condition text,
      title text,
      hidden integer default 0 not null,
      section_id text references site_sections (id) on delete cascade,
      git_key text,
      localized_title text,
      draft integer default 0 not null
    )`.execute(db);
    await sql`insert into site_spaces_new (id, site_id, space_id, path, is_default, position,
      created_at, override, override_version, override_updated_at, condition, title, hidden)
      select id, site_id, space_id, path, is_default, position, created_at, override,
      override_version, override_updated_at, condition, title, hidden from site_spaces`.execute(db);
    await sql`drop table site_spaces`.execute(db);
    await sql`alter table site_spaces_new rename to site_spaces`.execute(db);
    await db.schema.createIndex('site_spaces_space').on('site_spaces').column('space_id').execute();
  }
  await siteSpaceIndexes(db);
  await announceChanges(db, ['site_section_groups', 'site_sections', 'site_external_links']);
}

/**
 * Paths and the default variant are unique per (site, section); a site without sections has
 * its variants at section '' (null is distinct from null in a unique index, '' is not).
 */
async function siteSpaceIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index site_spaces_section_path
    on site_spaces (site_id, coalesce(section_id, ''), path)`.execute(db);
  await sql`create unique index site_spaces_one_default
    on site_spaces (site_id, coalesce(section_id, '')) where is_default = 1`.execute(db);
  await db.schema
    .createIndex('site_spaces_site_position')
    .on('site_spaces')
    .columns(['site_id', 'position'])
    .execute();
  await db.schema
    .createIndex('site_spaces_section')
    .on('site_spaces')
    .column('section_id')
    .execute();
  await gitKeyIndex(db, 'site_spaces');
}

async function gitKeyIndex(db: Kysely<unknown>, table: string): Promise<void> {
  await db.schema
    .createIndex(`${table}_git_key`)
    .on(table)
    .columns(['site_id', 'git_key'])
    .unique()
    .where(sql.ref('git_key'), 'is not', null)
    .execute();
}

/**
 * Back to 0018: variants of sections are removed (their paths could collide at the site's
 * level), then the structure tables.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from site_spaces where section_id is not null`.execute(db);
  for (const index of [
    'site_spaces_section_path',
    'site_spaces_one_default',
    'site_spaces_site_position',
    'site_spaces_section',
    'site_spaces_git_key',
  ]) {
    await sql`drop index ${sql.id(index)}`.execute(db);
  }
  if (isPostgres(db)) {
    for (const column of ['section_id', 'git_key', 'localized_title', 'draft']) {
      await sql`alter table site_spaces drop column ${sql.id(column)}`.execute(db);
    }
    await sql`alter table site_spaces add constraint site_spaces_site_path unique (site_id, path)`.execute(
      db,
    );
    await sql`alter table site_spaces add constraint site_spaces_site_position unique (site_id, position)`.execute(
      db,
    );
  } else {
    await sql`create table site_spaces_old ("id" text primary key, "site_id" text not null references "sites" ("id") on delete cascade, "space_id" text not null references "spaces" ("id"), "path" text not null, "is_default" integer not null, "position" integer not null, "created_at" text not null, "override" text, "override_version" integer not null, "override_updated_at" text, "condition" text, "title" text, "hidden" integer default 0 not null, constraint "site_spaces_site_path" unique ("site_id", "path"), constraint "site_spaces_site_position" unique ("site_id", "position"))`.execute(
      db,
    );
    await sql`insert into site_spaces_old select id, site_id, space_id, path, is_default, position,
      created_at, override, override_version, override_updated_at, condition, title, hidden
      from site_spaces`.execute(db);
    await sql`drop table site_spaces`.execute(db);
    await sql`alter table site_spaces_old rename to site_spaces`.execute(db);
    await db.schema.createIndex('site_spaces_space').on('site_spaces').column('space_id').execute();
  }
  await db.schema
    .createIndex('site_spaces_one_default')
    .on('site_spaces')
    .column('site_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();
  await db.schema.dropTable('site_external_links').execute();
  await db.schema.dropTable('site_sections').execute();
  await db.schema.dropTable('site_section_groups').execute();
}
