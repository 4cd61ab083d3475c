import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { AppError } from '../errors.js';

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows aligned on the clock (a window ends at every :00 second), counted in
 * this process's memory. Only the current window is kept: when it ends, every count goes at
 * once, so memory is bounded by the number of keys seen within one minute.
 */
export class FixedWindowCounter {
  private counts = new Map<string, number>();
  private end = 0;
  private endSeconds = '';

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts `amount` (one request) for `key`; returns its count in the current window, these included. */
  hit(key: string, at: number = this.now(), amount = 1): number {
    if (at >= this.end) this.roll(at);
    const count = (this.counts.get(key) ?? 0) + amount;
    this.counts.set(key, count);
    return count;
  }

  /** When the current window ends, in milliseconds since the epoch. */
  get windowEnd(): number {
    return this.end;
  }

  /** The same in seconds since the epoch, as the `X-RateLimit-Reset` header gives it. */
  get windowEndSeconds(): string {
    return this.endSeconds;
  }

  /** How many keys the current window holds (for tests and metrics). */
  get size(): number {
    return this.counts.size;
  }

  private roll(at: number): void {
    this.counts = new Map();
    this.end = (Math.floor(at / WINDOW_MS) + 1) * WINDOW_MS;
    this.endSeconds = String(this.end / 1000);
  }
}

const LIMIT = 'x-ratelimit-limit';
const REMAINING = 'x-ratelimit-remaining';
const RESET = 'x-ratelimit-reset';

/**
 * Limits each API token to `perMinute` requests per window (docs/operations.md, "Rate limits").
 * To be called in the `/v1` scope after the bearer hook, whose principal is the key, and before
 * anything that does work for the request. Every authenticated response gets `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds); over the limit, a 429 with
 * `Retry-After`. Requests refused by authentication (401) carry no budget and are not counted.
 */
export function installRateLimit(
  scope: FastifyInstance,
  perMinute: number,
  counter = new FixedWindowCounter(),
): void {
  if (perMinute <= 0) return;
  const limit = String(perMinute);

  /** Counts the request and sets the headers; the 429 when over the limit. */
  function count(request: FastifyRequest, reply: FastifyReply, tokenId: string) {
    const now = Date.now();
    const used = counter.hit(tokenId, now);
    reply.header(LIMIT, limit);
    reply.header(REMAINING, used >= perMinute ? '0' : String(perMinute - used));
    reply.header(RESET, counter.windowEndSeconds);
    if (used <= perMinute) return undefined;
    const seconds = Math.max(1, Math.ceil((counter.windowEnd - now) / 1000));
    request.log.debug({ tokenId, used }, 'rate limit exceeded');
    return new AppError(
      429,
      `API rate limit exceeded (${limit} requests per minute per token). Please try again in ${seconds} seconds`,
      { 'retry-after': String(seconds) },
    );
  }

  scope.addHook('onRequest', (request, reply, done) => {
    const principal = request.principal;
    // The bearer hook runs first and either sets the principal or ends the request.
    if (principal === null) return done();
    const error = count(request, reply, principal.tokenId);
    if (error === undefined) done();
    else done(error);
  });

  // The bearer hook can refuse a request after authenticating it (404: not a member of the
  // organization named by the path); such requests are counted too, so that a valid token gets
  // no free requests. Handlers' own errors pass by: their request was counted already.
  scope.addHook(
    'onError',
    (
      request: FastifyRequest,
      reply: FastifyReply,
      _error: FastifyError,
      done: HookHandlerDoneFunction,
    ) => {
      const principal = request.principal;
      if (principal !== null && !reply.hasHeader(LIMIT)) count(request, reply, principal.tokenId);
      done();
    },
  );
}
