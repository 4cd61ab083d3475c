import { type TSchema, Type } from 'typebox';
import { Enum, OrNull } from '../../http/schema-helpers.js';
import { ContentRefSchema } from '../../settings/content-ref.js';
import { EVENT_TYPES } from './schemas.js';

/**
 * The columns of GitBook 0.202's `SiteInsightsQueryEventsColumn`, as Livery computes them over
 * `site_insight_events` (migration 0026). A dimension is an SQL expression of one event row (grouped
 * by, filtered on); a metric is an aggregate over a group. The expressions are this fixed
 * catalogue's, never a caller's; they are plain SQL that SQLite and PostgreSQL read alike, and
 * every time bucket is integer arithmetic on `ts` (epoch milliseconds).
 *
 * Columns whose data Livery does not collect (geography, visitor claims, adaptive content's 404
 * reason) are `null` for every event: grouping by them gives one group, and filtering on them
 * matches `null` only (docs/insights.md says which and why).
 */

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** 1970-01-01 was a Thursday: Monday the 5th starts the first whole week. */
const FIRST_MONDAY = 4 * DAY;

export type Interval = 'hour' | 'day' | 'week' | 'month';
export const DEFAULT_INTERVAL: Interval = 'day';

/** The bucket expression of `datetime` per interval, and how its value reads back. */
export const DATETIME: Readonly<Record<Interval, string>> = {
  hour: `(ts - ts % ${HOUR})`,
  day: `(ts - ts % ${DAY})`,
  week: `(ts - (ts - ${FIRST_MONDAY}) % ${7 * DAY})`,
  month: 'substr(at, 1, 7)',
};

export function datetimeValue(interval: Interval, raw: unknown): string {
  if (interval === 'month') return `${String(raw)}-01T00:00:00.000Z`;
  return new Date(Number(raw)).toISOString();
}

type Decode = (raw: unknown) => unknown;
const asText: Decode = (raw) => (raw === null || raw === undefined ? null : String(raw));
const asNumber: Decode = (raw) => (raw === null || raw === undefined ? null : Number(raw));

export interface Dimension {
  kind: 'dimension';
  /** The SQL expression; null: Livery does not collect it (always null). */
  sql: string | null;
  /** Filter values' schema (one item). */
  item: TSchema;
  /**
   * Whether GitBook's values of the column may be null. Grouping by a column that may not
   * leaves out the events without it (a search query's groups are of searches only).
   */
  nullable: boolean;
  decode: Decode;
  /** A filter value as the expression compares it. */
  encode: (value: unknown) => unknown;
}

export interface Metric {
  kind: 'metric';
  /** Aggregates, each an SQL expression; `decode` makes the column's value of their results. */
  sql: string[];
  decode: (raw: unknown[]) => unknown;
}

const text = (sql: string | null, item: TSchema = Type.String()): Dimension => ({
  kind: 'dimension',
  sql,
  item,
  nullable: false,
  decode: asText,
  encode: (value) => value,
});
const nullableText = (sql: string | null): Dimension => ({
  ...text(sql, OrNull(Type.String())),
  nullable: true,
});
const int = (sql: string, minimum: number, maximum: number): Dimension => ({
  kind: 'dimension',
  sql,
  item: Type.Integer({ minimum, maximum }),
  nullable: false,
  decode: asNumber,
  encode: (value) => value,
});
const count = (sql: string): Metric => ({
  kind: 'metric',
  sql: [sql],
  decode: ([raw]) => Number(raw ?? 0),
});
const sumWhen = (column: string, value: string) =>
  `sum(case when ${column} = '${value}' then 1 else 0 end)`;

/**
 * `space/page` (ids hold no slash): one value for GitBook's `{page, space}` pair; null for an
 * event that resolved to no page (GitBook: "for `page_view` events … a 404").
 */
const PAGE_SQL = `case when page is null then null else coalesce(space, '') || '/' || page end`;

