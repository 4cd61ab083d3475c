import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import { html, type SafeHtml, type SafeUrl } from '../../../html/safe-html.js';
import { lineOf } from '../block-lines.js';
import { fileRefOf, hrefOf, type PageLinks, refLinkText, refOf } from '../links.js';
import {
  type Block,
  type Fragment,
  type Inline,
  paragraph,
  plainText,
  type Ref,
  voidBlock,
} from '../model.js';

import { decodeEntities, encodeAttr, type HtmlPart, htmlParts } from './html-attrs.js';
import { type ImageHtmlOptions, imageUrl, srcOf } from './images.js';

/**
 * GitBook's HTML tables (docs/content.md, "Page documents"): `<table data-view="cards"
 * data-card-size="large" data-card-wrap="false" data-header-hidden data-full-width="true"
 * data-search="false">` with `<th data-type="content-ref|image|files|checkbox|number|text"
 * data-card-target data-card-cover data-card-cover-dark data-hidden width align>` columns →
 * `table` in the `cards` (or `grid`) view, its columns' definitions and a record per row: text
 * cells as fragments, content-ref cells as page references (refOf), image cells as file
 * references (fileRefOf). The published site shows cards as tiles (a cover on top, the target
 * making the whole tile a link).
 */

const TYPES = ['text', 'number', 'checkbox', 'content-ref', 'image', 'files'] as const;
type ColumnType = (typeof TYPES)[number];

/** Lines a page's `<table>` blocks may read in all while looking for their end. */
const SCAN_LINES = 200_000;

export interface RawTable {
  attrs: Record<string, string>;
  columns: { attrs: Record<string, string>; title: string }[];
  rows: string[][];
}

export function htmlTableRule(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  if (!/^<table[\s>]/i.test(lineOf(state, startLine))) return false;
  const env = state.env as { gbTableScan?: { left: number } };
  env.gbTableScan ??= { left: SCAN_LINES };
  let last = -1;
  for (let line = startLine; line < endLine; line++) {
    if (--env.gbTableScan.left < 0) return false;
    if (lineOf(state, line).includes('</table>')) {
      last = line;
      break;
    }
  }
  if (last === -1) return false;
  const source = state.src.slice(state.bMarks[startLine], state.eMarks[last]);
  const table = parseTable(source.slice(0, source.indexOf('</table>')));
  if (table === undefined) return false;
  if (silent) return true;
  const token = state.push('gitbook_table', 'table', 0);
  token.block = true;
  token.map = [startLine, last + 1];
  token.meta = table;
  state.line = last + 1;
  return true;
}

/** The table's columns and rows, or undefined when it has no columns. */
export function parseTable(source: string): RawTable | undefined {
  const parts = htmlParts(source);
  const first = parts.find((p) => p.tag !== '');
  if (first?.tag !== 'table') return undefined;
  const table: RawTable = { attrs: Object.fromEntries(first.attrs), columns: [], rows: [] };
  let cell: { header: boolean; attrs: Map<string, string>; raw: HtmlPart[] } | undefined;
  let row: string[] | undefined;
  let depth = 0;
  const endCell = () => {
    if (cell === undefined) return;
    const raw = cell.raw.map((p) => p.raw).join('');
    if (cell.header) table.columns.push({ attrs: Object.fromEntries(cell.attrs), title: raw });
    else row?.push(raw);
    cell = undefined;
  };
  for (const part of parts.slice(parts.indexOf(first) + 1)) {
    // A table inside a cell is the cell's text.
    if (part.tag === 'table') depth++;
    if (cell !== undefined && depth > 0) {
      if (part.tag === '/table') depth--;
      cell.raw.push(part);
      continue;
    }
    switch (part.tag) {
      case 'th':
      case 'td':
        endCell();
        cell = { header: part.tag === 'th', attrs: part.attrs, raw: [] };
        break;
      case '/th':
      case '/td':
        endCell();
        break;
      case 'tr':
        endCell();
        row = [];
        break;
      case '/tr':
        endCell();
        if (row !== undefined && row.length > 0) table.rows.push(row);
        row = undefined;
        break;
      case 'thead':
      case '/thead':
      case 'tbody':
      case '/tbody':
        endCell();
        break;
      default:
        cell?.raw.push(part);
    }
  }
  endCell();
  if (row !== undefined && row.length > 0) table.rows.push(row);
  return table.columns.length === 0 ? undefined : table;
}

