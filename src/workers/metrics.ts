import { Counter, Gauge, type Registry } from 'prom-client';
import type { Workers } from './index.js';

/**
 * The worker pools in /metrics (docs/operations.md, "Metrics"), read when scraped: threads and
 * queued tasks by pool, and the tasks ended by how (done, timed out, failed, refused: queue full).
 */
export function registerWorkerMetrics(registry: Registry, workers: Workers): void {
  const pools = { render: workers.render, search: workers.search };
  new Gauge({
    name: 'worker_threads',
    help: 'Worker threads running, by pool',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const [name, pool] of Object.entries(pools))
        this.set({ pool: name }, pool.load().threads);
    },
  });
  new Gauge({
    name: 'worker_queued_tasks',
    help: 'Tasks waiting for a worker thread, by pool',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const [name, pool] of Object.entries(pools))
        this.set({ pool: name }, pool.load().queued);
    },
  });
  const ended = new Counter({
    name: 'worker_tasks_total',
    help: 'Tasks ended on worker threads, by pool and outcome (done, timed_out, failed, refused)',
    labelNames: ['pool', 'outcome'],
    registers: [registry],
    collect() {
      ended.reset();
      for (const [name, pool] of Object.entries(pools)) {
        const { done, timedOut, failed, refused } = pool.ended;
        ended.inc({ pool: name, outcome: 'done' }, done);
        ended.inc({ pool: name, outcome: 'timed_out' }, timedOut);
        ended.inc({ pool: name, outcome: 'failed' }, failed);
        ended.inc({ pool: name, outcome: 'refused' }, refused);
      }
    },
  });
}
