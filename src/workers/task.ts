/** A worker module's tasks: each takes one cloneable value and answers one (or its promise). */
// biome-ignore lint/suspicious/noExplicitAny: each task's own types are checked where it is defined
export type TaskModule = Record<string, (input: any) => unknown>;

import type { MessagePort } from 'node:worker_threads';
import { move } from 'piscina';

/** What the pool posts to a thread: which task, its input, and where to say it started. */
export interface TaskMessage {
  task: string;
  input: unknown;
  /** Told when the task starts, for its time limit (workers/pool.ts). */
  started?: MessagePort;
}

/**
 * A worker module's one entry point, which Piscina calls with each message: the task it names.
 * (One entry rather than Piscina's export names: under tsx, the sources are loaded through a
 * bootstrap module, tsx-bootstrap.mjs, which can only pass one function on.)
 */
export function dispatcher(tasks: TaskModule) {
  return ({ task, input, started }: TaskMessage): unknown => {
    const run = Object.hasOwn(tasks, task) ? tasks[task] : undefined;
    if (run === undefined) throw new Error(`No task ${JSON.stringify(task)}`);
    started?.postMessage(0);
    started?.close();
    const result = run(input);
    return result instanceof Promise ? result.then(moved) : moved(result);
  };
}

/**
 * Bytes are moved back, not copied: a large answer (a page's document, tens of MB) would
 * otherwise be copied on the request thread as it arrives. Only bytes with a buffer of their
 * own (TextEncoder's): moving a view of Node's shared buffer pool would take the pool away.
 */
function moved(result: unknown): unknown {
  return result instanceof Uint8Array && !Buffer.isBuffer(result) ? move(result) : result;
}
