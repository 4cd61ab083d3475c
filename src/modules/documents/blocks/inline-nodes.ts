import type Token from 'markdown-it/lib/token.mjs';
import { html, type SafeHtml, type SafeUrl } from '../../../html/safe-html.js';
import { hrefOf, type PageLinks, refOf } from '../links.js';
import {
  type Block,
  type Inline,
  type InlineAnnotation,
  type InlineVoid,
  type Mark,
  type Ref,
  type TextNode,
  textNode,
} from '../model.js';
import { emojiChars, emojiName } from './emoji.js';
import { encodeAttr, isColor } from './html-attrs.js';

/**
 * GitBook's void inlines of the HTML forms (blocks/inline-html.ts reads them): `emoji`, `icon`,
 * `expression`, `mention`, `button`, and the `annotation` (a footnote); each as 0.202's
 * `DocumentInline*`, as the published site's HTML, and as GitBook's Markdown again.
 */

const voidInline = (type: InlineVoid['type'], data: Record<string, unknown>): InlineVoid => ({
  object: 'inline',
  type,
  isVoid: true,
  data,
});

const ICON = /^[a-z0-9][a-z0-9-]{0,49}$/;

/** A `gb_inline` token (not an annotation) as its inline, or undefined to keep nothing. */
export function inlineNodeOf(token: Token, links: PageLinks): InlineVoid | undefined {
  const meta = token.meta as Record<string, string | undefined>;
  switch (meta.type) {
    case 'emoji':
      return voidInline('emoji', { code: meta.code ?? '' });
    case 'icon': {
      const data: Record<string, unknown> = { icon: meta.icon ?? '' };
      if (isColor(meta.color)) data.color = meta.color;
      return voidInline('icon', data);
    }
    case 'expression':
      return voidInline('expression', { expression: meta.expression ?? '' });
    case 'mention':
      return voidInline('mention', { ref: refOf(meta.href ?? '', links) });
    case 'button': {
      const data: Record<string, unknown> = { label: meta.label ?? '', kind: meta.kind };
      if (meta.icon !== undefined && ICON.test(meta.icon)) data.icon = meta.icon;
      if (meta.size === 'small' || meta.size === 'medium' || meta.size === 'large') {
        data.size = meta.size;
      }
      if (meta.action === 'search' || meta.action === 'ask') {
        data.action =
          meta.query === undefined
            ? { action: meta.action }
            : { action: meta.action, query: meta.query };
      } else data.ref = refOf(meta.href ?? '', links);
      return voidInline('button', data);
    }
    default:
      return undefined;
  }
}

/** A footnote: the annotated text (the word before `[^1]`) and its note's blocks. */
export function annotation(nodes: TextNode[], body: Block[]): InlineAnnotation {
  return {
    object: 'inline',
    type: 'annotation',
    isVoid: false,
    data: {},
    nodes:
      nodes.length === 0
        ? [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }]
        : nodes,
    fragments: [
      { object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: body },
    ],
  };
}

/**
 * The annotated text of a footnote reference: the last word of the text before it (letters up
 * to a space), taken out of `out`.
 */
export function takeLastWord(out: Inline[]): TextNode[] {
  // Emphasis delimiters leave empty text behind them.
  for (let end = out.at(-1); end?.object === 'text' && end.leaves.every((l) => l.text === ''); ) {
    out.pop();
    end = out.at(-1);
  }
  const last = out.at(-1);
  if (last?.object !== 'text') return [];
  const leaf = last.leaves.at(-1);
  if (leaf === undefined) return [];
  const word = /\S+$/.exec(leaf.text)?.[0] ?? '';
  if (word === '') return [];
  leaf.text = leaf.text.slice(0, leaf.text.length - word.length);
  return [textNode([{ object: 'leaf', text: word, marks: leaf.marks }])];
}

// --- Markdown -------------------------------------------------------------------------------

/** `<` and `&` in an element's text. */
const encodeText = (value: string) => value.replaceAll('&', '&#x26;').replaceAll('<', '&#x3C;');

/**
 * A void inline in GitBook's Markdown. `html`: inside HTML (a card, a caption), where a mention is
 * `<a data-mention>`; `after`: what precedes it (an emoji right after a letter is written as its
 * `<span>`, which reads back the same).
 */
