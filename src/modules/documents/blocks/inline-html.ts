import type MarkdownIt from 'markdown-it';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { emojiCode, emojiCodeOf } from './emoji.js';
import {
  decodeEntities,
  htmlAttributes,
  htmlParts,
  quotedOnly,
  styleColors,
} from './html-attrs.js';

/**
 * markdown-it rules for the inline HTML forms of GitBook's Git Sync Markdown (raw HTML stays off;
 * each form has its own rule, anything else stays text): `<mark style>` colours, `<a class=
 * "button">` and `<button>`, `<i class="fa-…">` icons, `<span data-gb-custom-inline
 * data-tag="emoji">` and `:shortcode:` emoji, `<code class="expression">`, `<a data-mention>`,
 * `<img>` and `<picture>` inline images, `text[^1]` footnotes (with their `[^1]: …` definitions),
 * a heading's `<a href="#id" id="id"></a>` anchor, and `<sub>`, `<sup>`, `<br>`, `<p>` (their
 * text kept, the tags never shown). Inside HTML (table cells, captions: `env.gbHtml`), also
 * `<strong>`, `<b>`, `<em>`, `<i>`, `<s>`, `<del>`, `<code>` and `<a href>`.
 *
 * Each form becomes a token the converter reads (inline-tokens.ts → blocks/inline-nodes.ts):
 * `gb_inline` (meta: {type, …}), `gb_mark_open`/`gb_mark_close` (meta: colours), `gb_anchor`.
 * Every scan stops at the next `<`, so a line of unclosed tags costs linear time.
 */

interface Env {
  gbHtml?: boolean;
  gbFootnotes?: Map<string, string>;
}
interface Counts {
  gbMarks?: number;
  gbLinks?: number;
  gbSimple?: number;
}

/**
 * Open tags a paragraph may nest (GitBook closes each): past it, an opening tag is text. Each
 * open mark is on every leaf after it, so thousands of unclosed `<mark>`s would cost the square
 * of their number.
 */
const MAX_OPEN = 8;

const TAG_AT = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>/y;
/** An element's text up to its closing tag: no markup inside. */
const textUntil = (name: string) => new RegExp(`([^<]*)</${name}\\s*>`, 'y');
const CLOSE: Record<string, RegExp> = {
  a: textUntil('a'),
  button: textUntil('button'),
  i: textUntil('i'),
  span: textUntil('span'),
  code: textUntil('code'),
};
/** A `<picture>`'s inside: its `<source>` and `<img>` tags, at most a few hundred characters. */
const PICTURE = /((?:\s*<(?:source|img)\b[^<>]*>)+)\s*<\/picture\s*>/y;
/** Attributes longer than this are not read (a tag of GitBook's is far shorter). */
const MAX_ATTRS = 8192;

const SIMPLE: Record<string, [string, string]> = {
  strong: ['strong_open', 'strong'],
  b: ['strong_open', 'strong'],
  em: ['em_open', 'em'],
  i: ['em_open', 'em'],
  s: ['s_open', 's'],
  del: ['s_open', 's'],
};

function sticky(re: RegExp, src: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(src);
}

function htmlInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== 0x3c) return false;
  const tag = sticky(TAG_AT, src, start);
  if (tag === null || (tag[3] ?? '').length > MAX_ATTRS || !quotedOnly(tag[3] ?? '')) return false;
  const closing = tag[1] === '/';
  const name = (tag[2] ?? '').toLowerCase();
  const attrs = htmlAttributes(tag[3] ?? '');
  const after = start + tag[0].length;
  const env = state.env as Env;
  const counts = state as unknown as Counts;
  const push = (type: string, meta: unknown, end: number) => {
    if (!silent) {
      const token = state.push(type, '', 0);
      token.meta = meta;
    }
    state.pos = end;
    return true;
  };
  const element = (close: string) => sticky(CLOSE[close] as RegExp, src, after);

  if (closing) {
    if (name === 'mark' && (counts.gbMarks ?? 0) > 0) {
      if (!silent) counts.gbMarks = (counts.gbMarks ?? 0) - 1;
      return push('gb_mark_close', undefined, after);
    }
    if (name === 'p' && src.startsWith('<p>', after)) {
      // Two paragraphs in a cell or a caption: a line break between them.
      if (!silent) state.push('hardbreak', 'br', 0);
      state.pos = after + 3;
      return true;
    }
    if (name === 'sub' || name === 'sup' || name === 'p') return push('gb_skip', undefined, after);
    if (env.gbHtml === true) {
      const simple = SIMPLE[name];
      if (simple !== undefined && (counts.gbSimple ?? 0) > 0) {
        if (!silent) {
          counts.gbSimple = (counts.gbSimple ?? 0) - 1;
          state.push(simple[0].replace('_open', '_close'), simple[1], -1);
        }
        state.pos = after;
        return true;
      }
      if (name === 'span') return push('gb_skip', undefined, after);
      if (name === 'a' && (counts.gbLinks ?? 0) > 0) {
        if (!silent) {
          counts.gbLinks = (counts.gbLinks ?? 0) - 1;
          state.push('link_close', 'a', -1);
        }
        state.pos = after;
        return true;
      }
    }
    return false;
  }

  switch (name) {
    case 'mark': {
      const colors = styleColors(attrs.get('style') ?? '');
      if (colors.color === undefined && colors.background === undefined) return false;
      if ((counts.gbMarks ?? 0) >= MAX_OPEN) return false;
      if (!silent) counts.gbMarks = (counts.gbMarks ?? 0) + 1;
      return push(
        'gb_mark_open',
        { text: colors.color ?? 'default', background: colors.background ?? 'default' },
        after,
      );
    }
    case 'sub':
    case 'sup':
    case 'p':
      return push('gb_skip', undefined, after);
    case 'br':
      if (!silent) state.push('hardbreak', 'br', 0);
      state.pos = after;
      return true;
    case 'a': {
      const classes = (attrs.get('class') ?? '').split(/\s+/);
      if (classes.includes('button')) {
        const body = element('a');
        if (body === null) return false;
        return push(
          'gb_inline',
          {
            type: 'button',
            label: decodeEntities(body[1] ?? '').trim(),
            kind: classes.includes('secondary') ? 'secondary' : 'primary',
            href: attrs.get('href'),
            icon: attrs.get('data-icon'),
            size: attrs.get('data-size'),
          },
          after + (body[0] ?? '').length,
        );
      }
      if (attrs.has('data-mention') && attrs.has('href')) {
        const body = element('a');
        if (body === null) return false;
        return push(
          'gb_inline',
          { type: 'mention', href: attrs.get('href') },
          after + (body[0] ?? '').length,
        );
      }
      const href = attrs.get('href') ?? '';
      const id = attrs.get('id');
      if (href.startsWith('#') && id !== undefined && src.startsWith('</a>', after)) {
        return push('gb_anchor', { id }, after + 4);
      }
      if (env.gbHtml === true && attrs.has('href') && (counts.gbLinks ?? 0) < MAX_OPEN) {
        if (!silent) {
          counts.gbLinks = (counts.gbLinks ?? 0) + 1;
          const token = state.push('link_open', 'a', 1);
          token.attrs = [['href', href]];
        }
        state.pos = after;
        return true;
      }
      return false;
    }
    case 'button': {
      const classes = (attrs.get('class') ?? '').split(/\s+/);
      if (!classes.includes('button')) return false;
      const body = element('button');
      if (body === null) return false;
      return push(
        'gb_inline',
        {
          type: 'button',
          label: decodeEntities(body[1] ?? '').trim(),
          kind: classes.includes('secondary') ? 'secondary' : 'primary',
          action: attrs.get('data-action'),
          query: attrs.get('data-query'),
          icon: attrs.get('data-icon'),
          size: attrs.get('data-size'),
        },
        after + (body[0] ?? '').length,
      );
    }
    case 'i': {
      const icon = /(?:^|\s)fa-([a-z0-9-]+)/.exec(attrs.get('class') ?? '')?.[1];
      if (icon !== undefined) {
        const body = element('i');
        if (body === null) return false;
        return push(
          'gb_inline',
          { type: 'icon', icon, color: styleColors(attrs.get('style') ?? '').color },
          after + (body[0] ?? '').length,
        );
      }
      break;
    }
    case 'span': {
      if (attrs.get('data-tag') !== 'emoji') break;
      const body = element('span');
      if (body === null) return false;
      const code = (attrs.get('data-code') ?? emojiCodeOf(decodeEntities(body[1] ?? '').trim()))
        .toLowerCase()
        .trim();
      if (!/^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/.test(code)) return false;
      return push('gb_inline', { type: 'emoji', code }, after + (body[0] ?? '').length);
    }
    case 'code': {
      const body = element('code');
      if (body === null) return false;
      const content = decodeEntities(body[1] ?? '');
      const end = after + (body[0] ?? '').length;
      if ((attrs.get('class') ?? '').split(/\s+/).includes('expression')) {
        return push('gb_inline', { type: 'expression', expression: content.trim() }, end);
      }
      // `<code>` is how GitBook writes code holding a `|` in a table's cell.
      if (!silent) state.push('code_inline', 'code', 0).content = content;
      state.pos = end;
      return true;
    }
    case 'img': {
      if (!attrs.has('src')) return false;
      return push(
        'gb_image',
        {
          src: attrs.get('src') ?? '',
          alt: attrs.get('alt') ?? '',
          size: attrs.get('data-size'),
        },
        after,
      );
    }
    case 'picture': {
      const inside = sticky(PICTURE, src, after);
      if (inside === null) return false;
      let dark: string | undefined;
      let img: Map<string, string> | undefined;
      for (const part of htmlParts(inside[1] ?? '')) {
        if (
          part.tag === 'source' &&
          /prefers-color-scheme:\s*dark/i.test(part.attrs.get('media') ?? '')
        ) {
          dark = part.attrs.get('srcset')?.trim();
        } else if (part.tag === 'img') img ??= part.attrs;
      }
      if (img?.has('src') !== true) return false;
      return push(
        'gb_image',
        { src: img.get('src') ?? '', dark, alt: img.get('alt') ?? '', size: img.get('data-size') },
        after + (inside[0] ?? '').length,
      );
    }
  }
  if (env.gbHtml === true) {
    // A select column's option in a cell (`<span data-option="…">`): its text.
    if (name === 'span') return push('gb_skip', undefined, after);
    const simple = SIMPLE[name];
    if (simple !== undefined && (counts.gbSimple ?? 0) < MAX_OPEN) {
      if (!silent) {
        counts.gbSimple = (counts.gbSimple ?? 0) + 1;
        state.push(simple[0], simple[1], 1);
      }
      state.pos = after;
      return true;
    }
  }
  return false;
}

