/**
 * Runs tasks with the same key one after another, in arrival order; tasks with different keys run
 * concurrently. Within one process this keeps writers of the same object from racing each
 * other's compare-and-swap (each would otherwise redo its work on every lost race); across
 * processes the compare-and-swap still decides.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
