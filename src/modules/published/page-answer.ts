import { findByPath } from '../content/tree.js';
import type { Settings } from '../customization/settings-schema.js';
import { codeBlocksOf } from '../documents/index.js';
import { pageHighlighter } from './code-highlight.js';
import {
  documentView,
  firstDocument,
  groupTarget,
  notFoundView,
  pageDocument,
  pageMarkdown,
  type SiteFrame,
} from './page-builder.js';
import { type PageView, renderPage } from './page-html.js';

/** What an address of a variant answers: a page, a redirect, the page's Markdown, or nothing. */
export type PageAnswer =
  | { kind: 'html'; status: 200 | 404; html: string; settings: Settings }
  | { kind: 'markdown'; text: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'missing' };

/**
 * The answer at `pagePath` of a frame's variant: the first page at '', groups lead below, and
 * `{document}.md` is that document's Markdown (unless a page has that very path). A page's body
 * is its document (documents/); its code is highlighted first (code-highlight.ts, asynchronous); the rest is pure.
 * `apiBase` is the API's origin, for edit links.
 */
export async function answerAt(
  frame: SiteFrame,
  pagePath: string,
  apiBase: string,
): Promise<PageAnswer> {
  const { settings } = frame;
  const themes = settings.styling.codeTheme.default;
  if (pagePath === '') {
    const page = firstDocument(frame.tree);
    const body = page === undefined ? undefined : pageDocument(frame, page);
    const highlight = await pageHighlighter(body && codeBlocksOf(body), themes);
    const links = pageLinks(frame, page?.id, apiBase);
    return html(200, settings, documentView(frame, page, links, highlight, body));
  }
  const found = findByPath(frame.tree, pagePath);
  if (found === undefined) {
    const source = pagePath.endsWith('.md')
      ? findByPath(frame.tree, pagePath.slice(0, -3))
      : undefined;
    if (source?.page.type === 'document') {
      return { kind: 'markdown', text: pageMarkdown(source.page) };
    }
    return html(404, settings, notFoundView(frame));
  }
  if (found.page.type === 'group') {
    const target = groupTarget(frame, found.page, found.path);
    return target === undefined
      ? html(404, settings, notFoundView(frame))
      : { kind: 'redirect', location: target };
  }
  const body = pageDocument(frame, found.page);
  const highlight = await pageHighlighter(codeBlocksOf(body), themes);
  const links = pageLinks(frame, found.page.id, apiBase);
  return html(200, settings, documentView(frame, found.page, links, highlight, body));
}

/** How much of the rendered-pages cache an answer takes. */
export const sizeOf = (answer: PageAnswer) =>
  answer.kind === 'html'
    ? answer.html.length
    : answer.kind === 'markdown'
      ? answer.text.length
      : 100;

function pageLinks(frame: SiteFrame, pageId: string | undefined, apiBase: string) {
  const editHref =
    pageId === undefined
      ? undefined
      : `${apiBase}/v1/spaces/${frame.variant.spaceId}/content/page/${pageId}`;
  return { ...(editHref === undefined ? {} : { editHref }), interactive: pageId !== undefined };
}

function html(status: 200 | 404, settings: Settings, view: PageView): PageAnswer {
  return { kind: 'html', status, html: renderPage(view), settings };
}
