import {
  codeBlocksOf,
  type DocumentContext,
  documentToHtml,
  type HtmlOptions,
  type JsonDocument,
  markdownToDocument,
} from '../../documents/index.js';

/**
 * Page bodies as HTML for the published site (issue 7), through the page document (issue 15:
 * one parser, one model, two outputs): the stored Markdown becomes GitBook's document
 * (documents/from-markdown.ts), and the document this site's HTML (documents/to-html.ts), which
 * holds the safety rules: raw HTML shown as text, no `javascript:`/`data:` links, external links
 * with `rel="noopener noreferrer"` (and a new tab with `externalLinks.target: blank`), heading
 * anchors. Code blocks go through the caller's highlighter when there is one (code-highlight.ts):
 * it escapes the code itself, and a block it declines is rendered plain, escaped.
 */
export { escapeHtml, headingId } from '../../documents/index.js';

/** A code block's highlighted HTML, or undefined to render it plain. */
export type Highlight = (code: string, info: string) => string | undefined;
export interface RenderOptions extends Omit<HtmlOptions, 'highlight'> {
  highlight?: Highlight | undefined;
  /** The page's title and the revision's pages, for links between pages (documents/links.ts). */
  context?: DocumentContext;
}

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  return renderDocument(markdownToDocument(markdown, options.context), options);
}

export function renderDocument(doc: JsonDocument, options: RenderOptions = {}): string {
  const { context: _context, ...html } = options;
  return documentToHtml(doc, html);
}

/**
 * The code blocks of a page (` ```ts ` gives `ts`; an indented block ''), so that the grammars
 * and themes it needs are loaded before it renders.
 */
export function codeBlocks(markdown: string): { code: string; info: string }[] {
  return codeBlocksOf(markdownToDocument(markdown));
}
