// A worker thread's entry when Livery runs from its TypeScript sources (tests, `npm run livery`,
// benchmarks: `node --import tsx`). Node 20 gives a worker thread tsx's require hook but not its
// import hooks, so they are registered here before the task module (workerData.tasks, a .ts URL)
// is imported. The compiled server (dist/) loads its .js task modules directly, without this.
// (No top-level await: Piscina may load this file through `require` first.)
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const loaded = import(workerData.tasks);

export default async function dispatch(message) {
  const { default: run } = await loaded;
  return run(message);
}