export function inlineNodeMarkdown(
  node: InlineVoid,
  links: PageLinks,
  htmlContext: boolean,
  after: string,
): string {
  const data = node.data;
  switch (node.type) {
    case 'emoji': {
      const code = String(data.code ?? '');
      const name = emojiName(code);
      if (name !== undefined && !/[A-Za-z0-9]$/.test(after)) return `:${name}:`;
      return `<span data-gb-custom-inline data-tag="emoji" data-code="${encodeAttr(code)}">${encodeText(emojiChars(code) ?? '')}</span>`;
    }
    case 'icon': {
      const icon = String(data.icon ?? '');
      const color = isColor(data.color as string) ? ` style="color:${data.color};"` : '';
      return `<i class="fa-${encodeAttr(icon)}"${color}>:${encodeText(icon)}:</i>`;
    }
    case 'expression':
      return `<code class="expression">${encodeText(String(data.expression ?? ''))}</code>`;
    case 'mention': {
      const href = hrefOf(data.ref as Ref, links);
      return htmlContext || /[\s<>"()]/.test(href) || href === ''
        ? `<a data-mention href="${encodeAttr(href)}">${encodeText(href)}</a>`
        : `[${href.replace(/([\\[\]])/g, '\\$1')}](${href} "mention")`;
    }
    case 'button': {
      const kind = data.kind === 'secondary' ? 'secondary' : 'primary';
      const icon = typeof data.icon === 'string' ? ` data-icon="${encodeAttr(data.icon)}"` : '';
      const size = typeof data.size === 'string' ? ` data-size="${encodeAttr(data.size)}"` : '';
      const label = encodeText(String(data.label ?? ''));
      const action = data.action as { action?: string; query?: string } | undefined;
      if (action !== undefined) {
        const query = action.query === undefined ? '' : ` data-query="${encodeAttr(action.query)}"`;
        return `<button type="button" class="button ${kind}" data-action="${encodeAttr(String(action.action ?? ''))}"${query}${icon}${size}>${label}</button>`;
      }
      const href = hrefOf(data.ref as Ref, links);
      return `<a href="${encodeAttr(href)}" class="button ${kind}"${icon}${size}>${label}</a>`;
    }
  }
}

// --- HTML -----------------------------------------------------------------------------------

export interface InlineNodeHtml {
  /** Where a reference leads on the site (to-html.ts's refHref). */
  href: (ref: Ref) => SafeUrl | undefined;
  pageTitle?: ((pageId: string) => string | undefined) | undefined;
}

/** A colour token as a class name part: `$primary` → `primary`, others as they are. */
const colorClass = (value: unknown) =>
  isColor(value as string) && value !== 'default' ? String(value).replace('$', '') : undefined;

export function inlineNodeHtml(node: InlineVoid, s: InlineNodeHtml): SafeHtml {
  const data = node.data;
  switch (node.type) {
    case 'emoji':
      return html`<span class="emoji" role="img">${emojiChars(String(data.code ?? '')) ?? ''}</span>`;
    case 'icon': {
      const icon = String(data.icon ?? '');
      const color = colorClass(data.color);
      return html`<span class="inline-icon${color === undefined ? '' : ` text-${color}`}" title="${icon}" aria-hidden="true"></span>`;
    }
    case 'expression':
      return html`<code class="expression">${String(data.expression ?? '')}</code>`;
    case 'mention': {
      const ref = data.ref as Ref;
      const href = s.href(ref);
      const page = ref.kind === 'page' || ref.kind === 'anchor' ? ref.page : undefined;
      const title =
        (page === undefined ? undefined : s.pageTitle?.(page)) ??
        (ref.kind === 'url' ? ref.url : (href?.url ?? ''));
      return href === undefined
        ? html`<span class="mention">${title}</span>`
        : html`<a class="mention" href="${href}">${title}</a>`;
    }
    case 'button': {
      const kind = data.kind === 'secondary' ? 'secondary' : 'primary';
      const label = String(data.label ?? '');
      const href = data.ref === undefined ? undefined : s.href(data.ref as Ref);
      return href === undefined || href.url === ''
        ? html`<span class="button button-${kind}">${label}</span>`
        : html`<a class="button button-${kind}" href="${href}">${label}</a>`;
    }
  }
}

/** A colour mark around some HTML: classes from the known colours only (never a style). */
export function colorMarkHtml(mark: Mark, inner: SafeHtml): SafeHtml {
  const text = colorClass(mark.data?.text);
  const background = colorClass(mark.data?.background);
  const classes = [
    'color',
    ...(text === undefined ? [] : [`text-${text}`]),
    ...(background === undefined ? [] : [`bg-${background}`]),
  ];
  return html`<mark class="${classes.join(' ')}">${inner}</mark>`;
}

/** A colour mark's opening tag in Markdown. */
export function colorMarkOpen(mark: Mark): string {
  const text = mark.data?.text;
  const background = mark.data?.background;
  const hasBackground = isColor(background) && background !== 'default';
  // One property at least: `<mark style="">` would not read as a colour.
  const style = [
    isColor(text) && (text !== 'default' || !hasBackground) ? `color:${text};` : '',
    hasBackground ? `background-color:${background};` : '',
  ].join('');
  return `<mark style="${style}">`;
}
