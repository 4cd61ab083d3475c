import { sql, type Transaction } from 'kysely';
import type { Db } from './database.js';
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
export class GroupCommit {
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

const instances = new WeakMap<Db, GroupCommit>();

/** The group commit of a database: one per database, so every writer joins the same batches. */
export function groupCommitOf(db: Db): GroupCommit {
  let instance = instances.get(db);
  if (instance === undefined) {
    instance = new GroupCommit(db);
    instances.set(db, instance);
  }
  return instance;
}