const SHORTCODE = /:([a-z0-9_+-]{1,40}):/y;

/** `:house:` when the table knows it, and not right after a letter or digit (`a:b:`). */
function emojiShortcode(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x3a) return false;
  if (start > 0 && /[A-Za-z0-9]/.test(state.src[start - 1] ?? '')) return false;
  const match = sticky(SHORTCODE, state.src, start);
  const code = match === null ? undefined : emojiCode(match[1] ?? '');
  if (match === null || code === undefined) return false;
  if (!silent) state.push('gb_inline', '', 0).meta = { type: 'emoji', code };
  state.pos = start + match[0].length;
  return true;
}

const FOOTNOTE_REF = /\[\^([^\]\s]{1,64})\]/y;

/** `[^label]`, when the page defines that label. */
function footnoteRef(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x5b || state.src.charCodeAt(start + 1) !== 0x5e)
    return false;
  const match = sticky(FOOTNOTE_REF, state.src, start);
  const label = match?.[1];
  const notes = (state.env as Env).gbFootnotes;
  if (match === null || label === undefined || notes?.has(label) !== true) return false;
  if (!silent) state.push('gb_inline', '', 0).meta = { type: 'annotation', label };
  state.pos = start + match[0].length;
  return true;
}

const FOOTNOTE_DEF = /^\[\^([^\]\s]{1,64})\]:[ \t]?(.*)$/;

/**
 * `[^label]: note`, its continuation lines indented by four spaces: kept aside (by label, as
 * Markdown) for the references to it; the definition itself is not a block of the page.
 */
function footnoteDefinition(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const first = state.src.slice(
    (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0),
    state.eMarks[startLine],
  );
  const match = FOOTNOTE_DEF.exec(first);
  if (match === null) return false;
  if (silent) return true;
  const lines = [match[2] ?? ''];
  let line = startLine + 1;
  for (; line < endLine; line++) {
    if (state.isEmpty(line)) {
      // A blank line continues the note only when an indented line follows it.
      let next = line + 1;
      while (next < endLine && state.isEmpty(next)) next++;
      if (next >= endLine || (state.sCount[next] ?? 0) - state.blkIndent < 4) break;
      lines.push('');
      continue;
    }
    if ((state.sCount[line] ?? 0) - state.blkIndent < 4) break;
    const begin =
      (state.bMarks[line] ?? 0) + Math.min(state.tShift[line] ?? 0, 4 + state.blkIndent);
    lines.push(state.src.slice(begin, state.eMarks[line]));
  }
  const env = state.env as Env;
  env.gbFootnotes ??= new Map();
  const label = match[1] ?? '';
  if (!env.gbFootnotes.has(label)) env.gbFootnotes.set(label, lines.join('\n'));
  state.line = line;
  return true;
}

export function inlineHtmlSyntax(md: MarkdownIt): void {
  md.inline.ruler.before('autolink', 'gitbook_html_inline', htmlInline);
  md.inline.ruler.before('linkify', 'gitbook_emoji', emojiShortcode);
  md.inline.ruler.before('link', 'gitbook_footnote_ref', footnoteRef);
  md.block.ruler.before('reference', 'gitbook_footnote', footnoteDefinition, {
    alt: ['paragraph', 'reference'],
  });
}
