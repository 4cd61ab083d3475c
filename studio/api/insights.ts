/**
 * A site's analytics (GitBook 0.202's aggregateSiteEvents, docs/insights.md): page views per day
 * and the top searches, as the insights screen shows them.
 */
import { api } from './client';

export type Range = 'last24Hours' | 'last7Days' | 'last30Days' | 'last3Months' | 'lastYear';

interface Answer {
  columns: { column: string; values: unknown[] }[];
}

export interface SiteInsights {
  /** Page views per bucket (day, or week for a year), oldest first, empty buckets included. */
  views: { at: string; count: number }[];
  totalViews: number;
  visitors: number;
  searches: { query: string; count: number }[];
}

const DAY = 86_400_000;
const BUCKETS: Record<Range, { interval: 'hour' | 'day' | 'week'; step: number; count: number }> = {
  last24Hours: { interval: 'hour', step: DAY / 24, count: 24 },
  last7Days: { interval: 'day', step: DAY, count: 7 },
  last30Days: { interval: 'day', step: DAY, count: 30 },
  last3Months: { interval: 'week', step: 7 * DAY, count: 13 },
  lastYear: { interval: 'week', step: 7 * DAY, count: 53 },
};

const column = (answer: Answer, name: string) =>
  answer.columns.find((c) => c.column === name)?.values ?? [];

export async function loadInsights(org: string, siteId: string, range: Range) {
  const path = `/v1/orgs/${encodeURIComponent(org)}/sites/${encodeURIComponent(siteId)}/insights/events/aggregate`;
  const ask = async (query: object) => (await api.post<Answer>(path, { range, ...query })).body;
  const pageViews = { column: 'eventType', values: ['page_view'] };
  const { interval, step, count } = BUCKETS[range];
  const [series, totals, searches] = await Promise.all([
    ask({ groupBy: [{ column: 'datetime', interval }], where: [pageViews] }),
    ask({ select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }], where: [pageViews] }),
    ask({
      groupBy: [{ column: 'eventSearchQuery' }],
      where: [{ column: 'eventType', values: ['search_type_query'] }],
      limit: 10,
    }),
  ]);
  const byTime = new Map<number, number>();
  const counts = column(series, 'eventsCount');
  column(series, 'datetime').forEach((at, i) => {
    byTime.set(Date.parse(String(at)), Number(counts[i]));
  });
  // Every bucket of the range, so that a day without views shows as zero.
  const last = bucketOf(Date.now(), interval);
  const views = Array.from({ length: count }, (_v, i) => {
    const at = last - (count - 1 - i) * step;
    return { at: new Date(at).toISOString(), count: byTime.get(at) ?? 0 };
  });
  return {
    views,
    totalViews: Number(column(totals, 'eventsCount')[0] ?? 0),
    visitors: Number(column(totals, 'visitorsCount')[0] ?? 0),
    searches: column(searches, 'eventSearchQuery').map((query, i) => ({
      query: String(query),
      count: Number(column(searches, 'eventsCount')[i]),
    })),
  } satisfies SiteInsights;
}

/** The start of the bucket holding `ts`, as the server computes it (weeks start on Monday). */
function bucketOf(ts: number, interval: 'hour' | 'day' | 'week'): number {
  if (interval === 'hour') return ts - (ts % (DAY / 24));
  if (interval === 'day') return ts - (ts % DAY);
  return ts - ((ts - 4 * DAY) % (7 * DAY));
}
