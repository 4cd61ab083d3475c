import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { RendererRevalidationConfig } from '../../config.js';

/** Tags asked for within this window go out in one request. */
const COALESCE_MS = 100;
/** One attempt's time limit. */
const ATTEMPT_TIMEOUT_MS = 5000;
/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 30_000;
/** At shutdown, one last attempt for what is still waiting, bounded by this. */
const LAST_ATTEMPT_TIMEOUT_MS = 1000;

/** Why an attempt failed; `retry: false` when sending the same request again cannot help. */
type Failure = { cause: string; retry: boolean };

/** prom-client metrics of the deliveries, in the registry of `/metrics`. */
function deliveryMetrics(registry: Registry) {
  const registers = [registry];
  return {
    deliveries: new Counter({
      name: 'renderer_revalidations_total',
      help: 'Revalidation requests to the renderer, by outcome: delivered, failed (gave up), dropped (undelivered at shutdown)',
      labelNames: ['outcome'],
      registers,
    }),
    retries: new Counter({
      name: 'renderer_revalidation_retries_total',
      help: 'Revalidation attempts that failed and were tried again',
      registers,
    }),
    pending: new Gauge({
      name: 'renderer_revalidation_pending_tags',
      help: 'Cache tags waiting to be delivered to the renderer (coalescing or between attempts)',
      registers,
    }),
  };
}

/**
 * Tells GitBook's renderer which cached answers to drop (docs/renderer-cache.md): a signed
 * `POST {"tags":[...]}` to RENDERER_REVALIDATE_URL. Tags are coalesced over a short window; a
 * failed request is retried with exponential backoff. Nothing here ever throws to a caller:
 * a write has already been answered when its tags arrive here.
 */
export class RevalidationNotifier {
  private readonly metrics;
  private waiting = new Set<string>();
  private coalescing: NodeJS.Timeout | undefined;
  /** Batches between two attempts: their timer and tags, to send once more at shutdown. */
  private readonly backingOff = new Map<NodeJS.Timeout, string[]>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  /** Tags of attempts cut short by shutdown, for the last attempt. */
  private readonly interrupted: string[] = [];

  constructor(
    private readonly config: RendererRevalidationConfig,
    private readonly log: FastifyBaseLogger,
    registry: Registry,
  ) {
    this.metrics = deliveryMetrics(registry);
  }

  /** Queues tags for the next request. */
  notify(tags: readonly string[]): void {
    if (this.closing.signal.aborted) return;
    for (const tag of tags) {
      if (!this.waiting.has(tag)) this.metrics.pending.inc();
      this.waiting.add(tag);
    }
    if (this.coalescing === undefined && this.waiting.size > 0) {
      // unref: a process that ends without close() is not kept alive by a pending delivery.
      this.coalescing = setTimeout(() => this.flush(), COALESCE_MS).unref();
    }
  }

  /** Stops every timer; what is still waiting gets one short last attempt, then is dropped. */
  async close(): Promise<void> {
    clearTimeout(this.coalescing);
    const left = new Set(this.waiting);
    for (const [timer, tags] of this.backingOff) {
      clearTimeout(timer);
      for (const tag of tags) left.add(tag);
    }
    this.backingOff.clear();
    this.waiting.clear();
    this.closing.abort(); // attempts in flight end now; their tags join the last attempt
    await Promise.all(this.inFlight);
    for (const tag of this.interrupted) left.add(tag);
    this.metrics.pending.set(0);
    if (left.size === 0) return;
    const tags = [...left];
    const failure = await this.attempt(tags, AbortSignal.timeout(LAST_ATTEMPT_TIMEOUT_MS));
    this.metrics.deliveries.inc({ outcome: failure === undefined ? 'delivered' : 'dropped' });
    if (failure !== undefined) {
      this.log.error({ tags, cause: failure.cause }, 'renderer revalidation dropped at shutdown');
    }
  }

  private flush(): void {
    this.coalescing = undefined;
    const tags = [...this.waiting];
    this.waiting = new Set();
    this.track(this.deliver(tags, 1));
  }

  private track(promise: Promise<void>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  private async deliver(tags: string[], attemptNumber: number): Promise<void> {
    const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]);
    const failure = await this.attempt(tags, signal);
    if (failure === undefined) {
      this.settle(tags, 'delivered');
      this.log.info({ tags, attempts: attemptNumber }, 'renderer revalidated');
      return;
    }
    if (this.closing.signal.aborted) {
      this.interrupted.push(...tags);
      return;
    }
    const { attempts } = this.config;
    if (!failure.retry || attemptNumber >= attempts) {
      this.settle(tags, 'failed');
      this.log.error(
        { tags, attempts: attemptNumber, cause: failure.cause },
        'renderer revalidation failed: giving up',
      );
      return;
    }
    const delay = Math.min(this.config.firstRetryMs * 2 ** (attemptNumber - 1), MAX_BACKOFF_MS);
    this.metrics.retries.inc();
    this.log.warn(
      { tags, attempt: attemptNumber, retryInMs: delay, cause: failure.cause },
      'renderer revalidation failed: will retry',
    );
    const timer = setTimeout(() => {
      this.backingOff.delete(timer);
      this.track(this.deliver(tags, attemptNumber + 1));
    }, delay).unref();
    this.backingOff.set(timer, tags);
  }

  private settle(tags: string[], outcome: 'delivered' | 'failed' | 'dropped'): void {
    this.metrics.pending.dec(tags.length);
    this.metrics.deliveries.inc({ outcome });
  }

  /** One signed POST; undefined when the renderer accepted it. */
  private async attempt(tags: string[], signal: AbortSignal): Promise<Failure | undefined> {
    const body = JSON.stringify({ tags });
    const signature = createHmac('sha256', this.config.secret).update(body).digest('hex');
    try {
      const response = await fetch(this.config.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gitbook-signature': signature },
        body,
        signal,
      });
      await response.body?.cancel().catch(() => {});
      if (response.ok) return undefined;
      const { status } = response;
      // A refused signature or body stays refused; an overloaded or restarting renderer may not.
      const retry = status >= 500 || status === 408 || status === 429;
      return { cause: `HTTP ${status}`, retry };
    } catch (error) {
      return { cause: causeOf(error), retry: true };
    }
  }
}

/** fetch's TypeError says only "fetch failed"; the reason (ECONNREFUSED, a timeout) is inside. */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timeout';
  const inner = (error as { cause?: unknown }).cause;
  if (inner instanceof Error) {
    const code = (inner as { code?: string }).code;
    return code === undefined ? inner.message : `${code}: ${inner.message}`;
  }
  return error.message;
}
