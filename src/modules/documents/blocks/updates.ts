import { html, type SafeHtml } from '../../../html/safe-html.js';
import { type Block, block } from '../model.js';
import { attrs, groupItems, type HtmlContext, type MarkdownContext, orEmpty } from './context.js';

/**
 * `{% updates format="full" %}{% update date="2025-12-25" tags="beta,fixes" %}…{% endupdate %}…`:
 * GitBook's `updates` of `update` blocks (a changelog). A day is stored as its midnight UTC
 * (0.202's `date` is a date-time) and written back as the day; tags are tag references by slug.
 * An update without a readable date is its content. On the published site, dated entries.
 */
const FORMATS = ['full', 'short', 'numeric'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MIDNIGHT = 'T00:00:00.000Z';

function timestampOf(date: string | undefined): string | undefined {
  const value = (date ?? '').trim();
  const candidate = DAY.test(value) ? `${value}${MIDNIGHT}` : value;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(candidate)) {
    return undefined;
  }
  return Number.isNaN(Date.parse(candidate)) ? undefined : candidate;
}

export function updatesOf(name: string, attributes: Record<string, string>, inner: Block[]) {
  if (name === 'update') {
    const date = timestampOf(attributes.date);
    if (date === undefined) return inner;
    const tags = (attributes.tags ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '')
      .map((tag) => ({ kind: 'tag', tag }));
    return [block('update', orEmpty(inner), tags.length === 0 ? { date } : { date, tags })];
  }
  if (name !== 'updates') return undefined;
  const format = FORMATS.includes(attributes.format ?? '') ? attributes.format : 'full';
  const items = groupItems(inner, 'update', (nodes) => block('update', nodes, { date: '' }));
  // Content before the first dated update has no date to stand under: it stays before the block.
  const undated = items[0]?.data.date === '' ? ((items.shift()?.nodes ?? []) as Block[]) : [];
  if (items.length === 0) return undated;
  return [...undated, { ...block('updates', items, { format }), isVoid: false }];
}

const dayOf = (date: string) => (date.endsWith(MIDNIGHT) ? date.slice(0, 10) : date);
const tagsOf = (data: Record<string, unknown>) =>
  Array.isArray(data.tags)
    ? data.tags.map((tag) => String((tag as { tag?: string }).tag ?? ''))
    : [];

export function updatesHtml(node: Block, c: HtmlContext): SafeHtml {
  const updates = (node.nodes ?? []).map((update) => {
    const data = (update as Block).data;
    const date = String(data.date ?? '');
    const tags = tagsOf(data).map((tag) => html` <span class="update-tag">${tag}</span>`);
    return html`<section class="update"><p class="update-date"><time datetime="${date}">${dayOf(date)}</time>${tags}</p>\n${c.blocks((update as Block).nodes)}</section>\n`;
  });
  return html`<div class="updates">\n${updates}</div>\n`;
}

export function updatesMarkdown(node: Block, c: MarkdownContext): string {
  const updates = (node.nodes ?? []).map((update) => {
    const data = (update as Block).data;
    const tags = tagsOf(data);
    const open = attrs([
      ['date', dayOf(String(data.date ?? ''))],
      ['tags', tags.length === 0 ? undefined : tags.join(',')],
    ]);
    return `{% update${open} %}\n${c.blocks((update as Block).nodes)}\n{% endupdate %}`;
  });
  const open = attrs([['format', String(node.data.format ?? 'full')]]);
  return `{% updates${open} %}\n${updates.join('\n\n')}\n{% endupdates %}`;
}
