import { encodeSegment } from '../../well-formed-text.js';
import { escapeHtml as e } from './escape.js';
import type { Block, Inline, InlineImage, JsonDocument, Leaf, Ref } from './model.js';
import { plainText } from './model.js';
import { tableCells } from './table-cells.js';

/**
 * A document as the published site's page body (docs/published-site.md). Content is written by
 * members but read by anonymous visitors, so what it may do is limited here, once:
 * - every text and attribute is escaped; no raw HTML comes through (the parser never made any);
 * - link and image targets are checked again (a document may come from elsewhere than the
 *   parser): `javascript:`, `vbscript:`, `file:` and `data:` (except `data:image/gif|png|jpeg|
 *   webp` images) are refused, and a refused link is shown as its text;
 * - external links get `rel="noopener noreferrer"`, and open in a new tab when the site says so.
 * Headings carry their anchors (`meta.id`); code blocks go through the caller's highlighter.
 */
export interface HtmlOptions {
  /** A code block's highlighted HTML, or undefined to render it plain (code-highlight.ts). */
  highlight?: ((code: string, info: string) => string | undefined) | undefined;
  /** External links open in a new tab (`externalLinks.target: blank`). */
  newTab?: boolean;
  /** The address of a page of the revision, for links and content references to it. */
  pageHref?: (pageId: string) => string | undefined;
  /** A page's title, for content-reference cards. */
  pageTitle?: (pageId: string) => string | undefined;
}

interface State extends HtmlOptions {
  /** Tab groups so far: each group's radio buttons need a name of their own. */
  tabGroups: number;
}

export function documentToHtml(doc: JsonDocument, options: HtmlOptions = {}): string {
  return blocksHtml(doc.nodes, { ...options, tabGroups: 0 });
}

function blocksHtml(nodes: readonly (Block | Inline)[] | undefined, s: State): string {
  return (nodes ?? [])
    .filter((node): node is Block => node.object === 'block')
    .map((node) => blockHtml(node, s))
    .join('');
}

const UNSAFE = /^(javascript|vbscript|file|data):/;
const SAFE_DATA_IMAGE = /^data:image\/(gif|png|jpeg|webp);/;

