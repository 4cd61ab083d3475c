import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import type { IdempotencyKeyRow } from '../db/schema.js';
import { newId } from '../ids.js';

/** What identifies "the same request" for a key: method, path and query, body. */
export interface RequestFingerprint {
  method: string;
  path: string;
  /** See bodyHash. */
  hash: string;
}

/** A response as stored for replay: status, the headers that matter, the body as sent. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The outcome of presenting a key. */
export type Claim =
  /** The key is new (or expired, or abandoned): this request runs and its response is stored. */
  | { kind: 'claimed'; id: string }
  /** The same request completed before: answer its stored response. */
  | { kind: 'replay'; response: StoredResponse }
  /** The same key's first request is still running. */
  | { kind: 'in-progress' }
  /** The key was used for another request (method, path or body). */
  | { kind: 'mismatch'; method: string; path: string };

export interface IdempotencyOptions {
  /** How long a key is kept (default 24 hours). */
  ttlMs?: number;
  /**
   * After how long a key still in progress is taken to be abandoned (its process died mid-request)
   * and may be claimed again (default 60 s, far longer than any request takes).
   */
  abandonedAfterMs?: number;
  /** At most one purge of expired keys per this interval, per process (default 60 s). */
  purgeIntervalMs?: number;
  /** Rows deleted per purge, at most (default 500). */
  purgeBatch?: number;
  /** The clock, in epoch milliseconds. */
  now?: () => number;
}

const DAY = 24 * 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The canonical JSON of a value: object keys sorted (by UTF-16 code units), no whitespace, arrays
 * in order, so two bodies that differ only in key order or spacing have the same text. Built
 * without recursion: the JSON parser accepts bodies nested far deeper (a 1 MiB body holds
 * 500,000 levels) than the call stack would.
 */
export function canonicalJson(value: unknown): string {
  const pieces: string[] = [];
  // Work left to do, last first: a value to write, or punctuation (a string).
  const stack: ({ value: unknown } | string)[] = [{ value }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === 'string') {
      pieces.push(item);
      continue;
    }
    const current = item.value;
    if (Array.isArray(current)) {
      pieces.push('[');
      stack.push(']');
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i] });
        if (i > 0) stack.push(',');
      }
    } else if (current !== null && typeof current === 'object') {
      const record = current as Record<string, unknown>;
      const keys = Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined);
      pieces.push('{');
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: record[key] });
        stack.push(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      }
    } else {
      pieces.push(JSON.stringify(current) ?? 'null');
    }
  }
  return pieces.join('');
}

/** Hex SHA-256 of a parsed body's canonical JSON; no body counts as `null`. */
export function bodyHash(body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(body ?? null))
    .digest('hex');
}

/**
 * The `idempotency_keys` table. The unique (user, key) constraint decides every race: of two
 * requests presenting a new key at once, exactly one inserts it.
 */
export class IdempotencyStore {
  private readonly ttlMs: number;
  private readonly abandonedAfterMs: number;
  private readonly purgeIntervalMs: number;
  private readonly purgeBatch: number;
  readonly now: () => number;
  private lastPurge = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    options: IdempotencyOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DAY;
    this.abandonedAfterMs = options.abandonedAfterMs ?? 60_000;
    this.purgeIntervalMs = options.purgeIntervalMs ?? 60_000;
    this.purgeBatch = options.purgeBatch ?? 500;
    this.now = options.now ?? Date.now;
  }

  async claim(userId: string, key: string, request: RequestFingerprint): Promise<Claim> {
    // A few rounds at most: each failed round found a row that has since gone (released after a
    // 5xx, expired, abandoned), and the next insert may then succeed.
    for (let round = 0; round < 3; round++) {
      const now = this.now();
      const id = newId('idem_');
      try {
        await this.db
          .insertInto('idempotency_keys')
          .values({
            id,
            user_id: userId,
            idempotency_key: key,
            method: request.method,
            path: request.path,
            request_hash: request.hash,
            status: null,
            headers: null,
            body: null,
            created_at: iso(now),
            expires_at: iso(now + this.ttlMs),
          })
          .execute();
        return { kind: 'claimed', id };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const row = await this.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      if (row === undefined) continue;
      if (this.isGone(row, now)) {
        // Only that very row, and only if it is still gone: a concurrent claimer may have
        // replaced it already, or its request may have completed meanwhile.
        let forget = this.db.deleteFrom('idempotency_keys').where('id', '=', row.id);
        if (row.expires_at > iso(now)) forget = forget.where('status', 'is', null);
        await forget.execute();
        continue;
      }
      if (
        row.method !== request.method ||
        row.path !== request.path ||
        row.request_hash !== request.hash
      ) {
        return { kind: 'mismatch', method: row.method, path: row.path };
      }
      if (row.status === null || row.body === null) return { kind: 'in-progress' };
      return {
        kind: 'replay',
        response: {
          status: row.status,
          headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
          body: row.body,
        },
      };
    }
    return { kind: 'in-progress' };
  }

  /** Expired, or in progress for so long that its request can no longer be running. */
  private isGone(row: IdempotencyKeyRow, now: number): boolean {
    if (row.expires_at <= iso(now)) return true;
    return row.status === null && row.created_at <= iso(now - this.abandonedAfterMs);
  }

  /** Stores the final response of a claimed key. */
  async complete(id: string, response: StoredResponse): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({
        status: response.status,
        headers: JSON.stringify(response.headers),
        body: response.body,
      })
      .where('id', '=', id)
      .where('status', 'is', null)
      .execute();
  }

  /** Forgets a claimed key whose request failed (5xx), so that a retry runs again. */
  async release(id: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('id', '=', id)
      .where('status', 'is', null)
      .execute();
  }

  /** Deletes up to `purgeBatch` expired keys, if no purge ran in this process lately. */
  async purgeIfDue(): Promise<number> {
    const now = this.now();
    if (now - this.lastPurge < this.purgeIntervalMs) return 0;
    this.lastPurge = now;
    return this.purgeExpired(now);
  }

  /** Deletes up to `purgeBatch` keys expired at `now` (a bounded batch: `id in (… limit n)`). */
  async purgeExpired(now = this.now()): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('idempotency_keys')
          .select('id')
          .where('expires_at', '<=', iso(now))
          .limit(this.purgeBatch),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
