import { AppError, badRequest, notFound } from '../../errors.js';
import { FixedWindowCounter } from '../../http/rate-limit.js';
import { eventRow } from './event-row.js';
import { planAggregation } from './query.js';
import { type AggregationQuery, QUERY_LIMITS } from './query-schemas.js';
import type { SiteEventsRepository } from './repository.js';
import type { SiteInsightsEvent } from './schemas.js';
import { EventWriter, type WriterOptions } from './writer.js';

/** GitBook: "Must be within 5 minutes of the current time." */
const CLOCK_SKEW_MS = 5 * 60_000;
const PRUNE_EVERY_MS = 3_600_000;
const DAY = 86_400_000;

export interface SiteEventsOptions {
  /** Events per site per minute, per process; 0: no limit (SITE_EVENTS_PER_MINUTE). */
  perMinute: number;
  writer?: Partial<WriterOptions>;
}

type Log = (error: unknown, message: string) => void;

/**
 * Site analytics events (GitBook 0.202's site-insights; docs/insights.md, "Site events"): what
 * readers do on a published site, recorded by `track` and counted by `aggregate`. Events are
 * checked and queued in memory (writer.ts); a flood is refused per site before any work.
 */
export class SiteEventsService {
  private readonly writer: EventWriter;
  private readonly counter = new FixedWindowCounter();
  private timer: NodeJS.Timeout | undefined;
  /** Where write failures go: the app's log once started. */
  private log: Log = () => {};

  constructor(
    private readonly repo: SiteEventsRepository,
    private readonly options: SiteEventsOptions,
  ) {
    this.writer = new EventWriter(
      (rows) => repo.insert(rows),
      (error, lost) => this.log(error, `${lost} site events could not be written`),
      options.writer,
    );
  }

  /**
   * Records events of a site of the organization. `now` is the server's time; an event without
   * `timestamp` happened then. Refused as a whole (nothing recorded) when any event is.
   */
  async track(
    organizationId: string,
    siteId: string,
    events: readonly SiteInsightsEvent[],
    now = Date.now(),
  ): Promise<void> {
    this.admit(siteId, events.length, now);
    await this.requireSite(organizationId, siteId);
    this.record(siteId, events, now);
  }

  /**
   * As track, for a site the caller has already found (Livery's own published site): no 429, the
   * events are dropped instead when the site is over its budget, since the reader's page must
   * not fail for its analytics. Answers whether they were recorded.
   */
  trackQuietly(siteId: string, events: readonly SiteInsightsEvent[], now = Date.now()): boolean {
    try {
      this.admit(siteId, events.length, now);
      this.record(siteId, events, now);
      return true;
    } catch {
      return false;
    }
  }

  async aggregate(organizationId: string, siteId: string, query: AggregationQuery) {
    await this.requireSite(organizationId, siteId);
    const plan = planAggregation(siteId, query, Date.now());
    await this.writer.flush(); // the events this process accepted are counted
    return plan.answer(await this.repo.aggregate(plan));
  }

  /** Writes the waiting events now (tests, shutdown). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Deletes events past the retention now and every hour until stop(); failures go to `log`. */
  start(log: Log): void {
    this.log = log;
    const run = () =>
      void this.repo
        .prune(Date.now() - QUERY_LIMITS.rangeDays * DAY)
        .catch((error: unknown) => this.log(error, 'site events pruning failed'));
    run();
    this.timer = setInterval(run, PRUNE_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.writer.flush();
  }

  /** The per-site budget: a 429 with Retry-After, before anything else is done. */
  private admit(siteId: string, count: number, now: number): void {
    const { perMinute } = this.options;
    if (perMinute <= 0 || count === 0) return;
    const used = this.counter.hit(siteId, now, count);
    if (used <= perMinute) return;
    const seconds = Math.max(1, Math.ceil((this.counter.windowEnd - now) / 1000));
    throw new AppError(
      429,
      `Too many analytics events for site ${siteId} (at most ${perMinute} per minute). Please try again in ${seconds} seconds`,
      { 'retry-after': String(seconds) },
    );
  }

  private record(siteId: string, events: readonly SiteInsightsEvent[], now: number): void {
    const rows = events.map((event, i) => eventRow(siteId, event, timeOf(event, i, now)));
    if (!this.writer.add(rows)) {
      throw new AppError(503, 'Too many analytics events are waiting to be written; try again', {
        'retry-after': '1',
      });
    }
  }

  private async requireSite(organizationId: string, siteId: string): Promise<void> {
    if ((await this.repo.organizationOf(siteId)) !== organizationId) throw notFound('site', siteId);
  }
}

function timeOf(event: SiteInsightsEvent, index: number, now: number): number {
  if (event.timestamp === undefined) return now;
  const ts = Date.parse(event.timestamp);
  if (!(Math.abs(ts - now) <= CLOCK_SKEW_MS)) {
    throw badRequest(
      `body.events[${index}].timestamp must be within 5 minutes of the server's time (${new Date(now).toISOString()})`,
    );
  }
  return ts;
}
