/**
 * Tables whose writes do not move the database's generation (db/database.ts), on either backend:
 * site analytics events and the per-day page view counts (modules/insights), which the published
 * site's readers write on every page view.
 *
 * Every other write moves it, and with it drops every read cached under the old generation: the
 * published site's kept page views among them. Site analytics events (migration 0026) are
 * written all the time, by the readers of those very pages, and no cached read looks at them
 * (aggregations and analytics reads are never cached), so counting their writes would turn every
 * tracked event or view report into a re-render of the next page view. Only a statement that writes such a table and nothing else
 * is left out: one `INSERT INTO` or `DELETE FROM` it, outside any explicit transaction.
 */
const UNCACHED =
  /^\s*(?:insert\s+into|delete\s+from)\s+"(?:site_insight_events|page_view_days)"[\s(]/i;

export function writesOnlyUncached(sql: string): boolean {
  return UNCACHED.test(sql);
}
