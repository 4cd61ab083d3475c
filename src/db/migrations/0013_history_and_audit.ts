import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { CustomizationRevisionRow } from '../schema.js';
import { DEFAULT_SETTINGS, DEFAULTS_REVISION } from './0013_history_and_audit/defaults.js';
import { diff, type JsonValue } from './0013_history_and_audit/json-patch.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file. The
// baseline revisions below use the defaults and the diff as they were when this migration
// shipped, frozen beside it (0013_history_and_audit/): a migration imports nothing live.

/**
 * Customization history and the organization audit log (docs/history.md). Neither table
 * announces its changes (db/change-notifications.ts): nothing caches reads of them.
 *
 * Every site and variant customized before this release gets revision 1, its current document,
 * so that history is complete from the start: the actor is unknown (null) and `changes` goes from
 * the defaults (a site) or no override (a variant) to that document.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Written on every customization change: as few B-trees as will do. No foreign keys (each is
  // a lookup per insert, and on PostgreSQL a locking one) and no secondary index; a table
  // clustered by its key on SQLite (WITHOUT ROWID). A site's or variant's history is deleted
  // with it by the code that deletes it (customization/history-cleanup.ts).
  await db.schema
    .createTable('customization_revisions')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_token_id', 'text')
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('document', 'text')
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addPrimaryKeyConstraint('customization_revisions_pk', ['scope', 'number'])
    .modifyEnd(withoutRowid(db))
    .execute();

  // Entries outlive what they name (a deleted site, user or token): no foreign keys. The key is
  // what lists and prunes read (an organization's entries by time), so it is the one B-tree on
  // SQLite; ids sort by time too (ids.ts newTimeOrderedId), so inserts append to it.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('actor_token_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_log_pk', ['organization_id', 'at', 'id'])
    .modifyEnd(withoutRowid(db))
    .execute();

  await recordBaselines(db as Kysely<Baseline>);
}

const withoutRowid = (db: Kysely<unknown>) => (isPostgres(db) ? sql`` : sql`without rowid`);

interface Baseline {
  sites: {
    id: string;
    customization: string | null;
    customization_version: number;
    customization_updated_at: string | null;
    created_at: string;
  };
  site_spaces: {
    id: string;
    site_id: string;
    override: string | null;
    override_version: number;
    override_updated_at: string | null;
    created_at: string;
  };
  customization_revisions: CustomizationRevisionRow;
}

const BATCH = 500;

async function recordBaselines(db: Kysely<Baseline>): Promise<void> {
  const sites = await db
    .selectFrom('sites')
    .select([
      'id',
      'customization',
      'customization_version',
      'customization_updated_at',
      'created_at',
    ])
    .execute();
  const versionOf = new Map<string, number>();
  const rows: CustomizationRevisionRow[] = [];
  for (const site of sites) {
    versionOf.set(site.id, site.customization_version);
    if (site.customization === null) continue;
    rows.push({
      ...baseline(site.id, site.customization_updated_at ?? site.created_at),
      operation: 'put',
      etag: `"c${DEFAULTS_REVISION}.${site.customization_version}"`,
      document: site.customization,
      changes: JSON.stringify(
        diff(DEFAULT_SETTINGS as unknown as JsonValue, JSON.parse(site.customization)),
      ),
    });
  }
  const variants = await db
    .selectFrom('site_spaces')
    .select(['id', 'site_id', 'override', 'override_version', 'override_updated_at', 'created_at'])
    .where('override', 'is not', null)
    .execute();
  for (const variant of variants) {
    const siteVersion = versionOf.get(variant.site_id);
    if (variant.override === null || siteVersion === undefined) continue;
    const override = JSON.parse(variant.override);
    rows.push({
      ...baseline(variant.id, variant.override_updated_at ?? variant.created_at),
      operation: 'patch',
      etag: `"c${DEFAULTS_REVISION}.${siteVersion}.${variant.override_version}"`,
      document: variant.override,
      changes: JSON.stringify(diff({}, override)),
    });
  }
  for (let start = 0; start < rows.length; start += BATCH) {
    await db
      .insertInto('customization_revisions')
      .values(rows.slice(start, start + BATCH))
      .execute();
  }
}

const baseline = (scope: string, at: string) => ({
  scope,
  number: 1,
  created_at: at,
  actor_user_id: null,
  actor_token_id: null,
  restored_from: null,
});

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('customization_revisions').execute();
}
