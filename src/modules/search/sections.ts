import MarkdownIt from 'markdown-it';
import { headingId } from '../documents/model.js';

/**
 * A page body cut into the sections search answers with: the text before the first heading, then
 * one section per heading (any level) up to the next. A section's id is its heading's anchor,
 * the id the page document gives that heading (documents/from-markdown.ts: the slug of the
 * heading's text, `-2`, `-3`… for repeats), so `page#id` lands on it. As there, a first
 * heading-1 equal to the page's title is the title itself: no section, no anchor.
 */
export interface Section {
  /** The heading's anchor; '' for the text before the first heading. */
  anchor: string;
  /** The heading's text, plain; '' before the first heading. */
  title: string;
  /** The section's text, plain: paragraphs, list items, table cells, code. */
  text: string;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
type Token = ReturnType<typeof md.parse>[number];

/**
 * GitBook's template tags (`{% hint style="info" %}`, `{% endtabs %}`, `{% embed url="…" %}`)
 * wrap content, which is kept; the tags themselves are markup, not words a reader searches.
 */
const TEMPLATE_TAG = /\{%-?[\s\S]*?-?%\}/g;

/** The plain text of an inline token: its words, code and image descriptions. */
function inlineText(token: Token): string {
  let out = '';
  for (const child of token.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') out += child.content;
    else if (child.type === 'image') out += inlineText(child);
    else if (child.type === 'softbreak' || child.type === 'hardbreak') out += ' ';
  }
  return out;
}

export function sectionsOf(markdown: string, pageTitle?: string): Section[] {
  const tokens = md.parse(markdown.replace(TEMPLATE_TAG, ' '), {});
  const first = tokens[0];
  const titleHeading =
    first?.type === 'heading_open' &&
    first.tag === 'h1' &&
    tokens[1] !== undefined &&
    inlineText(tokens[1]).trim() === pageTitle?.trim();
  const sections: Section[] = [];
  let current: Section = { anchor: '', title: '', text: '' };
  const taken = new Map<string, number>();
  const append = (text: string) => {
    const trimmed = text.trim();
    if (trimmed !== '') current.text = current.text === '' ? trimmed : `${current.text} ${trimmed}`;
  };
  for (let i = titleHeading ? 3 : 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type === 'heading_open') {
      const inline = tokens[i + 1];
      const title = inline === undefined ? '' : inlineText(inline).trim();
      const base = headingId(title);
      const seen = taken.get(base) ?? 0;
      taken.set(base, seen + 1);
      if (current.anchor !== '' || current.text !== '') sections.push(current);
      current = { anchor: seen === 0 ? base : `${base}-${seen + 1}`, title, text: '' };
      i += 2; // the inline token and heading_close
    } else if (token.type === 'inline') {
      append(inlineText(token));
    } else if (token.type === 'fence' || token.type === 'code_block') {
      append(token.content);
    }
  }
  if (current.anchor !== '' || current.text !== '') sections.push(current);
  return sections;
}
