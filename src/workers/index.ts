import type { WorkersConfig } from '../config.js';
import type { PressureSources } from '../http/pressure.js';
import { TaskPool } from './pool.js';
import type { tasks as RenderTasks } from './render-tasks.js';
import type { tasks as SearchTasks } from './search-tasks.js';

export { TaskFailed, TaskTimedOut } from './pool.js';

/**
 * The worker threads of one Livery instance (docs/operations.md, "Worker threads"): `render`
 * (WORKER_THREADS threads) turns Markdown into documents and page bodies; `search` (one thread)
 * keeps the search indexes and answers queries. Threads start with their first task.
 */
export class Workers implements PressureSources {
  readonly render: TaskPool<typeof RenderTasks>;
  readonly search: TaskPool<typeof SearchTasks>;

  constructor(readonly config: WorkersConfig) {
    this.render = new TaskPool({
      module: 'render-tasks',
      threads: config.threads,
      queue: config.queue,
      heapMb: RENDER_HEAP_MB,
    });
    // One thread: it keeps every index, so none is built or held twice.
    this.search = new TaskPool({
      module: 'search-tasks',
      threads: 1,
      queue: config.queue,
      heapMb: SEARCH_HEAP_MB,
    });
  }

  fullWorkerQueue(): number {
    return [this.render.load(), this.search.load()]
      .filter((load) => load.full)
      .reduce((sum, load) => sum + load.queued, 0);
  }

  async close(): Promise<void> {
    await Promise.all([this.render.close(), this.search.close()]);
  }
}

/** A page within the content limits needs far less; one past them fails alone, not the process. */
const RENDER_HEAP_MB = 1024;
/** The indexes (64 MiB by estimate) and one space being indexed. */
const SEARCH_HEAP_MB = 1536;
