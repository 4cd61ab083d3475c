import { createHash } from 'node:crypto';

/**
 * GitBook's audit event ids are UUIDs; Livery's audit entries have time-ordered text ids
 * (`audit_…`, 135 bits: more than a UUID holds). An event's UUID is a UUIDv8 (RFC 9562) made of
 * the entry's time (48 bits of Unix milliseconds, as in a UUIDv7) and 74 bits of a SHA-256 of
 * its id. The time leads the lookup to the entries of that millisecond, a prefix of the log's
 * primary key (organization_id, at, id); the hash picks the entry among them. No stored column,
 * so no migration, and every existing entry has its UUID.
 */

const HASH_BITS = 74n;

function hashBits(id: string): bigint {
  const digest = createHash('sha256').update(id).digest();
  return BigInt(`0x${digest.subarray(0, 10).toString('hex')}`) >> (80n - HASH_BITS);
}

/** The UUID of the entry `id` recorded at `at` (an ISO time). */
export function auditEventUuid(id: string, at: string): string {
  const ms = BigInt(Date.parse(at));
  const hash = hashBits(id);
  // 48 time | 4 version (8) | 12 hash | 2 variant (0b10) | 62 hash
  const value =
    (ms << 80n) | (8n << 76n) | ((hash >> 62n) << 64n) | (2n << 62n) | (hash & ((1n << 62n) - 1n));
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_V8 = /^([0-9a-f]{8})-([0-9a-f]{4})-8([0-9a-f]{3})-([89ab][0-9a-f]{3})-([0-9a-f]{12})$/i;

/**
 * The time (ISO, as entries store it) of the entry a UUID names, and a test that an entry id is
 * the one; undefined for a string that no entry's UUID can be.
 */
export function parseAuditEventUuid(
  uuid: string,
): { at: string; matches: (id: string) => boolean } | undefined {
  if (!UUID_V8.test(uuid)) return undefined;
  const ms = Number(BigInt(`0x${uuid.slice(0, 8)}${uuid.slice(9, 13)}`));
  const at = new Date(ms);
  if (Number.isNaN(at.getTime()) || ms > Date.parse('9999-12-31T23:59:59.999Z')) return undefined;
  const iso = at.toISOString();
  return { at: iso, matches: (id) => auditEventUuid(id, iso) === uuid.toLowerCase() };
}
