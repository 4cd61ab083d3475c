import type { Tx } from './group-commit.js';

/**
 * What units of one transaction keep for the later units of the same transaction, e.g. a row
 * they locked and wrote: a later unit of the batch then needs no round trip to read it again. A
 * unit's entries (and its `clear`) count only if it succeeds, since only then is its work kept;
 * a batch run again starts with an empty memo. Only values this transaction has locked (so that
 * nobody else can change them before the COMMIT) or may read as of any moment of it belong here.
 */
export class BatchMemo {
  private readonly kept = new Map<string, unknown>();
  private unit = new Map<string, unknown>();
  private cleared = false;

  get(key: string): unknown {
    if (this.unit.has(key)) return this.unit.get(key);
    return this.cleared ? undefined : this.kept.get(key);
  }

  set(key: string, value: unknown): void {
    this.unit.set(key, value);
  }

  /** Forgets every entry (a write that the entries do not follow). */
  clear(): void {
    this.unit.clear();
    this.cleared = true;
  }

  /** The end of a unit: keeps what it set if it succeeded. */
  settle(ok: boolean): void {
    if (ok) {
      if (this.cleared) this.kept.clear();
      for (const [key, value] of this.unit) this.kept.set(key, value);
    }
    this.unit = new Map();
    this.cleared = false;
  }
}

const memos = new WeakMap<Tx, BatchMemo>();

/** Gives the unit's transaction object its batch's memo (group-commit.ts). */
export function attachBatchMemo(tx: Tx, memo: BatchMemo): void {
  memos.set(tx, memo);
}

/** The memo of the batch a unit runs in, by the transaction the unit was given. */
export function batchMemoOf(tx: Tx): BatchMemo | undefined {
  return memos.get(tx);
}
