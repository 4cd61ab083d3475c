import { sql, type Transaction } from 'kysely';
import type { Db } from './database.js';
import { isPostgres } from './dialect.js';
import { isRetryableConflict } from './errors.js';
import type { DatabaseSchema } from './schema.js';

export type Tx = Transaction<DatabaseSchema>;

interface Job {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. Units of work submitted during one turn of the event loop run one after another
 * in a single transaction; one COMMIT (one fsync, with synchronous=FULL) then makes all of them
 * durable, and only then is any of them answered. Each unit runs under its own savepoint, so a
 * unit that fails (a 404, a 412) is undone alone and the others still commit.
 *
 * Units are serialized, so a read-modify-write inside one never loses another's update, whether
 * they target the same row or not: concurrent PATCHes of one variant all land in one commit.
 */
export class GroupCommit implements UnitRunner {
  private queue: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the poll phase: every request read in this turn has queued its work by then.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const jobs = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await this.db.transaction().execute(async (tx) => {
        for (const job of jobs) {
          await sql`savepoint unit`.execute(tx);
          try {
            outcomes.push({ ok: true, value: await job.work(tx) });
          } catch (error) {
            await sql`rollback to unit`.execute(tx);
            outcomes.push({ ok: false, error });
          }
          await sql`release unit`.execute(tx);
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of this batch is durable, so no unit succeeded.
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error);
    });
  }
}

/** Runs read-modify-write units of work, each atomically and isolated from the others. */
export interface UnitRunner {
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

/**
 * PostgreSQL: one transaction per unit, run concurrently on the pool; units lock the rows they
 * read (dialect.lockRows) and PostgreSQL itself shares one WAL flush among concurrent commits.
 * A unit that loses a race (deadlock, serialization failure) is retried from its start.
 */
class TransactionPerUnit implements UnitRunner {
  constructor(private readonly db: Db) {}

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(work);
      } catch (error) {
        if (!isRetryableConflict(error) || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }
}

const instances = new WeakMap<Db, UnitRunner>();

/**
 * The unit runner of a database: one per database, so every writer of this process joins the
 * same batches (SQLite's group commit) or the same pool (PostgreSQL).
 */
export function groupCommitOf(db: Db): UnitRunner {
  let instance = instances.get(db);
  if (instance === undefined) {
    instance = isPostgres(db) ? new TransactionPerUnit(db) : new GroupCommit(db);
    instances.set(db, instance);
  }
  return instance;
}
