import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Opaque ids in GitBook's style (`site_…`, `sitesp_…`, 20-character ids for other objects), always
 * matching `^[a-zA-Z0-9_-]+$`. 20 base62 characters carry about 119 bits of randomness.
 */
export function newId(prefix = '', length = 20): string {
  // 256 is a multiple of 62 * 4 = 248 plus 8: rejecting bytes >= 248 keeps the draw uniform.
  let id = prefix;
  while (id.length < prefix.length + length) {
    const byte = randomByte();
    if (byte < 248) id += ALPHABET[byte % 62];
  }
  return id;
}

/**
 * Bytes of the system's CSPRNG, drawn 4 KiB at a time: one call per id cost more than the rest of
 * making it (ids are made on every write). Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] as number;
}

export const now = (): string => new Date().toISOString();

let lastTime = 0;
let sequence = 0;

/**
 * An id that sorts by creation time (then by a per-process sequence), for rows written often and
 * never looked up by a random key: appended at the end of the primary key's B-tree, each insert
 * touches the same last page rather than a random one (fewer pages written per commit). Still
 * 12 random characters (about 71 bits) after the time, so ids of several processes never clash.
 */
export function newTimeOrderedId(prefix: string): string {
  const time = Date.now();
  sequence = time === lastTime ? sequence + 1 : 0;
  lastTime = time;
  return `${prefix}${time.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(3, '0')}${newId('', 12)}`;
}
