import { webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { SigningKey, SiteTokenKeys } from './keys.js';

/**
 * Site tokens (docs/renderer.md): the `apiToken` that `POST /v1/urls/published` returns. GitBook's
 * renderer reads a published site with it and embeds it in the page's HTML, so it is public: it
 * names one published site and opens only the reads of it (one permission-table flag,
 * `siteToken`), checked against the site's state on every request (site-token-gate.ts).
 *
 * A JWT (HS256 with a Livery key, `kid` in its header) whose claims are GitBook's `SiteAPIToken`:
 * `kind: "site"`, `organization`, `site`, `siteSpace`, `space`, `spaces`, plus `iat`/`exp` and,
 * for a closed site, `access`: what opened it (a share link's key hash, or the fingerprint of the
 * visitor-authentication key), so that revoking the link or regenerating the key closes the
 * token too.
 *
 * Like GitBook, tokens are minted per time bucket: every lookup of a variant within one hour
 * gets the same token (the renderer's caches key on it), valid until 5 minutes after the hour
 * ends, so a page rendered at the turn of the hour has a token with time left (the renderer
 * refreshes a token less than 120 s from expiry).
 */

export const BUCKET_SECONDS = 3600;
export const OVERLAP_SECONDS = 300;
/** Clock skew tolerated between Livery processes. */
const CLOCK_TOLERANCE_SECONDS = 30;

export type SiteAccessStamp = { shareLink: string } | { visitorKey: string };

export interface SiteTokenSubject {
  organization: string;
  site: string;
  siteSpace: string;
  space: string;
  /** Every space the site shows: what the token may read. */
  spaces: string[];
  visitorType?: 'human' | 'agent';
  /** The verified claims of a visitor-authentication token. */
  claims?: Record<string, unknown>;
  access?: SiteAccessStamp;
  /** Latest expiry (seconds): a visitor token's own `exp`. */
  notAfter?: number;
}

export interface SiteTokenClaims extends Omit<SiteTokenSubject, 'notAfter'> {
  kind: 'site';
  iat: number;
  exp: number;
}

export class SiteTokenRefused extends Error {}

const MINTED_MAX = 5_000;

export class SiteTokens {
  private readonly minted = new Map<string, { token: string; exp: number }>();
  private readonly verified = new Map<string, SiteTokenClaims>();
  /** WebCrypto keys, imported once per signing key: importing costs as much as signing. */
  private readonly cryptoKeys = new Map<string, Promise<webcrypto.CryptoKey>>();

  constructor(
    private readonly keys: SiteTokenKeys,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The token of `subject` for the current hour (the same string within the hour). */
  async mint(subject: SiteTokenSubject): Promise<string> {
    const key = await this.keys.current();
    const now = Math.floor(this.clock() / 1000);
    const iat = now - (now % BUCKET_SECONDS);
    const exp = Math.min(iat + BUCKET_SECONDS + OVERLAP_SECONDS, subject.notAfter ?? Infinity);
    const { notAfter: _, ...rest } = subject;
    const cacheKey = `${key.id}\u0000${iat}\u0000${exp}\u0000${JSON.stringify(rest)}`;
    const hit = this.minted.get(cacheKey);
    if (hit !== undefined) return hit.token;
    const token = await new SignJWT({ kind: 'site', ...rest })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: key.id })
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(await this.cryptoKeyOf(key));
    if (this.minted.size >= MINTED_MAX) this.minted.clear();
    this.minted.set(cacheKey, { token, exp });
    return token;
  }

  private cryptoKeyOf(key: SigningKey): Promise<webcrypto.CryptoKey> {
    let imported = this.cryptoKeys.get(key.id);
    if (imported === undefined) {
      imported = webcrypto.subtle.importKey(
        'raw',
        key.secret,
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      );
      this.cryptoKeys.set(key.id, imported);
    }
    return imported;
  }

  /** The claims of a valid, unexpired site token; throws SiteTokenRefused saying why not. */
  async verify(token: string): Promise<SiteTokenClaims> {
    const now = this.clock() / 1000;
    const hit = this.verified.get(token);
    if (hit !== undefined && hit.exp + CLOCK_TOLERANCE_SECONDS >= now) return hit;
    // Kept tokens passed this check: the cache is keyed by the exact text.
    if (!isCompactJwt(token)) throw new SiteTokenRefused('not valid');
    let payload: Record<string, unknown>;
    let kid: string | undefined;
    try {
      const result = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid === undefined ? undefined : await this.keys.byId(header.kid);
          if (key === undefined) throw new SiteTokenRefused('signed with an unknown key');
          return this.cryptoKeyOf(key);
        },
        {
          algorithms: ['HS256'],
          requiredClaims: ['iat', 'exp'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: new Date(this.clock()),
        },
      );
      payload = result.payload;
      kid = result.protectedHeader.kid;
    } catch (error) {
      if (error instanceof SiteTokenRefused) throw error;
      if (error instanceof errors.JWTExpired) throw new SiteTokenRefused('expired');
      if (error instanceof errors.JOSEError) throw new SiteTokenRefused('not valid');
      throw error;
    }
    const claims = asClaims(payload);
    const key = kid === undefined ? undefined : await this.keys.byId(kid);
    // A retired key verifies only what it signed while it was current.
    if (
      key?.retiredAt != null &&
      claims.iat * 1000 > key.retiredAt + CLOCK_TOLERANCE_SECONDS * 1000
    ) {
      throw new SiteTokenRefused('signed with a retired key');
    }
    if (this.verified.size >= MINTED_MAX) this.verified.clear();
    this.verified.set(token, claims);
    return claims;
  }
}

/**
 * Exactly what Livery mints: three base64url segments, each in its one canonical spelling (no
 * `=` padding, no unused bits set in its last character), and nothing before, between or after
 * them (no whitespace, no fourth segment). Decoders forgive all of these, so without this check
 * one token would have many spellings, and a token with a trailing `=` would pass.
 */
export function isCompactJwt(token: string): boolean {
  const segments = token.split('.');
  return (
    segments.length === 3 &&
    segments.every(
      (segment) =>
        BASE64URL.test(segment) &&
        Buffer.from(segment, 'base64url').toString('base64url') === segment,
    )
  );
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Livery's own tokens only: a payload that is not exactly this shape was not minted here. */
function asClaims(payload: Record<string, unknown>): SiteTokenClaims {
  const { kind, organization, site, siteSpace, space, spaces, iat, exp } = payload;
  const strings = [organization, site, siteSpace, space];
  if (
    kind !== 'site' ||
    !strings.every((s) => typeof s === 'string' && s !== '') ||
    !Array.isArray(spaces) ||
    !spaces.every((s) => typeof s === 'string') ||
    typeof iat !== 'number' ||
    typeof exp !== 'number'
  ) {
    throw new SiteTokenRefused('not a site token');
  }
  return payload as unknown as SiteTokenClaims;
}
