import type { Kysely } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Teams of an organization and their members (docs/members.md). A title is unique in its
 * organization ignoring case (`title_key` = lower-cased title). A team goes with its
 * organization; a team membership goes with its team or its user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('teams_org_title', ['organization_id', 'title_key'])
    .execute();
  await db.schema
    .createIndex('teams_org_created')
    .on('teams')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();
  await announceChanges(db, ['teams', 'team_members']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('team_members').execute();
  await db.schema.dropTable('teams').execute();
}
