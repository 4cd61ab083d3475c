import { html, type SafeHtml } from '../../../html/safe-html.js';
import { type Block, block } from '../model.js';
import { type HtmlContext, type MarkdownContext, orEmpty } from './context.js';

/**
 * `{% if visitor.claims.unsigned.persona === "new" %}…{% endif %}`: GitBook's `if` block, its
 * expression as written. Livery has no visitor claims, so the published site always shows the
 * content (as GitBook's editor does), in a `<div class="conditional">` that names nothing of
 * the expression.
 */
export function conditionalOf(source: string, inner: Block[]): Block[] {
  return [block('if', orEmpty(inner), { expression: source.trim() })];
}

export const conditionalHtml = (node: Block, c: HtmlContext): SafeHtml =>
  html`<div class="conditional">\n${c.blocks(node.nodes)}</div>\n`;

export function conditionalMarkdown(node: Block, c: MarkdownContext): string {
  // `%}` would end the tag early: the expression cannot hold it.
  const expression = String(node.data.expression ?? '').replaceAll('%}', '% }');
  return `{% if ${expression} %}\n${c.blocks(node.nodes)}\n{% endif %}`;
}
