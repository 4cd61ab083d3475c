import { blockCount, markdownToDocument, withKeys } from '../documents/index.js';
import { type PageTable, pageLinksOf, readPageTable } from './page-table.js';

/**
 * A document page's body as GitBook's document, as JSON in UTF-8 bytes, on a worker thread
 * (workers/render-tasks.ts): its first heading-1 equal to its title left out, links to other
 * pages of the revision as references to their ids, every node keyed as GitBook's are. Bytes,
 * because the request thread only sends them: they are moved to it without a copy (task.ts),
 * where a large document's objects, or even its text, would cost it a copy.
 */
export interface PageDocumentInput {
  markdown: string;
  title: string;
  path: string;
  /** An imported page's file in the repository: its links are read from there. */
  file?: string;
  pages: PageTable;
}

export function pageDocumentJson(input: PageDocumentInput): Uint8Array {
  const links = pageLinksOf(readPageTable(input.pages), input.path, input.file);
  const doc = withKeys(markdownToDocument(input.markdown, { title: input.title, ...links }));
  return new TextEncoder().encode(JSON.stringify(doc));
}

/** What write-time limits look at in pages' Markdown (content/limits.ts): their blocks. */
export function markdownBlocks(markdowns: string[]): number[] {
  return markdowns.map((markdown) => blockCount(markdownToDocument(markdown)));
}
