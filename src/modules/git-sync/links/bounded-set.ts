/** A set that forgets its oldest entries past `max` (a cache of answers that never change). */
export class BoundedSet {
  private readonly items = new Set<string>();

  constructor(private readonly max: number) {}

  has(item: string): boolean {
    return this.items.has(item);
  }

  add(item: string): void {
    this.items.add(item);
    if (this.items.size > this.max) {
      const oldest = this.items.values().next().value;
      if (oldest !== undefined) this.items.delete(oldest);
    }
  }
}
