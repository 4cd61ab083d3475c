import {
  highlightedCode,
  html,
  joinHtml,
  type SafeHtml,
  type SafeUrl,
} from '../../html/safe-html.js';
import { attrUrl, isAllowedUrl } from '../../html/safe-url.js';
import { encodeSegment } from '../../well-formed-text.js';
import { codeClasses, mermaidHtml, numberedLines } from './blocks/code.js';
import { htmlTableHtml, isPlainGrid } from './blocks/html-table.js';
import { imagesHtml, imgHtml } from './blocks/images.js';
import { MAX_INCLUDES } from './blocks/include.js';
import { type HtmlContext, tagBlockHtml } from './blocks/index.js';
import { colorMarkHtml, inlineNodeHtml } from './blocks/inline-nodes.js';
import { mathHtml } from './blocks/math.js';
import type { Block, Inline, JsonDocument, Leaf, Ref } from './model.js';
import { plainText } from './model.js';
import { tableCells } from './table-cells.js';

/**
 * A document as the published site's page body (docs/published-site.md). Content is written by
 * members but read by anonymous visitors, so what it may do is limited here, once:
 * - it is written with `html` templates (html/safe-html.ts): every text and attribute is escaped
 *   unless it is markup made the same way; no raw HTML comes through (the parser never made any);
 * - link and image targets are checked again (a document may come from elsewhere than the
 *   parser) against the one allow-list of schemes (html/safe-url.ts): `javascript:`, `data:`
 *   (except raster images) and any other scheme than http(s), mailto, tel and ftp are refused,
 *   and a refused link is shown as its text;
 * - external links get `rel="noopener noreferrer"`, and open in a new tab when the site says so.
 * Headings carry their anchors (`meta.id`); code blocks go through the caller's highlighter.
 */
export interface HtmlOptions {
  /**
   * A code block's highlighted HTML, or undefined to render it plain: made by code-highlight.ts
   * (one of the audited exceptions of html/safe-html.ts, `highlightedCode`).
   */
  highlight?: ((code: string, info: string) => string | undefined) | undefined;
  /** External links open in a new tab (`externalLinks.target: blank`). */
  newTab?: boolean;
  /**
   * Levels the headings go down: 1 for a page read from a repository's file, whose headings 1–3
   * are its `##`–`####` (from-markdown.ts), so that they stay `<h2>`–`<h4>` below its title as
   * GitBook shows them.
   */
  headingOffset?: 0 | 1;
  /** The address of a page of the revision, for links and content references to it. */
  pageHref?: (pageId: string) => string | undefined;
  /** A page's title, for content-reference cards. */
  pageTitle?: (pageId: string) => string | undefined;
  /** A revision file's address and facts (images, downloads), for `{kind: 'file'}` references. */
  file?: (
    fileId: string,
  ) => { url: string; name: string; contentType: string; size: number } | undefined;
  /** A reusable content's document, rendered in place of an include. */
  reusableContent?: (id: string) => JsonDocument | undefined;
}

interface State extends HtmlOptions {
  /** Tab groups so far: each group's radio buttons need a name of their own. */
  tabGroups: number;
  /** What blocks/ render with (made once per document). */
  context?: HtmlContext;
  /** Footnotes (annotations) so far: their notes, listed after the page. */
  notes: SafeHtml[];
}

export function documentToHtml(doc: JsonDocument, options: HtmlOptions = {}): string {
  const s: State = { ...options, tabGroups: 0, notes: [] };
  const body = blocksHtml(doc.nodes, s);
  const notes =
    s.notes.length === 0
      ? ''
      : html`<section class="footnotes" role="doc-endnotes"><hr>\n<ol>\n${s.notes.map((note, i) => html`<li id="fn-${i + 1}">${note} <a href="#fnref-${i + 1}" class="footnote-back" aria-label="Back">↩</a></li>\n`)}</ol>\n</section>\n`;
  return html`${body}${notes}`.html;
}

function contextOf(s: State): HtmlContext {
  s.context ??= {
    options: s,
    including: [],
    includesLeft: { count: MAX_INCLUDES },
    blocks: (nodes) => blocksHtml(nodes, s),
    inlines: (nodes) => inlineHtml(nodes, s),
    href: (ref) => refHref(ref, s),
    external: (href) => external(href, s),
  };
  return s.context;
}

function blocksHtml(nodes: readonly (Block | Inline)[] | undefined, s: State): SafeHtml[] {
  return (nodes ?? [])
    .filter((node): node is Block => node.object === 'block')
    .map((node) => blockHtml(node, s));
}

/**
 * A link or image target that may be followed, or undefined (html/safe-url.ts has the
 * allow-list; this is its answer as text, for callers that are not writing HTML).
 */
export function safeUrl(url: string, image = false): string | undefined {
  return isAllowedUrl(url, image) ? url : undefined;
}