/** A cell's HTML as its paragraphs' HTML: `<p>a</p><p>b</p>` (or `<h4>`) → `a`, `b`. */
function segments(raw: string): string[] {
  let text = raw.trim();
  const wrapped = /^<(p|h[1-6])(\s[^<>]*)?>/i.exec(text);
  if (wrapped === null || !/<\/(p|h[1-6])>$/i.test(text)) return [text];
  text = text.slice(wrapped[0].length).replace(/<\/(p|h[1-6])>$/i, '');
  return text.split(/<\/(?:p|h[1-6])>\s*<(?:p|h[1-6])(?:\s[^<>]*)?>/i);
}

/** `href` and `src` of a cell's links and images, in order. */
function targets(raw: string): string[] {
  return htmlParts(raw)
    .filter(
      (p) => (p.tag === 'a' && p.attrs.has('href')) || (p.tag === 'img' && p.attrs.has('src')),
    )
    .map((p) => (p.tag === 'a' ? p.attrs.get('href') : p.attrs.get('src')) ?? '');
}

const cellText = (raw: string) => decodeEntities(raw.replace(/<[^<>]*>/g, '')).trim();

/** The parsed table as GitBook's `table` block. */
export function htmlTableBlock(
  raw: RawTable,
  links: PageLinks,
  inlineOf: (html: string) => Inline[],
): Block {
  const cards = raw.attrs['data-view'] === 'cards';
  const definition: Record<string, unknown> = {};
  const columns: string[] = [];
  const types: ColumnType[] = [];
  const widths: Record<string, number> = {};
  let target: string | undefined;
  let cover: string | undefined;
  let coverDark: string | undefined;
  raw.columns.forEach((column, i) => {
    const id = `c${i}`;
    const attrs = column.attrs;
    const type = (TYPES as readonly string[]).includes(attrs['data-type'] ?? '')
      ? (attrs['data-type'] as ColumnType)
      : 'text';
    types.push(type);
    const title = cellText(column.title);
    const align = attrs.align;
    definition[id] =
      type === 'text'
        ? {
            id,
            title,
            type,
            textAlignment: align === 'center' || align === 'right' ? align : 'left',
          }
        : { id, title, type };
    if (!('data-hidden' in attrs)) columns.push(id);
    if ('data-card-target' in attrs) target ??= id;
    if ('data-card-cover' in attrs) cover ??= id;
    if ('data-card-cover-dark' in attrs) coverDark ??= id;
    const width = /^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$/.exec(attrs.width ?? '');
    if (width !== null) widths[id] = Number(width[1]);
  });
  const records: Record<string, unknown> = {};
  const fragments: Fragment[] = [];
  raw.rows.forEach((cells, r) => {
    const values: Record<string, unknown> = {};
    types.forEach((type, c) => {
      const cell = cells[c] ?? '';
      const id = `c${c}`;
      switch (type) {
        case 'text': {
          const name = `r${r}${id}`;
          values[id] = name;
          fragments.push({
            object: 'fragment',
            fragment: name,
            nodes: segments(cell).map((segment) => paragraph(inlineOf(segment))),
          });
          break;
        }
        case 'number': {
          const text = cellText(cell);
          if (text !== '' && Number.isFinite(Number(text))) values[id] = Number(text);
          break;
        }
        case 'checkbox': {
          const text = cellText(cell).toLowerCase();
          if (text === 'true' || /\schecked[\s>=]/.test(cell)) values[id] = true;
          else if (text === 'false' || /<input\b/i.test(cell)) values[id] = false;
          break;
        }
        case 'content-ref': {
          const [href] = targets(cell);
          if (href !== undefined) values[id] = refOf(href, links);
          break;
        }
        case 'image': {
          const [src] = targets(cell);
          // As `{ref}`: a bare reference matches two branches of 0.202's record value.
          if (src !== undefined) values[id] = { ref: fileRefOf(src, links) };
          break;
        }
        case 'files': {
          const files = targets(cell).map((src) => fileRefOf(src, links));
          if (files.length > 0 && files.every((f) => f.kind === 'file')) {
            values[id] = files.map((f) => (f as { file: string }).file);
          }
          break;
        }
      }
    });
    records[`r${r}`] = { orderIndex: `a${String(r).padStart(5, '0')}`, values };
  });
  const view: Record<string, unknown> = cards
    ? {
        type: 'cards',
        columns,
        cardSize: raw.attrs['data-card-size'] === 'large' ? 'large' : 'medium',
      }
    : { type: 'grid', columns, hideHeader: 'data-header-hidden' in raw.attrs };
  if (cards) {
    if (target !== undefined) view.targetDefinition = target;
    if (cover !== undefined) view.coverDefinition = cover;
    if (coverDark !== undefined) view.coverDefinitionDark = coverDark;
    if (raw.attrs['data-card-wrap'] === 'false') view.wrap = false;
  } else if (Object.keys(widths).length > 0) view.columnWidths = widths;
  const data: Record<string, unknown> = { view, records, definition };
  const fullWidth = raw.attrs['data-full-width'];
  if (fullWidth === 'true' || fullWidth === 'false') data.fullWidth = fullWidth === 'true';
  const search = raw.attrs['data-search'];
  if (search === 'true' || search === 'false') data.search = search === 'true';
  return { ...voidBlock('table', data), fragments };
}

