import { trashCutoff } from './lifecycle.js';
import type { SpaceTrashRepository } from './trash-repository.js';

/** How often the sweep looks for spaces past their 7 days while the server runs. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Spaces purged per query of the sweep (each purge is its own transaction). */
const BATCH = 50;

/**
 * The purge of the trash (docs/content.md): a sweep at start-up and then hourly deletes for good
 * the spaces deleted more than 7 days ago. Durable by construction: what is due is read from the
 * database (`spaces.deleted_at`) on every sweep, so a restart, a crash or a server down for a
 * month loses nothing; the first sweep after it catches up. Several processes on one database
 * may sweep at once: each purge is one conditional DELETE of one row, which exactly one of them
 * performs (SpaceTrashRepository.purge).
 */
export class SpaceTrashSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly repo: SpaceTrashRepository,
    private readonly clock: () => number,
  ) {}

  /** Purges every space past its 7 days; the number this process purged. */
  async sweep(): Promise<number> {
    const cutoff = trashCutoff(this.clock());
    let purged = 0;
    for (;;) {
      const due = await this.repo.expired(cutoff, BATCH);
      let progress = false;
      for (const id of due) {
        if (await this.repo.purge(id, cutoff)) {
          purged += 1;
          progress = true;
        }
      }
      // A full batch of which none went (another process purging the same rows): next sweep.
      if (due.length < BATCH || !progress) return purged;
    }
  }

  /** Sweeps now and then every hour until stop(); failures are logged and retried next time. */
  start(log: (error: unknown) => void): void {
    const run = () => {
      // One sweep at a time in a process: an hour is far more than a sweep takes.
      if (this.running !== undefined) return;
      this.running = this.sweep()
        .catch((error) => {
          log(error);
          return 0;
        })
        .finally(() => {
          this.running = undefined;
        });
    };
    run();
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  /** The sweep under way, if any (tests wait for the one start() began; close() too). */
  async settled(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
