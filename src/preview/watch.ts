import { type FSWatcher, watch } from 'node:fs';

/** Changes closer together than this are one change (an editor's save is often several events). */
export const DEBOUNCE_MS = 30;

/**
 * Watches the folder and everything below it (fs.watch recursive: inotify on Linux, FSEvents on
 * macOS, one watch on Windows; Node ≥ 20 has it everywhere), ignoring `.git` and `node_modules`
 * as the reader does. `run` is called once per burst of changes, never twice at once: a change
 * during a run calls it again when it ends.
 */
export function watchFolder(
  folder: string,
  run: () => Promise<void>,
  onError: (error: Error) => void,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const start = () => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = true;
    run()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(start, DEBOUNCE_MS);
  };
  const watcher: FSWatcher = watch(folder, { recursive: true }, (_event, name) => {
    const path = name === null ? '' : String(name).replaceAll('\\', '/');
    if (/(^|\/)(\.git|node_modules)(\/|$)/.test(path)) return;
    schedule();
  });
  watcher.on('error', onError);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    watcher.close();
  };
}
