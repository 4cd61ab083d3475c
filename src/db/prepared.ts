import type { Compilable, CompiledQuery } from 'kysely';
import { type Db, generationOf } from './database.js';

/** Marks where an argument goes while the query is compiled; never sent to the database. */
const MARKER = '\u0000livery-argument-';

type Slot = { argument: number } | { constant: unknown };

/**
 * A query built and compiled by Kysely once, then run with new argument values. Hot read paths
 * (authentication, customization reads) run on every request; building and compiling a query
 * costs three to four times what SQLite takes to answer it. The SQL still comes from Kysely, so
 * it stays right for each dialect. Arguments are strings (ids, hashes).
 */
export function prepare<Row, Args extends string[]>(
  db: Db,
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => Promise<Row[]> {
  const markers = Array.from({ length: build.length }, (_, i) => `${MARKER}${i}`) as Args;
  const compiled = build(...markers).compile();
  const slots: Slot[] = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(MARKER)
      ? { argument: Number(value.slice(MARKER.length)) }
      : { constant: value },
  );
  return async (...args) => {
    const parameters = slots.map((slot) =>
      'argument' in slot ? args[slot.argument] : slot.constant,
    );
    const query: CompiledQuery<Row> = { ...compiled, parameters };
    return (await db.executeQuery(query)).rows;
  };
}

/**
 * `prepare`, with the result of recent argument values kept in memory and reused while the
 * database generation is unchanged (see generationOf in db/database.ts): any commit, by this
 * process or another one, makes every kept result stale, so a read never answers older data than
 * the database holds. Reading the generation costs a small fraction of a query, which is the
 * point: the hot reads of every request (the token, the customization) then cost a map lookup
 * while nothing changes, and exactly one query after anything did.
 *
 * `map` turns the rows into what callers use, once per query rather than once per request; a
 * cached result is the same object on every hit (callers must not change it), so callers may
 * derive further values from it once, keyed by identity (customization/service.ts does).
 */
export function prepareCached<Row, Args extends string[], Result>(
  db: Db,
  build: (...args: Args) => Compilable<Row>,
  map: (rows: Row[]) => Result,
  maxEntries = 10_000,
): CachedQuery<Args, Result> {
  const run = prepare(db, build);
  const cache = new GenerationCache<Result>(db, maxEntries);
  const query = (...args: Args) =>
    cache.get(args.join('\u0000'), async () => map(await run(...args)));
  return Object.assign(query, { peek: (...args: Args) => cache.peek(args.join('\u0000')) });
}

/** What `peek` answers when the value is not kept (or the generation cannot be known). */
export const MISS: unique symbol = Symbol('not cached');

/** A cached query; `peek` answers a kept, current result synchronously, or MISS. */
export type CachedQuery<Args extends string[], Result> = ((...args: Args) => Promise<Result>) & {
  peek: (...args: Args) => Result | typeof MISS;
};

/**
 * Values kept while the database generation is unchanged (see prepareCached): any commit, by
 * this process or another, makes every kept value stale. Nothing is kept while the generation
 * cannot be known. `valid` can shorten a value's life further (a value that expires by time);
 * `keep` can decline to keep one (a value that depends on more than the database).
 */
export class GenerationCache<V> {
  private readonly generation: () => string | undefined;
  private readonly entries = new Map<string, { generation: string; value: V }>();

  constructor(
    db: Db,
    private readonly maxEntries = 10_000,
    private readonly policy: { valid?: (value: V) => boolean; keep?: (value: V) => boolean } = {},
  ) {
    this.generation = generationOf(db);
  }

  /**
   * The kept value of `key` if it is current, without waiting: hot paths answer a hit with no
   * promise at all (a GET's token and customization), and call `get` on MISS.
   */
  peek(key: string): V | typeof MISS {
    const current = this.generation();
    if (current === undefined) return MISS;
    const hit = this.entries.get(key);
    const { valid } = this.policy;
    if (hit?.generation === current && (valid === undefined || valid(hit.value))) return hit.value;
    return MISS;
  }

  async get(key: string, make: () => Promise<V>): Promise<V> {
    const { valid, keep } = this.policy;
    // Read before making: should a write land in between, the value carries the older
    // generation and is simply made again next time.
    const current = this.generation();
    if (current === undefined) return make();
    const hit = this.entries.get(key);
    if (hit?.generation === current && (valid === undefined || valid(hit.value))) return hit.value;
    const value = await make();
    if (keep === undefined || keep(value)) {
      // Stale entries are harmless; only memory matters.
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { generation: current, value });
    }
    return value;
  }
}
