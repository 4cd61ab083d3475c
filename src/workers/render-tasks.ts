import { markdownBlocks, pageDocumentJson } from '../modules/content/page-document.js';
import { renderPageBody } from '../modules/published/rendering/page-body.js';
import { dispatcher } from './task.js';

/**
 * The tasks of the render pool's worker threads (workers/pool.ts), by name. They import only
 * pure modules: a thread has no database and no HTTP.
 */
export const tasks = {
  pageBody: renderPageBody,
  pageDocument: pageDocumentJson,
  pageBlocks: markdownBlocks,
};

export default dispatcher(tasks);