/** A link or image target that may be followed, or undefined. */
export function safeUrl(url: string, image = false): string | undefined {
  // Browsers ignore control characters and spaces in a scheme (`java\tscript:`).
  const squeezed = [...url]
    .filter((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .toLowerCase();
  if (!UNSAFE.test(squeezed)) return url;
  return image && SAFE_DATA_IMAGE.test(squeezed) ? url : undefined;
}

function blockHtml(node: Block, s: State): string {
  const inner = () => inlineHtml(node.nodes as Inline[], s);
  switch (node.type) {
    case 'paragraph':
      return `<p>${inner()}</p>\n`;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const tag = `h${node.type.slice(-1)}`;
      const id = node.meta?.id === undefined ? '' : ` id="${e(node.meta.id)}"`;
      return `<${tag}${id}>${inner()}</${tag}>\n`;
    }
    case 'list-ordered': {
      const start = Number(node.data.start ?? 1);
      return `<ol${start === 1 ? '' : ` start="${start}"`}>\n${items(node, s, false)}</ol>\n`;
    }
    case 'list-unordered':
      return `<ul>\n${items(node, s, false)}</ul>\n`;
    case 'list-tasks':
      return `<ul class="task-list">\n${items(node, s, true)}</ul>\n`;
    case 'blockquote':
      return `<blockquote>\n${blocksHtml(node.nodes, s)}</blockquote>\n`;
    case 'hint': {
      const style = String(node.data.style ?? 'info').replace(/[^a-z]/g, '');
      return `<div class="hint hint-${style}" role="note">\n${blocksHtml(node.nodes, s)}</div>\n`;
    }
    case 'divider':
      return '<hr>\n';
    case 'code':
      return codeHtml(node, s);
    case 'table':
      return tableHtml(node, s);
    case 'images':
      return imagesHtml(node);
    case 'tabs':
      return tabsHtml(node, s);
    case 'expandable': {
      const title = node.fragments?.find((f) => f.fragment === 'expandable-title')?.nodes[0];
      const body = node.fragments?.find((f) => f.fragment === 'expandable-body')?.nodes;
      const open = node.data.defaultExpanded === true ? ' open' : '';
      return `<details class="expandable"${open}><summary>${inlineHtml((title?.nodes ?? []) as Inline[], s)}</summary>\n${blocksHtml(body, s)}</details>\n`;
    }
    case 'content-ref':
      return contentRefHtml(node.data.ref as Ref, s);
    case 'embed': {
      const url = String(node.data.url ?? '');
      const href = safeUrl(url);
      return href === undefined
        ? `<p class="embed">${e(url)}</p>\n`
        : `<p class="embed"><a href="${e(href)}"${external(href, s)}>${e(url)}</a></p>\n`;
    }
    default:
      // A block Livery does not render: its content.
      return blocksHtml(node.nodes, s);
  }
}

function items(list: Block, s: State, tasks: boolean): string {
  return (list.nodes ?? [])
    .map((item) => {
      const nodes = ((item as Block).nodes ?? []) as Block[];
      const box = tasks
        ? `<input type="checkbox" disabled${(item as Block).data.checked === true ? ' checked' : ''}> `
        : '';
      const only = nodes.length === 1 && nodes[0]?.type === 'paragraph' ? nodes[0] : undefined;
      const body =
        only === undefined ? `\n${blocksHtml(nodes, s)}` : inlineHtml(only.nodes as Inline[], s);
      return `<li${tasks ? ' class="task-list-item"' : ''}>${box}${body}</li>\n`;
    })
    .join('');
}

function codeHtml(node: Block, s: State): string {
  const code = `${(node.nodes ?? []).map((line) => plainText((line as Block).nodes)).join('\n')}\n`;
  const syntax = typeof node.data.syntax === 'string' ? node.data.syntax : '';
  const highlighted = s.highlight?.(code, syntax);
  const pre =
    highlighted === undefined
      ? `<pre><code${syntax === '' ? '' : ` class="language-${e(syntax)}"`}>${e(code)}</code></pre>\n`
      : `${highlighted}\n`;
  const title = node.data.title;
  return typeof title === 'string' && title !== ''
    ? `<figure class="code-block"><figcaption>${e(title)}</figcaption>\n${pre}</figure>\n`
    : pre;
}

function tableHtml(node: Block, s: State): string {
  const { columns, rows } = tableCells(node);
  const align = (a: string) => (a === 'left' ? '' : ` style="text-align:${a}"`);
  const head = columns.map((c) => `<th${align(c.align)}>${e(c.title)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, i) => `<td${align(columns[i]?.align ?? 'left')}>${inlineHtml(cell, s)}</td>`).join('')}</tr>\n`,
    )
    .join('');
  return `<div class="table-wrap"><table>\n<thead>\n<tr>${head}</tr>\n</thead>\n<tbody>\n${body}</tbody>\n</table></div>\n`;
}

function imagesHtml(node: Block): string {
  const figures = (node.nodes ?? []).map((image) => {
    const data = (image as Block).data as InlineImage['data'];
    const caption = plainText((image as Block).fragments?.[0]?.nodes);
    return `<figure>${imageTag(data)}${caption === '' ? '' : `<figcaption>${e(caption)}</figcaption>`}</figure>`;
  });
  return `<div class="images">${figures.join('')}</div>\n`;
}

function imageTag(data: InlineImage['data']): string {
  const src = safeUrl(data.ref.url, true);
  if (src === undefined) return e(data.alt ?? '');
  const title = data.caption === undefined ? '' : ` title="${e(data.caption)}"`;
  return `<img src="${e(src)}" alt="${e(data.alt ?? '')}"${title} loading="lazy">`;
}

/**
 * Tabs as radio buttons and labels (site.css shows the checked one's panel): they work without
 * JavaScript, and each panel has its title so that nothing is hidden to a reader without CSS.
 */
function tabsHtml(node: Block, s: State): string {
  const group = `tabs-${++s.tabGroups}`;
  const tabs = (node.nodes ?? []).map((tab, i) => {
    const id = `${group}-${i + 1}`;
    const title = e(String((tab as Block).data.title ?? ''));
    return `<input type="radio" name="${group}" id="${id}"${i === 0 ? ' checked' : ''}><label for="${id}">${title}</label><div class="tab-panel">\n${blocksHtml((tab as Block).nodes, s)}</div>`;
  });
  return `<div class="tabs">${tabs.join('')}</div>\n`;
}

function contentRefHtml(ref: Ref, s: State): string {
  const href = refHref(ref, s);
  const title =
    ref.kind === 'url'
      ? ref.url
      : ((ref.page === undefined ? undefined : s.pageTitle?.(ref.page)) ?? href ?? '');
  if (href === undefined) return `<p class="content-ref">${e(title)}</p>\n`;
  return `<p><a class="content-ref" href="${e(href)}"${external(href, s)}>${e(title)}</a></p>\n`;
}

/** Where a reference leads on the site, or undefined (a page it does not have, a refused URL). */
function refHref(ref: Ref, s: State): string | undefined {
  if (ref.kind === 'url') return safeUrl(ref.url);
  const anchor = ref.kind === 'anchor' ? `#${encodeSegment(ref.anchor)}` : '';
  if (ref.page === undefined) return anchor;
  const page = s.pageHref?.(ref.page);
  return page === undefined ? undefined : `${page}${anchor}`;
}

const external = (href: string, s: State) =>
  /^https?:\/\//i.test(href)
    ? `${s.newTab === true ? ' target="_blank"' : ''} rel="noopener noreferrer"`
    : '';

function inlineHtml(nodes: readonly Inline[] | undefined, s: State): string {
  return (nodes ?? [])
    .map((node) => {
      if (node.object === 'text') return node.leaves.map(leafHtml).join('');
      if (node.type === 'inline-image') return imageTag(node.data);
      const inner = inlineHtml(node.nodes, s);
      const href = refHref(node.data.ref, s);
      return href === undefined ? inner : `<a href="${e(href)}"${external(href, s)}>${inner}</a>`;
    })
    .join('');
}

const TAGS = { bold: 'strong', italic: 'em', strikethrough: 's', code: 'code' } as const;

function leafHtml(leaf: Leaf): string {
  let html = e(leaf.text).replaceAll('\n', '<br>\n');
  for (const m of [...leaf.marks].reverse()) {
    const tag = TAGS[m.type as keyof typeof TAGS];
    if (tag !== undefined) html = `<${tag}>${html}</${tag}>`;
  }
  return html;
}
