import { type Kysely, sql } from 'kysely';
import { announceChanges } from '../change-notifications.js';
import { isPostgres } from '../dialect.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file.

/**
 * Site analytics events (GitBook 0.202's site-insights; docs/insights.md, "Site events").
 *
 * - `site_insight_events`: one row per event a reader's browser, GitBook's renderer or Livery's own
 *   published site reported. No key: events are only ever counted, never addressed one by one.
 * - `ts` is the event's time in epoch milliseconds: every time bucket (hour, day, week, day of
 *   the week, hour of the day) is integer arithmetic on it, the same on SQLite and PostgreSQL;
 *   `at` is the same instant as ISO text, for months.
 * - What is kept of a visitor is decided by modules/site-insights/event-row.ts: salted hashes of
 *   GitBook's anonymous visitor and session ids, the browser family, OS family, device class and
 *   bot name (never the user agent), the language, and URLs without their query string. No IP
 *   address, cookie or visitor claim is stored.
 * - Rows older than the retention (docs/insights.md) are deleted hourly; the index on
 *   `(site_id, ts)` serves both that and every query, which names one site and a time range.
 * - Neither this table nor `page_view_days` announces its changes (PostgreSQL): no cached read
 *   depends on them, and readers write them on every page view, so an announcement would drop
 *   every process's kept pages each time (db/uncached-writes.ts says the same for this process).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let table = db.schema
    .createTable('site_insight_events')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('display_context', 'text', (c) => c.notNull());
  for (const column of TEXT_COLUMNS) table = table.addColumn(column, 'text');
  await table.addColumn('authenticated', 'integer').execute();
  if (isPostgres(db)) {
    await sql`drop trigger if exists page_view_days_announce_change on page_view_days`.execute(db);
  }
  await db.schema
    .createIndex('site_insight_events_time')
    .on('site_insight_events')
    .columns(['site_id', 'ts'])
    .execute();
}

/** The nullable text columns, in table order (their meaning: modules/site-insights/event-row.ts). */
const TEXT_COLUMNS = [
  'visitor',
  'session',
  'url',
  'url_path',
  'site_section',
  'site_space',
  'share_key',
  'space',
  'revision',
  'page',
  'referrer',
  'referrer_domain',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'language',
  'browser',
  'os',
  'device',
  'bot',
  'search_query',
  'search_record',
  'feedback_rating',
  'feedback_comment',
  'ask_rating',
  'link_kind',
  'link_value',
  'link_domain',
  'link_position',
  'api_path',
  'api_method',
  'llms_variant',
  'markdown_source',
  'ad_domain',
  'ad_placement',
  'trademark_placement',
] as const;

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_insight_events').execute();
  await announceChanges(db, ['page_view_days']);
}
