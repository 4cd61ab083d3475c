import { createHmac } from 'node:crypto';
import { sameHash } from '../identity/tokens.js';

/**
 * Visitor tokens of a site with visitor authentication (GitBook's "custom backend"): JWTs that
 * the site owner's backend signs with the site's `privateKey` (HS256) and a visitor presents to
 * the published site. Pure functions, no HTTP: the published site and the tests use them.
 *
 * What a valid token is here:
 * - three base64url parts; the header says `alg: "HS256"` (never `none`, never another
 *   algorithm: the key is a shared secret) and has no `crit` extensions;
 * - its signature is the HMAC-SHA256 of `header.payload` under the site's current key, in its
 *   canonical base64url form (a string that decodes to the same bytes with other trailing bits
 *   is refused too);
 * - its payload is a JSON object whose `aud` is the site's id (or an array holding it), with an
 *   `exp` (required) not past, and an `nbf`, when present, reached, both within the clock skew.
 */

export type VisitorTokenFailure =
  | 'malformed'
  | 'algorithm'
  | 'signature'
  | 'audience'
  | 'expiry-missing'
  | 'expired'
  | 'not-yet-valid';

export class VisitorTokenError extends Error {
  constructor(
    readonly reason: VisitorTokenFailure,
    message: string,
  ) {
    super(message);
    this.name = 'VisitorTokenError';
  }
}

/** The largest clock skew allowed between the signer's clock and Livery's, in seconds. */
export const MAX_CLOCK_SKEW_SECONDS = 60;

export interface VerifyOptions {
  /** The site's current private key. */
  key: string;
  /** The site's id: the audience the token must name. */
  audience: string;
  /** Now, in milliseconds since the epoch (default: the clock). */
  now?: number;
  /** Tolerance for `exp` and `nbf`, 0..60 seconds (default 60). */
  clockSkewSeconds?: number;
}

export type VisitorClaims = Record<string, unknown> & { exp: number };

/** The claims of a valid token; throws VisitorTokenError saying why a token is not valid. */
export function verifyVisitorToken(token: string, options: VerifyOptions): VisitorClaims {
  const skew = options.clockSkewSeconds ?? MAX_CLOCK_SKEW_SECONDS;
  if (!(skew >= 0 && skew <= MAX_CLOCK_SKEW_SECONDS)) {
    throw new RangeError(`clockSkewSeconds must be 0..${MAX_CLOCK_SKEW_SECONDS}`);
  }
  const parts = token.split('.');
  const [header, payload, signature] = parts;
  if (parts.length !== 3 || header === undefined || payload === undefined || !signature) {
    throw new VisitorTokenError('malformed', 'A JWT has three dot-separated parts');
  }
  const head = decodeJson(header, 'header');
  if (head.alg !== 'HS256') {
    throw new VisitorTokenError('algorithm', 'The token is not signed with HS256');
  }
  if (head.crit !== undefined) {
    throw new VisitorTokenError('algorithm', 'The token requires extensions (crit)');
  }
  // Compared as text in constant time (like token hashes): base64url is ASCII.
  if (!sameHash(signature, sign(`${header}.${payload}`, options.key))) {
    throw new VisitorTokenError('signature', "The token's signature does not match the site's key");
  }
  const claims = decodeJson(payload, 'payload');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(options.audience)) {
    throw new VisitorTokenError('audience', 'The token is not for this site (aud)');
  }
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) {
    throw new VisitorTokenError('expiry-missing', 'The token has no expiry time (exp)');
  }
  const now = (options.now ?? Date.now()) / 1000;
  if (now > claims.exp + skew) throw new VisitorTokenError('expired', 'The token has expired');
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== 'number' || now + skew < claims.nbf) {
      throw new VisitorTokenError('not-yet-valid', 'The token is not valid yet (nbf)');
    }
  }
  return claims as VisitorClaims;
}

/** Signs claims as a site owner's backend does (HS256): for tests and for Livery's own tools. */
export function signVisitorToken(claims: Record<string, unknown>, key: string): string {
  const header = encode({ alg: 'HS256', typ: 'JWT' });
  const payload = encode(claims);
  return `${header}.${payload}.${sign(`${header}.${payload}`, key)}`;
}

function sign(input: string, key: string): string {
  return createHmac('sha256', key).update(input).digest('base64url');
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeJson(part: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    if (!BASE64URL.test(part)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new VisitorTokenError('malformed', `The token's ${what} is not base64url-encoded JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VisitorTokenError('malformed', `The token's ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
