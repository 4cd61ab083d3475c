import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { withHeadingIds } from './anchors.js';
import { codeTagOf } from './blocks/code.js';
import { customBlock } from './blocks/custom-block.js';
import { customAnchorOf, withCustomAnchor } from './blocks/heading-anchor.js';
import { htmlSyntax } from './blocks/html-syntax.js';
import { htmlTableBlock } from './blocks/html-table.js';
import { imageGroupBlock } from './blocks/images.js';
import { tagBlockOf } from './blocks/index.js';
import { mathBlockOf, mathSyntax } from './blocks/math.js';
import { preCodeBlock } from './blocks/pre-code.js';
import { gitbookSyntax } from './gitbook-syntax.js';
import { type InlineContext, inlinesOf } from './inline-tokens.js';
import type { PageLinks } from './links.js';
import {
  type Align,
  type Block,
  block,
  codeBlock,
  document,
  expandable,
  HINT_STYLES,
  type HintStyle,
  heading,
  type Inline,
  type JsonDocument,
  paragraph,
  plainText,
  table,
  text,
  voidBlock,
} from './model.js';
import { fitDocument } from './nesting.js';
import { contentRef, loneTag, paragraphOrImages } from './small-blocks.js';

/**
 * Stored Markdown (GitBook-flavoured) as GitBook's JSON document: one markdown-it parse (raw
 * HTML off, as on the published site) walked into blocks. docs/content.md lists what maps to
 * what; whatever has no place in the model is kept as its plain content.
 */
export interface DocumentContext extends PageLinks {
  /** The page's title: a first heading-1 equal to it is the title itself, and is dropped. */
  title?: string;
}

export const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false })
  .use(gitbookSyntax)
  .use(mathSyntax)
  .use(htmlSyntax);

/**
 * Bare addresses become links when they say they are one (`https://…`, `mailto:…`, `www.…`), never
 * a file's name or an e-mail address alone: `README.md` or `config.sh` (Moldova's and Saint
 * Helena's domains) and `support@example.com` stay text, as GitBook's pages mean them (measured on
 * GitBook-synced repositories: `**README.md**` was read as a link to http://README.md).
 */
const linkifyMatch = markdown.linkify.match.bind(markdown.linkify);
markdown.linkify.match = (text: string) =>
  (linkifyMatch(text) ?? []).filter((m) =>
    m.schema === ''
      ? /^www\./i.test(m.raw)
      : m.raw.toLowerCase().startsWith(m.schema.toLowerCase()),
  );

export function markdownToDocument(source: string, context: DocumentContext = {}): JsonDocument {
  const env: { gbFootnotes?: Map<string, string> } = {};
  const tokens = markdown.parse(source, env);
  const walker = new Walker(tokens, withFootnotes(context, env.gbFootnotes));
  let nodes = walker.blocks(undefined);
  const first = nodes[0];
  if (
    first?.type === 'heading-1' &&
    context.title !== undefined &&
    plainText(first.nodes).trim() === context.title.trim()
  ) {
    nodes = nodes.slice(1);
  }
  return fitDocument(document(withHeadingIds(nodes)), context);
}

/**
 * The context with the page's footnotes (`[^1]: note`), each note's Markdown read once as blocks
 * (a note's own footnote references are its text).
 */
function withFootnotes(
  context: DocumentContext,
  notes: Map<string, string> | undefined,
): DocumentContext & InlineContext {
  if (notes === undefined) return context;
  const read = new Map<string, Block[]>();
  return {
    ...context,
    footnoteSource: notes,
    footnote: (label) => {
      const known = read.get(label);
      if (known !== undefined) return known;
      const source = notes.get(label);
      if (source === undefined) return undefined;
      const blocks = new Walker(markdown.parse(source, {}), context).blocks(undefined);
      const body = blocks.length === 0 ? [paragraph([])] : blocks;
      read.set(label, body);
      return body;
    },
  };
}

const CHECKBOX = /^\[([ xX])\]\s+/;

