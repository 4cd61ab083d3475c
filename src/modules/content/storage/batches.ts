/**
 * Splits `items` into batches for multi-row statements (`IN (…)` lookups, multi-row inserts):
 * each at most MAX_ROWS rows and, past its first row, at most `maxBytes` by `bytesOf`, and each of
 * a power-of-two size. Huge spaces then stay within both backends' limits on parameters and
 * statement size, and the statements take at most nine shapes per table, which SQLite's
 * statement cache (db/sqlite-driver.ts) keeps prepared.
 */
export const MAX_ROWS = 256;

export function* batches<T>(
  items: readonly T[],
  bytesOf: (item: T) => number = () => 0,
  maxBytes = Number.POSITIVE_INFINITY,
): Generator<T[]> {
  let start = 0;
  while (start < items.length) {
    let size = 1;
    let bytes = bytesOf(items[start] as T);
    // Double while the doubled batch fits: rows, remaining items and bytes.
    while (size * 2 <= MAX_ROWS && start + size * 2 <= items.length) {
      let more = 0;
      for (let i = start + size; i < start + size * 2; i++) more += bytesOf(items[i] as T);
      if (bytes + more > maxBytes) break;
      bytes += more;
      size *= 2;
    }
    yield items.slice(start, start + size);
    start += size;
  }
}
