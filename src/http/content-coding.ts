import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from './conditional.js';

/**
 * Compression of answers that are sent many times (the published site's pages): each body is
 * compressed once per content coding, on libuv's thread pool (never on the event loop: a large
 * page would stall every other request), and kept with the body. RFC 9110 §8.4, §12.5.3.
 */

export type Coding = 'br' | 'gzip' | 'identity';

export interface Encoded {
  coding: Coding;
  body: Buffer;
  /** A strong ETag of these very bytes: each coding is a representation of its own. */
  etag: string;
}

/** Bodies below this are sent as they are: compressing saves less than it costs. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli at quality 5 and gzip at level 6: on a 20–30 KB page, within a few percent of the
 * smallest output for about a millisecond of CPU (quality 11 costs 20–200 times that, and the
 * hostile pages of issue 25 are megabytes).
 */
const compress: Record<Exclude<Coding, 'identity'>, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

/** A body and its compressed forms, each made once, when first asked for. */
export class CompressibleBody {
  readonly identity: Encoded;
  private readonly tag: string;
  private readonly made = new Map<Coding, Encoded | Promise<Encoded>>();

  constructor(body: Buffer) {
    this.tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    this.identity = { coding: 'identity', body, etag: `"${this.tag}"` };
  }

  /** Whether compressed codings are offered at all (then answers vary by Accept-Encoding). */
  get compressible(): boolean {
    return this.identity.body.length >= MIN_COMPRESSED_BYTES;
  }

  /**
   * The body in the coding that `acceptEncoding` prefers: at once when it is made, else a
   * promise (the first request of each coding waits for its compression).
   */
  encodedFor(acceptEncoding: string | undefined): Encoded | Promise<Encoded> {
    if (!this.compressible) return this.identity;
    const coding = preferredCoding(acceptEncoding);
    if (coding === 'identity') return this.identity;
    let encoded = this.made.get(coding);
    if (encoded === undefined) {
      encoded = compress[coding](this.identity.body).then(
        (body): Encoded => {
          const made = { coding, body, etag: `"${this.tag}-${coding}"` };
          this.made.set(coding, made);
          return made;
        },
        () => {
          // Sent as it is this time; the next request tries again.
          this.made.delete(coding);
          return this.identity;
        },
      );
      this.made.set(coding, encoded);
    }
    return encoded;
  }

  /** Bytes held: the body and the compressed forms made so far (for bounded caches). */
  get bytes(): number {
    let total = this.identity.body.length;
    for (const made of this.made.values())
      if (!(made instanceof Promise)) total += made.body.length;
    return total;
  }
}

/** Parsed Accept-Encoding values, by header: browsers send a handful of distinct ones. */
const preferences = new Map<string, Coding>();
const PREFERENCES_KEPT = 256;

/**
 * The coding to send for an Accept-Encoding header: the acceptable one with the highest q,
 * brotli before gzip before identity on a tie. Without the header, or when neither br nor gzip
 * is acceptable, identity (which the header can lower but which is always sent rather than 406).
 * `identity` not named in the header counts as acceptable but least preferred.
 */
export function preferredCoding(header: string | undefined): Coding {
  if (header === undefined || header === '') return 'identity';
  let found = preferences.get(header);
  if (found === undefined) {
    found = parsePreference(header);
    if (preferences.size >= PREFERENCES_KEPT) preferences.clear();
    preferences.set(header, found);
  }
  return found;
}

function parsePreference(header: string): Coding {
  const q = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name = '', ...parameters] = item.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter);
      if (match !== null) weight = Number(match[1]);
    }
    q.set(coding, Number.isFinite(weight) ? Math.min(1, Math.max(0, weight)) : 0);
  }
  const any = q.get('*');
  const weightOf = (coding: Coding) =>
    q.get(coding) ?? (coding === 'identity' ? Math.min(any ?? 0.001, 0.001) : (any ?? 0));
  let best: Coding = 'identity';
  let bestWeight = 0;
  for (const coding of ['br', 'gzip', 'identity'] as const) {
    const weight = weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * The headers of `encoded`, one form of `body`, on `reply`: `Vary` when the body has compressed
 * forms, its `Content-Encoding`, and, with `etag`, its strong ETag. True when the request's
 * `If-None-Match` already holds that ETag: the answer is then a 304 without a body.
 */
export function setEncodingHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  body: CompressibleBody,
  encoded: Encoded,
  { etag }: { etag: boolean },
): boolean {
  if (body.compressible) reply.header('vary', 'accept-encoding');
  if (etag) {
    reply.header('etag', encoded.etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], encoded.etag)) return true;
  }
  if (encoded.coding !== 'identity') reply.header('content-encoding', encoded.coding);
  return false;
}
