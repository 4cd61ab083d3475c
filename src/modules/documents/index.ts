/**
 * Page documents (issue 15): one parser, one model, two outputs. Stored Markdown becomes
 * GitBook's JSON document (from-markdown.ts); a document becomes Markdown again
 * (to-markdown.ts) or the published site's HTML (to-html.ts). docs/content.md describes the model.
 */
export { blockCount } from './count.js';
export { escapeHtml } from './escape.js';
export { type DocumentContext, markdownToDocument } from './from-markdown.js';
export { withKeys } from './keys.js';
export { hrefOf, type PageLinks, pageLinks, refOf } from './links.js';
export { type Block, headingId, type Inline, type JsonDocument, plainText } from './model.js';
export { documentToHtml, type HtmlOptions, safeUrl } from './to-html.js';
export { documentToMarkdown } from './to-markdown.js';

import type { Block, JsonDocument } from './model.js';
import { plainText } from './model.js';

/** Every code block of a document, as the highlighter receives it (code, its syntax). */
export function codeBlocksOf(doc: JsonDocument): { code: string; info: string }[] {
  const found: { code: string; info: string }[] = [];
  const visit = (nodes: readonly unknown[] | undefined) => {
    for (const node of (nodes ?? []) as Block[]) {
      if (node.object !== 'block') continue;
      if (node.type === 'code') {
        const lines = (node.nodes ?? []).map((line) => plainText((line as Block).nodes));
        const syntax = typeof node.data.syntax === 'string' ? node.data.syntax : '';
        // A mermaid diagram is shown as its source, never highlighted (blocks/code.ts).
        if (syntax !== 'mermaid') found.push({ code: `${lines.join('\n')}\n`, info: syntax });
      } else {
        visit(node.nodes);
        for (const fragment of node.fragments ?? []) visit(fragment.nodes);
      }
    }
  };
  visit(doc.nodes);
  return found;
}
