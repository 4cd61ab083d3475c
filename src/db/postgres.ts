import {
  type DatabaseIntrospector,
  type Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import type { PostgresConfig } from '../config.js';
import { CHANGES_CHANNEL } from './change-notifications.js';
import type { PoolStats } from './pool-stats.js';
import { OwnSchemaIntrospector } from './postgres-introspector.js';
import { writesOnlyUncached } from './uncached-writes.js';

/**
 * PostgreSQL through `pg`'s pool, with what Livery's read cache needs (see db/prepared.ts):
 * a generation that changes whenever the database may have changed.
 *
 * - This process's own writes: every statement that is not a plain SELECT (including COMMIT)
 *   moves the generation before it is sent and again once it is done, so no read that ran
 *   beside an uncommitted write is kept past the commit.
 * - Other processes' writes: triggers announce each committed change on CHANGES_CHANNEL
 *   (migration 0002); a dedicated connection LISTENs and moves the generation on each one.
 *   While that connection is down, there is no generation and nothing is cached.
 * - "On the next request": an announcement reaches this process asynchronously, so a client
 *   that got a write's answer from another process could ask here before it arrives. `fence()`
 *   closes that window: it resolves once every change committed before it was called has been
 *   heard (see ChangeListener.fence); requests await it before their first cached read.
 */
export class LiveryPostgres {
  readonly dialect: PostgresDialect;
  private readonly pool: pg.Pool;
  /**
   * Started with the pool's first connection: Kysely opens its driver lazily and ends it (our
   * pool's `end`) only if it was opened, so a listener started earlier could outlive the
   * database object and keep the process alive.
   */
  private listener: ChangeListener | undefined;
  private writes = 0;

  constructor(config: PostgresConfig) {
    const options = {
      connectionString: config.connectionString,
      // Fail a request fast (503) rather than queue it forever while the server is unreachable.
      connectionTimeoutMillis: 5_000,
      options: `-c search_path=${config.schema}`,
      // Names Livery's sessions in pg_stat_activity (per schema, for operators and tests).
      application_name: config.schema === 'public' ? 'livery' : `livery:${config.schema}`,
    };
    this.pool = new pg.Pool({ ...options, max: config.poolSize });
    // An idle client whose connection dies is dropped by the pool; without a listener the
    // 'error' event would crash the process. The next query opens a new connection.
    this.pool.on('error', () => {});
    this.startListener = () => {
      this.listener ??= new ChangeListener(options, config.schema);
    };
    this.dialect = new OwnSchemaPostgresDialect({ pool: this.countingPool() });
  }

  private readonly startListener: () => void;

  generation(): string | undefined {
    const heard = this.listener?.heard();
    return heard === undefined ? undefined : `${heard}.${this.writes}`;
  }

  fence(): Promise<void> {
    return this.listener?.fence() ?? Promise.resolve(); // no listener: nothing is cached yet
  }

  stats(): PoolStats {
    return {
      size: this.pool.totalCount,
      idle: this.pool.idleCount,
      waiting: this.pool.waitingCount,
    };
  }

  private countingPool(): PostgresPool {
    const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
    const wrap = (client: pg.PoolClient): PostgresPoolClient => {
      let counting = wrapped.get(client);
      if (counting === undefined) {
        counting = {
          query: async (sql: string, parameters: readonly unknown[]) => {
            // Analytics events are left out (uncached-writes.ts): no cached read depends on them.
            const write = !/^\s*select\b/i.test(sql) && !writesOnlyUncached(sql);
            if (write) this.writes += 1;
            try {
              const name = NAMED.get(sql);
              if (name !== undefined) {
                return await client.query({ name, text: sql, values: parameters as unknown[] });
              }
              return await client.query(sql, parameters as unknown[]);
            } finally {
              if (write) this.writes += 1;
            }
          },
          release: () => client.release(),
        } as unknown as PostgresPoolClient;
        wrapped.set(client, counting);
      }
      return counting;
    };
    return {
      connect: async () => {
        this.startListener();
        return wrap(await this.pool.connect());
      },
      end: async () => {
        this.listener?.stop();
        await this.pool.end();
      },
    };
  }
}

/** Kysely's PostgreSQL dialect, introspecting Livery's own schema only (see the introspector). */
class OwnSchemaPostgresDialect extends PostgresDialect {
  // biome-ignore lint/suspicious/noExplicitAny: the signature of Kysely's Dialect
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

/** One connection that LISTENs for change announcements, reconnecting when it is lost. */
class ChangeListener {
  private count = 0;
  private client: pg.Client | undefined;
  private listening = false;
  private stopped = false;
  private retryMs = 100;

  constructor(
    private readonly options: pg.ClientConfig,
    private readonly schema: string,
  ) {
    void this.connect();
  }

  /** How many announcements were heard, or undefined while not listening. */
  heard(): number | undefined {
    return this.listening ? this.count : undefined;
  }

  /**
   * Resolves once every change committed before the call has been heard. PostgreSQL signals
   * listening sessions when a transaction commits, before its client is answered, and a session
   * sends the notifications it has pending before it answers its next query. So the answer to a
   * query sent on this connection after such a commit comes after its notification. Concurrent
   * callers share one query; a caller that arrives while one is in flight waits for the next,
   * since the one in flight may have been sent before that caller's commit.
   */
  fence(): Promise<void> {
    if (this.inFlight === undefined) {
      this.next ??= this.startRoundAtEndOfPoll();
      return this.next;
    }
    this.next ??= this.inFlight.then(() => this.startRoundAtEndOfPoll());
    return this.next;
  }

  private inFlight: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  /**
   * A round starts at the end of the event loop's poll phase (setImmediate), not at once: the
   * requests read in the same phase, after the one that asked first, then share its round
   * instead of waiting for the next one. Each round is a write to PostgreSQL that wakes its
   * backend, the largest cost a GET has beyond SQLite's (docs/BENCHMARKS.md, issue 16).
   */
  private startRoundAtEndOfPoll(): Promise<void> {
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.next = undefined;
      return this.startRound();
    });
  }

  private startRound(): Promise<void> {
    const round: Promise<void> = this.roundTrip().finally(() => {
      if (this.inFlight === round) this.inFlight = undefined;
    });
    this.inFlight = round;
    return round;
  }

  private async roundTrip(): Promise<void> {
    const client = this.client;
    if (client === undefined || !this.listening) return; // nothing is cached meanwhile
    try {
      await client.query(';');
    } catch {
      // The connection is lost: `lost()` stops caching until it is back.
    }
  }

  stop(): void {
    this.stopped = true;
    this.listening = false;
    void this.client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client(this.options);
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = undefined;
      void client.end().catch(() => {});
      if (this.stopped) return;
      setTimeout(() => void this.connect(), this.retryMs).unref();
      this.retryMs = Math.min(this.retryMs * 2, 2_000);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.payload === this.schema) this.count += 1;
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
      if (this.stopped || this.client !== client) return;
      // Anything may have changed while nobody listened: a new count starts a new generation.
      this.count += 1;
      this.listening = true;
      this.retryMs = 100;
    } catch {
      lost();
    }
  }
}

/** SQL texts run as named prepared statements (see namePreparedStatement), by text. */
const NAMED = new Map<string, string>();

/**
 * Runs `sql` as a named prepared statement from now on: PostgreSQL parses and plans it once per
 * connection instead of on every execution. For the few long statements of hot write paths whose
 * planning costs the database more than running them (customization/change-sql.ts). The text
 * must be one compiled once (a constant), or the map would grow without bound.
 */
export function namePreparedStatement(sql: string): void {
  if (!NAMED.has(sql)) NAMED.set(sql, `livery_${NAMED.size + 1}`);
}
