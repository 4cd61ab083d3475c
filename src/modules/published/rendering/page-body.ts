import { html } from '../../../html/safe-html.js';
import { type PageTable, pageLinksOf, readPageTable } from '../../content/page-table.js';
import {
  codeBlocksOf,
  documentToHtml,
  type JsonDocument,
  markdownToDocument,
} from '../../documents/index.js';
import { type CodeThemes, pageHighlighter } from '../highlighting/code-highlight.js';
import { pageHref } from './navigation.js';

/**
 * A page's body as the published site's HTML, on a worker thread (workers/render-tasks.ts): the
 * stored Markdown parsed into GitBook's document (links to other pages of the revision as
 * references), its code highlighted within the page's budget, and the document rendered with
 * the site's addresses for those references. Everything it needs travels in the input.
 */
export interface PageBodyInput {
  markdown: string;
  title: string;
  /** The page's path in the revision: relative links are read from its folder. */
  path: string;
  /** An imported page's file in the repository: its links are read from there. */
  file?: string;
  pages: PageTable;
  /** The variant's address on the site (`/s/acme/de/`): pages' addresses are below it. */
  base: string;
  /** External links open in a new tab (`externalLinks.target: blank`). */
  newTab: boolean;
  themes: CodeThemes;
  /** Time highlighting may take (grammars loaded included). */
  highlightMs: number;
}

/** The body as HTML in UTF-8 bytes: they are moved to the request thread, not copied (task.ts). */
export async function renderPageBody(input: PageBodyInput): Promise<Uint8Array> {
  const table = readPageTable(input.pages);
  const links = pageLinksOf(table, input.path, input.file);
  const doc = markdownToDocument(input.markdown, { title: input.title, ...links });
  const includes = new Map<string, JsonDocument>();
  const highlight = await pageHighlighter(
    codeBlocksOf(doc),
    input.themes,
    undefined,
    input.highlightMs,
  );
  const html = documentToHtml(doc, {
    highlight,
    newTab: input.newTab,
    headingOffset: input.file === undefined ? 0 : 1,
    pageHref: (id) => {
      const row = table.byId.get(id);
      return row === undefined || row[3] === 'link' ? undefined : pageHref(input.base, row[1]);
    },
    pageTitle: (id) => table.byId.get(id)?.[2],
    file: (id) => table.fileById.get(id),
    // An include's document, read from its own file (its links are relative to it).
    reusableContent: (id) => {
      const include = table.includeById.get(id);
      if (include === undefined) return undefined;
      let included = includes.get(id);
      if (included === undefined) {
        included = markdownToDocument(
          include.markdown,
          pageLinksOf(table, input.path, include.gitPath),
        );
        includes.set(id, included);
      }
      return included;
    },
  });
  return new TextEncoder().encode(html);
}

/**
 * The body of a page that could not be rendered within its budget, or whose thread failed (a page
 * far past the content limits, stored before they were enforced): a notice, then the page's text
 * as written. Linear and cheap: it runs on the request thread.
 */
export function plainBody(markdown: string, notice: string): Uint8Array {
  return encoder.encode(
    html`<div class="hint hint-warning" role="note">\n<p>${notice}</p>\n</div>\n<pre class="page-text"><code>${markdown}</code></pre>\n`
      .html,
  );
}

const encoder = new TextEncoder();
