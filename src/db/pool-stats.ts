/** Connection-pool figures, for metrics: connections open, of which idle, and queries queued. */
export interface PoolStats {
  size: number;
  idle: number;
  waiting: number;
}
