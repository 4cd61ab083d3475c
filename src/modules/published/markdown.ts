import MarkdownIt from 'markdown-it';

/**
 * Page bodies as HTML for the published site (issue 7). Content is written by members, but read
 * by anonymous visitors, so what it may do is limited here, once:
 * - raw HTML in Markdown is shown as text (`html: false`): no `<script>`, no `onerror=`;
 * - link and image targets are checked by markdown-it's validateLink, which refuses
 *   `javascript:`, `vbscript:`, `file:` and `data:` (except `data:image/gif|png|jpeg|webp`);
 *   a refused link stays as its source text;
 * - external links get `rel="noopener noreferrer"`, and open in a new tab when the site says so
 *   (`externalLinks.target: blank`);
 * Headings get ids (slugs of their text) so that the page outline and `#anchors` work.
 * Code blocks go through the caller's highlighter when there is one (code-highlight.ts): it
 * escapes the code itself, and a block it declines is rendered plain, escaped here.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));

md.renderer.rules.link_open = (tokens, idx, options, env: Env, self) => {
  const token = tokens[idx];
  const href = token?.attrGet('href') ?? '';
  if (token !== undefined && /^https?:\/\//i.test(href)) {
    if (env.newTab === true) token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** A code block's highlighted HTML, or undefined to render it plain. */
export type Highlight = (code: string, info: string) => string | undefined;
export interface RenderOptions {
  highlight?: Highlight | undefined;
  /** External links open in a new tab (`externalLinks.target: blank`). */
  newTab?: boolean;
}
type Env = RenderOptions;

for (const rule of ['fence', 'code_block'] as const) {
  const plain = md.renderer.rules[rule];
  md.renderer.rules[rule] = (tokens, idx, options, env: Env, self) => {
    const token = tokens[idx];
    const html =
      token === undefined ? undefined : env.highlight?.(token.content, token.info.trim());
    if (html !== undefined) return `${html}\n`;
    return plain === undefined
      ? self.renderToken(tokens, idx, options)
      : plain(tokens, idx, options, env, self);
  };
}

md.core.ruler.push('heading_ids', (state) => {
  const taken = new Map<string, number>();
  state.tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const text = state.tokens[index + 1]?.content ?? '';
    const base = headingId(text);
    const seen = taken.get(base) ?? 0;
    taken.set(base, seen + 1);
    token.attrSet('id', seen === 0 ? base : `${base}-${seen + 1}`);
  });
  return true;
});

/** An anchor id from a heading's text: lowercase letters (any script), digits and dashes. */
export function headingId(text: string): string {
  const id = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return id === '' ? 'section' : id;
}

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  const env: Env = { ...options };
  return md.render(markdown, env);
}

/**
 * The info string of each code block of a page (` ```ts ` gives `ts`; an indented block ''),
 * so that the grammars and themes it needs are loaded before it renders.
 */
export function codeBlocks(markdown: string): { code: string; info: string }[] {
  return md
    .parse(markdown, {})
    .filter((token) => token.type === 'fence' || token.type === 'code_block')
    .map((token) => ({ code: token.content, info: token.info.trim() }));
}

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
