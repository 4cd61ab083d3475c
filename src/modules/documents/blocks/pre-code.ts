import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import { lineOf } from '../block-lines.js';
import { type Block, codeBlock } from '../model.js';
import { decodeEntities, htmlAttributes } from './html-attrs.js';

/**
 * GitBook's code block in HTML, written when the code holds formatting or annotations:
 * `<pre class="language-ts" data-title="x" data-line-numbers data-expandable="true"
 * data-overflow="wrap" data-full-width="false"><code class="lang-ts">…</code></pre>` → `code`
 * with those options; the markup inside (`<strong>`, `<a data-footnote-ref>`) is reduced to its
 * text and entities are decoded. The same options on `{% code %}` (from-markdown.ts) go through
 * codeOptions, and are written back by codeTagAttributes.
 */

const OPEN = /^<pre(\s[^<>]*)?>\s*<code(\s[^<>]*)?>/i;
const CLOSE = '</code></pre>';
/** Lines a page's `<pre>` blocks may read in all while looking for their end. */
const SCAN_LINES = 200_000;

export function preCodeRule(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const first = lineOf(state, startLine);
  const open = OPEN.exec(first);
  if (open === null) return false;
  const env = state.env as { gbPreScan?: { left: number } };
  env.gbPreScan ??= { left: SCAN_LINES };
  let last = -1;
  for (let line = startLine; line < endLine; line++) {
    if (--env.gbPreScan.left < 0) return false;
    const text =
      line === startLine ? first : state.src.slice(state.bMarks[line], state.eMarks[line]);
    if (text.includes(CLOSE)) {
      last = line;
      break;
    }
  }
  if (last === -1) return false;
  if (silent) return true;
  const begin = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0) + open[0].length;
  const whole = state.src.slice(begin, state.eMarks[last]);
  const end = whole.indexOf(CLOSE);
  const token = state.push('gitbook_pre', 'pre', 0);
  token.block = true;
  token.map = [startLine, last + 1];
  token.meta = {
    pre: Object.fromEntries(htmlAttributes(open[1] ?? '')),
    code: Object.fromEntries(htmlAttributes(open[2] ?? '')),
    content: whole.slice(0, end),
  };
  state.line = last + 1;
  return true;
}

/** `data-x="true"` or a bare `data-x`: true; `"false"`: false; absent: undefined. */
function flag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return value === '' || value === 'true' ? true : value === 'false' ? false : undefined;
}

/** The `gitbook_pre` token as a code block. */
export function preCodeBlock(meta: {
  pre: Record<string, string>;
  code: Record<string, string>;
  content: string;
}): Block {
  const language =
    /(?:^|\s)language-([\w+#.-]+)/.exec(meta.pre.class ?? '')?.[1] ??
    /(?:^|\s)lang(?:uage)?-([\w+#.-]+)/.exec(meta.code.class ?? '')?.[1] ??
    '';
  const text = decodeEntities(meta.content.replace(/<\/?[a-zA-Z][^<>]*>/g, ''));
  const node = codeBlock(text, language, meta.pre['data-title']);
  return withCodeOptions(node, {
    overflow: meta.pre['data-overflow'],
    lineNumbers: meta.pre['data-line-numbers'],
    fullWidth: meta.pre['data-full-width'],
    expandable: meta.pre['data-expandable'],
  });
}

/** A code block with the options of `{% code overflow lineNumbers fullWidth expandable %}`. */
export function withCodeOptions(node: Block, attrs: Record<string, string | undefined>): Block {
  if (node.type !== 'code') return node;
  const data = { ...node.data };
  if (attrs.overflow === 'wrap' || attrs.overflow === 'scroll') data.overflow = attrs.overflow;
  for (const key of ['lineNumbers', 'fullWidth', 'expandable'] as const) {
    const value = flag(attrs[key]);
    if (value !== undefined) data[key] = value;
  }
  return { ...node, data };
}

/** The options as `{% code %}` attributes (after `title`), '' when there are none. */
export function codeTagAttributes(data: Record<string, unknown>): string {
  const out: string[] = [];
  if (data.overflow === 'wrap' || data.overflow === 'scroll')
    out.push(`overflow="${data.overflow}"`);
  for (const key of ['lineNumbers', 'fullWidth', 'expandable'] as const) {
    if (typeof data[key] === 'boolean') out.push(`${key}="${data[key]}"`);
  }
  return out.map((a) => ` ${a}`).join('');
}

/** The published site's classes for a code block's options (site.css), '' when it has none. */
export function codeClasses(data: Record<string, unknown>): string {
  return [
    data.overflow === 'wrap' ? 'code-wrap' : '',
    data.lineNumbers === true ? 'line-numbers' : '',
    data.fullWidth === true ? 'full-width' : '',
  ]
    .filter((c) => c !== '')
    .join(' ');
}
