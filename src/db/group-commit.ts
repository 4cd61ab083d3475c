import {
  type CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type Transaction,
  type UnknownRow,
} from 'kysely';
import { attachBatchMemo, BatchMemo } from './batch-memo.js';
import type { Db } from './database.js';
import { isPostgres } from './dialect.js';
import { isRetryableConflict } from './errors.js';
import type { DatabaseSchema } from './schema.js';

export type Tx = Transaction<DatabaseSchema>;

/**
 * Runs read-modify-write units of work, each atomically and isolated from the others. A unit may
 * run more than once (PostgreSQL: its batch lost a deadlock to another process and is retried),
 * so it must be database work only: reads, writes, and computing its result from them.
 */
export interface UnitRunner {
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

interface Job {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * PostgreSQL keeps the ids of up to 64 subtransactions per backend in shared memory; a
 * transaction with more written savepoints makes every other session's snapshot look them up on
 * disk (pg_subtrans) while it is open. Each unit that writes is one subtransaction.
 */
const POSTGRES_MAX_UNITS = 64;
/** A batch that lost a deadlock or serialization race to another process runs again, this often. */
const ATTEMPTS = 5;

/** Batches run and units submitted, for tests and measurements. */
export interface GroupCommitStats {
  batches: number;
  units: number;
  /** Batches run again after a deadlock or serialization failure (PostgreSQL). */
  retries: number;
  /** Batches run again with a savepoint per unit, to undo one unit alone (PostgreSQL). */
  isolated: number;
  /** Batches whose units ran one by one after a deadlock with another process (PostgreSQL). */
  alone: number;
}

/**
 * Group commit, on both backends. Units of work submitted while no batch runs, within one turn
 * of the event loop, run one after another in a single transaction; one COMMIT (one fsync with
 * SQLite synchronous=FULL or PostgreSQL synchronous_commit=on) then makes all of them durable,
 * and only then is any of them answered. Units submitted while a batch runs wait for it and
 * form the next batch, so a batch grows with the load and there is one COMMIT per batch, not
 * per unit. A COMMIT that fails fails every unit of its batch.
 *
 * A unit that fails (a 404, a 412, a statement error) is undone alone and the others still
 * commit. On SQLite each unit runs under its own savepoint. On PostgreSQL a savepoint is a round
 * trip, a third of a PATCH's, so a batch first runs without them: a unit that fails having only
 * read needs no undoing; if one fails after writing (or a statement fails), the transaction is
 * rolled back and the batch runs again with a savepoint per unit. Units are serialized, so a
 * read-modify-write in one never loses another's update, whether they target the same row or
 * not: concurrent PATCHes of one variant all land in one commit. On PostgreSQL units also lock
 * the rows they read (dialect.lockRows) against other processes. Units may keep what they
 * locked for the next units of the batch (batch-memo.ts).
 *
 * One batch at a time per process runs its units: two batches of one process running units on
 * two connections could lock the same rows in opposite orders and deadlock. (On PostgreSQL the
 * next batch starts while the previous one commits: a committing batch waits for no lock.)
 * Between processes (PostgreSQL) a deadlock can still happen; PostgreSQL then aborts one
 * statement (40P01), and the whole batch is rolled back and run again, which is why units must
 * be pure database work (UnitRunner).
 */
export class GroupCommit implements UnitRunner {
  private queue: Job[] = [];
  private scheduled = false;
  private running = false;
  private readonly postgres: boolean;
  readonly stats: GroupCommitStats = { batches: 0, units: 0, retries: 0, isolated: 0, alone: 0 };