// --- reading a table block ------------------------------------------------------------------

interface Column {
  id: string;
  title: string;
  type: string;
  align: string;
  hidden: boolean;
  width?: number | undefined;
}
interface TableData {
  view?: {
    type?: string;
    columns?: string[];
    hideHeader?: boolean;
    columnWidths?: Record<string, number>;
    cardSize?: string;
    targetDefinition?: string;
    coverDefinition?: string;
    coverDefinitionDark?: string;
    wrap?: boolean;
  };
  definition?: Record<string, { title?: string; type?: string; textAlignment?: string }>;
  records?: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
  fullWidth?: boolean;
  search?: boolean;
}

function columnsOf(data: TableData): Column[] {
  const visible = new Set(data.view?.columns ?? []);
  const known = Object.keys(data.definition ?? {});
  // In the order of the definitions (hidden columns keep their place), as they were read; a
  // shown column without a definition after them.
  const ids = [...known, ...[...visible].filter((id) => !Object.hasOwn(data.definition ?? {}, id))];
  return ids.map((id) => ({
    id,
    title: data.definition?.[id]?.title ?? '',
    type: data.definition?.[id]?.type ?? 'text',
    align: data.definition?.[id]?.textAlignment ?? 'left',
    hidden: !visible.has(id),
    width: data.view?.columnWidths?.[id],
  }));
}

const recordsOf = (data: TableData) =>
  Object.values(data.records ?? {}).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );

/** Whether a pipe table says it all: a grid of visible text columns, each cell one paragraph. */
export function isPipeTable(node: Block): boolean {
  const data = node.data as TableData;
  if (data.view?.type !== 'grid' || data.view.hideHeader === true) return false;
  if (data.fullWidth !== undefined || data.search !== undefined || data.view.columnWidths)
    return false;
  const columns = columnsOf(data);
  if (columns.some((c) => c.hidden || c.type !== 'text')) return false;
  return (node.fragments ?? []).every(
    (f) => f.nodes.length === 1 && f.nodes[0]?.type === 'paragraph',
  );
}

// --- Markdown -------------------------------------------------------------------------------

