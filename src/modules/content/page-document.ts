import { blockCount, markdownToDocument, pageLinks, withKeys } from '../documents/index.js';
import { type PageTable, readPageTable } from './page-table.js';

/**
 * A document page's body as GitBook's document, in JSON text, on a worker thread
 * (workers/render-tasks.ts): its first heading-1 equal to its title left out, links to other
 * pages of the revision as references to their ids, every node keyed as GitBook's are. Text,
 * because the request thread only sends it: a large document's objects would cost more to hand
 * over than to make.
 */
export interface PageDocumentInput {
  markdown: string;
  title: string;
  path: string;
  pages: PageTable;
}

export function pageDocumentJson(input: PageDocumentInput): string {
  const links = pageLinks(readPageTable(input.pages).paths, input.path);
  return JSON.stringify(
    withKeys(markdownToDocument(input.markdown, { title: input.title, ...links })),
  );
}

/** What write-time limits look at in pages' Markdown (content/limits.ts): their blocks. */
export function markdownBlocks(markdowns: string[]): number[] {
  return markdowns.map((markdown) => blockCount(markdownToDocument(markdown)));
}
