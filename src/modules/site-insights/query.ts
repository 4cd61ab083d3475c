import { type RawBuilder, sql } from 'kysely';
import { badRequest } from '../../errors.js';
import {
  DATETIME,
  DEFAULT_INTERVAL,
  DIMENSIONS,
  datetimeValue,
  type Interval,
  METRICS,
} from './columns.js';
import {
  type AggregationQuery,
  type ColumnRef,
  type Filter,
  QUERY_LIMITS,
  type RangePreset,
} from './query-schemas.js';

const DAY = 86_400_000;
const AHEAD = 5 * 60_000;
const PRESET_DAYS: Readonly<Record<RangePreset, number>> = {
  lastYear: 365,
  last3Months: 90,
  last30Days: 30,
  last7Days: 7,
  last24Hours: 1,
};

/** The events' time range of a query, `[from, to)` in epoch milliseconds. */
export function rangeOf(
  range: AggregationQuery['range'],
  now: number,
): { from: number; to: number } {
  // A preset ends 5 minutes ahead: events may carry a time up to 5 minutes past the server's.
  if (typeof range === 'string') return { from: now - PRESET_DAYS[range] * DAY, to: now + AHEAD };
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (!(to > from)) throw badRequest('body.range.to must be later than body.range.from');
  const days = (to - from) / DAY;
  if (days > QUERY_LIMITS.rangeDays) {
    throw badRequest(
      `body.range covers ${Math.ceil(days)} days; a query covers at most ${QUERY_LIMITS.rangeDays} days (events are kept that long, docs/insights.md)`,
    );
  }
  return { from, to };
}

/** One column of the answer: how it is computed and read back. */
interface Output {
  ref: ColumnRef;
  key: string;
  /** SQL expressions selected for it (a metric may need several). */
  exprs: string[];
  /** For dimensions: the expression grouped by (null: a constant, nothing to group). */
  group: string | null;
  decode: (raw: unknown[]) => unknown;
}

const keyOf = (ref: ColumnRef) =>
  `${ref.column}|${ref.column === 'datetime' ? (ref.interval ?? DEFAULT_INTERVAL) : ''}|${ref.claim ?? ''}`;

function output(ref: ColumnRef): Output {
  const metric = METRICS[ref.column];
  if (metric !== undefined) {
    return { ref, key: keyOf(ref), exprs: metric.sql, group: null, decode: metric.decode };
  }
  const dimension = DIMENSIONS[ref.column];
  if (dimension === undefined) throw badRequest(`column ${JSON.stringify(ref.column)} is unknown`);
  if (ref.column === 'datetime') {
    const interval: Interval = ref.interval ?? DEFAULT_INTERVAL;
    const expr = DATETIME[interval];
    return {
      ref,
      key: keyOf(ref),
      exprs: [expr],
      group: expr,
      decode: ([raw]) => datetimeValue(interval, raw),
    };
  }
  const expr = dimension.sql ?? 'cast(null as text)';
  return {
    ref,
    key: keyOf(ref),
    exprs: [expr],
    group: dimension.sql,
    decode: ([raw]) => dimension.decode(raw),
  };
}

/** The SQL condition of one filter; `at` names it in errors (`body.where[2]`). */
function condition(filter: Filter, at: string): RawBuilder<unknown> {
  if (METRICS[filter.column] !== undefined) {
    throw badRequest(
      `${at}.column: ${filter.column} counts a group of events; only a field of an event can filter`,
    );
  }
  const dimension = DIMENSIONS[filter.column];
  if (dimension === undefined) throw badRequest(`${at}.column is unknown`);
  const expr = sql.raw(dimension.sql ?? 'cast(null as text)');
  const operator = filter.operator ?? 'in';
  const values = filter.values.map((v) => dimension.encode(v));
  if (operator === 'in' || operator === 'notIn') {
    const present = values.filter((v) => v !== null && v !== undefined);
    const withNull = present.length < values.length;
    const isIn =
      present.length === 0
        ? sql`1 = 0`
        : sql`${expr} in (${sql.join(present.map((v) => sql`${v}`))})`;
    if (operator === 'in') return withNull ? sql`(${isIn} or ${expr} is null)` : sql`(${isIn})`;
    // Events without the field are not among the values: notIn keeps them unless null is listed.
    return withNull
      ? sql`(${expr} is not null and not ${isIn})`
      : sql`(${expr} is null or not ${isIn})`;
  }
  if (values.length !== 1 || values[0] === null || Number.isNaN(values[0])) {
    throw badRequest(
      `${at}.values must hold exactly one value, not null, for operator ${operator}`,
    );
  }
  const op = { greaterThan: '>', greaterThanOrEqual: '>=', lessThan: '<', lessThanOrEqual: '<=' }[
    operator
  ];
  return sql`${expr} ${sql.raw(op)} ${values[0]}`;
}

