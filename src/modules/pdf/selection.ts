import { AppError, badRequest } from '../../errors.js';
import { findById, type StoredPage, type Tree } from '../content/tree.js';

/**
 * Which pages a PDF holds, in the space's reading order (docs/pdf.md). Pure: the service and
 * test/unit/pdf-selection.test.ts call it.
 *
 * - no `page`: every document and group of the space, depth first as the sidebar lists them;
 * - `page`: that page and its descendants (a chapter); with `only=true`, that page alone;
 * - `only=true` without `page`: 400 naming `only` (GitBook's "only the provided page" needs one).
 * Link pages have no content: they are left out (a `page` naming one is a 400).
 */
export interface PdfPage {
  id: string;
  type: 'document' | 'group';
  title: string;
  emoji?: string;
  description?: string;
  /** 0 for a top-level page (or the chosen page), 1 for its children… */
  depth: number;
}

export interface PdfRequest {
  page?: string | undefined;
  only?: boolean | undefined;
}

export function selectPages(tree: Tree, request: PdfRequest, maxPages: number): PdfPage[] {
  let roots: readonly StoredPage[] = tree;
  if (request.page === undefined) {
    if (request.only === true) {
      throw badRequest('querystring.only: `only=true` needs `page`, the id of the page to print');
    }
  } else {
    const found = findById(tree, request.page);
    if (found === undefined) {
      throw new AppError(
        404,
        `querystring.page: no page ${JSON.stringify(request.page)} in this space`,
      );
    }
    if (found.page.type === 'link') {
      throw badRequest(
        `querystring.page: page ${JSON.stringify(request.page)} is a link: it has no content to print`,
      );
    }
    roots = [found.page];
  }
  const pages: PdfPage[] = [];
  const visit = (nodes: readonly StoredPage[], depth: number) => {
    for (const node of nodes) {
      if (node.type === 'link') continue;
      pages.push({
        id: node.id,
        type: node.type,
        title: node.title,
        depth,
        ...(node.emoji === undefined ? {} : { emoji: node.emoji }),
        ...(node.description === undefined ? {} : { description: node.description }),
      });
      if (request.only !== true) visit(node.pages, depth + 1);
    }
  };
  visit(roots, 0);
  if (pages.length > maxPages) {
    const field = request.page === undefined ? 'spaceId' : 'querystring.page';
    throw new AppError(
      413,
      `${field}: the PDF would hold ${pages.length.toLocaleString('en-US')} pages, over the limit of ${maxPages.toLocaleString('en-US')} (PDF_MAX_PAGES); export a part of the space with \`page\``,
    );
  }
  return pages;
}
