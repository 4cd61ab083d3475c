import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

/**
 * A plain CommonMark parser for the structure files (SUMMARY.md) and titles: raw HTML on, since
 * GitBook writes anchors as `<a href="#x" id="x"></a>` inside headings; no linkify, no
 * typographer, so that text stays as written. The page parser of src/modules/documents is not
 * used here: its GitBook block syntax has nothing to do with a table of contents.
 */
export const plainMarkdown = new MarkdownIt('commonmark', { html: true });

/** The plain text of inline tokens: text, code and entities, without markup or raw HTML. */
export function plainTextOf(children: readonly Token[] | null): string {
  let out = '';
  for (const token of children ?? []) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'text_special') {
      out += token.content;
    } else if (token.type === 'softbreak' || token.type === 'hardbreak') {
      out += ' ';
    } else if (token.type === 'image') {
      out += plainTextOf(token.children);
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * The page's title as written in its Markdown: the text of the first ATX `# ` heading (not a
 * setext `===` one: GitBook writes and reads titles as `# `), or undefined when there is none.
 */
export function titleOf(body: string): string | undefined {
  const tokens = plainMarkdown.parse(body, {});
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token?.type !== 'heading_open' || token.tag !== 'h1' || token.markup !== '#') continue;
    const title = plainTextOf(tokens[i + 1]?.children ?? null);
    return title === '' ? undefined : title;
  }
  return undefined;
}
