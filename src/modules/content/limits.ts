import { type ContentLimits, LIMIT_NAMES } from '../../config.js';
import { AppError, badRequest } from '../../errors.js';
import type { PageChange } from './changes.js';
import { type Tree, walk } from './tree.js';

/**
 * What one page and one space may hold (docs/content.md, "Limits"), enforced when content is
 * written, so that what is stored can always be rendered within its budget. Each refusal names
 * the field, the size found, the limit and the setting that raises it. Pure; the change-request
 * service calls them, and Git import will for files.
 */

const count = (n: number) => n.toLocaleString('en-US');

/** A change's Markdown over PAGE_MAX_BYTES (bytes of UTF-8): 413. */
export function checkMarkdownSizes(changes: readonly PageChange[], limits: ContentLimits): void {
  changes.forEach((change, i) => {
    const markdown = change.document?.markdown;
    if (markdown === undefined) return;
    const bytes = Buffer.byteLength(markdown, 'utf8');
    if (bytes > limits.pageBytes) {
      throw new AppError(
        413,
        `changes[${i}].document.markdown: ${count(bytes)} bytes, over the limit of ${count(limits.pageBytes)} bytes for one page (${LIMIT_NAMES.pageBytes})`,
      );
    }
  });
}

/** The changes that carry Markdown, with their index in the list. */
export function markdownsOf(changes: readonly PageChange[]): { index: number; markdown: string }[] {
  return changes.flatMap((change, index) =>
    change.document?.markdown === undefined ? [] : [{ index, markdown: change.document.markdown }],
  );
}

/** A page whose document has more blocks than PAGE_MAX_BLOCKS (`blocks` in the order of
 * markdownsOf): 413. */
export function checkBlocks(
  pages: readonly { index: number }[],
  blocks: readonly number[],
  limits: ContentLimits,
): void {
  pages.forEach(({ index }, i) => {
    const found = blocks[i] ?? 0;
    if (found > limits.pageBlocks) throw tooManyBlocks(index, count(found), limits);
  });
}

/** The page's blocks could not be counted in time (it is that large): 413 as well. */
export function tooManyBlocks(index: number, found: string, limits: ContentLimits): AppError {
  return new AppError(
    413,
    `changes[${index}].document.markdown: ${found} blocks, over the limit of ${count(limits.pageBlocks)} blocks for one page (${LIMIT_NAMES.pageBlocks}; a table cell is a block); split the page`,
  );
}

/** A tree with more pages than SPACE_MAX_PAGES: 400, naming what made it (`changes`, a merge). */
export function checkPageCount(tree: Tree, limits: ContentLimits, what: string): void {
  let pages = 0;
  for (const _ of walk(tree)) pages++;
  if (pages > limits.spacePages) {
    throw badRequest(
      `${what}: the content would have ${count(pages)} pages, over the limit of ${count(limits.spacePages)} pages in a space (${LIMIT_NAMES.spacePages})`,
    );
  }
}

/** A file over FILE_MAX_BYTES, or a space over SPACE_MAX_FILES files (for Git import): 413/400. */
export function checkFiles(
  files: readonly { path: string; bytes: number }[],
  limits: ContentLimits,
): void {
  for (const file of files) {
    if (file.bytes > limits.fileBytes) {
      throw new AppError(
        413,
        `${file.path}: ${count(file.bytes)} bytes, over the limit of ${count(limits.fileBytes)} bytes for one file (${LIMIT_NAMES.fileBytes})`,
      );
    }
  }
  if (files.length > limits.spaceFiles) {
    throw badRequest(
      `files: ${count(files.length)} files, over the limit of ${count(limits.spaceFiles)} files in a space (${LIMIT_NAMES.spaceFiles})`,
    );
  }
}
