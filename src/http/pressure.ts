import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

/** What a client is told to wait, in seconds; the load is measured again every second. */
export const PRESSURE_RETRY_AFTER_SECONDS = 5;

const MIB = 1024 * 1024;

/**
 * Load shedding (@fastify/under-pressure): while the event loop lags, or the heap or resident
 * memory exceed their thresholds (sampled every second), requests are refused at once with a 503
 * in GitBook's envelope and `Retry-After`, before any authentication or database work. The
 * probes and metrics (`exempt`) keep answering, so that an overloaded process is observed rather
 * than restarted. Nothing is installed when every threshold is 0.
 */
export async function installPressure(
  app: FastifyInstance,
  config: Pick<
    Config,
    'pressureMaxEventLoopDelayMs' | 'pressureMaxHeapUsedMb' | 'pressureMaxRssMb'
  >,
  exempt: ReadonlySet<string>,
): Promise<void> {
  const { pressureMaxEventLoopDelayMs, pressureMaxHeapUsedMb, pressureMaxRssMb } = config;
  if (pressureMaxEventLoopDelayMs === 0 && pressureMaxHeapUsedMb === 0 && pressureMaxRssMb === 0) {
    return;
  }
  const retryAfter = String(PRESSURE_RETRY_AFTER_SECONDS);
  let lastWarning = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: pressureMaxEventLoopDelayMs,
    maxHeapUsedBytes: pressureMaxHeapUsedMb * MIB,
    maxRssBytes: pressureMaxRssMb * MIB,
    // Runs only while under pressure; returning nothing lets the request through.
    pressureHandler: (request, _reply, type, value) => {
      if (exempt.has(request.routeOptions.url ?? '')) return;
      // One line per 10 s at most: an overloaded process has better to do than log each refusal.
      if (Date.now() - lastWarning >= 10_000) {
        lastWarning = Date.now();
        request.log.warn({ type, value }, 'under pressure: refusing requests with 503');
      }
      return Promise.reject(
        new AppError(503, `The server is overloaded; please try again in ${retryAfter} seconds`, {
          'retry-after': retryAfter,
        }),
      );
    },
  });
}
