import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether load shedding refuses requests right now (decorated only when it is installed). */
    isUnderPressure(): boolean;
  }
}

/** What a client is told to wait, in seconds; the load is measured again every second. */
export const PRESSURE_RETRY_AFTER_SECONDS = 5;

const SAMPLE_MS = 1000;
/** The event-loop-delay histogram's resolution, subtracted from its mean (as under-pressure does). */
const RESOLUTION_MS = 10;
const MIB = 1024 * 1024;

type Pressure = {
  type: 'eventLoopDelay' | 'heapUsedBytes' | 'rssBytes' | 'workerQueue';
  value: number;
};

/** The answer of an overloaded process: 503 with `Retry-After`, in GitBook's envelope. */
export function overloaded(): AppError {
  const retryAfter = String(PRESSURE_RETRY_AFTER_SECONDS);
  return new AppError(503, `The server is overloaded; please try again in ${retryAfter} seconds`, {
    'retry-after': retryAfter,
  });
}

/** What else counts as pressure: a worker pool whose queue is full (workers/pool.ts). */
export interface PressureSources {
  /** Tasks waiting in a full worker queue, or 0 when every queue has room. */
  fullWorkerQueue(): number;
}

/**
 * Load shedding: while the event loop lags, or the heap or resident memory exceed their
 * thresholds (sampled every second), requests are refused at once with a 503 in GitBook's
 * envelope and `Retry-After`, before any authentication or database work. The probes and metrics
 * (`exempt`) keep answering, so that an overloaded process is observed rather than restarted;
 * `/readyz` says 503 meanwhile (`isUnderPressure`). Nothing is installed when every threshold is 0.
 *
 * Measurement starts once the app is ready (`onReady`): compiling routes and schemas blocks the
 * loop for a while at start-up, and counting that made a freshly started process refuse every
 * `/v1` request for its first second while its probes said 200. (@fastify/under-pressure, used
 * before, samples from the moment it is registered and offers no way to start later.)
 */
export async function installPressure(
  app: FastifyInstance,
  config: Pick<
    Config,
    'pressureMaxEventLoopDelayMs' | 'pressureMaxHeapUsedMb' | 'pressureMaxRssMb'
  >,
  exempt: ReadonlySet<string>,
  sources?: PressureSources,
): Promise<void> {
  const { pressureMaxEventLoopDelayMs, pressureMaxHeapUsedMb, pressureMaxRssMb } = config;
  if (pressureMaxEventLoopDelayMs === 0 && pressureMaxHeapUsedMb === 0 && pressureMaxRssMb === 0) {
    return;
  }
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let pressure: Pressure | undefined;
  const sample = () => {
    pressure = undefined;
    if (pressureMaxEventLoopDelayMs > 0) {
      // No sample yet (NaN) means no lag was observed.
      const delay = Math.max(0, (histogram.mean || 0) / 1e6 - RESOLUTION_MS);
      histogram.reset();
      if (delay > pressureMaxEventLoopDelayMs) pressure = { type: 'eventLoopDelay', value: delay };
    }
    if (pressure === undefined && pressureMaxHeapUsedMb > 0) {
      const heapUsed = process.memoryUsage().heapUsed;
      if (heapUsed > pressureMaxHeapUsedMb * MIB) {
        pressure = { type: 'heapUsedBytes', value: heapUsed };
      }
    }
    if (pressure === undefined && pressureMaxRssMb > 0) {
      const rss = process.memoryUsage.rss();
      if (rss > pressureMaxRssMb * MIB) pressure = { type: 'rssBytes', value: rss };
    }
    // A full worker queue means the threads are behind: new requests would only wait for them.
    const queued = sources?.fullWorkerQueue() ?? 0;
    if (pressure === undefined && queued > 0) pressure = { type: 'workerQueue', value: queued };
  };

  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', (done) => {
    histogram.enable();
    timer = setInterval(sample, SAMPLE_MS);
    timer.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    histogram.disable();
    done();
  });
  app.decorate('isUnderPressure', () => pressure !== undefined);

  let lastWarning = 0;
  app.addHook('onRequest', (request, _reply, done) => {
    if (pressure === undefined || exempt.has(request.routeOptions.url ?? '')) return done();
    // One line per 10 s at most: an overloaded process has better to do than log each refusal.
    if (Date.now() - lastWarning >= 10_000) {
      lastWarning = Date.now();
      request.log.warn(pressure, 'under pressure: refusing requests with 503');
    }
    done(overloaded());
  });
}
