/**
 * A least-recently-used cache bounded by the total size of its values (an estimate in bytes,
 * given with each value), for immutable values such as revisions and their rendered JSON.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key); // re-inserted: a Map iterates oldest first
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= previous.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
