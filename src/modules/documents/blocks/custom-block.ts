import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import { lineOf } from '../block-lines.js';
import {
  type Block,
  block,
  HINT_STYLES,
  type HintStyle,
  type Inline,
  paragraph,
} from '../model.js';

import { htmlAttributes } from './html-attrs.js';

/**
 * GitBook's HTML fallback for a block where Markdown cannot hold its tag (inside a list item or
 * other HTML): `<div data-gb-custom-block data-tag="hint" data-style="success" class="hint
 * hint-success"><p>…</p></div>` → the `hint` that `{% hint %}` makes, and `data-tag="if"` → `if`
 * (`data-expression`, or `data-condition`). Their paragraphs are HTML (`<p>`), read as inline
 * content; anything else in them is text.
 */

const OPEN = /^<div\s([^<>]*\bdata-gb-custom-block\b[^<>]*)>/i;
/** Lines one such block may span (GitBook writes it on one line). */
const MAX_LINES = 200;

export function customBlockRule(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const first = lineOf(state, startLine);
  const open = OPEN.exec(first);
  if (open === null) return false;
  const attrs = htmlAttributes(open[1] ?? '');
  const tag = attrs.get('data-tag');
  if (tag !== 'hint' && tag !== 'if') return false;
  let depth = 0;
  let source = '';
  let last = -1;
  for (let line = startLine; line < Math.min(endLine, startLine + MAX_LINES); line++) {
    const text = lineOf(state, line);
    source += (line === startLine ? '' : '\n') + text;
    for (const match of text.matchAll(/<(\/?)div[\s>]/gi)) depth += match[1] === '/' ? -1 : 1;
    if (depth <= 0) {
      last = line;
      break;
    }
  }
  if (last === -1) return false;
  if (silent) return true;
  const body = source.slice(open[0].length, source.lastIndexOf('</div>'));
  const token = state.push('gitbook_custom_block', 'div', 0);
  token.block = true;
  token.map = [startLine, last + 1];
  token.meta = {
    tag,
    style: attrs.get('data-style'),
    expression: attrs.get('data-expression') ?? attrs.get('data-condition') ?? '',
    paragraphs: paragraphsOf(body),
  };
  state.line = last + 1;
  return true;
}

/** `<p>a</p><p>b</p>` → `a`, `b`; text outside paragraphs is one more. */
function paragraphsOf(body: string): string[] {
  const out: string[] = [];
  for (const piece of body.split(/<\/?p(?:\s[^<>]*)?>/i)) {
    if (piece.trim() !== '') out.push(piece.trim());
  }
  return out;
}

export function customBlock(
  meta: { tag: string; style?: string; expression: string; paragraphs: string[] },
  inlineOf: (html: string) => Inline[],
): Block {
  const nodes = meta.paragraphs.map((p) => paragraph(inlineOf(p)));
  const body = nodes.length === 0 ? [paragraph([])] : nodes;
  if (meta.tag === 'if') return block('if', body, { expression: meta.expression });
  const style = HINT_STYLES.includes(meta.style as HintStyle) ? meta.style : 'info';
  return block('hint', body, { style });
}
