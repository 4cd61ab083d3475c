import type { SiteInsightEventRow } from '../../db/schema.js';

export interface WriterOptions {
  /** How long an event may wait for others before it is written. */
  delayMs: number;
  /** Rows per INSERT statement (44 columns: well under both backends' parameter limits). */
  chunk: number;
  /** Rows waiting at most; beyond, `add` refuses (the caller answers 503). */
  maxPending: number;
}

const DEFAULTS: WriterOptions = { delayMs: 200, chunk: 500, maxPending: 100_000 };

/**
 * Writes tracked events in the background, many rows per statement (docs/insights.md, "Writing
 * events"). A tracking request is answered once its events are checked and queued: it never
 * waits for the disk, and page views never wait for it. Events wait at most `delayMs` (or until
 * a chunk is full), then one multi-row INSERT per chunk writes them: one commit for hundreds of
 * events, where group commit (db/group-commit.ts) would still run a statement per event. The
 * inserts do not move the cache generation (db/uncached-writes.ts), so kept page views stay kept.
 *
 * The price: events of the last `delayMs` are lost if the process dies. Reads (aggregations)
 * call `flush` first, so a process always reads the events it accepted.
 */
export class EventWriter {
  private pending: SiteInsightEventRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly options: WriterOptions;

  constructor(
    private readonly insert: (rows: SiteInsightEventRow[]) => Promise<void>,
    private readonly log: (error: unknown, lost: number) => void,
    options: Partial<WriterOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Queues the rows; false (nothing queued) when too many are waiting already. */
  add(rows: SiteInsightEventRow[]): boolean {
    if (this.pending.length + rows.length > this.options.maxPending) return false;
    for (const row of rows) this.pending.push(row);
    if (this.pending.length >= this.options.chunk) void this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.options.delayMs);
      this.timer.unref();
    }
    return true;
  }

  /** Resolves once every row queued before the call is written (or given up on and logged). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // One writer at a time: a flush called while one runs waits for it, then writes the rest.
    while (this.running !== undefined) await this.running;
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    this.running = this.write(rows).finally(() => {
      this.running = undefined;
    });
    await this.running;
  }

  get waiting(): number {
    return this.pending.length;
  }

  private async write(rows: SiteInsightEventRow[]): Promise<void> {
    const { chunk } = this.options;
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      try {
        await this.insert(part);
      } catch {
        // A site deleted meanwhile fails its chunk (foreign key): write the chunk site by site,
        // so that only that site's events are dropped.
        await this.writeBySite(part);
      }
    }
  }

  private async writeBySite(rows: SiteInsightEventRow[]): Promise<void> {
    const bySite = new Map<string, SiteInsightEventRow[]>();
    for (const row of rows) bySite.set(row.site_id, [...(bySite.get(row.site_id) ?? []), row]);
    for (const part of bySite.values()) {
      await this.insert(part).catch((error: unknown) => this.log(error, part.length));
    }
  }
}
