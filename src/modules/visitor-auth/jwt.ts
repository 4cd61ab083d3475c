import { createHmac } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify } from 'jose';

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

/**
 * The claims of a valid token; throws VisitorTokenError saying why a token is not valid. The
 * checks are jose's (`jwtVerify`, HS256 only); Livery adds one strictness: the signature must be
 * in its canonical base64url form.
 */
export async function verifyVisitorToken(
  token: string,
  options: VerifyOptions,
): Promise<VisitorClaims> {
  const skew = options.clockSkewSeconds ?? MAX_CLOCK_SKEW_SECONDS;
  if (!(skew >= 0 && skew <= MAX_CLOCK_SKEW_SECONDS)) {
    throw new RangeError(`clockSkewSeconds must be 0..${MAX_CLOCK_SKEW_SECONDS}`);
  }
  const parts = token.split('.');
  const signature = parts[2];
  if (parts.length !== 3 || !signature) {
    throw new VisitorTokenError('malformed', 'A JWT has three dot-separated parts');
  }
  // Another string for the same bytes (other unused trailing bits) is not the token signed.
  if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) {
    throw new VisitorTokenError('signature', "The token's signature does not match the site's key");
  }
  try {
    // jose would refuse an unknown extension as a malformed token; it is a refused algorithm.
    if (requiresExtensions(token)) {
      throw new VisitorTokenError('algorithm', 'The token requires extensions (crit)');
    }
    const { payload } = await jwtVerify(token, new TextEncoder().encode(options.key), {
      algorithms: ['HS256'],
      audience: options.audience,
      requiredClaims: ['exp'],
      clockTolerance: skew,
      currentDate: new Date(options.now ?? Date.now()),
    });
    return payload as VisitorClaims;
  } catch (error) {
    throw refusal(error);
  }
}

function requiresExtensions(token: string): boolean {
  try {
    return decodeProtectedHeader(token).crit !== undefined;
  } catch {
    return false; // not a header at all: jwtVerify says it is malformed
  }
}

/** jose's error as the reason Livery gives (docs/published-site.md, visitor authentication). */
function refusal(error: unknown): VisitorTokenError {
  if (error instanceof VisitorTokenError) return error;
  const reason = (r: VisitorTokenFailure, message: string) => new VisitorTokenError(r, message);
  if (error instanceof errors.JWTExpired) return reason('expired', 'The token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return reason('audience', 'The token is not for this site (aud)');
    if (error.claim === 'exp')
      return reason('expiry-missing', 'The token has no expiry time (exp)');
    if (error.claim === 'nbf') return reason('not-yet-valid', 'The token is not valid yet (nbf)');
    return reason('malformed', `The token's ${error.claim} claim is not valid`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return reason('algorithm', 'The token is not signed with HS256 without extensions');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return reason('signature', "The token's signature does not match the site's key");
  }
  if (error instanceof errors.JOSEError) {
    return reason('malformed', 'The token is not a well-formed JWT');
  }
  throw error;
}

/**
 * Signs claims as a site owner's backend does (HS256), for tests and Livery's own tools. Written
 * out rather than through jose on purpose: the tests then check jose's verifier against an
 * independent signer.
 */
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
