import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
} from 'kysely';
import type { PoolStats } from './pool-stats.js';
import { writesOnlyUncached } from './uncached-writes.js';

/**
 * SQLite runs DDL inside transactions; Kysely's adapter says it does not, so its migrator would
 * run each migration on its own, under a lock that is a no-op on SQLite ("one connection"). Two
 * processes starting together on a new file then both run `0001` and one fails ("table already
 * exists"). Saying yes makes the migrator read the applied migrations and apply the missing ones
 * in one transaction, which Livery's driver begins IMMEDIATE: the second process waits for the
 * first (the driver's lock wait, SQLITE_LOCK_WAIT_MS), then finds nothing left to do.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Kysely's SQLite dialect with Livery's own driver, which
 * - counts this connection's writes, for the cache generation below;
 * - keeps prepared statements by SQL text (Kysely prepares every statement on every execution);
 * - hands the single connection to the next waiting query only, in arrival order (Kysely's own
 *   driver wakes every waiter on each release and lets them race for it again).
 */
export class LiverySqliteDialect extends SqliteDialect {
  private readonly writes = { count: 0 };
  private readonly dataVersion: BetterSqlite3.Statement;
  private dataVersionNow: number | undefined;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly lockWaitMs: number,
  ) {
    super({ database });
    this.dataVersion = database.prepare('pragma data_version').pluck();
  }

  private driver: SqliteDriver | undefined;

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  override createDriver(): Driver {
    this.driver = new SqliteDriver(this.database, this.writes, this.lockWaitMs);
    return this.driver;
  }

  /** One connection: busy while a query or transaction holds it; `waiting` queue behind it. */
  stats(): PoolStats {
    const turns = this.driver?.turns;
    return { size: 1, idle: turns?.held ? 0 : 1, waiting: turns?.waitingCount ?? 0 };
  }

  /**
   * Changes whenever the database may have changed: SQLite's `data_version` moves when another
   * connection (this process or another) commits, and the count of this connection's own write
   * statements covers the rest. Equal generations mean equal contents, so a read cached under a
   * generation stays valid while it is unchanged (see db/prepared.ts).
   *
   * `data_version` is read once per I/O callback: the value is kept until that callback's promise
   * chain has run, i.e. for the requests whose bytes it delivered, which arrived after any commit
   * they could depend on. Own writes are counted live.
   */
  generation(): string {
    if (this.dataVersionNow === undefined) {
      this.dataVersionNow = this.dataVersion.get() as number;
      // Node runs the tick queue before the promise continuations of the current callback; a
      // tick scheduled from a microtask runs after all of them, at the end of this callback.
      queueMicrotask(() =>
        process.nextTick(() => {
          this.dataVersionNow = undefined;
        }),
      );
    }
    return `${this.dataVersionNow}.${this.writes.count}`;
  }
}

class SqliteDriver implements Driver {
  private readonly connection: SqliteConnection;
  readonly turns = new Turns();

  constructor(
    private readonly database: BetterSqlite3.Database,
    writes: { count: number },
    lockWaitMs: number,
  ) {
    this.connection = new SqliteConnection(database, writes, this.turns, lockWaitMs);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.take();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // Livery's transactions all write: take the write lock up front rather than fail to upgrade.
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // After some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) SQLite has already rolled the
    // transaction back; a ROLLBACK would then fail with "no transaction is active", and that error
    // would replace the real cause in what the caller (and the log) sees.
    if (!this.database.inTransaction) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.turns.pass();
  }

  async destroy(): Promise<void> {
    this.database.close();
  }
}

/** A FIFO lock: `take` resolves at once when free, else when the previous holder passes. */
class Turns {
  held = false;
  private readonly waiting: (() => void)[] = [];

  get waitingCount(): number {
    return this.waiting.length;
  }

  take(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  pass(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.held = false;
    else next(); // stays held: the turn goes straight to the next waiter
  }
}

/** The longest pause between two attempts to take a lock another connection holds. */
const MAX_LOCK_POLL_MS = 25;

class SqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly writes: { count: number },
    private readonly turns: Turns,
    private readonly lockWaitMs: number,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return this.run<R>(query);
    } catch (error) {
      if (!this.mayWaitFor(error)) throw error;
      return this.runWhenUnlocked<R>(query);
    }
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    // Preparing reads the schema, which can meet a lock too: it is part of the attempt.
    const statement = this.prepare(query.sql);
    const parameters = query.parameters as unknown[];
    // Counted before running: a read cached from here on carries a newer generation. Counted:
    // every statement but a plain read. A write with RETURNING is a `reader` but not `readonly`;
    // BEGIN, COMMIT and ROLLBACK are `readonly` but not `reader`.
    // Analytics events are left out (uncached-writes.ts): no cached read depends on them.
    if (!(statement.reader && statement.readonly) && !writesOnlyUncached(query.sql)) {
      this.writes.count += 1;
    }
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  /**
   * Another connection (the CLI, a backup, a second Livery process) holds the lock this statement
   * needs. SQLite's own busy_timeout would wait inside the synchronous driver, blocking the event
   * loop (health checks, reads, every other request) for as long; instead the statement is tried
   * again on a timer, and between attempts this connection serves the queries queued behind it.
   * That is safe only outside a transaction: a failed statement outside one left nothing behind,
   * and no caller holds state on the connection (`begin immediate` itself is such a statement).
   * Past lockWaitMs the SQLITE_BUSY error goes up: a 503 with Retry-After (db/errors.ts).
   */
  private async runWhenUnlocked<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.lockWaitMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, MAX_LOCK_POLL_MS)) {
      this.turns.pass();
      await new Promise((resolve) => setTimeout(resolve, pause));
      await this.turns.take();
      try {
        return this.run<R>(query);
      } catch (error) {
        if (!this.mayWaitFor(error) || Date.now() >= deadline) throw error;
      }
    }
  }

  private mayWaitFor(error: unknown): boolean {
    const code = (error as { code?: unknown }).code;
    return (
      typeof code === 'string' &&
      code.startsWith('SQLITE_BUSY') &&
      !this.database.inTransaction &&
      this.lockWaitMs > 0
    );
  }

  // Kysely's streaming is not used by Livery.
  // biome-ignore lint/correctness/useYield: the interface requires a generator
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported');
  }

  private prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.database.prepare(sql);
      // Livery's SQL is a bounded set of shapes; the bound only guards against a leak.
      if (this.statements.size >= 1000) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