function blockHtml(node: Block, s: State): SafeHtml {
  const inner = () => inlineHtml(node.nodes as Inline[], s);
  switch (node.type) {
    case 'paragraph':
      return html`<p>${inner()}</p>\n`;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const level = Number(node.type.slice(-1)) + (s.headingOffset ?? 0);
      return level === 1
        ? html`<h1${headingId(node)}>${inner()}</h1>\n`
        : level === 2
          ? html`<h2${headingId(node)}>${inner()}</h2>\n`
          : level === 3
            ? html`<h3${headingId(node)}>${inner()}</h3>\n`
            : html`<h4${headingId(node)}>${inner()}</h4>\n`;
    }
    case 'list-ordered': {
      const start = Number(node.data.start ?? 1);
      return html`<ol${start === 1 ? '' : html` start="${start}"`}>\n${items(node, s, false)}</ol>\n`;
    }
    case 'list-unordered':
      return html`<ul>\n${items(node, s, false)}</ul>\n`;
    case 'list-tasks':
      return html`<ul class="task-list">\n${items(node, s, true)}</ul>\n`;
    case 'blockquote':
      return html`<blockquote>\n${blocksHtml(node.nodes, s)}</blockquote>\n`;
    case 'hint': {
      const style = String(node.data.style ?? 'info').replace(/[^a-z]/g, '');
      return html`<div class="hint hint-${style}" role="note">\n${blocksHtml(node.nodes, s)}</div>\n`;
    }
    case 'divider':
      return html`<hr>\n`;
    case 'code':
      return codeHtml(node, s);
    case 'table':
      return isPlainGrid(node)
        ? tableHtml(node, s)
        : htmlTableHtml(node, {
            ...s,
            href: (ref) => refHref(ref, s),
            blocks: (nodes) => html`${blocksHtml(nodes, s)}`,
          });
    case 'images':
    case 'drawing':
      return imagesHtml(node, s, (nodes) => html`${inlineHtml(nodes, s)}`);
    case 'tabs':
      return tabsHtml(node, s);
    case 'expandable': {
      const title = node.fragments?.find((f) => f.fragment === 'expandable-title')?.nodes[0];
      const body = node.fragments?.find((f) => f.fragment === 'expandable-body')?.nodes;
      const open = node.data.defaultExpanded === true ? html` open` : '';
      return html`<details class="expandable"${open}><summary>${inlineHtml((title?.nodes ?? []) as Inline[], s)}</summary>\n${blocksHtml(body, s)}</details>\n`;
    }
    case 'content-ref':
      return contentRefHtml(node.data.ref as Ref, s);
    case 'embed': {
      const url = String(node.data.url ?? '');
      const href = attrUrl(url);
      return href === undefined
        ? html`<p class="embed">${url}</p>\n`
        : html`<p class="embed"><a href="${href}"${external(href, s)}>${url}</a></p>\n`;
    }
    default:
      // blocks/ (stepper, columns, math…); a block Livery does not render: its content.
      return tagBlockHtml(node, contextOf(s)) ?? html`${blocksHtml(node.nodes, s)}`;
  }
}

const headingId = (node: Block) => (node.meta?.id === undefined ? '' : html` id="${node.meta.id}"`);

function items(list: Block, s: State, tasks: boolean): SafeHtml[] {
  return (list.nodes ?? []).map((item) => {
    const nodes = ((item as Block).nodes ?? []) as Block[];
    const box = tasks
      ? html`<input type="checkbox" disabled${(item as Block).data.checked === true ? html` checked` : ''}> `
      : '';
    const only = nodes.length === 1 && nodes[0]?.type === 'paragraph' ? nodes[0] : undefined;
    const body =
      only === undefined ? html`\n${blocksHtml(nodes, s)}` : inlineHtml(only.nodes as Inline[], s);
    return html`<li${tasks ? html` class="task-list-item"` : ''}>${box}${body}</li>\n`;
  });
}

function codeHtml(node: Block, s: State): SafeHtml {
  const code = `${(node.nodes ?? []).map((line) => plainText((line as Block).nodes)).join('\n')}\n`;
  const syntax = typeof node.data.syntax === 'string' ? node.data.syntax : '';
  const highlighted = syntax === 'mermaid' ? undefined : s.highlight?.(code, syntax);
  const lines = node.data.lineNumbers === true ? numberedLines(code) : code;
  const pre =
    syntax === 'mermaid'
      ? mermaidHtml(code)
      : highlighted === undefined
        ? html`<pre><code${syntax === '' ? '' : html` class="language-${syntax}"`}>${lines}</code></pre>\n`
        : html`${highlightedCode(highlighted)}\n`;
  const title = node.data.title;
  const classes = codeClasses(node.data);
  const hasTitle = typeof title === 'string' && title !== '';
  return hasTitle || classes !== ''
    ? html`<figure class="code-block${classes === '' ? '' : ` ${classes}`}">${hasTitle ? html`<figcaption>${title}</figcaption>` : ''}\n${pre}</figure>\n`
    : pre;
}

/** A column's alignment as CSS: only the three the model has (anything else is left). */
const ALIGN: Readonly<Record<string, SafeHtml>> = {
  center: html` style="text-align:center"`,
  right: html` style="text-align:right"`,
};

