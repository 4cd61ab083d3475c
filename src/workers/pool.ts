import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { overloaded } from '../http/pressure.js';
import type { TaskMessage, TaskModule } from './task.js';

/**
 * A pool of worker threads for CPU-heavy work (docs/operations.md, "Worker threads"): turning
 * Markdown into documents and HTML, highlighting code, indexing and searching a space. The request
 * thread only hands the work over and waits, so one heavy page never stops the others.
 *
 * Piscina runs the threads. What this adds: threads start on the first task (an app that renders
 * nothing starts none), a bounded queue whose overflow is the same 503 + `Retry-After` as load
 * shedding (never an unbounded wait), a time limit per task after which its thread is stopped,
 * and a heap limit per thread, so that a hostile page costs at most one thread's restart.
 */

export interface PoolOptions {
  /** The worker module, relative to this file, without its extension. */
  module: string;
  threads: number;
  /** Tasks waiting for a thread before more are refused. */
  queue: number;
  /** Heap of each thread (MiB): a page that needs more fails alone. */
  heapMb: number;
}

/** A task stopped at its time limit (its thread was stopped with it). */
export class TaskTimedOut extends Error {
  constructor(
    readonly task: string,
    readonly ms: number,
  ) {
    super(`${task} took longer than ${ms} ms`);
    this.name = 'TaskTimedOut';
  }
}

/** A task that threw, or whose thread died (out of memory): the cause is kept for the log. */
export class TaskFailed extends Error {
  constructor(
    readonly task: string,
    cause: unknown,
  ) {
    super(`${task} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'TaskFailed';
  }
}

/** Worker threads beyond the first stay this long without work before they exit. */
const IDLE_MS = 5 * 60 * 1000;

export class TaskPool<Tasks extends TaskModule> {
  private piscina: Piscina | undefined;
  private closed = false;
  /** Tasks ended, by how: for /metrics (workers/index.ts). */
  readonly ended = { done: 0, timedOut: 0, failed: 0, refused: 0 };

  constructor(private readonly options: PoolOptions) {}

  /**
   * Runs `task` on a worker thread. Rejects with TaskTimedOut when it has run `timeoutMs` (time
   * spent waiting in the queue does not count: a page is not "too large" because others came
   * first), TaskFailed on a failure, and the 503 of load shedding when the queue is full.
   */
  async run<K extends keyof Tasks & string>(
    task: K,
    input: Parameters<Tasks[K]>[0],
    timeoutMs?: number,
  ): Promise<Awaited<ReturnType<Tasks[K]>>> {
    const pool = this.start();
    if (pool.queueSize >= this.options.queue) {
      this.ended.refused++;
      throw overloaded();
    }
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The thread says when it starts the task, on a port of the task's own: the clock starts then.
    const { port1: started, port2 } = new MessageChannel();
    started.once('message', () => {
      timer = setTimeout(() => abort.abort(), timeoutMs);
    });
    try {
      // Every module has one entry, `default`, which runs the task the message names (task.ts).
      const message: TaskMessage = {
        task,
        input,
        ...(timeoutMs === undefined ? {} : { started: port2 }),
      };
      const result = (await pool.run(message, {
        name: 'default',
        signal: abort.signal,
        transferList: timeoutMs === undefined ? [] : [port2],
      })) as Awaited<ReturnType<Tasks[K]>>;
      this.ended.done++;
      return result;
    } catch (error) {
      if (abort.signal.aborted) {
        this.ended.timedOut++;
        throw new TaskTimedOut(task, timeoutMs as number);
      }
      this.ended.failed++;
      throw new TaskFailed(task, error);
    } finally {
      clearTimeout(timer);
      started.close();
    }
  }

  /** Tasks waiting for a thread, threads running, and whether no more tasks can wait. */
  load(): { queued: number; threads: number; full: boolean } {
    const pool = this.piscina;
    if (pool === undefined) return { queued: 0, threads: 0, full: false };
    const queued = pool.queueSize;
    return { queued, threads: pool.threads.length, full: queued >= this.options.queue };
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.piscina;
    this.piscina = undefined;
    await pool?.destroy();
  }

  private start(): Piscina {
    if (this.closed) throw new Error('The worker pool is closed');
    if (this.piscina === undefined) {
      const self = import.meta.url;
      // From the sources (under tsx), through the bootstrap that gives the thread tsx's hooks.
      const sources = self.endsWith('.ts');
      const tasks = new URL(`./${this.options.module}${sources ? '.ts' : '.js'}`, self).href;
      this.piscina = new Piscina({
        filename: sources ? new URL('./tsx-bootstrap.mjs', self).href : tasks,
        workerData: { tasks },
        // One thread stays once the pool has started. With none, Piscina 5.3 strands the queue
        // when it stops the last running thread at a time limit: the tasks waiting are never
        // given a new thread (test/http/workers.test.ts, "… while another waits"). The pool itself
        // still starts on the first task.
        minThreads: 1,
        maxThreads: this.options.threads,
        idleTimeout: IDLE_MS,
        resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
        recordTiming: false,
      });
    }
    return this.piscina;
  }
}
