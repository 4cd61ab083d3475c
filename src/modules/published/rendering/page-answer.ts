import { html as markup } from '../../../html/safe-html.js';
import type { Settings } from '../../../settings/settings-schema.js';
import { findById, findByPath, type StoredPage } from '../../content/tree.js';
import { pageHref } from './navigation.js';
import {
  canonicalOf,
  documentView,
  firstDocument,
  groupTarget,
  notFoundView,
  pageMarkdown,
  type SiteFrame,
  variantBase,
} from './page-builder.js';
import { KATEX_MARK, type PageView, renderPage } from './page-html.js';

/** What an address of a variant answers: a page, a redirect, the page's Markdown, or nothing. */
export type PageAnswer =
  | { kind: 'html'; status: 200 | 404; html: Buffer; settings: Settings }
  | { kind: 'markdown'; text: string }
  /** `gitbookYaml`: a redirect of the variant's `.gitbook.yaml`, which a site redirect overrides. */
  | { kind: 'redirect'; location: string; permanent?: boolean; gitbookYaml?: true }
  | { kind: 'missing' };

/**
 * A document page's body as HTML in UTF-8 bytes, with its path in the revision (page-body.ts, on
 * a worker thread). Bytes: a large page's body is never a string on the request thread, whose
 * heap it would grow (and with it the pauses of its garbage collector); it goes into the page's
 * bytes between the chrome's head and tail (pageBytes).
 */
export type BodyOf = (page: StoredPage, path: string) => Promise<Uint8Array>;

/**
 * Where the body goes in the page's HTML. It cannot occur in what the chrome renders otherwise:
 * every text there is escaped, so no content can write a `<`. The body's bytes are markup made by
 * documents/to-html.ts (or page-body.ts's plain body), with `html` templates as well.
 */
const BODY_MARK = markup`<!--livery:page-body-->`;
const BODY = BODY_MARK.html;

/**
 * The answer at `pagePath` of a frame's variant: the first page at '', groups lead below, and
 * `{document}.md` is that document's Markdown (unless a page has that very path). A page's body
 * comes from `bodyOf` (the service renders it on a worker thread); the rest is pure. `apiBase`
 * is the API's origin, for edit links.
 */
export async function answerAt(
  frame: SiteFrame,
  pagePath: string,
  apiBase: string,
  bodyOf: BodyOf,
): Promise<PageAnswer> {
  const { settings } = frame;
  if (pagePath === '') {
    const first = firstDocument(frame.tree);
    const body = first === undefined ? undefined : await bodyOf(first.page, first.path);
    const links = pageLinks(frame, first?.page.id, apiBase);
    const view = documentView(frame, first?.page, links, BODY_MARK);
    return html(200, settings, withMath(withCanonical(view, canonicalOf(frame, '')), body), body);
  }
  const found = findByPath(frame.tree, pagePath);
  if (found === undefined) {
    const source = pagePath.endsWith('.md')
      ? findByPath(frame.tree, pagePath.slice(0, -3))
      : undefined;
    if (source?.page.type === 'document') {
      return { kind: 'markdown', text: pageMarkdown(source.page) };
    }
    // A redirect of `.gitbook.yaml`: used only when no page is at the old path (GitBook's rule).
    const redirected = redirectTarget(frame, pagePath);
    if (redirected !== undefined)
      return { kind: 'redirect', location: redirected, permanent: true, gitbookYaml: true };
    return html(404, settings, notFoundView(frame));
  }
  if (found.page.type === 'group') {
    const target = groupTarget(frame, found.page, found.path);
    return target === undefined
      ? html(404, settings, notFoundView(frame))
      : { kind: 'redirect', location: target };
  }
  const body = await bodyOf(found.page, found.path);
  const links = pageLinks(frame, found.page.id, apiBase);
  const view = documentView(frame, found.page, links, BODY_MARK);
  return html(
    200,
    settings,
    withMath(withCanonical(view, canonicalOf(frame, found.path)), body),
    body,
  );
}

/** The view with its canonical address, when the site has one (a custom hostname). */
function withCanonical(view: PageView, canonicalHref: string | undefined): PageView {
  return canonicalHref === undefined ? view : { ...view, canonicalHref };
}

const KATEX_BYTES = Buffer.from(KATEX_MARK);

/** A view whose body shows a formula says so (its head then links KaTeX's stylesheet). */
function withMath(view: PageView, body: Uint8Array | undefined): PageView {
  if (body === undefined) return view;
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return bytes.includes(KATEX_BYTES) ? { ...view, page: { ...view.page, math: true } } : view;
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

function html(
  status: 200 | 404,
  settings: Settings,
  view: PageView,
  body?: Uint8Array,
): PageAnswer {
  return { kind: 'html', status, html: pageBytes(renderPage(view), body), settings };
}

/** The page's HTML with its body put in place of BODY (a page without a body has none). */
function pageBytes(page: string, body: Uint8Array | undefined): Buffer {
  const at = page.indexOf(BODY);
  if (at === -1) return Buffer.from(page);
  const head = Buffer.from(page.slice(0, at));
  const tail = Buffer.from(page.slice(at + BODY.length));
  return Buffer.concat([head, body ?? new Uint8Array(), tail]);
}

/** Where a `.gitbook.yaml` redirect from `pagePath` leads on the site, if the revision has one. */
function redirectTarget(frame: SiteFrame, pagePath: string): string | undefined {
  const id =
    frame.redirects === undefined
      ? undefined
      : Object.hasOwn(frame.redirects, pagePath)
        ? frame.redirects[pagePath]
        : undefined;
  if (id === undefined) return undefined;
  const target = findById(frame.tree, id);
  return target === undefined
    ? undefined
    : pageHref(variantBase(frame.root, frame.variant), target.path);
}