function tableHtml(node: Block, s: State): SafeHtml {
  const { columns, rows } = tableCells(node);
  const align = (a: string) => (Object.hasOwn(ALIGN, a) ? ALIGN[a] : '');
  const head = columns.map((c) => html`<th${align(c.align)}>${c.title}</th>`);
  const body = rows.map(
    (row) =>
      html`<tr>${row.map((cell, i) => html`<td${align(columns[i]?.align ?? 'left')}>${inlineHtml(cell, s)}</td>`)}</tr>\n`,
  );
  return html`<div class="table-wrap"><table>\n<thead>\n<tr>${head}</tr>\n</thead>\n<tbody>\n${body}</tbody>\n</table></div>\n`;
}

/**
 * Tabs as radio buttons and labels (site.css shows the checked one's panel): they work without
 * JavaScript, and each panel has its title so that nothing is hidden to a reader without CSS.
 */
function tabsHtml(node: Block, s: State): SafeHtml {
  const group = `tabs-${++s.tabGroups}`;
  const tabs = (node.nodes ?? []).map((tab, i) => {
    const id = `${group}-${i + 1}`;
    const title = String((tab as Block).data.title ?? '');
    return html`<input type="radio" name="${group}" id="${id}"${i === 0 ? html` checked` : ''}><label for="${id}">${title}</label><div class="tab-panel">\n${blocksHtml((tab as Block).nodes, s)}</div>`;
  });
  return html`<div class="tabs">${tabs}</div>\n`;
}

function contentRefHtml(ref: Ref, s: State): SafeHtml {
  const href = refHref(ref, s);
  const page = ref.kind === 'page' || ref.kind === 'anchor' ? ref.page : undefined;
  const title =
    ref.kind === 'url'
      ? ref.url
      : ((page === undefined ? undefined : s.pageTitle?.(page)) ?? href?.url ?? '');
  if (href === undefined) return html`<p class="content-ref">${title}</p>\n`;
  return html`<p><a class="content-ref" href="${href}"${external(href, s)}>${title}</a></p>\n`;
}

/** Where a reference leads on the site, or undefined (a page it does not have, a refused URL). */
function refHref(ref: Ref, s: State): SafeUrl | undefined {
  // GitBook's form of a link to a page that does not exist: shown as its text.
  if (ref.kind === 'url') return ref.url === 'broken-reference' ? undefined : attrUrl(ref.url);
  if (ref.kind === 'file') {
    const file = s.file?.(ref.file);
    return file === undefined ? undefined : attrUrl(file.url);
  }
  if (ref.kind === 'reusable-content') return undefined;
  const anchor = ref.kind === 'anchor' ? `#${encodeSegment(ref.anchor)}` : '';
  if (ref.page === undefined) return attrUrl(anchor);
  const page = s.pageHref?.(ref.page);
  return page === undefined ? undefined : attrUrl(`${page}${anchor}`);
}

const NEW_TAB = html` target="_blank" rel="noopener noreferrer"`;
const NO_OPENER = html` rel="noopener noreferrer"`;
const external = (href: SafeUrl, s: State) =>
  /^https?:\/\//i.test(href.url) ? (s.newTab === true ? NEW_TAB : NO_OPENER) : '';

function inlineHtml(nodes: readonly Inline[] | undefined, s: State): SafeHtml[] {
  return (nodes ?? []).map((node) => {
    if (node.object === 'text') return html`${node.leaves.map(leafHtml)}`;
    if (node.type === 'inline-math') return mathHtml(node.data.formula, false);
    if (node.type === 'inline-image') {
      return imgHtml(node.data, s, node.data.size === 'line' ? 'inline-line' : '');
    }
    if (node.type === 'annotation') {
      const n = s.notes.push(html``);
      s.notes[n - 1] = html`${blocksHtml(node.fragments[0]?.nodes, s)}`;
      return html`<span class="annotation">${inlineHtml(node.nodes, s)}<sup class="footnote-ref"><a href="#fn-${n}" id="fnref-${n}">${n}</a></sup></span>`;
    }
    if (node.type !== 'link') {
      return inlineNodeHtml(node, { href: (ref) => refHref(ref, s), pageTitle: s.pageTitle });
    }
    const inner = inlineHtml(node.nodes, s);
    const href = refHref(node.data.ref, s);
    return href === undefined
      ? html`${inner}`
      : html`<a href="${href}"${external(href, s)}>${inner}</a>`;
  });
}

const BREAK = html`<br>\n`;

function leafHtml(leaf: Leaf): SafeHtml {
  let out = leaf.text.includes('\n')
    ? joinHtml(
        leaf.text.split('\n').map((line) => html`${line}`),
        BREAK,
      )
    : html`${leaf.text}`;
  for (const m of [...leaf.marks].reverse()) {
    switch (m.type) {
      case 'bold':
        out = html`<strong>${out}</strong>`;
        break;
      case 'italic':
        out = html`<em>${out}</em>`;
        break;
      case 'strikethrough':
        out = html`<s>${out}</s>`;
        break;
      case 'code':
        out = html`<code>${out}</code>`;
        break;
      case 'color':
        out = colorMarkHtml(m, out);
        break;
    }
  }
  return out;
}