/** A table that a pipe table cannot say, as GitBook's `<table>` (on one line). */
export function htmlTableMarkdown(
  node: Block,
  links: PageLinks,
  cellMarkdown: (nodes: Inline[]) => string,
): string {
  const data = node.data as TableData;
  const view = data.view ?? {};
  const cards = view.type === 'cards';
  const columns = columnsOf(data);
  const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment, f.nodes]));
  const attrs = [
    cards ? ' data-view="cards"' : '',
    cards && view.cardSize === 'large' ? ' data-card-size="large"' : '',
    cards && view.wrap === false ? ' data-card-wrap="false"' : '',
    !cards && view.hideHeader === true ? ' data-header-hidden' : '',
    typeof data.fullWidth === 'boolean' ? ` data-full-width="${data.fullWidth}"` : '',
    typeof data.search === 'boolean' ? ` data-search="${data.search}"` : '',
  ].join('');
  const head = columns.map((c) => {
    const a = [
      c.hidden ? ' data-hidden' : '',
      cards && view.targetDefinition === c.id ? ' data-card-target' : '',
      cards && view.coverDefinition === c.id ? ' data-card-cover' : '',
      cards && view.coverDefinitionDark === c.id ? ' data-card-cover-dark' : '',
      c.type === 'text' ? '' : ` data-type="${encodeAttr(c.type)}"`,
      c.type === 'text' && c.align !== 'left' ? ` align="${encodeAttr(c.align)}"` : '',
      !cards && c.width !== undefined && Number.isFinite(c.width) ? ` width="${c.width}"` : '',
    ].join('');
    return `<th${a}>${encodeAttr(c.title)}</th>`;
  });
  const rows = recordsOf(data).map((record) => {
    const cells = columns.map((c) => {
      const value = record.values[c.id];
      return `<td>${cellValueMarkdown(c.type, value, fragments, links, cellMarkdown)}</td>`;
    });
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<table${attrs}><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function cellValueMarkdown(
  type: string,
  value: unknown,
  fragments: Map<string, Block[]>,
  links: PageLinks,
  cellMarkdown: (nodes: Inline[]) => string,
): string {
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
    case 'checkbox':
      return typeof value === 'boolean' ? String(value) : '';
    case 'content-ref': {
      if (!isRef(value)) return '';
      const href = hrefOf(value, links);
      return `<a href="${encodeAttr(href)}">${encodeAttr(refLinkText(value, href))}</a>`;
    }
    case 'image': {
      const ref = imageRefOf(value);
      if (ref === undefined) return '';
      const src = srcOf(ref, links);
      return `<a href="${encodeAttr(src)}">${encodeAttr(src.split('/').at(-1) ?? src)}</a>`;
    }
    case 'files':
      return (Array.isArray(value) ? value : [])
        .map((file) => {
          const src = srcOf({ kind: 'file', file: String(file) }, links);
          return `<a href="${encodeAttr(src)}">${encodeAttr(src.split('/').at(-1) ?? src)}</a>`;
        })
        .join('');
    default: {
      const blocks = typeof value === 'string' ? (fragments.get(value) ?? []) : [];
      const paragraphs = blocks.map((b) =>
        b.type === 'paragraph'
          ? cellMarkdown((b.nodes ?? []) as Inline[])
          : cellMarkdown([
              { object: 'text', leaves: [{ object: 'leaf', text: plainText(b.nodes), marks: [] }] },
            ]),
      );
      return paragraphs.length <= 1
        ? (paragraphs[0] ?? '')
        : paragraphs.map((p) => `<p>${p}</p>`).join('');
    }
  }
}

const isRef = (value: unknown): value is Ref =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { kind?: unknown }).kind === 'string';

/** An image cell's reference (a ref, or `{ref, objectFit, alt}`). */
function imageRefOf(
  value: unknown,
): { kind: 'url'; url: string } | { kind: 'file'; file: string } | undefined {
  const ref = isRef(value)
    ? value
    : isRef((value as { ref?: unknown } | null)?.ref)
      ? (value as { ref: Ref }).ref
      : undefined;
  return ref?.kind === 'url' || ref?.kind === 'file' ? ref : undefined;
}

// --- HTML -----------------------------------------------------------------------------------

export interface TableHtmlOptions extends ImageHtmlOptions {
  href: (ref: Ref) => SafeUrl | undefined;
  pageTitle?: ((pageId: string) => string | undefined) | undefined;
  blocks: (nodes: Block[]) => SafeHtml;
}

function valueHtml(
  type: string,
  value: unknown,
  fragments: Map<string, Block[]>,
  s: TableHtmlOptions,
): SafeHtml {
  switch (type) {
    case 'number':
      return html`${typeof value === 'number' ? String(value) : ''}`;
    case 'checkbox':
      return html`<input type="checkbox" disabled${value === true ? html` checked` : ''}>`;
    case 'content-ref': {
      if (!isRef(value)) return html``;
      const href = s.href(value);
      const page = value.kind === 'page' || value.kind === 'anchor' ? value.page : undefined;
      const title =
        (page === undefined ? undefined : s.pageTitle?.(page)) ??
        (value.kind === 'url' ? value.url : (href?.url ?? ''));
      return href === undefined ? html`${title}` : html`<a href="${href}">${title}</a>`;
    }
    case 'image': {
      const src = imageUrl(imageRefOf(value), s);
      return src === undefined ? html`` : html`<img src="${src}" alt="" loading="lazy">`;
    }
    case 'files':
      return html`${(Array.isArray(value) ? value : []).map((file) => {
        const found = s.file?.(String(file));
        const href = found === undefined ? undefined : s.href({ kind: 'file', file: String(file) });
        return href === undefined ? html`` : html`<a href="${href}">${found?.name ?? ''}</a> `;
      })}`;
    default: {
      const blocks = typeof value === 'string' ? fragments.get(value) : undefined;
      return blocks === undefined ? html`` : s.blocks(blocks);
    }
  }
}

