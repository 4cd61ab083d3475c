import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Opaque ids in GitBook's style (`site_…`, `sitesp_…`, 20-character ids for other objects), always
 * matching `^[a-zA-Z0-9_-]+$`. 20 base62 characters carry about 119 bits of randomness.
 */
export function newId(prefix = '', length = 20): string {
  // 256 is a multiple of 62 * 4 = 248 plus 8: rejecting bytes >= 248 keeps the draw uniform.
  let id = prefix;
  while (id.length < prefix.length + length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) id += ALPHABET[byte % 62];
      if (id.length === prefix.length + length) break;
    }
  }
  return id;
}

export const now = (): string => new Date().toISOString();
