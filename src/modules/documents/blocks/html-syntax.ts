import type MarkdownIt from 'markdown-it';
import { customBlockRule } from './custom-block.js';
import { htmlTableRule } from './html-table.js';
import { htmlImagesRule } from './images.js';
import { inlineHtmlSyntax } from './inline-html.js';
import { preCodeRule } from './pre-code.js';

/**
 * The HTML forms of GitBook's Git Sync Markdown that Livery reads (raw HTML stays off: each has
 * its own rule; any other HTML is text): images, `<pre><code>`, `<table>`, the
 * `data-gb-custom-block` fallback, and the inline forms of inline-html.ts.
 */
export function htmlSyntax(md: MarkdownIt): void {
  const alt = ['paragraph', 'reference', 'blockquote', 'list'];
  md.block.ruler.before('fence', 'gitbook_html_images', htmlImagesRule, { alt });
  md.block.ruler.before('fence', 'gitbook_html_pre', preCodeRule, { alt });
  md.block.ruler.before('fence', 'gitbook_html_table', htmlTableRule, { alt });
  md.block.ruler.before('fence', 'gitbook_html_custom_block', customBlockRule, { alt });
  md.use(inlineHtmlSyntax);
}