/**
 * A card's cover: an `image` cell's reference, or the first file of a `files` cell (GitBook
 * exports covers as `data-type="files"`, cells `<a href=".gitbook/assets/x.png">x.png</a>`):
 * the revision's file through `file(id).url`, or an address that is no file of the revision.
 */
function coverUrl(value: unknown, s: TableHtmlOptions): SafeUrl | undefined {
  if (!Array.isArray(value)) return imageUrl(imageRefOf(value), s);
  const first: unknown = value[0];
  if (typeof first === 'string')
    return s.file?.(first) !== undefined || !/^(?:https?:)?\/\//i.test(first)
      ? imageUrl({ kind: 'file', file: first }, s)
      : imageUrl({ kind: 'url', url: first }, s);
  return imageUrl(imageRefOf(first), s);
}

/** Whether the table needs this module's HTML (cards, hidden or typed columns, no header). */
export const isPlainGrid = (node: Block): boolean => {
  const data = node.data as TableData;
  return (
    data.view?.type === 'grid' &&
    data.view.hideHeader !== true &&
    columnsOf(data).every((c) => !c.hidden && c.type === 'text')
  );
};

const ALIGN: Readonly<Record<string, SafeHtml>> = {
  center: html` style="text-align:center"`,
  right: html` style="text-align:right"`,
};

export function htmlTableHtml(node: Block, s: TableHtmlOptions): SafeHtml {
  const data = node.data as TableData;
  const view = data.view ?? {};
  const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment, f.nodes]));
  const columns = columnsOf(data).filter((c) => !c.hidden);
  const records = recordsOf(data);
  const full = data.fullWidth === true ? ' full-width' : '';
  if (view.type === 'cards') {
    const all = columnsOf(data);
    const shown = columns.filter(
      (c) => c.id !== view.coverDefinition && c.id !== view.coverDefinitionDark,
    );
    const tiles = records.map((record) => {
      const target =
        view.targetDefinition === undefined ? undefined : record.values[view.targetDefinition];
      const href = isRef(target) ? s.href(target) : undefined;
      const cover =
        view.coverDefinition === undefined
          ? undefined
          : coverUrl(record.values[view.coverDefinition], s);
      const coverDark =
        view.coverDefinitionDark === undefined
          ? undefined
          : coverUrl(record.values[view.coverDefinitionDark], s);
      const title = all
        .filter((c) => c.type === 'text')
        .map((c) => plainText(fragments.get(String(record.values[c.id] ?? ''))).trim())
        .find((t) => t !== '');
      const coverHtml =
        cover === undefined
          ? ''
          : coverDark === undefined
            ? html`<img class="card-cover" src="${cover}" alt="" loading="lazy">`
            : html`<img class="card-cover image-light" src="${cover}" alt="" loading="lazy"><img class="card-cover image-dark" src="${coverDark}" alt="" loading="lazy">`;
      const body = shown
        .filter((c) => c.id !== view.targetDefinition)
        .map(
          (c) =>
            html`<div class="card-field">${valueHtml(c.type, record.values[c.id], fragments, s)}</div>`,
        );
      const link =
        href === undefined
          ? ''
          : html`<a class="card-link" href="${href}" aria-label="${title ?? href.url}"></a>`;
      return html`<div class="card${href === undefined ? '' : ' card-linked'}">${coverHtml}<div class="card-body">${body}</div>${link}</div>\n`;
    });
    const size = view.cardSize === 'large' ? 'cards-large' : 'cards-medium';
    const wrap = view.wrap === false ? ' cards-nowrap' : '';
    return html`<div class="cards ${size}${wrap}${full}">\n${tiles}</div>\n`;
  }
  const align = (c: Column) =>
    c.type === 'text' && Object.hasOwn(ALIGN, c.align) ? ALIGN[c.align] : '';
  const head =
    view.hideHeader === true
      ? ''
      : html`<thead>\n<tr>${columns.map((c) => html`<th${align(c)}>${c.title}</th>`)}</tr>\n</thead>\n`;
  const body = records.map(
    (record) =>
      html`<tr>${columns.map((c) => html`<td${align(c)}>${valueHtml(c.type, record.values[c.id], fragments, s)}</td>`)}</tr>\n`,
  );
  return html`<div class="table-wrap${full}"><table>\n${head}<tbody>\n${body}</tbody>\n</table></div>\n`;
}
