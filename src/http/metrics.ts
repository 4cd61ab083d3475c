import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import { Type } from 'typebox';
import { type Db, poolStatsOf } from '../db/database.js';

/** Upper bounds of `http_request_duration_seconds`, in seconds: most answers take under 5 ms. */
const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;

/** The route label of requests that matched no route (404, 405). */
export const UNMATCHED = 'unmatched';

type Labels = { method: string; route: string; status: string };

/** The requests of one method, route pattern and status: a counter and a histogram series. */
interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); those above the last bound are only in `count`. */
  buckets: Float64Array;
}

/**
 * The request counter and duration histogram, counted on plain numbers: one `Map` lookup per
 * label and three additions per request, where prom-client's `inc`/`observe` would build and
 * validate a label key on every call. prom-client's registry formats them at scrape time.
 */
class RequestStats {
  /** By route (the route's config object, one per route and method), then method, then status. */
  private readonly routes = new Map<object, Map<string, Map<number, Series>>>();
  readonly all: Series[] = [];

  record(request: FastifyRequest, reply: FastifyReply): void {
    const config = request.routeOptions.config;
    let methods = this.routes.get(config);
    if (methods === undefined) {
      methods = new Map();
      this.routes.set(config, methods);
    }
    const method = request.method;
    let statuses = methods.get(method);
    if (statuses === undefined) {
      statuses = new Map();
      methods.set(method, statuses);
    }
    const status = reply.statusCode;
    let series = statuses.get(status);
    if (series === undefined) {
      const route = (config as { url?: string }).url ?? UNMATCHED;
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Float64Array(DURATION_BUCKETS.length),
      };
      statuses.set(status, series);
      this.all.push(series);
    }
    const seconds = reply.elapsedTime / 1000;
    series.count++;
    series.sum += seconds;
    for (let i = 0; i < DURATION_BUCKETS.length; i++) {
      if (seconds <= (DURATION_BUCKETS[i] as number)) {
        (series.buckets[i] as number)++;
        break;
      }
    }
  }
}

type Value = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * A metric computed from `RequestStats` when scraped, in the shape prom-client's `Registry`
 * reads from its own metrics (`get()`), so that the registry formats it with the others.
 */
function derivedMetric(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => Value[],
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type, aggregator: 'sum' as const, values: values() }),
    reset: () => {},
  };
  return metric as unknown as Metric;
}

function histogramValues(name: string, all: Series[]): Value[] {
  const values: Value[] = [];
  for (const { labels, count, sum, buckets } of all) {
    let cumulative = 0;
    DURATION_BUCKETS.forEach((bound, i) => {
      cumulative += buckets[i] as number;
      values.push({
        labels: { ...labels, le: bound },
        value: cumulative,
        metricName: `${name}_bucket`,
      });
    });
    values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${name}_bucket` });
    values.push({ labels, value: sum, metricName: `${name}_sum` });
    values.push({ labels, value: count, metricName: `${name}_count` });
  }
  return values;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry `/metrics` formats, besides the process metrics. */
    metricsRegistry: Registry;
  }
}

let processRegistry: Registry | undefined;

/**
 * Process metrics (CPU, memory, event loop lag, GC, handles) are one set per process: collected
 * once, into a registry of their own, however many apps the process builds (tests build many;
 * each `collectDefaultMetrics` starts its own event-loop monitor and GC observer).
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * `GET /metrics` in Prometheus' text format (docs/operations.md, "Metrics"): requests and their
 * durations by method, route pattern and status; the database pool; the process. Without
 * authentication: keep it off the public network. To be installed before the routes, at the
 * root, so that every request is counted, 404s included.
 */
export function installMetrics(app: FastifyInstance, db: Db): void {
  const registry = new Registry();
  const stats = new RequestStats();
  // Modules with metrics of their own (revalidation) register them here.
  app.decorate('metricsRegistry', registry);

  registry.registerMetric(
    derivedMetric(
      'http_requests_total',
      'HTTP requests answered, by method, route pattern and status',
      'counter',
      () => stats.all.map(({ labels, count }) => ({ labels, value: count })),
    ),
  );
  registry.registerMetric(
    derivedMetric(
      'http_request_duration_seconds',
      'Time from the arrival of a request to the end of its response, by method, route pattern and status',
      'histogram',
      () => histogramValues('http_request_duration_seconds', stats.all),
    ),
  );
  const pool = (name: string, help: string, pick: 'size' | 'idle' | 'waiting') =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(poolStatsOf(db)[pick]);
      },
    });
  pool('db_pool_connections', 'Database connections open in this process', 'size');
  pool('db_pool_idle_connections', 'Open database connections not in use', 'idle');
  pool('db_pool_waiting_queries', 'Queries waiting for a database connection', 'waiting');

  app.addHook('onResponse', (request, reply, done) => {
    stats.record(request, reply);
    done();
  });

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics of this process (not authenticated: keep it private)',
        tags: ['operations'],
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { [Registry.PROMETHEUS_CONTENT_TYPE]: { schema: Type.String() } },
          },
        },
      },
    },
    async (_request, reply) => {
      const text = (await processMetrics().metrics()) + (await registry.metrics());
      return reply.type(Registry.PROMETHEUS_CONTENT_TYPE).send(text);
    },
  );
}