export const DIMENSIONS: Readonly<Record<string, Dimension>> = {
  datetime: {
    kind: 'dimension',
    sql: 'ts', // filters compare the event's own time; grouping uses DATETIME's bucket
    item: Type.String({ format: 'date-time' }),
    nullable: false,
    decode: asText,
    encode: (value) => Date.parse(String(value)),
  },
  dayOfWeek: int(`((ts / ${DAY}) + 3) % 7 + 1`, 1, 7),
  hourOfDay: int(`(ts / ${HOUR}) % 24`, 0, 23),
  url: text('url', Type.String({ format: 'uri', maxLength: 2048 })),
  urlPath: text('url_path'),
  eventType: text('type', Enum(EVENT_TYPES)),
  siteSection: nullableText('site_section'),
  siteSpace: nullableText('site_space'),
  siteShareKey: nullableText('share_key'),
  displayContext: text('display_context', Enum(['site', 'server', 'embed', 'mcp'] as const)),
  page: {
    kind: 'dimension',
    sql: PAGE_SQL,
    nullable: true,
    item: OrNull(
      Type.Object(
        { page: OrNull(Type.String()), space: Type.String() },
        { additionalProperties: false },
      ),
    ),
    decode: (raw) => {
      if (raw === null || raw === undefined) return null;
      const [space, page] = String(raw).split(/\/(.*)/s) as [string, string];
      return { page: page === '' ? null : page, space };
    },
    encode: (value) => {
      if (value === null) return null;
      const { page, space } = value as { page: string | null; space: string };
      return `${space}/${page ?? ''}`;
    },
  },
  visitorGeoCountry: nullableText(null),
  visitorGeoPoint: {
    ...nullableText(null),
    item: OrNull(
      Type.Object({ latitude: Type.Number(), longitude: Type.Number(), h3: Type.String() }),
    ),
  },
  visitorDevice: text('device', Enum(['desktop', 'tablet', 'mobile', 'unknown'] as const)),
  visitorBrowser: text(
    'browser',
    Enum(['chrome', 'firefox', 'safari', 'edge', 'ie', 'opera', 'unknown'] as const),
  ),
  visitorOS: text('os', Enum(['windows', 'macos', 'linux', 'android', 'ios', 'unknown'] as const)),
  visitorBot: nullableText('bot'),
  visitorLanguage: nullableText('language'),
  eventLinkTargetValue: {
    kind: 'dimension',
    sql: 'link_value',
    item: ContentRefSchema,
    nullable: false,
    decode: (raw) => (raw === null || raw === undefined ? null : JSON.parse(String(raw))),
    encode: (value) => canonicalJson(value),
  },
  eventLinkTargetKind: text(
    'link_kind',
    Enum([
      'url',
      'page',
      'file',
      'anchor',
      'space',
      'collection',
      'user',
      'reusable-content',
    ] as const),
  ),
  eventLinkTargetDomain: nullableText('link_domain'),
  eventLinkPosition: text(
    'link_position',
    Enum(['announcement', 'header', 'footer', 'sidebar', 'content'] as const),
  ),
  eventAPIOperationPath: nullableText('api_path'),
  eventAPIOperationMethod: nullableText('api_method'),
  eventLLMSVariant: nullableText('llms_variant'),
  eventPageNotFoundType: nullableText(null),
  eventMarkdownSource: nullableText('markdown_source'),
  eventSearchQuery: text('search_query'),
  eventSearchResultRecordId: nullableText('search_record'),
  eventPageFeedbackRating: text('feedback_rating', Enum(['bad', 'ok', 'good'] as const)),
  eventPageFeedbackComment: text('feedback_comment'),
  eventAskResponseRating: {
    kind: 'dimension',
    sql: 'ask_rating',
    item: Type.Integer(),
    nullable: false,
    decode: asNumber,
    encode: (value) => String(value),
  },
  referrer: text('referrer'),
  referrerDomain: text('referrer_domain'),
  utmSource: text('utm_source'),
  utmMedium: text('utm_medium'),
  utmCampaign: text('utm_campaign'),
  utmTerm: text('utm_term'),
  utmContent: text('utm_content'),
  visitorAuthenticated: {
    kind: 'dimension',
    sql: 'authenticated',
    item: OrNull(Type.Boolean()),
    nullable: true,
    decode: (raw) => (raw === null || raw === undefined ? null : Number(raw) === 1),
    encode: (value) => (value === null ? null : value ? 1 : 0),
  },
  visitorClaimProperty: text(null),
  visitorClaim: text(null),
  eventAdDomain: text('ad_domain'),
  eventAdPlacement: text('ad_placement', Enum(['aside'] as const)),
  eventTrademarkPlacement: text(
    'trademark_placement',
    Enum(['sidebar', 'ad', 'footer', 'pdf', 'embed'] as const),
  ),
};

export const METRICS: Readonly<Record<string, Metric>> = {
  eventsCount: count('count(*)'),
  sessionsCount: count('count(distinct session)'),
  visitorsCount: count('count(distinct visitor)'),
  pageFeedbackRating: {
    kind: 'metric',
    sql: ['ok', 'good', 'bad'].map((r) => sumWhen('feedback_rating', r)),
    decode: ([ok, good, bad]) => ({
      ok: Number(ok ?? 0),
      good: Number(good ?? 0),
      bad: Number(bad ?? 0),
    }),
  },
  askResponseRating: {
    kind: 'metric',
    sql: [sumWhen('ask_rating', '1'), sumWhen('ask_rating', '-1')],
    decode: ([positive, negative]) => ({
      positive: Number(positive ?? 0),
      negative: Number(negative ?? 0),
    }),
  },
};

/** Every column name, in GitBook's order where it matters little: dimensions then metrics. */
export const COLUMN_NAMES = [...Object.keys(DIMENSIONS), ...Object.keys(METRICS)];

/** JSON with object keys sorted, so that equal ContentRefs are equal texts. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}