/**
 * A Markdown heading's level in the document. In a file of a repository (an imported page or
 * include) GitBook's levels: the page's title is its `#` line, and the editor's headings 1, 2 and
 * 3 are written one level lower, `##`, `###`, `####` (reference §3; GitBook's own exports). In
 * Markdown written through Livery's API, `#`, `##`, `###`. Deeper ones are a heading 3.
 */
export function headingLevel(hashes: number, gitFile: boolean): 1 | 2 | 3 {
  return Math.min(Math.max(gitFile ? hashes - 1 : hashes, 1), 3) as 1 | 2 | 3;
}

class Walker {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly context: DocumentContext & InlineContext,
  ) {}

  /** GitBook's HTML inside HTML (a caption, a table cell, a custom block) as inline content. */
  private readonly inlineHtml = (source: string): Inline[] =>
    inlinesOf(
      markdown.parseInline(source, { gbHtml: true, gbFootnotes: this.context.footnoteSource })[0]
        ?.children ?? null,
      this.context,
    );

  /** Blocks until the token of type `until` (consumed) or the end. */
  blocks(until: string | undefined): Block[] {
    const out: Block[] = [];
    while (this.at < this.tokens.length) {
      const token = this.tokens[this.at] as Token;
      if (token.type === until) {
        this.at++;
        return out;
      }
      this.at++;
      for (const block of this.block(token)) out.push(block);
    }
    return out;
  }

  private inline(): Inline[] {
    const token = this.tokens[this.at];
    if (token?.type !== 'inline') return [];
    this.at++;
    return inlinesOf(token.children, this.context);
  }

  private block(token: Token): Block[] {
    switch (token.type) {
      case 'paragraph_open': {
        const nodes = this.inline();
        this.at++; // paragraph_close
        return [mathBlockOf(nodes) ?? paragraphOrImages(nodes)];
      }
      case 'heading_open': {
        const level = headingLevel(Number(token.tag.slice(1)), this.context.file !== undefined);
        const anchor = customAnchorOf(this.tokens[this.at]);
        const nodes = this.inline();
        this.at++;
        return [withCustomAnchor(heading(level, nodes, ''), anchor)];
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        return [this.list(token)];
      case 'blockquote_open':
        return [block('blockquote', this.blocks('blockquote_close'))];
      case 'fence':
      case 'code_block':
        return [codeBlock(token.content, token.info.trim().split(/\s+/, 1)[0] ?? '')];
      case 'hr':
        return [voidBlock('divider', {})];
      case 'table_open':
        return [this.table()];
      case 'details_open': {
        const title = this.inline();
        return [expandable(title, this.blocks('details_close'), token.meta?.open === true)];
      }
      case 'gitbook_open':
        return this.templateBlock(token.meta.name, token.meta.attrs, token.meta.source ?? '');
      case 'gitbook_images':
        return [imageGroupBlock(token.meta, this.context, this.inlineHtml)];
      case 'gitbook_pre':
        return [preCodeBlock(token.meta)];
      case 'gitbook_table':
        return [htmlTableBlock(token.meta, this.context, this.inlineHtml)];
      case 'gitbook_custom_block':
        return [customBlock(token.meta, this.inlineHtml)];
      case 'gitbook_tag':
        return loneTag(token.meta.name, token.meta.attrs, this.context, token.meta.source ?? '');
      default:
        return [];
    }
  }

  private list(open: Token): Block {
    const close = open.type.replace('_open', '_close');
    const items: { checked: boolean | undefined; nodes: Block[] }[] = [];
    while (this.at < this.tokens.length) {
      const token = this.tokens[this.at] as Token;
      this.at++;
      if (token.type === close) break;
      if (token.type !== 'list_item_open') continue;
      const checked = this.checkbox();
      items.push({ checked, nodes: this.blocks('list_item_close') });
    }
    const tasks = open.type === 'bullet_list_open' && items.every((i) => i.checked !== undefined);
    const nodes = items.map(({ checked, nodes }) =>
      block('list-item', nodes.length === 0 ? [paragraph([])] : nodes, tasks ? { checked } : {}),
    );
    if (open.type === 'ordered_list_open') {
      const start = Number(open.attrGet('start') ?? 1);
      return block('list-ordered', nodes, start === 1 ? {} : { start });
    }
    if (tasks && items.length > 0) return block('list-tasks', nodes);
    // A list of which only some items have boxes: the others keep `[ ]` as text (restored).
    for (const [i, item] of items.entries()) {
      if (item.checked !== undefined) {
        const first = nodes[i]?.nodes?.[0];
        if (first?.object === 'block' && first.type === 'paragraph') {
          first.nodes =
            paragraph([text(item.checked ? '[x] ' : '[ ] '), ...(first.nodes as Inline[])]).nodes ??
            [];
        }
      }
    }
    return block('list-unordered', nodes);
  }

  /** A task box at the start of a list item's first paragraph: taken out of its text. */
  private checkbox(): boolean | undefined {
    const open = this.tokens[this.at];
    const inline = this.tokens[this.at + 1];
    const first = inline?.children?.[0];
    if (open?.type !== 'paragraph_open' || inline?.type !== 'inline' || first?.type !== 'text') {
      return undefined;
    }
    const match = CHECKBOX.exec(first.content);
    if (match === null) return undefined;
    first.content = first.content.slice(match[0].length);
    return match[1] !== ' ';
  }

  private table(): Block {
    const header: string[] = [];
    const aligns: Align[] = [];
    const rows: Inline[][][] = [];
    let row: Inline[][] | undefined;
    while (this.at < this.tokens.length) {
      const token = this.tokens[this.at] as Token;
      this.at++;
      if (token.type === 'table_close') break;
      if (token.type === 'tr_open' && this.tokens[this.at]?.type === 'td_open') row = [];
      if (token.type === 'tr_close' && row !== undefined) {
        rows.push(row);
        row = undefined;
      }
      if (token.type === 'th_open') {
        const style = token.attrGet('style') ?? '';
        aligns.push((/text-align:(center|right|left)/.exec(style)?.[1] as Align) ?? 'left');
        header.push(plainText(this.inline()));
      }
      if (token.type === 'td_open') row?.push(this.inline());
    }
    return table(header, aligns, rows);
  }

  /** `{% name %}…{% endname %}`. */
  private templateBlock(name: string, attrs: Record<string, string>, source: string): Block[] {
    const inner = this.blocks('gitbook_close');
    switch (name) {
      case 'hint': {
        const style = HINT_STYLES.includes(attrs.style as HintStyle) ? attrs.style : 'info';
        // 0.202's icon names are at most 50 characters.
        const icon =
          attrs.icon === undefined || attrs.icon === '' ? {} : { icon: attrs.icon.slice(0, 50) };
        return [block('hint', inner.length === 0 ? [paragraph([])] : inner, { style, ...icon })];
      }
      case 'tabs':
        return [
          block(
            'tabs',
            inner.filter((node) => node.type === 'tabs-item'),
          ),
        ];
      case 'tab':
        return [
          block('tabs-item', inner.length === 0 ? [paragraph([])] : inner, {
            title: attrs.title ?? '',
            ...(attrs.icon === undefined || attrs.icon === ''
              ? {}
              : { icon: attrs.icon.slice(0, 50) }),
          }),
        ];
      case 'code':
        return codeTagOf(attrs, inner);
      case 'content-ref':
        // The link inside repeats the reference: the reference is the block.
        return attrs.url === undefined ? inner : [contentRef(attrs.url, this.context)];
      case 'embed':
        return [...loneTag(name, attrs, this.context), ...inner];
      default:
        // blocks/ (`{% stepper %}`, `{% columns %}`, …); a block Livery does not model: its content.
        return tagBlockOf(name, attrs, source, inner, this.context) ?? inner;
    }
  }
}