export interface Plan {
  query: RawBuilder<Record<string, unknown>>;
  /** The answer's columns from the rows the query returned. */
  answer(rows: Record<string, unknown>[]): { columns: Record<string, unknown>[] };
}

/** The SQL of an aggregation over one site's events, and how its rows become GitBook's answer. */
export function planAggregation(siteId: string, query: AggregationQuery, now: number): Plan {
  const { from, to } = rangeOf(query.range, now);
  const select = query.select ?? [{ column: 'eventsCount' }];
  // The answer: the groups' columns first, then what is selected besides them. A dimension
  // selected without being grouped by is grouped by: each row is one group.
  const outputs: Output[] = [];
  const seen = new Set<string>();
  for (const ref of [...(query.groupBy ?? []), ...select]) {
    const made = output(ref);
    if (seen.has(made.key)) continue;
    seen.add(made.key);
    outputs.push(made);
  }
  const items: string[] = [];
  const columnsOf: number[][] = [];
  for (const o of outputs) {
    columnsOf.push(o.exprs.map((e) => items.push(e) - 1));
  }
  const groups = outputs.flatMap((o) =>
    o.group === null || METRICS[o.ref.column] ? [] : [o.group],
  );

  const where = (query.where ?? []).map((f, i) => condition(f, `body.where[${i}]`));
  // GitBook's values of some columns are never null: their groups are of the events that have them.
  for (const o of outputs) {
    const dimension = DIMENSIONS[o.ref.column];
    if (dimension !== undefined && !dimension.nullable && o.ref.column !== 'datetime') {
      where.push(sql`${sql.raw(dimension.sql ?? 'cast(null as text)')} is not null`);
    }
  }
  const order = orderOf(query, outputs, columnsOf);
  const limit = query.limit ?? 1000;

  const built = sql<
    Record<string, unknown>
  >`select ${sql.raw(items.map((e, i) => `${e} as c${i}`).join(', '))} from site_insight_events where site_id = ${siteId} and ts >= ${from} and ts < ${to}${where.length === 0 ? sql`` : sql` and ${sql.join(where, sql` and `)}`}${groups.length === 0 ? sql`` : sql.raw(` group by ${groups.join(', ')}`)}${order === '' ? sql`` : sql.raw(` order by ${order}`)} limit ${sql.lit(limit)}`;

  return {
    query: built,
    answer: (rows) => ({
      columns: outputs.map((o, i) => ({
        column: o.ref.column,
        ...(o.ref.claim === undefined ? {} : { claim: o.ref.claim }),
        values: rows.map((row) => o.decode((columnsOf[i] ?? []).map((c) => row[`c${c}`] ?? null))),
      })),
    }),
  };
}

/**
 * `order.by` must be a column of the answer. Without `order`: by time when grouped by time,
 * else by the first metric, largest first; ties (and the rest) by the groups, ascending.
 */
function orderOf(query: AggregationQuery, outputs: Output[], columnsOf: number[][]): string {
  // PostgreSQL orders by an answer's column by its bare name only; a column of several
  // aggregates (pageFeedbackRating) is ordered by their sum, spelled out.
  const sumOf = (i: number) => {
    const columns = columnsOf[i] ?? [];
    if (columns.length === 1) return `c${columns[0]}`;
    return `(${(outputs[i]?.exprs ?? []).join(' + ')})`;
  };
  const terms: string[] = [];
  if (query.order !== undefined) {
    const key = keyOf(query.order.by);
    const i = outputs.findIndex((o) => o.key === key);
    if (i < 0) {
      throw badRequest(
        `body.order.by: ${query.order.by.column} is not a column of the answer; order by a column of select or groupBy`,
      );
    }
    terms.push(`${sumOf(i)} ${query.order.direction}`);
  } else {
    const time = outputs.findIndex((o) => o.ref.column === 'datetime');
    const metric = outputs.findIndex((o) => METRICS[o.ref.column] !== undefined);
    if (time >= 0) terms.push(`${sumOf(time)} asc`);
    else if (metric >= 0) terms.push(`${sumOf(metric)} desc`);
  }
  outputs.forEach((o, i) => {
    if (o.group !== null && METRICS[o.ref.column] === undefined) terms.push(`${sumOf(i)} asc`);
  });
  return terms.join(', ');
}
