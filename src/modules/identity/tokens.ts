import * as crypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `gb_` + 32 random bytes (256 bits) in base64url: GitBook-looking, URL- and header-safe. */
export function generateToken(): string {
  return `gb_${randomBytes(32).toString('base64url')}`;
}

// Node ≥ 20.12 has the one-shot crypto.hash: a third of createHash's cost, and every request
// hashes its token. Older Node 20 releases fall back to createHash.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string })
  .hash;

/** Tokens are stored only as this hash; a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return oneShot === undefined
    ? createHash('sha256').update(token, 'utf8').digest('hex')
    : oneShot('sha256', token, 'hex');
}

/** Constant-time comparison of two hex hashes (compared as text: no decoding needed). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'latin1');
  const right = Buffer.from(b, 'latin1');
  return left.length === right.length && timingSafeEqual(left, right);
}
