import { addPages, find } from '../modules/search/search-thread.js';
import { dispatcher } from './task.js';

/**
 * The tasks of the search pool's worker thread (workers/pool.ts; one thread, which keeps the
 * indexes), by name.
 */
export const tasks = { addPages, find };

export default dispatcher(tasks);
