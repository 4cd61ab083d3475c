import { html, type SafeHtml } from '../../../html/safe-html.js';
import { type Block, block } from '../model.js';
import {
  attrs,
  booleanAttr,
  defined,
  groupItems,
  type HtmlContext,
  type MarkdownContext,
  orEmpty,
} from './context.js';

/**
 * `{% columns fullWidth="true" %}{% column width="50%" valign="middle" %}…{% endcolumn %}…`:
 * GitBook's `columns` of `column` blocks (`width` a length, `verticalAlignment`). On the
 * published site, a row of columns that stacks on narrow screens (site.css).
 */
const ALIGNMENTS = ['top', 'middle', 'bottom'];

type Length = number | { unit: string; value: number };

/** `50%` → `{unit: '%', value: 50}`, `6` → 6; anything else undefined. */
function lengthOf(value: string | undefined): Length | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%|px|rem|em|fr)?\s*$/.exec(value ?? '');
  if (match === null) return undefined;
  const number = Number(match[1]);
  if (!Number.isFinite(number)) return undefined;
  return match[2] === undefined ? number : { unit: match[2], value: number };
}

function lengthText(length: unknown): string | undefined {
  if (typeof length === 'number' && Number.isFinite(length)) return String(length);
  if (typeof length === 'object' && length !== null) {
    const { unit, value } = length as { unit?: unknown; value?: unknown };
    if (typeof value === 'number' && Number.isFinite(value) && typeof unit === 'string') {
      return `${value}${unit}`;
    }
  }
  return undefined;
}

export function columnsOf(name: string, attributes: Record<string, string>, inner: Block[]) {
  if (name === 'column') {
    const valign = attributes.valign ?? attributes.verticalAlignment;
    return [
      block(
        'column',
        orEmpty(inner),
        defined({
          width: lengthOf(attributes.width),
          verticalAlignment: ALIGNMENTS.includes(valign ?? '') ? valign : undefined,
        }),
      ),
    ];
  }
  if (name !== 'columns') return undefined;
  const columns = groupItems(inner, 'column', (nodes) => block('column', nodes));
  const fullWidth = booleanAttr(attributes.fullWidth);
  return [{ ...block('columns', columns, defined({ fullWidth })), isVoid: false }];
}

/** A column's width as CSS: a percentage or a share of the row, from numbers only. */
function widthStyle(width: unknown): SafeHtml | '' {
  if (typeof width === 'number' && Number.isFinite(width) && width > 0) {
    return html` style="flex:${width} 1 0"`;
  }
  const text = lengthText(width);
  if (text === undefined || !/^\d+(\.\d+)?(%|px|rem|em)$/.test(text)) return '';
  return html` style="flex:0 1 ${text}"`;
}

export function columnsHtml(node: Block, c: HtmlContext): SafeHtml {
  const columns = (node.nodes ?? []).map((column) => {
    const data = (column as Block).data;
    const align = ALIGNMENTS.includes(String(data.verticalAlignment))
      ? html` column-${String(data.verticalAlignment)}`
      : '';
    return html`<div class="column${align}"${widthStyle(data.width)}>\n${c.blocks((column as Block).nodes)}</div>\n`;
  });
  const full = node.data.fullWidth === true ? html` full-width` : '';
  return html`<div class="columns${full}">\n${columns}</div>\n`;
}

export function columnsMarkdown(node: Block, c: MarkdownContext): string {
  const columns = (node.nodes ?? []).map((column) => {
    const data = (column as Block).data;
    const open = attrs([
      ['width', lengthText(data.width)],
      ['valign', typeof data.verticalAlignment === 'string' ? data.verticalAlignment : undefined],
    ]);
    return `{% column${open} %}\n${c.blocks((column as Block).nodes)}\n{% endcolumn %}`;
  });
  const open = attrs([
    ['fullWidth', typeof node.data.fullWidth === 'boolean' ? node.data.fullWidth : undefined],
  ]);
  return `{% columns${open} %}\n${columns.join('\n\n')}\n{% endcolumns %}`;
}
