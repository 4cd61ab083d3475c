import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

/**
 * A plain CommonMark parser for the structure files (SUMMARY.md) and titles: raw HTML on, since
 * GitBook writes anchors as `<a href="#x" id="x"></a>` inside headings; no linkify, no
 * typographer, so that text stays as written; nesting up to 200 (the preset's 20 stops a
 * SUMMARY at 9 levels, silently). The page parser of src/modules/documents is not
 * used here: its GitBook block syntax has nothing to do with a table of contents.
 */
export const plainMarkdown = new MarkdownIt('commonmark', { html: true });
// Not in markdown-it's option types, though its parsers read it from the options.
(plainMarkdown.options as { maxNesting?: number }).maxNesting = 200;

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
 *
 * Only the text up to a line that looks like one is parsed (the title is nearly always the
 * first line, and an import reads thousands of pages): a block before it (a fence, an HTML
 * block) is parsed as in the whole file, since an ATX heading never continues a paragraph.
 */
export function titleOf(body: string): string | undefined {
  const candidate = /^ {0,3}#(?:[ \t]|$)/gm;
  for (let match = candidate.exec(body); match !== null; match = candidate.exec(body)) {
    const end = body.indexOf('\n', match.index);
    const prefix = end < 0 ? body : body.slice(0, end + 1);
    const tokens = plainMarkdown.parse(prefix, {});
    const last = tokens.length - 3;
    const open = tokens[last];
    if (open?.type !== 'heading_open' || open.tag !== 'h1' || open.markup !== '#') continue;
    // The heading must be the candidate line itself, not one inside a container (a quote, a list).
    if (open.level !== 0 || open.map?.[0] !== lineCount(prefix) - 1) continue;
    const title = plainTextOf(tokens[last + 1]?.children ?? null);
    return title === '' ? undefined : title;
  }
  return undefined;
}

function lineCount(text: string): number {
  let count = text.endsWith('\n') ? 0 : 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