  constructor(private readonly db: Db) {
    this.postgres = isPostgres(db);
  }

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.queue.length === 0) return;
    this.scheduled = true;
    // After the poll phase: every request read in this turn has queued its work by then.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    this.running = true;
    const size = this.postgres ? POSTGRES_MAX_UNITS : this.queue.length;
    const jobs = this.queue.splice(0, size);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.running = false;
      this.schedule();
    };
    try {
      const outcomes = await this.runBatch(jobs, release);
      jobs.forEach((job, index) => {
        const outcome = outcomes[index] as Outcome;
        if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    } catch (error) {
      // The batch as a whole failed (its COMMIT, the connection): nothing of it is durable.
      for (const job of jobs) job.reject(error);
    } finally {
      release();
    }
  }

  private async runBatch(jobs: Job[], release: () => void): Promise<Outcome[]> {
    // SQLite's savepoints cost no round trip: it always isolates units with them.
    let isolate = !this.postgres;
    for (let attempt = 1; ; attempt++) {
      this.stats.batches += 1;
      this.stats.units += jobs.length;
      try {
        const outcomes = await this.attempt(jobs, isolate, release);
        if (outcomes !== undefined) return outcomes;
        // A unit failed after writing, or a statement failed: undo it alone, with savepoints.
        isolate = true;
        this.stats.isolated += 1;
      } catch (error) {
        if (!isRetryableConflict(error) || attempt >= ATTEMPTS) throw error;
        this.stats.retries += 1;
        // A batch locks its units' rows in their arrival order and holds them all until its
        // COMMIT, so two processes' batches over the same rows in another order deadlock, and
        // under a steady storm they may again on every attempt. A unit run alone holds only
        // its own rows: from the first deadlock on, this batch's units run one by one.
        if (jobs.length > 1) return this.runAlone(jobs);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  /**
   * Each unit in a transaction of its own, one after another (still before the next batch: the
   * batch's `release` waits for the last). A unit that fails fails alone.
   */
  private async runAlone(jobs: Job[]): Promise<Outcome[]> {
    this.stats.alone += 1;
    const outcomes: Outcome[] = [];
    for (const job of jobs) {
      try {
        outcomes.push(...(await this.runBatch([job], () => {})));
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  /**
   * One transaction over all units; throws what failed the batch as a whole. Without `isolate`
   * (PostgreSQL's first attempt), units run without savepoints, which cost a round trip each:
   * a unit that fails having only read is undone by nothing; one that wrote or saw a statement
   * fail cannot be undone alone, so the transaction is rolled back and undefined returned, for
   * the batch to run again isolated.
   */
  private async attempt(
    jobs: Job[],
    isolate: boolean,
    release: () => void,
  ): Promise<Outcome[] | undefined> {
    const outcomes: Outcome[] = [];
    // What failed the batch, kept because the driver's ROLLBACK may fail too and hide it.
    let failure: { error: unknown } | undefined;
    let unisolated = false;
    const memo = new BatchMemo();
    try {
      await this.db.transaction().execute(async (tx) => {
        for (const [index, job] of jobs.entries()) {
          const watch = new StatementWatch();
          if (isolate) await this.savepoint(tx, index);
          const unitTx = tx.withPlugin(watch);
          attachBatchMemo(unitTx, memo);
          watches.set(unitTx, watch);
          let ok = false;
          try {
            const value = await job.work(unitTx);
            // A statement failed and the unit went on: PostgreSQL would turn the COMMIT into a
            // silent ROLLBACK. A bug of the unit, which fails alone.
            if (!watch.clean) throw new Error('a unit of work ignored a failed statement');
            outcomes.push({ ok: true, value });
            ok = true;
          } catch (error) {
            // A lost race taints the batch's locks, not the unit: the batch runs again.
            if (isRetryableConflict(error)) {
              failure = { error };
              throw error;
            }
            if (!isolate && (watch.wrote || !watch.clean)) unisolated = true;
            else if (isolate) await this.rollbackUnit(tx, error, (f) => (failure = f));
            outcomes.push({ ok: false, error });
          } finally {
            memo.settle(ok);
          }
          if (unisolated) throw new Error('a unit must be undone alone');
        }
        if (isolate && jobs.length > 0) await sql`release unit`.execute(tx);
        // PostgreSQL: the next batch may run its units during this COMMIT's fsync. It cannot
        // deadlock with this one, which waits for no lock now; where it reads rows this one
        // wrote, their locks make it wait for this COMMIT. (SQLite has one connection.)
        if (this.postgres) release();
      });
    } catch (error) {
      if (unisolated && failure === undefined) return undefined;
      throw failure === undefined ? error : failure.error;
    }
    return outcomes;
  }

  /**
   * The next unit's savepoint, releasing the previous unit's (after a rollback to it, it is
   * still there): one round trip on PostgreSQL, where a statement without parameters goes by
   * the simple protocol, which allows two.
   */
  private async savepoint(tx: Tx, index: number): Promise<void> {
    if (index === 0) {
      await sql`savepoint unit`.execute(tx);
    } else if (this.postgres) {
      await sql`release unit; savepoint unit`.execute(tx);
    } else {
      await sql`release unit`.execute(tx);
      await sql`savepoint unit`.execute(tx);
    }
  }

  private async rollbackUnit(
    tx: Tx,
    error: unknown,
    fail: (failure: { error: unknown }) => void,
  ): Promise<void> {
    try {
      await sql`rollback to unit`.execute(tx);
    } catch (rollbackError) {
      // The transaction itself is gone (connection lost, disk full): the unit's own error names
      // the cause; the batch fails with it.
      fail({ error });
      throw rollbackError;
    }
  }
}

/** What a unit's statements did: whether it wrote, whether every statement succeeded. */
class StatementWatch implements KyselyPlugin {
  private started = 0;
  private finished = 0;
  wrote = false;

  get clean(): boolean {
    return this.started === this.finished;
  }

  /** A statement compiled beforehand (executeCompiled): counted, and taken as a write. */
  begin(): void {
    this.started += 1;
    this.wrote = true;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.started += 1;
    // Raw SQL may write; only a SELECT is known not to.
    if (args.node.kind !== 'SelectQueryNode') this.wrote = true;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.finished += 1;
    return args.result;
  }
}

const watches = new WeakMap<Tx, StatementWatch>();

/**
 * Runs a query compiled beforehand as a statement of the unit `tx` belongs to, for hot write
 * paths: no building, no compiling. The unit's watch counts it as a write (its result is counted
 * by the plugin as every statement's is).
 */
export function executeCompiled<R>(tx: Tx, query: CompiledQuery<R>) {
  watches.get(tx)?.begin();
  return tx.executeQuery(query);
}

const instances = new WeakMap<Db, GroupCommit>();

/** The group commit of a database: one per database, so every writer of this process joins it. */
export function groupCommitOf(db: Db): GroupCommit {
  let instance = instances.get(db);
  if (instance === undefined) {
    instance = new GroupCommit(db);
    instances.set(db, instance);
  }
  return instance;
}
