import { pageRequest } from '../../http/pagination.js';
import type { AuditRepository } from './repository.js';
import type { AuditFilters } from './schemas.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often old entries are deleted; reads leave them out meanwhile. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The organization audit log: reads, and pruning past AUDIT_LOG_KEEP_DAYS. */
export class AuditService {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: AuditRepository,
    private readonly keepDays: number,
  ) {}

  list(organizationId: string, filters: AuditFilters, page: Parameters<typeof pageRequest>[0]) {
    return this.repo.list(organizationId, filters, this.cutoff(), pageRequest(page));
  }

  /** The oldest time an entry may have and still be kept ('' keeps all: AUDIT_LOG_KEEP_DAYS=0). */
  cutoff(at = Date.now()): string {
    return this.keepDays === 0 ? '' : new Date(at - this.keepDays * DAY_MS).toISOString();
  }

  prune(): Promise<number> {
    return this.keepDays === 0 ? Promise.resolve(0) : this.repo.prune(this.cutoff());
  }

  /** Prunes now and then every hour until stop(); failures are logged and retried next time. */
  start(log: (error: unknown) => void): void {
    if (this.keepDays === 0) return;
    const run = () => void this.prune().catch(log);
    run();
    this.timer = setInterval(run, PRUNE_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
