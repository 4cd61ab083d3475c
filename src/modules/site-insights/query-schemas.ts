import { type TSchema, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { Leaf } from '../../settings/schema-kit.js';
import { COLUMN_NAMES, DIMENSIONS, METRICS } from './columns.js';

/**
 * GitBook 0.202's `SiteInsightsQueryEventsAggregation` and its result (docs/insights.md,
 * "Aggregating"). Columns and filters are discriminated by `column`, so that a 400 names the
 * field of the branch the column names.
 */

/** Livery's bounds where GitBook sets none. */
export const QUERY_LIMITS = {
  columns: 16,
  filters: 16,
  values: 100,
  /** The longest range a query may cover, in days (also how long events are kept). */
  rangeDays: 400,
} as const;

export const RANGE_PRESETS = [
  'lastYear',
  'last3Months',
  'last30Days',
  'last7Days',
  'last24Hours',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export interface ColumnRef {
  column: string;
  interval?: 'hour' | 'day' | 'week' | 'month';
  precision?: number;
  claim?: string;
}

export interface Filter {
  column: string;
  values: unknown[];
  operator?: Operator;
  claim?: string;
}

export const OPERATORS = [
  'in',
  'notIn',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface AggregationQuery {
  select?: ColumnRef[];
  where?: Filter[];
  groupBy?: ColumnRef[];
  order?: { by: ColumnRef; direction: 'asc' | 'desc' };
  range: RangePreset | { from: string; to: string };
  limit?: number;
}

/** What a column reference may carry besides `column`. */
function extras(name: string): Record<string, TSchema> {
  if (name === 'datetime') {
    return { interval: Type.Optional(Enum(['hour', 'day', 'week', 'month'] as const)) };
  }
  if (name === 'visitorGeoPoint') {
    return { precision: Type.Optional(Type.Integer({ minimum: 0, maximum: 15 })) };
  }
  if (name === 'visitorClaim') return { claim: Type.String({ maxLength: 256 }) };
  return {};
}

const discriminated = (title: string, branches: TSchema[]) =>
  Type.Unsafe<never>({
    type: 'object',
    title,
    required: ['column'],
    discriminator: { propertyName: 'column' },
    oneOf: branches.map((b) => ({ ...b })),
  });

export const ColumnSchema = Type.Unsafe<ColumnRef>(
  discriminated(
    'SiteInsightsQueryEventsColumn',
    COLUMN_NAMES.map((name) => Leaf({ column: Type.Literal(name), ...extras(name) })),
  ),
);

/** Filters: on dimensions only (a metric is a group's, not an event's). */
const filterBranch = (name: string, item: TSchema) =>
  Leaf({
    column: Type.Literal(name),
    ...(name === 'visitorClaim' ? { claim: Type.String({ maxLength: 256 }) } : {}),
    values: Type.Array(item, { maxItems: QUERY_LIMITS.values }),
    operator: Type.Optional(Enum(OPERATORS)),
  });

export const FilterSchema = Type.Unsafe<Filter>(
  discriminated(
    'SiteInsightsQueryEventsFilter',
    Object.entries(DIMENSIONS).map(([name, d]) => filterBranch(name, d.item)),
  ),
);

const Timestamp = Type.String({ format: 'date-time' });

export const AggregationQuerySchema = Type.Unsafe<AggregationQuery>(
  Leaf(
    {
      select: Type.Optional(Type.Array(ColumnSchema, { maxItems: QUERY_LIMITS.columns })),
      where: Type.Optional(Type.Array(FilterSchema, { maxItems: QUERY_LIMITS.filters })),
      groupBy: Type.Optional(Type.Array(ColumnSchema, { maxItems: QUERY_LIMITS.columns })),
      order: Type.Optional(Leaf({ by: ColumnSchema, direction: Enum(['asc', 'desc'] as const) })),
      range: Type.Union([Enum(RANGE_PRESETS), Leaf({ from: Timestamp, to: Timestamp })]),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000 })),
    },
    'SiteInsightsQueryEventsAggregation',
  ),
);

/** The answer: one entry per column, each with one value per row (columnar). */
export const AggregationResultSchema = Type.Object(
  {
    columns: Type.Array(
      Type.Object({
        column: Type.String(),
        claim: Type.Optional(Type.String()),
        values: Type.Array(Type.Unknown()),
      }),
    ),
  },
  { title: 'SiteInsightsQueryEventsAggregationResult' },
);

/** Is `name` a metric (counted per group) rather than a dimension? */
export const isMetric = (name: string) => METRICS[name] !== undefined;
